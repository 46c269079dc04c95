"""The entry point: play one shot on a table state and return the result (a pure function)."""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.arguments import check_arguments
from kinghill.physics.cue import strike
from kinghill.physics.kernel import fixed_step, loop
from kinghill.physics.kernel.table import Table
from kinghill.physics.result import ShotResult
from kinghill.physics.sampling import trajectory_of
from kinghill.physics.shot import NoiseModel, Shot
from kinghill.physics.state import TableState
from kinghill.physics.warm_up import warm_up


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
    :param reference: the fixed-step (1/5000 s) reference mode
        (:mod:`kinghill.physics.kernel.fixed_step`), for the
        benchmark only; slow, no trajectory.
    :raises TypeError: an argument of the wrong type (the message names it).
    :raises ValueError: the cue ball is not on the table (nothing is simulated).
    """
    check_arguments(state, shot, rng, noise, trajectory, reference)
    warm_up()
    if trajectory and not (math.isfinite(trajectory_fps) and trajectory_fps > 0):
        raise ValueError(f"trajectory_fps must be positive, got {trajectory_fps}")
    spec = state.spec
    if noise is not None:
        shot = noise.perturb(shot, rng if rng is not None else np.random.default_rng(), spec.radius)
    motion = strike(shot, spec.radius)
    table = Table.of(spec)
    if reference:
        result = fixed_step.run(table, state.positions, state.on_table, shot.cue_ball, motion)
        trajectory = False
    else:
        result = loop.run(
            table, state.positions, state.on_table, shot.cue_ball, motion, record_paths=trajectory
        )
    return ShotResult(
        shot=shot,
        final=TableState(spec, result.positions, result.on_table),
        events=tuple(result.events()),
        duration=result.duration,
        steps=result.steps,
        trajectory=trajectory_of(result.segments, trajectory_fps) if trajectory else None,
    )
