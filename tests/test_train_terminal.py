"""Issue 10, item 5: ``kinghill train`` run in a terminal, as people run it. With stderr a TTY it
shows Stable-Baselines3's progress bar, which is ``tqdm.rich``: ``rich`` must be a dependency.
Issue 23, item 6: Ctrl-C, as the terminal sends it (SIGINT to the whole process group, the env
workers included), ends with one line saying what was kept, and ``--resume`` goes on from it."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kinghill.experiments.training.curve import load_curve

ROOT = Path(__file__).resolve().parent.parent
KINGHILL = Path(sys.executable).with_name("kinghill")


def _as_a_shell_starts_it() -> None:
    """In the child before it runs: Ctrl-C's signal at its default, as an interactive shell
    starts a command (a test run in the background of a script inherits SIGINT ignored, and
    Python then leaves it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_in_terminal(
    argv: list[str],
    cwd: Path,
    timeout: float,
    interrupt_after: bytes | None = None,
    delay: float = 1.0,
    until: Callable[[], bool] = lambda: True,
) -> tuple[int, str]:
    """Run ``kinghill ARGV`` with stdin, stdout and stderr on a new pseudo-terminal, in a
    process group of its own; returns the exit status and everything it wrote there. With
    ``interrupt_after``, Ctrl-C is pressed (SIGINT to the group) ``delay`` seconds after that
    text first shows and ``until()`` holds (for what the run writes, on a slow machine)."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [str(KINGHILL), *argv],
        cwd=cwd,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        preexec_fn=_as_a_shell_starts_it,
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    pressed = interrupt_after is None
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
            if not pressed and interrupt_after in b"".join(chunks) and until():
                time.sleep(delay)
                os.killpg(process.pid, signal.SIGINT)
                pressed = True
        else:
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"kinghill {' '.join(argv)} still running after {timeout} s")
        status = process.wait(timeout=60)
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
    argv = ["train", "sb3", "--out", "run", "--steps", "64", "--envs", "1", "--n-steps", "32"]
    argv += ["--batch-size", "32", "--net", "8", "--checkpoint-every", "0"]
    status, output = run_in_terminal(argv, tmp_path, timeout=240)
    assert status == 0, output
    assert "Traceback" not in output
    assert "━" in output  # rich's progress bar was drawn: stderr was a terminal
    assert "64/64" in output
    assert (tmp_path / "run" / "final.zip").stat().st_size > 0


def test_ctrl_c_keeps_the_model_in_one_line_and_resume_goes_on(tmp_path: Path) -> None:
    """Ctrl-C during ``--algo maskable-ppo --envs 2`` (SubprocVecEnv workers, which the same
    SIGINT reaches): exit status 130, no traceback, one line naming interrupted.zip and the
    command that goes on; ``--resume`` then carries on the step count, curve and run.json."""
    argv = ["train", "sb3", "--algo", "maskable-ppo", "--envs", "2", "--vectorization", "sb3"]
    argv += ["--out", "run", "--steps"]
    argv += ["1000000", "--n-steps", "32", "--batch-size", "32", "--net", "8"]
    status, output = run_in_terminal(argv, tmp_path, timeout=300, interrupt_after="━".encode())
    assert status == 130, output
    assert "Traceback" not in output and "Error" not in output, output
    said = [line for line in output.splitlines() if "interrupted" in line]
    assert len(said) == 1, output
    steps = int(re.search(r"interrupted at (\d+) steps", said[0])[1])  # type: ignore[index]
    assert "run/interrupted.zip" in said[0] and "kinghill train --resume run" in said[0]
    assert (tmp_path / "run" / "interrupted.zip").stat().st_size > 0
    episodes_before = load_curve(tmp_path / "run" / "monitor").episodes

    more = steps + 64
    status, output = run_in_terminal(
        ["train", "--resume", "run", "--steps", str(more), "--no-progress"], tmp_path, 300
    )
    assert status == 0, output
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert record["sessions"] == 2 and record["config"]["steps"] == more
    assert record["config"]["algo"] == "maskable-ppo" and record["config"]["net"] == [8]
    from sb3_contrib import MaskablePPO

    assert MaskablePPO.load(tmp_path / "run" / "final.zip").num_timesteps >= more
    assert not (tmp_path / "run" / "interrupted.zip").exists()
    assert list((tmp_path / "run" / "monitor").glob("s1-*.monitor.csv"))  # the first kept
    assert record["result"]["episodes"] > episodes_before  # the curve carries on


def test_ctrl_c_with_background_evaluations_is_one_line_and_leaves_no_snapshot(
    tmp_path: Path,
) -> None:
    """Ctrl-C while evaluations play in their worker process (``--evaluation background``,
    which the same SIGINT reaches): one line, status 130, the evaluations recorded so far kept
    and no snapshot folder left behind."""
    argv = ["train", "sb3", "--algo", "maskable-ppo", "--opponent", "heuristic", "--envs", "1"]
    argv += ["--out", "run", "--steps", "1000000", "--n-steps", "32", "--batch-size", "32"]
    argv += ["--net", "8", "--checkpoint-every", "0", "--eval-every", "64", "--eval-frames", "2"]
    argv += ["--evaluation", "background"]
    evaluations = tmp_path / "run" / "evaluations.csv"

    def one_recorded() -> bool:  # later evaluations are in the worker by then (every 64 steps)
        return evaluations.exists() and len(evaluations.read_text().splitlines()) > 1

    status, output = run_in_terminal(
        argv, tmp_path, timeout=300, interrupt_after="━".encode(), delay=2.0, until=one_recorded
    )
    assert status == 130, output
    assert "Traceback" not in output and "Error" not in output, output
    assert len([line for line in output.splitlines() if "interrupted" in line]) == 1, output
    run = tmp_path / "run"
    assert (run / "interrupted.zip").stat().st_size > 0
    assert evaluations.read_text().startswith("steps,frames,wins")
    assert [p.name for p in run.iterdir() if p.name.startswith(".")] == []


def test_ctrl_c_in_train_value_with_workers_is_one_line(tmp_path: Path) -> None:
    """``kinghill train-value --jobs 2``: the self-play workers get the same SIGINT; one line
    says nothing was written, exit status 130."""
    argv = ["train-value", "--frames", "100000", "--jobs", "2", "--out-file", "v.npz"]
    status, output = run_in_terminal(argv, tmp_path, timeout=120, interrupt_after=b"", delay=8)
    assert status == 130, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert output.strip().splitlines() == [
        "kinghill train-value: interrupted; nothing was written (the net is saved at the end); "
        "run it again"
    ]
    assert not (tmp_path / "v.npz").exists()
