"""Physics benchmark: shots per second on fixed seeded suites, beside the fixed-step reference.

Suites: the opening break (R-rack, white 1 from the house at 7 m/s straight at the apex) and
random shots on random 8-ball layouts (aim uniform, speed 0.5-6 m/s, tip offset uniform in the
0.5 R disc), built in and seeded; plus the peer suite that pooltool 0.6 ran
(shipped in the package, ``benchmarks/peer/suite.json`` in the repository, or another file).
Prints shots/s, steps and events per shot, microseconds per step, the first-call time (a fresh
process: import + first shot, the compiled kernels cached), the time of a cold compile (once per
installation), and the fixed-step (1/5000 s) reference mode's speed ratio and
largest final-position difference on a subset.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.physics import Shot, ShotResult, TableSpec, TableState, simulate, simulate_many

DEFAULT_SUITE = Path(str(files("kinghill.experiments.bench").joinpath("peer_suite.json")))
"""The peer suite, shipped in the package (``benchmarks/peer/suite.json`` of the repository
links to it)."""

FIRST_CALL = (
    "import time; t = time.perf_counter(); "
    "from kinghill.physics import Shot, TableState, simulate; "
    "simulate(TableState.rack(), Shot(1, 0.0, 7.0)); print(time.perf_counter() - t)"
)


@dataclass(frozen=True)
class Case:
    """One benchmark shot."""

    state: TableState
    shot: Shot


def random_cases(n: int, seed: int, spec: TableSpec | None = None) -> list[Case]:
    """``n`` random shots on random 8-ball layouts (seeded)."""
    spec = spec or TableSpec()
    rng = np.random.default_rng(seed)
    r, margin = spec.radius, 0.01
    cases = []
    for _ in range(n):
        pos: list[tuple[float, float]] = []
        while len(pos) < 8:
            p = (
                rng.uniform(r + margin, spec.length - r - margin),
                rng.uniform(r + margin, spec.width - r - margin),
            )
            if all(math.dist(p, q) >= 2 * r + 1e-4 for q in pos):
                pos.append(p)
        rad, ang = 0.5 * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        shot = Shot(
            int(rng.integers(8)),
            rng.uniform(-math.pi, math.pi),
            rng.uniform(0.5, 6.0),
            rad * math.cos(ang),
            rad * math.sin(ang),
        )
        cases.append(Case(TableState(spec, np.array(pos)), shot))
    return cases


def break_case(spec: TableSpec | None = None) -> Case:
    """The opening break: white 1 from the house, 7 m/s, straight at the apex."""
    return Case(TableState.rack(spec), Shot(1, 0.0, 7.0))


def peer_cases(path: Path) -> tuple[Case, list[Case], dict[str, Any]]:
    """The break and random shots of a peer suite file (peer-bench-suite/1)."""
    suite = json.loads(path.read_text())
    t, ball = suite["table"], suite["ball"]
    spec = TableSpec(
        length=t["length"],
        width=t["width"],
        ball_diameter=2 * ball["R"],
        ball_mass=ball["m"],
        corner_mouth=t["corner_pocket_mouth"],
        middle_mouth=t["middle_pocket_mouth"],
    )
    cases = [
        Case(
            TableState(spec, np.array(s["balls"])),
            Shot(int(s["cue"]), s["aim"], s["speed"], s["a"], s["b"]),
        )
        for s in suite["shots"]
    ]
    kinds = [s["kind"] for s in suite["shots"]]
    brk = cases[kinds.index("break")]
    randoms = [c for c, k in zip(cases, kinds, strict=True) if k == "random"]
    peer = path.parent / "pooltool_result.json"
    anchor = json.loads(peer.read_text()) if peer.exists() else {}
    return brk, randoms, anchor


def time_suite(cases: list[Case], repeats: int = 1, reference: bool = False) -> dict[str, float]:
    """Shots/s, steps and events per shot, microseconds per step (best of ``repeats``), one
    ``simulate`` call a shot."""
    return _timed(lambda: [simulate(c.state, c.shot, reference=reference) for c in cases], repeats)


def time_batch(cases: list[Case], repeats: int = 1) -> dict[str, float]:
    """:func:`time_suite`'s figures for the cases played by one ``simulate_many`` call."""
    return _timed(lambda: simulate_many([c.state for c in cases], [c.shot for c in cases]), repeats)


