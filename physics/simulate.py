"""The entry point: play one shot on a table state and return the result (a pure function)."""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.cue import strike
from kinghill.physics.names import N_BALLS
from kinghill.physics.reference import run_fixed_step
from kinghill.physics.result import ShotResult, Trajectory
from kinghill.physics.shot import NoiseModel, Shot
from kinghill.physics.state import TableState
from kinghill.physics.stepper import Table, run_raw


def simulate(
    state: TableState,
    shot: Shot,
    rng: np.random.Generator | None = None,
    *,
    noise: NoiseModel | None = None,
    trajectory: bool = False,
    trajectory_fps: float = 60.0,
    reference: bool = False,
) -> ShotResult:
    """Play ``shot`` from ``state`` until all balls are at rest.

    :param state: the table before the shot (not modified).
    :param shot: the cue's parameters; its cue ball must be on the table.
    :param rng: draws the execution noise when ``noise`` is given (default: a fresh generator).
    :param noise: execution noise applied to the shot before it is played (None: none).
    :param trajectory: also sample the balls' positions for rendering.
    :param trajectory_fps: sampling rate of the trajectory (frames per simulated second).
    :param reference: the fixed-step (1/5000 s) reference mode (:mod:`reference`), for the
        benchmark only; slow, no trajectory.
    :raises TypeError: an argument of the wrong type (the message names it).
    :raises ValueError: the cue ball is not on the table (nothing is simulated).
    """
    _check_types(state, shot, rng, noise, trajectory, reference)
    if not state.on_table[shot.cue_ball]:
        raise ValueError(f"Shot.cue_ball: ball {shot.cue_ball} is not on the table")
    if trajectory and not (math.isfinite(trajectory_fps) and trajectory_fps > 0):
        raise ValueError(f"trajectory_fps must be positive, got {trajectory_fps}")
    spec = state.spec
    if noise is not None:
        shot = noise.perturb(shot, rng if rng is not None else np.random.default_rng(), spec.radius)
    motion = strike(shot, spec.radius)
    table = Table.of(spec)
    if reference:
        result = run_fixed_step(table, state.positions, state.on_table, shot.cue_ball, motion)
        trajectory = False
    else:
        result = run_raw(
            table, state.positions, state.on_table, shot.cue_ball, motion, record_paths=trajectory
        )
    return ShotResult(
        shot=shot,
        final=TableState(spec, result.positions, result.on_table),
        events=tuple(result.events()),
        duration=result.duration,
        steps=result.steps,
        trajectory=_sample(result.paths(), trajectory_fps) if trajectory else None,
    )


def _check_types(
    state: object, shot: object, rng: object, noise: object, trajectory: object, reference: object
) -> None:
    """A TypeError naming the first argument of :func:`simulate` that has the wrong type."""
    wanted: tuple[tuple[str, object, tuple[type, ...]], ...] = (
        ("state", state, (TableState,)),
        ("shot", shot, (Shot,)),
        ("rng", rng, (np.random.Generator, type(None))),
        ("noise", noise, (NoiseModel, type(None))),
        ("trajectory", trajectory, (bool,)),
        ("reference", reference, (bool,)),
    )
    for name, value, types in wanted:
        if not isinstance(value, types):
            expected = " or ".join("None" if t is type(None) else t.__name__ for t in types)
            raise TypeError(f"simulate: {name} must be a {expected}, got {type(value).__name__}")


def _sample(segments: list[list[tuple[float, ...]]], fps: float) -> Trajectory:
    """Positions at ``k / fps`` for k = 0 .. until the last ball stops (and the end itself)."""
    end = max((seg[-1][0] for seg in segments if seg), default=0.0)
    n = int(math.floor(end * fps)) + 1
    times = [k / fps for k in range(n)]
    if times[-1] < end:
        times.append(end)
    positions = np.full((len(times), N_BALLS, 2), np.nan)
    for b, segs in enumerate(segments):
        if not segs:
            continue
        s = 0
        for k, t in enumerate(times):
            while s + 1 < len(segs) and segs[s + 1][0] <= t:
                s += 1
            t0, x, y, vx, vy, ax, ay = segs[s]
            dt = t - t0
            positions[k, b, 0] = x + (vx + 0.5 * ax * dt) * dt
            positions[k, b, 1] = y + (vy + 0.5 * ay * dt) * dt
    on_table = ~np.isnan(positions[:, :, 0])
    return Trajectory(times=np.array(times), positions=positions, on_table=on_table)
