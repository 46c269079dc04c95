"""Tournaments interrupted at random moments resume to exactly the uninterrupted run.

Each case starts ``kinghill tournament`` (a round robin or a knockout, ``--jobs 1`` or 2),
interrupts it at a moment drawn from a seeded random generator (SIGKILL of its whole process
group), then the resumed run (SIGTERM), then that one's resumption (SIGINT), and lets the same
command finish;
the final frame log must equal, record by record, the log of a run never interrupted. The frame
player sleeps a seeded, uneven time, so that with two workers frames end out of order and an
interruption can lose an earlier frame while a later one is logged.
"""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.knockout import KnockoutConfig, run_knockout
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.experiments.tournaments.round_robin import run_tournament

STRENGTH = {
    "ace": 1.5,
    "pro": 1.0,
    "expert": 0.6,
    "club": 0.2,
    "league": -0.2,
    "pub": -0.7,
    "learner": -1.0,
    "novice": -1.5,
}
FIELD = tuple(STRENGTH)
"""The knockout's field: four first-round matches, whose frames two workers play together."""
ROUND_ROBIN = ("ace", "club", "novice")
FRAMES = 4
RACE = 2
SEED = 7
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])
    ),
}


def uneven_play_frame(agent_a: str, agent_b: str, seed: int, options: FrameOptions) -> FrameOutcome:
    """A seeded stand-in for a frame, slow (0.2 s) when the stronger agent breaks, else fast
    (0.02 s): the first frame of a knockout match (the higher seed breaks it) is still in play
    when a second worker has logged the next, so an interruption then loses the earlier one."""
    time.sleep(0.2 if STRENGTH[agent_a] > STRENGTH[agent_b] else 0.02)
    rng = np.random.default_rng(seed)
    p_breaker = 1 / (1 + math.exp(STRENGTH[agent_b] - STRENGTH[agent_a] - 0.2))
    winner = None if rng.random() < 0.1 else int(rng.random() >= p_breaker)
    return FrameOutcome(
        agents=(agent_a, agent_b),
        seed=seed,
        winner=winner,
        shots=int(rng.integers(5, 40)),
        fouls=(int(rng.integers(0, 3)), int(rng.integers(0, 3))),
        visits=(3, 3),
        whites_potted=(1, 1),
        colour_attempts=(0, 0),
        colour_pots=(0, 0),
        time_fouls=(0, 0),
        errors=(0, 0),
        wall_time=0.0,
        decisions=(4, 4),
    )


def command(form: str, jobs: int, out: Path) -> list[str]:
    """The ``kinghill tournament`` command of a case."""
    if form == "knockout":
        what = ["--format", "knockout", "--agents", *FIELD, "--race", str(RACE)]
    else:
        what = ["--agents", *ROUND_ROBIN, "--frames", str(FRAMES)]
    return [
        sys.executable,
        "-m",
        "kinghill.experiments.cli.app",
        "tournament",
        *what,
        "--seed",
        str(SEED),
        "--jobs",
        str(jobs),
        "--out",
        str(out),
        "--player",
        "test_interrupted_runs:uneven_play_frame",
    ]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The log lines of each format's run, played here in one go."""
    folder = tmp_path_factory.mktemp("uninterrupted")
    run_tournament(
        TournamentConfig(ROUND_ROBIN, FRAMES, SEED),
        folder / "round-robin",
        uneven_play_frame,
        progress=False,
    )
    run_knockout(
        KnockoutConfig(FIELD, race=RACE, seed=SEED),
        folder / "knockout",
        uneven_play_frame,
        progress=False,
    )
    return {
        form: (folder / form / "frames.jsonl").read_text().splitlines()
        for form in ("round-robin", "knockout")
    }


def lines(log: Path) -> int:
    return len(log.read_bytes().splitlines()) if log.exists() else 0


RAY_CANCEL_BUG = "Tried to complete task that was not pending"
"""What Ray 2.x's task manager logs when it crashes on tasks cancelled at a Ctrl-C."""


def interrupt(
    argv: list[str],
    log: Path,
    how: str,
    rng: random.Random,
    known_crash: str | None = None,
) -> None:
    """Run ``argv`` in a session of its own and interrupt it at a random moment once it has
    logged one to three more frames: SIGKILL to the whole process group (workers included), or
    SIGTERM / SIGINT to the command. It may finish first; ``known_crash``: a dependency's known
    crash message, under which any exit status is allowed."""
    process = subprocess.Popen(
        argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    target = lines(log) + rng.randint(1, 3)
    deadline = time.monotonic() + 60
    while process.poll() is None and lines(log) < target and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(rng.uniform(0.0, 0.15))  # anywhere in the next frames, a write included
    if process.poll() is None:
        if how == "SIGKILL":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.send_signal(signal.Signals[how])
    try:
        process.wait(timeout=60)
    finally:
        stderr = process.stderr.read().decode() if process.stderr else ""
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    # 130: stopped by the command's own handler; a signal's death: before the handler was set
    allowed = (0, 130, -signal.SIGKILL, -signal.SIGTERM, -signal.SIGINT)
    assert process.returncode in allowed or (known_crash is not None and known_crash in stderr), (
        stderr
    )


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("form", ["round-robin", "knockout"])
def test_interrupted_then_resumed_gives_the_uninterrupted_log(
    tmp_path: Path, uninterrupted: dict[str, list[str]], form: str, jobs: int
) -> None:
    """Interrupted by SIGKILL of its process group, then SIGTERM, then SIGINT (each time on the
    run resumed from the last), each at a seeded random moment; then run to its end."""
    rng = random.Random(f"{form} {jobs}")
    argv = command(form, jobs, tmp_path)
    for how in ("SIGKILL", "SIGTERM", "SIGINT"):
        interrupt(argv, tmp_path / "frames.jsonl", how, rng)
    done = subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "frames.jsonl").read_text().splitlines() == uninterrupted[form]


@pytest.mark.slow
def test_interrupted_on_ray_then_resumed_gives_the_uninterrupted_log(
    tmp_path: Path, uninterrupted: dict[str, list[str]]
) -> None:
    """The round robin on a local Ray instance: Ctrl-C (SIGINT) at a random moment, then the
    same command to its end (Ray takes tens of seconds to start, hence slow). Ray 2.x may
    crash while its tasks are cancelled (:data:`RAY_CANCEL_BUG`; the process then aborts or
    exits with 1): the log must resume all the same."""
    pytest.importorskip("ray")
    argv = [*command("round-robin", 1, tmp_path), "--ray", "local"]
    log = tmp_path / "frames.jsonl"
    interrupt(argv, log, "SIGINT", random.Random("ray"), known_crash=RAY_CANCEL_BUG)
    done = subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "frames.jsonl").read_text().splitlines() == uninterrupted["round-robin"]
