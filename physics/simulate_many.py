"""Many shots in one call: :func:`simulate_many` (a shot per state) and :func:`simulate_noisy`
(one shot played ``n`` times under execution noise), the loop over the shots compiled too.

Each result is exactly what :func:`kinghill.physics.simulate` returns for the same state and
shot (and the same noise drawn from ``rng`` in the same order), so a caller can switch between
the two freely; the batch saves the per-call overhead (argument checks, the kernel's entry), which
is most of the cost of a short shot. Runs on one core; for more, split the batch over processes
(as tournaments do with ``--jobs``). No trajectories (use :func:`simulate` for those).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kinghill.physics.arguments import check_arguments
from kinghill.physics.cue import strike
from kinghill.physics.kernel.batch import play_batch
from kinghill.physics.kernel.table import Table
from kinghill.physics.names import N_BALLS
from kinghill.physics.result import ShotResult
from kinghill.physics.shot import NoiseModel, Shot
from kinghill.physics.state import TableState
from kinghill.physics.warm_up import warm_up


def simulate_many(
    states: Sequence[TableState],
    shots: Sequence[Shot],
    rng: np.random.Generator | None = None,
    *,
    noise: NoiseModel | None = None,
) -> list[ShotResult]:
    """Play ``shots[k]`` from ``states[k]`` for every k (all on one table spec), in order.

    :param rng: draws the execution noise when ``noise`` is given, shot after shot as that many
        calls of :func:`~kinghill.physics.simulate` would (default: a fresh generator).
    :raises ValueError: the lists differ in length, the states' specs differ, or a cue ball is
        not on its table (nothing is simulated).
    :raises TypeError: an argument of the wrong type (the message names it).
    """
    if len(states) != len(shots):
        raise ValueError(f"simulate_many: {len(states)} states but {len(shots)} shots")
    if not states:
        return []
    spec = states[0].spec
    for k, (state, shot) in enumerate(zip(states, shots, strict=True)):
        check_arguments(state, shot, rng, noise)
        if state.spec != spec:
            raise ValueError(f"simulate_many: states[{k}] is on another table spec")
    warm_up()
    if noise is not None:
        rng = rng if rng is not None else np.random.default_rng()
        shots = [noise.perturb(shot, rng, spec.radius) for shot in shots]
    n = len(shots)
    positions = np.empty((n, N_BALLS, 2))
    on = np.empty((n, N_BALLS), dtype=np.bool_)
    for k, state in enumerate(states):
        positions[k], on[k] = state.positions, state.on_table
    cues = np.array([shot.cue_ball for shot in shots], dtype=np.int64)
    motions = np.array([strike(shot, spec.radius) for shot in shots])
    runs = play_batch(Table.of(spec), positions, on, cues, motions)
    return [
        ShotResult(
            shot=shot,
            final=TableState(spec, run.positions, run.on_table),
            events=tuple(run.events()),
            duration=run.duration,
            steps=run.steps,
        )
        for shot, run in zip(shots, runs, strict=True)
    ]


def simulate_noisy(
    state: TableState,
    shot: Shot,
    rng: np.random.Generator,
    n: int,
    *,
    noise: NoiseModel | None = None,
) -> list[ShotResult]:
    """``shot`` from ``state`` played ``n`` times, each with its own execution noise drawn from
    ``rng`` (``noise``: the default :class:`NoiseModel` if None): what ``n`` calls of
    ``simulate(state, shot, rng, noise=noise)`` return, in one call."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"simulate_noisy: n must be a whole number >= 0, got {n!r}")
    return simulate_many([state] * n, [shot] * n, rng, noise=noise or NoiseModel())