def _timed(play: Callable[[], list[ShotResult]], repeats: int) -> dict[str, float]:
    best, results = math.inf, []
    for _ in range(repeats):
        t0 = time.perf_counter()
        results = play()
        best = min(best, time.perf_counter() - t0)
    n, steps = len(results), sum(r.steps for r in results)
    return {
        "shots": n,
        "shots_per_s": n / best,
        "steps_per_shot": steps / n,
        "events_per_shot": sum(len(r.events) for r in results) / n,
        "us_per_step": 1e6 * best / steps,
    }


def reference_gap(cases: list[Case]) -> dict[str, float]:
    """Largest final-position difference (m) between the engine and its 1/5000 s reference."""
    worst, median, pocket_diff = 0.0, [], 0
    for c in cases:
        a = simulate(c.state, c.shot).final
        b = simulate(c.state, c.shot, reference=True).final
        if not np.array_equal(a.on_table, b.on_table):
            pocket_diff += 1
            continue
        on = a.on_table
        d = float(np.max(np.linalg.norm(a.positions[on] - b.positions[on], axis=1)))
        worst = max(worst, d)
        median.append(d)
    return {
        "max_position_diff_m": worst,
        "median_position_diff_m": float(np.median(median)) if median else 0.0,
        "shots_pocketed_differently": pocket_diff,
    }


COMPILE = "import kinghill.physics as p; print(p.warm_up())"


def first_call_seconds() -> float:
    """Import plus the first simulated shot, in a fresh interpreter (the kernels cached)."""
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True)
    return float(out.stdout.strip()) if out.returncode == 0 else math.nan


def compile_seconds() -> float:
    """A cold compile of the kernels (what an installation pays once), in a fresh interpreter
    with an empty numba cache of its own."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        command = [sys.executable, "-c", COMPILE]
        out = subprocess.run(command, capture_output=True, text=True, env=env)
    return float(out.stdout.strip()) if out.returncode == 0 else math.nan


def benchmark(
    shots: int,
    breaks: int,
    reference_shots: int,
    seed: int,
    suite: Path | None,
    cold_compile: bool = True,
) -> dict:
    """Every figure of the benchmark as a dict (``cold_compile``: also time a compile from
    scratch, ``compile_s``, tens of seconds)."""
    result: dict[str, Any] = {"first_call_s": first_call_seconds()}
    if cold_compile:
        result["compile_s"] = compile_seconds()
    brk = break_case()
    randoms = random_cases(shots, seed)
    simulate(brk.state, brk.shot)  # warm-up
    simulate(brk.state, brk.shot, reference=True)  # the reference kernel loaded too
    result["break"] = time_suite([brk] * breaks)
    result["random"] = time_suite(randoms, repeats=2)
    ref_cases = randoms[:reference_shots]
    ref = time_suite(ref_cases, reference=True)
    fast = time_suite(ref_cases)
    result["reference"] = {
        **ref,
        "speed_ratio": fast["shots_per_s"] / ref["shots_per_s"],
        **reference_gap(ref_cases),
    }
    if suite is not None and suite.exists():
        pbrk, prandom, anchor = peer_cases(suite)
        result["peer"] = {
            "suite": str(suite),
            "break": time_suite([pbrk] * breaks),
            "random": time_suite(prandom, repeats=2),
            "random_batch": time_batch(prandom, repeats=2),
            "pooltool_break_per_s": anchor.get("break", {}).get("shots_per_s"),
            "pooltool_random_per_s": anchor.get("random", {}).get("shots_per_s_median"),
        }
    return result


def check_suite(path: Path) -> None:
    """Refuse a peer suite that is there but unreadable (an absent one is simply skipped).

    :raises ValueError: the file is not a ``peer-bench-suite/1`` file, with the reason.
    """
    if not path.exists():
        return
    try:
        peer_cases(path)
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
        reason = f"{type(error).__name__}: {error}"
        raise ValueError(f"{path} is not a peer-bench-suite/1 file ({reason})") from None
