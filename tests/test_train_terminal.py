"""Issue 10, item 5: ``kinghill train`` run in a terminal, as people run it. With stderr a TTY it
shows Stable-Baselines3's progress bar, which is ``tqdm.rich``: ``rich`` must be a dependency."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KINGHILL = Path(sys.executable).with_name("kinghill")


def run_in_terminal(argv: list[str], cwd: Path, timeout: float) -> tuple[int, str]:
    """Run ``kinghill ARGV`` with stdin, stdout and stderr on a new pseudo-terminal; returns
    the exit status and everything it wrote there."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [str(KINGHILL), *argv], cwd=cwd, stdin=slave, stdout=slave, stderr=slave
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the terminal's last writer has gone
                    break
                if not data:
                    break
                chunks.append(data)
            elif process.poll() is not None:
                break
        else:
            process.kill()
            pytest.fail(f"kinghill {' '.join(argv)} still running after {timeout} s")
        status = process.wait(timeout=30)
    finally:
        os.close(master)
    return status, b"".join(chunks).decode("utf-8", "replace")


def test_rich_is_declared_for_the_progress_bar() -> None:
    """SB3 imports ``tqdm.rich`` for ``progress_bar=True``; both must be installed with kinghill."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip() for d in declared}
    assert {"rich", "tqdm"} <= names


def test_train_in_a_terminal_shows_the_progress_bar_and_succeeds(tmp_path: Path) -> None:
    argv = ["train", "--out", "run", "--steps", "64", "--envs", "1", "--n-steps", "32"]
    argv += ["--batch-size", "32", "--net", "8", "--checkpoint-every", "0"]
    status, output = run_in_terminal(argv, tmp_path, timeout=240)
    assert status == 0, output
    assert "Traceback" not in output
    assert "━" in output  # rich's progress bar was drawn: stderr was a terminal
    assert "64/64" in output
    assert (tmp_path / "run" / "final.zip").stat().st_size > 0
