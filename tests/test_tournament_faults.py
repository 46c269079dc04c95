"""Issue 10: real `kinghill tournament` processes against what goes wrong -- the command killed
outright (no process of it may survive), and agents that raise, return garbage or hang (each
charged by the rules, the tournament finishing)."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/environ").exists(), reason="finds processes through /proc"
)
TESTS = Path(__file__).parent


def tournament(out: Path, *args: str) -> list[str]:
    """The `kinghill tournament` command line, run by this Python."""
    command = [sys.executable, "-m", "kinghill.experiments.cli", "tournament", "--out", str(out)]
    return [*command, "--rating-samples", "50", *args]


def marked_env(marker: str) -> dict[str, str]:
    """The environment of a command whose every descendant can be found by ``marker``."""
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, "KINGHILL_TEST_MARKER": marker}


def marked_processes(marker: str) -> list[int]:
    """Live processes (not zombies) whose environment holds ``marker``: the command and every
    process it started, however they were re-parented."""
    found = []
    needle = f"KINGHILL_TEST_MARKER={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def wait_for_lines(process: subprocess.Popen, log: Path, lines: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not (log.exists() and len(log.read_bytes().splitlines()) >= lines):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, f"fewer than {lines} frames in {timeout} s"
        time.sleep(0.05)


def test_sigkill_of_the_tournament_leaves_no_process_behind(tmp_path: Path) -> None:
    """Issue 10.3: `kinghill tournament --jobs 2` killed by SIGKILL mid-run: its workers (and
    anything they started) notice and exit within seconds, the resource tracker with them."""
    marker = uuid.uuid4().hex
    log = tmp_path / "frames.jsonl"
    command = tournament(tmp_path, "--agents", "heuristic", "random", "--frames", "2000")
    process = subprocess.Popen(
        [*command, "--jobs", "2", "--max-shots", "40"],
        env=marked_env(marker),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_lines(process, log, 2, timeout=90)
        started = marked_processes(marker)
        assert len(started) >= 3  # the command, its two workers (and their helpers)
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 10
        while survivors := marked_processes(marker):
            assert time.monotonic() < deadline, f"alive 10 s after SIGKILL: {survivors}"
            time.sleep(0.1)
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)
