"""Many shots in one call: :func:`simulate_many` (a shot per state), :func:`simulate_noisy`
(one shot played ``n`` times under execution noise) and :func:`simulate_batch` (their outcomes
as arrays), the loop over the shots compiled too; :func:`simulate_departures` (how a struck ball
leaves its first contact, for many exact shots: what the search's aim calibration measures).

Each result is exactly what :func:`kinghill.physics.simulate` returns for the same state and
shot (and the same noise drawn from ``rng`` in the same order), so a caller can switch between
the two freely; the batch saves the per-call overhead (argument checks, the kernel's entry), which
is most of the cost of a short shot. Runs on one core; for more, split the batch over processes
(as tournaments do with ``--jobs``). No trajectories (use :func:`simulate` for those).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from kinghill.physics.arguments import check_arguments
from kinghill.physics.events import Event
from kinghill.physics.kernel.batch import BatchRun, play_batch, play_departures
from kinghill.physics.kernel.table import Table
from kinghill.physics.kernel.workspace import events_of
from kinghill.physics.names import N_BALLS
from kinghill.physics.result import ShotResult
from kinghill.physics.shot import NoiseModel, Shot
from kinghill.physics.spec import TableSpec
from kinghill.physics.state import TableState
from kinghill.physics.warm_up import warm_up


@dataclass(frozen=True, eq=False)
class ShotBatch:
    """A batch's outcomes as plain arrays (what :func:`simulate_batch` returns): shot k's
    cue ball ``cues[k]``, its numbers as played ``shots[k]`` (phi, speed, a, b: after the
    noise), the table it left (``positions[k]``, NaN off the table, and ``on_table[k]``; read
    only), and its events, rows ``offsets[k]:offsets[k + 1]`` of ``run.kinds_balls`` and
    ``run.times``. The methods build shot k's objects only when asked (:meth:`result`: what
    :func:`~kinghill.physics.simulate` returns for it)."""

    spec: TableSpec
    cues: np.ndarray
    shots: np.ndarray
    run: BatchRun

    def __len__(self) -> int:
        return len(self.cues)

    def shot(self, k: int) -> Shot:
        """Shot k as played."""
        phi, speed, a, b = self.shots[k].tolist()
        return Shot(int(self.cues[k]), phi, speed, a, b)

    def final(self, k: int) -> TableState:
        """The table shot k left."""
        return TableState.settled(self.spec, self.run.positions[k], self.run.on_table[k])

    def log(self, k: int) -> np.ndarray:
        """Shot k's events as rows (kind, ball, other): what the rules read of them."""
        return self.run.kinds_balls[self.run.offsets[k] : self.run.offsets[k + 1]]

    def log_keys(self) -> list[bytes]:
        """Every shot's :meth:`log` as bytes: two shots' keys are equal when their events are,
        but for the times (what keeps a ruling for a log, found once for the whole batch)."""
        logs = self.run.kinds_balls.tobytes()
        ends = (self.run.offsets * self.run.kinds_balls.strides[0]).tolist()
        return [logs[ends[k] : ends[k + 1]] for k in range(len(self))]

    def events(self, k: int) -> list[Event]:
        """Shot k's event log as :mod:`kinghill.physics.events` objects."""
        run = self.run
        return events_of(self.log(k), run.times[run.offsets[k] : run.offsets[k + 1]])

    def untimed_events(self, k: int) -> list[Event]:
        """Shot k's event log as :meth:`events`, every time 0 (what the rules read of a log is
        the rest); each event one object kept for the process, not built again."""
        out = []
        for row in self.log(k).tolist():
            key = (row[0], row[1], row[2])
            event = _UNTIMED.get(key)
            if event is None:
                event = _UNTIMED[key] = events_of(np.array([key]), np.zeros(1))[0]
            out.append(event)
        return out

    def result(self, k: int) -> ShotResult:
        """Shot k's :class:`ShotResult`."""
        return ShotResult(
            shot=self.shot(k),
            final=self.final(k),
            events=tuple(self.events(k)),
            duration=float(self.run.durations[k]),
            steps=int(self.run.steps[k]),
        )


_UNTIMED: dict[tuple[int, int, int], Event] = {}
"""The events of :meth:`ShotBatch.untimed_events` by (kind, ball, other)."""


