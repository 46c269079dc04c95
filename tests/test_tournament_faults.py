"""Issue 10: real `kinghill tournament` processes against what goes wrong -- the command killed
outright (no process of it may survive), and agents that raise, return garbage or hang (each
charged by the rules, the tournament finishing)."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from kinghill.envs import FrameView
from kinghill.envs.rules import Decision
from kinghill.experiments.tournaments.frames import FrameOutcome

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/environ").exists(), reason="finds processes through /proc"
)
TESTS = Path(__file__).parent


def tournament(out: Path, *args: str) -> list[str]:
    """The `kinghill tournament` command line, run by this Python."""
    command = [
        sys.executable,
        "-m",
        "kinghill.experiments.cli.app",
        "tournament",
        "--out",
        str(out),
    ]
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


def assert_all_gone(marker: str, after: str) -> None:
    """Every process carrying ``marker`` ends within 10 s of ``after``."""
    deadline = time.monotonic() + 10
    while survivors := marked_processes(marker):
        assert time.monotonic() < deadline, f"alive 10 s after {after}: {survivors}"
        time.sleep(0.1)


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
        assert_all_gone(marker, "SIGKILL")
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)


class Raising:
    """Raises on every decision: its own KeyboardInterrupt, then SystemExit, then an error."""

    def __init__(self) -> None:
        self.errors = iter([KeyboardInterrupt(), SystemExit(3)])

    def act(self, view: FrameView) -> object:
        raise next(self.errors, RuntimeError("out of order"))


class Garbage:
    """Returns what is not a valid action: None, a ShotAction without a shot, a string."""

    def __init__(self) -> None:
        from kinghill.envs import ShotAction

        self.answers = iter([ShotAction(None), None])  # type: ignore[arg-type]

    def act(self, view: FrameView) -> object:
        return next(self.answers, "a lovely shot")


class Hanging:
    """Never returns from its first shot of a frame (a shot before any foul of its own); its
    replacement is just as bad: garbage for every other decision."""

    def act(self, view: FrameView) -> object:
        if view.decision is not Decision.CHOICE and view.frame.fouls[view.player] == 0:
            threading.Event().wait()
        return "resigned"


FAULTY = tuple(f"{__name__}:{name}" for name in ("Raising", "Garbage", "Hanging"))


def test_agents_that_raise_return_garbage_and_hang_are_charged_and_the_tournament_ends(
    tmp_path: Path,
) -> None:
    """Issue 10.1 and 10.2: a real `kinghill tournament --jobs 2` of three faulty agents and the
    heuristic finishes (status 0, every frame kept): every decision of a faulty agent is a
    fault, counted in errors and charged as a shot not played (12.4) or a choice to play on,
    so each of their frames ends on a second foul (10.5); the hung agent is cut off at the
    untimed decision cap (1 s here) and replaced, and the tournament goes on."""
    marker = uuid.uuid4().hex
    command = tournament(tmp_path, "--agents", *FAULTY, "heuristic", "--frames", "2")
    done = subprocess.run(
        [*command, "--jobs", "2", "--decision-cap", "1", "--max-shots", "60"],
        env=marked_env(marker),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    records = [FrameOutcome.from_json(line) for line in (tmp_path / "frames.jsonl").open()]
    assert len(records) == 12  # 6 pairs, 2 frames each
    for record in records:
        for seat, agent in enumerate(record.agents):
            if agent in FAULTY:
                assert record.errors[seat] == record.decisions[seat] > 0
            else:
                assert record.errors[seat] == 0
        assert record.time_fouls == (0, 0)  # no clock: faults, not time fouls
        assert record.winner is not None
        loser = 1 - record.winner
        assert record.fouls[loser] == 2 or record.colour_pots[record.winner] == 1
        if "heuristic" in record.agents:
            assert record.agents[record.winner] == "heuristic"
    report = json.loads((tmp_path / "report.json").read_text())
    assert all(report["agents"][name]["errors"] > 0 for name in FAULTY)
    # why they failed is said, not only counted: in the report and on stderr
    first = {name: report["agents"][name]["first_fault"] for name in FAULTY}
    assert first[f"{__name__}:Raising"].startswith("raised KeyboardInterrupt")
    assert first[f"{__name__}:Garbage"].startswith("invalid action")
    assert first[f"{__name__}:Hanging"] and report["agents"]["heuristic"]["first_fault"] is None
    text = (tmp_path / "report.md").read_text()
    for name in FAULTY:
        line = f"{name}: {report['agents'][name]['errors']} failed decisions (errors), each "
        assert line in text and f"kinghill tournament: note: {line}" in done.stderr
    assert not marked_processes(marker)  # every agent process ended with the command


def _sigint_as_in_a_terminal() -> None:
    """In the child: SIGINT back to its default, so Python turns it into KeyboardInterrupt even
    where the test runner was started with SIGINT ignored (a background job, some CI runners)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_the_tournament_though_an_agent_raises_keyboard_interrupt(
    tmp_path: Path,
) -> None:
    """Issue 10.1: the Raising agent's own KeyboardInterrupt is a fault (frames go on being
    played); a real Ctrl-C, SIGINT to the whole process group as a terminal sends it, stops the
    tournament (status 130), keeps its frames whole, and leaves no process behind."""
    marker = uuid.uuid4().hex
    log = tmp_path / "frames.jsonl"
    command = tournament(tmp_path, "--agents", FAULTY[0], "heuristic", "--frames", "400")
    process = subprocess.Popen(
        [*command, "--jobs", "1", "--max-shots", "40"],
        env=marked_env(marker),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_sigint_as_in_a_terminal,
    )
    try:
        wait_for_lines(process, log, 4, timeout=90)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == 130, stderr
        assert b"run the same command again to resume" in stderr
        kept = [FrameOutcome.from_json(line) for line in log.read_text().splitlines()]
        assert 4 <= len(kept) < 800 and all(sum(r.errors) > 0 for r in kept)
        assert_all_gone(marker, "Ctrl-C")
    finally:
        for pid in marked_processes(marker):
            os.kill(pid, signal.SIGKILL)


class DiesWhenBuilt:
    """An agent whose process dies while building it (in the process the tournament starts for
    it; built in the test's own process, as the command checks a spec, it is harmless)."""

    def __init__(self, seed: int | None = None) -> None:
        import multiprocessing

        if multiprocessing.parent_process() is not None:
            os._exit(1)

    def act(self, view: FrameView) -> None:
        raise AssertionError("never asked")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_agent_whose_process_dies_when_built_is_one_line_of_status_1(
    tmp_path: Path, jobs: str
) -> None:
    """Not the arguments' fault (status 1, as a dead worker), and no traceback: one line that
    names the agent and how to go on, in this process and in workers alike."""
    agent = f"{__name__}:DiesWhenBuilt"
    done = subprocess.run(
        [*tournament(tmp_path, "--agents", agent, "heuristic", "--frames", "2"), "--jobs", jobs],
        env=marked_env(uuid.uuid4().hex),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if "error" in line]  # runpy warns too
    assert errors == [
        f"kinghill tournament: error: the process of agent {agent!r} died (exit status 1); the "
        f"frames played are in {tmp_path / 'frames.jsonl'}, run the same command again to resume"
    ]
