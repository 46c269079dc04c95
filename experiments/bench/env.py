"""Benchmark of the environment's overhead: env steps/s against raw ``simulate`` on the very
shots the env played, the masked env for MaskablePPO (:mod:`kinghill.envs.rl.masked`) beside the
plain one (the two taking turns), and steps/s of vector envs with 1 and 2 worker
processes.

Each env's step is split into the time inside ``simulate`` and the env's own time (its
overhead: the referee, the encodings, the opponent's bookkeeping, the masked env's menus), per
step and as the steps/s the env would reach with a free ``simulate``: the env's game plays its
shots through a timed ``simulate`` (its hook, ``Game(simulate=...)``, the attribute
``game.simulate``) and the masked env builds its menus through a timed ``shot_menu``
(``MaskedShots(env, menu=...)``). Ratios within one run are what count (absolute numbers drift
between machines).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

import kinghill.envs  # noqa: F401  (registers the env)
import kinghill.envs.rl.masked as masked_module
from kinghill.envs.game.actions import Action, FrameView
from kinghill.envs.rl.encoding import action_space, decode_action
from kinghill.envs.rl.gym_env import AUTORESET_MODE, KingOfTheHillEnv
from kinghill.envs.rl.masked import shot_menu
from kinghill.physics import ShotResult, TableState, simulate


@dataclass
class _Run:
    """One timed env run: wall time, steps, time spent inside ``simulate``, the shots played."""

    seconds: float
    steps: int
    simulate_seconds: float
    shots: list[tuple[TableState, ShotResult]]


def _sampled_opponent(steps: int, seed: int) -> tuple[gym.spaces.Space[Any], Callable[..., Action]]:
    """The opponent of both envs: points of the plain action space sampled before the clock
    starts (choosing is the agents' cost, not the environment's), decoded like the learner's;
    with the seeded space, to sample more from."""
    space = action_space()
    space.seed(seed)
    points = iter([space.sample() for _ in range(4 * steps)])

    def opponent(view: FrameView) -> Action:
        return decode_action(next(points), view)

    return space, opponent


def _simulate_timed(run: _Run | _MaskedRun) -> Callable[..., ShotResult]:
    """``simulate``, its time added to ``run`` (and the shot kept, where ``run`` keeps shots)."""

    def timed(state: TableState, *args: Any, **kwargs: Any) -> ShotResult:
        start = time.perf_counter()
        result = simulate(state, *args, **kwargs)
        run.simulate_seconds += time.perf_counter() - start
        if isinstance(run, _Run):
            run.shots.append((state, result))
        return result

    return timed


def _timed_steps(
    env: gym.Env[Any, Any], seed: int, actions: Iterator[Any], run: _Run | _MaskedRun
) -> Iterator[None]:
    """Step ``env`` with each of ``actions`` (taken before the clock starts), timing each step
    into ``run``, its game's shots played through :func:`_simulate_timed`; a finished frame
    starts again. Yields after every step, so that the two envs can take turns."""
    env.unwrapped.game.simulate = _simulate_timed(run)  # type: ignore[attr-defined]
    env.reset(seed=seed)  # not timed, so what it spent inside is not counted either
    run.simulate_seconds = 0.0
    if isinstance(run, _MaskedRun):
        run.menu_seconds = 0.0
    else:
        run.shots.clear()
    for action in actions:
        start = time.perf_counter()
        _, _, term, trunc, _ = env.step(action)
        if term or trunc:
            env.reset()
        run.seconds += time.perf_counter() - start
        run.steps += 1
        yield


def _plain_steps(steps: int, seed: int, run: _Run) -> Iterator[None]:
    """Play ``steps`` env steps with random actions for both seats (:func:`_timed_steps`),
    with the ``simulate`` calls inside timed and kept."""
    space, opponent = _sampled_opponent(steps, seed)

    env = KingOfTheHillEnv(opponent=opponent, breaker="random")
    mine = [space.sample() for _ in range(steps)]
    return _timed_steps(env, seed, iter(mine), run)


def _play(steps: int, seed: int) -> _Run:
    """Time ``steps`` env steps with random actions (:func:`_plain_steps`)."""
    run = _Run(0.0, 0, 0.0, [])
    for _ in _plain_steps(steps, seed, run):
        pass
    return run


@dataclass
class _MaskedRun:
    """One timed run of the masked env: wall time, steps, time building the shot menus and
    time inside ``simulate``."""

    seconds: float
    steps: int
    menu_seconds: float
    simulate_seconds: float


def _masked_steps(steps: int, seed: int, run: _MaskedRun) -> Iterator[None]:
    """Play ``steps`` steps of the masked env (:func:`_timed_steps`), with the shot menus and
    the ``simulate`` calls inside timed. The learner picks a uniformly drawn offered slot and
    speed/spin level (drawn before the run, as indices into what is offered), the opponent
    plays as in :func:`_plain_steps`."""
    _, opponent = _sampled_opponent(steps, seed)
    picks = np.random.default_rng(seed).integers(0, 1 << 30, size=(steps, 3))

    def timed_menu(view: FrameView) -> masked_module.Menu:
        start = time.perf_counter()
        menu = shot_menu(view)
        run.menu_seconds += time.perf_counter() - start
        return menu

    env = masked_module.MaskedShots(
        KingOfTheHillEnv(opponent=opponent, breaker="random"), menu=timed_menu
    )
    levels = (len(masked_module.SPEED_FACTORS), len(masked_module.SPINS))

    def actions() -> Iterator[tuple[int, int, int]]:
        for slot, speed, spin in picks.tolist():
            offered = np.flatnonzero(env.menu.offered)
            yield int(offered[slot % len(offered)]), speed % levels[0], spin % levels[1]

    return _timed_steps(env, seed, actions(), run)


def _play_masked(steps: int, seed: int) -> _MaskedRun:
    """Time ``steps`` steps of the masked env (:func:`_masked_steps`)."""
    run = _MaskedRun(0.0, 0, 0.0, 0.0)
    for _ in _masked_steps(steps, seed, run):
        pass
    return run


def _raw(shots: list[tuple[TableState, ShotResult]]) -> float:
    """Time ``simulate`` alone on the same shots (as played, noise already applied)."""
    start = time.perf_counter()
    for state, result in shots:
        simulate(state, result.shot)
    return time.perf_counter() - start


def _vector(workers: int, steps: int, seed: int) -> float:
    """Steps/s (summed over envs) of ``gymnasium.make_vec`` with ``workers`` envs, autoreset
    declared as the env documents it (:data:`~kinghill.envs.rl.gym_env.AUTORESET_MODE`)."""
    mode = "sync" if workers == 1 else "async"
    envs = gym.make_vec(
        "kinghill/KingOfTheHill-v0",
        num_envs=workers,
        vectorization_mode=mode,
        vector_kwargs={"autoreset_mode": AUTORESET_MODE},
    )
    envs.action_space.seed(seed)
    envs.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        envs.step(envs.action_space.sample())
    elapsed = time.perf_counter() - start
    envs.close()
    return workers * steps / elapsed


ROUNDS = 10
"""The plain and the masked env take turns, this many chunks of steps each (each env plays on
where it stopped), so that a change of load on the machine weighs on both alike."""


def _rounds(steps: int, seed: int) -> tuple[_Run, _MaskedRun]:
    """``steps`` steps of each env, in :data:`ROUNDS` alternating chunks."""
    run, masked = _Run(0.0, 0, 0.0, []), _MaskedRun(0.0, 0, 0.0, 0.0)
    plain_steps, masked_steps = _plain_steps(steps, seed, run), _masked_steps(steps, seed, masked)
    chunk = -(-steps // ROUNDS)
    while run.steps < steps:
        for _ in zip(range(chunk), plain_steps, strict=False):
            pass
        for _ in zip(range(chunk), masked_steps, strict=False):
            pass
    return run, masked


def _split(seconds: float, simulate_seconds: float, steps: int) -> dict[str, float]:
    """One env's step split: wall ms, ms inside ``simulate`` and the env's own ms per step,
    and the steps/s its own time alone allows (the rate with a free ``simulate``)."""
    own = seconds - simulate_seconds
    return {
        "ms_per_step": 1000 * seconds / steps,
        "simulate_ms_per_step": 1000 * simulate_seconds / steps,
        "overhead_ms_per_step": 1000 * own / steps,
        "steps_per_s_without_simulate": steps / own,
    }


def benchmark(steps: int = 2_000, vector_steps: int = 500, seed: int = 0) -> dict[str, Any]:
    """Run the benchmark; returns the numbers as a dict (``plain`` and ``masked``: each env's
    :func:`_split`)."""
    _play(20, seed + 1)  # warm-up
    _play_masked(20, seed + 1)
    run, masked = _rounds(steps, seed)
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
        "masked_steps_per_s": masked.steps / masked.seconds,
        "masked_vs_plain": (masked.steps / masked.seconds) / (run.steps / run.seconds),
        "masked_menu_ms_per_step": 1000 * masked.menu_seconds / masked.steps,
        "masked_menu_share": masked.menu_seconds / masked.seconds,
        "masked_simulate_share": masked.simulate_seconds / masked.seconds,
        "plain_simulate_share": run.simulate_seconds / run.seconds,
        "plain": _split(run.seconds, run.simulate_seconds, run.steps),
        "masked": _split(masked.seconds, masked.simulate_seconds, masked.steps),
        "vector_steps_per_s": {w: _vector(w, vector_steps, seed) for w in (1, 2)},
    }