def simulate_batch(
    states: Sequence[TableState],
    shots: Sequence[Shot],
    rng: np.random.Generator | None = None,
    *,
    noise: NoiseModel | None = None,
    deviations: np.ndarray | None = None,
) -> ShotBatch:
    """:func:`simulate_many`'s shots played, the outcomes kept as arrays (:class:`ShotBatch`):
    no object is built for a sample until it is asked for. The arguments and errors are
    :func:`simulate_many`'s; with ``noise``, ``deviations`` (n x 4 standard-normal draws, one
    row a shot, as :meth:`NoiseModel.deviate` reads them) are used instead of drawing from
    ``rng``: shots given the same rows meet the same luck (common random numbers).

    :raises ValueError: ``deviations`` without ``noise``, of another shape, or not finite."""
    if len(states) != len(shots):
        raise ValueError(f"simulate_many: {len(states)} states but {len(shots)} shots")
    spec = states[0].spec if states else TableSpec()
    if states:
        check_arguments(states[0], shots[0], rng, noise)
    for k, (state, shot) in enumerate(zip(states, shots, strict=True)):
        if not _checked(state, shot, spec):
            check_arguments(state, shot, rng, noise)
            if state.spec != spec:
                raise ValueError(f"simulate_many: states[{k}] is on another table spec")
    _check_deviations(deviations, len(shots), noise)
    warm_up()
    n = len(shots)
    numbers = _numbers(shots)
    if noise is not None and deviations is not None:
        numbers = noise.deviate(numbers, deviations, spec.radius)
    elif noise is not None:
        rng = rng if rng is not None else np.random.default_rng()
        numbers = noise.perturb_many(numbers, rng, spec.radius)
    if len({id(state) for state in states}) == 1:
        positions = np.repeat(states[0].positions[None], n, axis=0)
        on = np.repeat(states[0].on_table[None], n, axis=0)
    else:
        positions = np.array([state.positions for state in states]).reshape(n, N_BALLS, 2)
        on = np.array([state.on_table for state in states], dtype=np.bool_).reshape(n, N_BALLS)
    cues = np.array([shot.cue_ball for shot in shots], dtype=np.int64)
    run = play_batch(Table.of(spec), positions, on, cues, numbers, spec.radius)
    run.positions[~run.on_table] = np.nan
    for array in (cues, numbers, *run):
        array.setflags(write=False)
    return ShotBatch(spec, cues, numbers, run)


def _check_deviations(deviations: np.ndarray | None, n: int, noise: NoiseModel | None) -> None:
    """Raise ValueError unless ``deviations`` is None or n x 4 finite numbers with noise on."""
    if deviations is None:
        return
    if noise is None:
        raise ValueError("simulate_batch: deviations given without a noise model to scale them")
    shape = np.shape(deviations)
    if shape != (n, 4):
        raise ValueError(f"simulate_batch: deviations of shape {shape}, expected ({n}, 4)")
    if not np.all(np.isfinite(deviations)):
        raise ValueError("simulate_batch: deviations must be finite (NaN or infinity given)")


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
    batch = simulate_batch(states, shots, rng, noise=noise)
    return [batch.result(k) for k in range(len(batch))]


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


class Departures(NamedTuple):
    """What :func:`simulate_departures` returns for ``n`` shots: ``lines[k]``, ``(x0, y0, x1,
    y1)``, the watched ball's first and last sampled positions of its departure in shot k,
    where ``found[k]``; NaN where not (its first event was no contact with another ball, or
    fewer than two samples fell before its next event)."""

    lines: np.ndarray
    found: np.ndarray


def simulate_departures(
    state: TableState, shots: Sequence[Shot], balls: Sequence[int], fps: float
) -> Departures:
    """Each of ``shots`` played exactly from ``state``, and how ball ``balls[k]`` leaves its
    first contact in shot k (:class:`Departures`): of the positions
    :func:`~kinghill.physics.simulate` samples with ``trajectory_fps=fps``, that ball's first
    and last strictly after its first event, which must be a contact with another ball, and
    before its next event (or the end of the run), the same numbers. No events, tables or
    trajectories are built (the search's aim calibration plays thousands of shots).

    :raises TypeError: an argument of the wrong type (the message names it).
    :raises ValueError: the lists differ in length, a cue ball is not on the table, a watched
        ball is no ball id, or ``fps`` is not positive.
    """
    if len(shots) != len(balls):
        raise ValueError(f"simulate_departures: {len(shots)} shots but {len(balls)} balls")
    if not (math.isfinite(fps) and fps > 0):
        raise ValueError(f"simulate_departures: fps must be positive, got {fps}")
    for shot, ball in zip(shots, balls, strict=True):
        if not _checked(state, shot, state.spec):
            check_arguments(state, shot, None, None)
        if not 0 <= ball < N_BALLS:
            raise ValueError(f"simulate_departures: no ball {ball} to watch")
    warm_up()
    numbers = _numbers(shots)
    cues = np.array([shot.cue_ball for shot in shots], dtype=np.int64)
    watched = np.array(balls, dtype=np.int64)
    table = Table.of(state.spec)
    return Departures(
        *play_departures(
            table, state.positions, state.on_table, cues, numbers, state.spec.radius, watched, fps
        )
    )


def _checked(state: TableState, shot: Shot, spec: TableSpec) -> bool:
    """Whether ``state`` and ``shot`` are plainly fine for a batch on ``spec`` (a state and a
    shot as built, on that very spec, the cue ball on the table): the batches' quick check,
    :func:`~kinghill.physics.arguments.check_arguments` for the rest, which says what is
    wrong."""
    return (
        type(state) is TableState
        and type(shot) is Shot
        and state.spec is spec
        and bool(state.on_table[shot.cue_ball])
    )


def _numbers(shots: Sequence[Shot]) -> np.ndarray:
    """The shots' numbers as rows ``(phi, speed, a, b)``, as the batches' kernels take them."""
    return np.array([(s.phi, s.speed, s.a, s.b) for s in shots], dtype=np.float64).reshape(-1, 4)
