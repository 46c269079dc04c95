"""Benchmark of the environment's overhead: env steps/s against raw ``simulate`` on the very
shots the env played, and steps/s of vector envs with 1 and 2 worker processes.

Ratios within one run are what count (absolute numbers drift between machines).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

import kinghill.envs  # noqa: F401  (registers the env)
import kinghill.envs.game as game_module
from kinghill.envs.actions import Action, FrameView
from kinghill.envs.encoding import action_space, decode_action
from kinghill.envs.gym_env import KingOfTheHillEnv
from kinghill.experiments.cli import output_file, positive_int, seed
from kinghill.physics import ShotResult, TableState, simulate


@dataclass
class _Run:
    """One timed env run: wall time, steps, time spent inside ``simulate``, the shots played."""

    seconds: float
    steps: int
    simulate_seconds: float
    shots: list[tuple[TableState, ShotResult]]


def _play(steps: int, seed: int) -> _Run:
    """Time ``steps`` env steps with random actions, and the ``simulate`` calls inside them.

    Both seats' actions are sampled before the clock starts (choosing is the agents' cost, not
    the environment's); the opponent decodes its pre-sampled points like the learner's.
    """
    space = action_space()
    space.seed(seed)
    points = iter([space.sample() for _ in range(4 * steps)])

    def opponent(view: FrameView) -> Action:
        return decode_action(next(points), view)

    run = _Run(0.0, steps, 0.0, [])

    def timed_simulate(state: TableState, *args: Any, **kwargs: Any) -> ShotResult:
        start = time.perf_counter()
        result = simulate(state, *args, **kwargs)
        run.simulate_seconds += time.perf_counter() - start
        run.shots.append((state, result))
        return result

    env = KingOfTheHillEnv(opponent=opponent, breaker="random")
    mine = [space.sample() for _ in range(steps)]
    game_module.simulate = timed_simulate
    try:
        obs, info = env.reset(seed=seed)
        start = time.perf_counter()
        for point in mine:
            obs, _, term, trunc, info = env.step(point)
            if term or trunc:
                obs, info = env.reset()
        run.seconds = time.perf_counter() - start
    finally:
        game_module.simulate = simulate
    return run


def _raw(shots: list[tuple[TableState, ShotResult]]) -> float:
    """Time ``simulate`` alone on the same shots (as played, noise already applied)."""
    start = time.perf_counter()
    for state, result in shots:
        simulate(state, result.shot)
    return time.perf_counter() - start


def _vector(workers: int, steps: int, seed: int) -> float:
    """Steps/s (summed over envs) of ``gymnasium.make_vec`` with ``workers`` envs."""
    mode = "sync" if workers == 1 else "async"
    envs = gym.make_vec("kinghill/KingOfTheHill-v0", num_envs=workers, vectorization_mode=mode)
    envs.action_space.seed(seed)
    envs.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        envs.step(envs.action_space.sample())
    elapsed = time.perf_counter() - start
    envs.close()
    return workers * steps / elapsed


def benchmark(steps: int = 2_000, vector_steps: int = 500, seed: int = 0) -> dict[str, Any]:
    """Run the benchmark; returns the numbers as a dict."""
    _play(20, seed + 1)  # warm-up
    run = _play(steps, seed)
    raw_time = _raw(run.shots)
    shots = len(run.shots)
    return {
        "env_steps": run.steps,
        "shots": shots,
        "env_steps_per_s": run.steps / run.seconds,
        "env_shots_per_s": shots / run.seconds,
        "simulate_shots_per_s_inside_env": shots / run.simulate_seconds,
        "raw_shots_per_s": shots / raw_time,
        "overhead": run.seconds / run.simulate_seconds - 1.0,
        "overhead_vs_raw_replay": run.seconds / raw_time - 1.0,
        "vector_steps_per_s": {w: _vector(w, vector_steps, seed) for w in (1, 2)},
    }


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench-env",
        help="benchmark the environment's overhead over raw physics, and vector-env speed",
        description=__doc__,
    )
    parser.add_argument(
        "--steps", type=positive_int, default=2_000, help="env steps timed (default 2000)"
    )
    parser.add_argument(
        "--vector-steps",
        type=positive_int,
        default=500,
        help="steps per vector-env run (default 500)",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the env and its actions (default: 0)"
    )
    parser.add_argument(
        "--out", type=output_file(".json"), help="also write the numbers to this JSON file"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    result = benchmark(args.steps, args.vector_steps, args.seed)
    print(f"env steps/s          {result['env_steps_per_s']:8.1f}  ({result['env_steps']} steps)")
    print(f"shots/s inside env   {result['env_shots_per_s']:8.1f}  ({result['shots']} shots)")
    print(f"simulate inside env  {result['simulate_shots_per_s_inside_env']:8.1f}  shots/s")
    print(f"raw simulate shots/s {result['raw_shots_per_s']:8.1f}  (the same shots, replayed)")
    print(f"env overhead         {100 * result['overhead']:8.1f} %  (env time / simulate time - 1)")
    print(f"  against the replay {100 * result['overhead_vs_raw_replay']:8.1f} %")
    for workers, rate in result["vector_steps_per_s"].items():
        print(f"make_vec, {workers} worker(s) {rate:8.1f} steps/s")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    from kinghill.experiments.cli import main

    raise SystemExit(main(["bench-env", *sys.argv[1:]]))
