"""Benchmark of the environment's overhead: env steps/s against raw ``simulate`` on the very
shots the env played, and steps/s of vector envs with 1 and 2 worker processes.

Ratios within one run are what count (absolute numbers drift between machines).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import kinghill.envs  # noqa: F401  (registers the env)
from kinghill.envs.gym_env import KingOfTheHillEnv
from kinghill.physics import ShotResult, TableState, simulate


def _play(steps: int, seed: int) -> tuple[float, int, list[tuple[TableState, ShotResult]]]:
    """Time ``steps`` env steps with random actions; return the time, steps and shots played."""
    env = KingOfTheHillEnv(breaker="random")
    played: list[tuple[TableState, ShotResult]] = []
    original = env.game.play

    def recording(action: Any, seconds: float | None = None) -> Any:
        before = env.game.state
        turn = original(action, seconds)
        if turn.result is not None:
            played.append((before, turn.result))
        return turn

    env.game.play = recording  # type: ignore[method-assign]
    env.action_space.seed(seed)
    obs, info = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
        if term or trunc:
            obs, info = env.reset()
    return time.perf_counter() - start, steps, played


def _raw(played: list[tuple[TableState, ShotResult]]) -> float:
    """Time ``simulate`` alone on the same shots (as played, noise already applied)."""
    start = time.perf_counter()
    for state, result in played:
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
    env_time, n, played = _play(steps, seed)
    raw_time = _raw(played)
    sim_in_env = sum(1 for _ in played)
    return {
        "env_steps": n,
        "shots": sim_in_env,
        "env_steps_per_s": n / env_time,
        "env_shots_per_s": sim_in_env / env_time,
        "raw_shots_per_s": sim_in_env / raw_time,
        "overhead": env_time / raw_time - 1.0,
        "vector_steps_per_s": {w: _vector(w, vector_steps, seed) for w in (1, 2)},
    }


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench-env",
        help="benchmark the environment's overhead over raw physics, and vector-env speed",
        description=__doc__,
    )
    parser.add_argument("--steps", type=int, default=2_000, help="env steps timed (default 2000)")
    parser.add_argument(
        "--vector-steps", type=int, default=500, help="steps per vector-env run (default 500)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="also write the numbers to this JSON file")
    return parser


def run(args: argparse.Namespace) -> int:
    result = benchmark(args.steps, args.vector_steps, args.seed)
    print(f"env steps/s          {result['env_steps_per_s']:8.1f}  ({result['env_steps']} steps)")
    print(f"shots/s inside env   {result['env_shots_per_s']:8.1f}  ({result['shots']} shots)")
    print(f"raw simulate shots/s {result['raw_shots_per_s']:8.1f}  (the same shots)")
    print(f"env overhead         {100 * result['overhead']:8.1f} %")
    for workers, rate in result["vector_steps_per_s"].items():
        print(f"make_vec, {workers} worker(s) {rate:8.1f} steps/s")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m kinghill.experiments.bench_env")
    sub = parser.add_subparsers()
    add_parser(sub)
    raise SystemExit(run(parser.parse_args(["bench-env", *__import__("sys").argv[1:]])))


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
