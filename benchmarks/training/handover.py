"""The hand-over of a split vector env's step, blocking against spinning: env 0 of the
reference command's masked envs steps in this process while env 1 steps in a worker process,
random legal actions, and each side waits for the other's message either in a blocking
``recv`` (what SB3's ``SubprocVecEnv`` worker and ``SplitVecEnv`` do) or polling the pipe for
up to 5 ms first ("spin": the waiting core never goes idle, so no wake-up between the two).
A lead for the training speed, not what ``kinghill train`` does.

    python3 benchmarks/training/handover.py [STEPS]
"""

from __future__ import annotations

import multiprocessing
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np

SPIN_SECONDS = 0.005
MODES = ("block", "spin", "block", "spin")
WARM_STEPS = 300


def make_env(rank: int) -> Any:
    """Env ``rank`` of the reference command (masked, against the heuristic)."""
    from kinghill.experiments.training.config import TrainConfig
    from kinghill.experiments.training.environments import EnvFactory

    config = TrainConfig(
        out=Path(tempfile.mkdtemp()), algo="maskable-ppo", action="masked",
        opponent="heuristic", envs=2, seed=0,
    )  # fmt: skip
    return EnvFactory(config, rank, rank > 0)()


def receive(conn: Connection, spin: bool) -> Any:
    """The next message, polled for up to :data:`SPIN_SECONDS` first when ``spin``."""
    if spin:
        deadline = time.perf_counter() + SPIN_SECONDS
        while not conn.poll() and time.perf_counter() < deadline:
            pass
    return conn.recv()


def worker(conn: Connection, spin: bool) -> None:
    """Env 1: step each action received, send back what the trainer needs."""
    from kinghill.envs.planning import warm_up

    warm_up()
    env = make_env(1)
    _, info = env.reset(seed=1)
    conn.send(info["action_mask"])
    while (action := receive(conn, spin)) is not None:
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()
        conn.send((obs, reward, terminated or truncated, info["action_mask"]))


def legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A random action the mask allows (slot, speed level, spin level)."""
    return np.array([rng.choice(np.flatnonzero(part)) for part in np.split(mask, [13, 16])])


def run(spin: bool, steps: int) -> tuple[float, np.ndarray]:
    """Env steps a second over ``steps`` 2-env steps, and the mean ms of the send, env 0's
    step and the wait for env 1."""
    context = multiprocessing.get_context("forkserver")
    mine, theirs = context.Pipe()
    process = context.Process(target=worker, args=(theirs, spin), daemon=True)
    process.start()
    env = make_env(0)
    _, info = env.reset(seed=0)
    masks = [info["action_mask"], mine.recv()]
    rng = np.random.default_rng(0)
    parts = np.zeros(3)
    for k in range(WARM_STEPS + steps):
        if k == WARM_STEPS:
            parts[:] = 0
            start = time.perf_counter()
        t0 = time.perf_counter()
        mine.send(legal(rng, masks[1]))
        t1 = time.perf_counter()
        _, _, terminated, truncated, info = env.step(legal(rng, masks[0]))
        if terminated or truncated:
            _, info = env.reset()
        t2 = time.perf_counter()
        masks = [info["action_mask"], receive(mine, spin)[3]]
        parts += (t1 - t0, t2 - t1, time.perf_counter() - t2)
    rate = 2 * steps / (time.perf_counter() - start)
    mine.send(None)
    process.join()
    return rate, parts / steps * 1e3


def main() -> None:
    from kinghill.envs.planning import warm_up

    warm_up()
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    for mode in MODES:
        rate, (send, local, wait) = run(mode == "spin", steps)
        print(f"{mode}: {rate:.0f} env steps/s; send {send:.3f} ms, env 0's step {local:.3f} "
              f"ms, wait for env 1 {wait:.3f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
