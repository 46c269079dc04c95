"""The arrays a run works in, kept per thread, and what a run returns.

A run's buffers (:class:`Workspace`) are allocated once per thread and reused: the kernel fills
them, and allocating them per shot would cost more than a short shot's physics. When a run's
records outgrow them, the run is played again in a workspace twice the size (:func:`play_in`;
the run is deterministic, so it comes out the same). The compiled writers of the records live
here too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from kinghill.physics.events import BallBall, BallCushion, CentreLine, Event, Pocketed
from kinghill.physics.jit import njit
from kinghill.physics.kernel.layout import (
    BALL_BALL,
    BALL_CUSHION,
    N_FLOATS,
    N_INTS,
    ON,
    PAIRS,
    POCKETED,
    Kernel,
    Records,
    Work,
    X,
    Y,
)
from kinghill.physics.names import N_BALLS, Cushion, Pocket
from kinghill.physics.resolve.motion import Motion

_CUSHIONS, _POCKETS = tuple(Cushion), tuple(Pocket)


@dataclass
class RawRun:
    """What a run returns, as arrays: final positions (8 x 2; where a ball left the table for
    one that did), on the table, the events (``kinds_balls``: kind, ball, other; ``times``),
    the path segments (``ball, t0, x, y, vx, vy, ax, ay`` rows, when asked for), energies,
    steps and duration."""

    positions: np.ndarray
    on_table: np.ndarray
    kinds_balls: np.ndarray
    times: np.ndarray
    segments: np.ndarray
    energies: np.ndarray
    impacts: np.ndarray
    """Cushion and jaw impacts the law resolved (when paths are recorded): the motion before
    and after, ``(vx, vy, wx, wy, wz)`` twice a row."""
    steps: int
    duration: float

    def events(self) -> list[Event]:
        """The event log as :mod:`kinghill.physics.events` objects."""
        return events_of(self.kinds_balls, self.times)

    def paths(self) -> list[list[tuple[float, ...]]]:
        """Per ball, its segments ``(t0, x, y, vx, vy, ax, ay)`` in order."""
        out: list[list[tuple[float, ...]]] = [[] for _ in range(N_BALLS)]
        for row in self.segments.tolist():
            out[int(row[0])].append(tuple(row[1:]))
        return out


def events_of(kinds_balls: np.ndarray, times: np.ndarray) -> list[Event]:
    """An event log's rows (``kinds_balls``: kind, ball, other; ``times``) as
    :mod:`kinghill.physics.events` objects."""
    out: list[Event] = []
    for (kind, a, b), t in zip(kinds_balls.tolist(), times.tolist(), strict=True):
        if kind == BALL_BALL:
            out.append(BallBall(a, b, t))
        elif kind == BALL_CUSHION:
            out.append(BallCushion(a, _CUSHIONS[b], t))
        elif kind == POCKETED:
            out.append(Pocketed(a, _POCKETS[b], t))
        else:
            out.append(CentreLine(a, t))
    return out


class Workspace:
    """The arrays one run works in, allocated once per thread and reused."""

    def __init__(self, events: int = 1024, segments: int = 2048) -> None:
        self.balls = np.zeros((N_BALLS, N_FLOATS))
        self.flags = np.zeros((N_BALLS, N_INTS), dtype=np.int64)
        self.pairs = np.zeros(len(PAIRS))
        self.records = Records(
            events=np.zeros((events, 3), dtype=np.int64),
            times=np.zeros(events),
            segments=np.zeros((segments, 8)),
            energies=np.zeros(events + 1),
            counts=np.zeros(4, dtype=np.int64),
            impacts=np.zeros((events, 10)),
        )
        self.work = Work(self.balls, self.flags, self.pairs, self.records)
        """The arrays as the kernels take them."""
        self.plain = (self.balls, self.flags, self.pairs, tuple(self.records))
        """The same as plain tuples, as Python hands them to a kernel (:func:`.layout.named`)."""

    def grown(self) -> Workspace:
        """This thread's workspace replaced by one with twice the room for records."""
        rec = self.records
        work = Workspace(2 * rec.events.shape[0], 2 * rec.segments.shape[0])
        _WORKSPACES.work = work
        return work

    def result(self, steps: int, duration: float) -> RawRun:
        """The run just played, copied out of the buffers."""
        rec = self.records
        n, m, k, c = rec.counts.tolist()
        return RawRun(
            positions=self.balls[:, X : Y + 1].copy(),
            on_table=self.flags[:, ON] != 0,
            kinds_balls=rec.events[:n].copy(),
            times=rec.times[:n].copy(),
            segments=rec.segments[:m].copy(),
            energies=rec.energies[:k].copy(),
            impacts=rec.impacts[:c].copy(),
            steps=steps,
            duration=duration,
        )


_WORKSPACES = threading.local()


def workspace() -> Workspace:
    """This thread's workspace (made on first use)."""
    work: Workspace | None = getattr(_WORKSPACES, "work", None)
    if work is None:
        work = _WORKSPACES.work = Workspace()
    return work


def play_in(
    kernel: Kernel,
    table: tuple,
    positions: np.ndarray,
    on_table: np.ndarray,
    cue_ball: int,
    motion: Motion,
    *options: object,
) -> RawRun:
    """Play from ``positions`` (8 x 2) with ``cue_ball`` given ``motion`` in ``kernel``'s
    twin that takes plain tuples (:data:`~.layout.Kernel`), on the ``table`` arrays
    (:attr:`.table.Table.plain`), in this thread's workspace, again in a bigger one if the
    records ran out of room (the run is deterministic: the same)."""
    start = (
        np.asarray(positions, dtype=np.float64),
        np.asarray(on_table, dtype=np.bool_),
        cue_ball,
        motion,
    )
    work = workspace()
    while True:
        done, steps, duration = kernel(work.plain, table, start, *options)
        if done:
            return work.result(steps, duration)
        work = work.grown()


@njit
def full(rec: Records, paths: bool, energy: bool, events: int) -> bool:
    """Whether the record buffers lack room for one more step's records (``events`` events
    among them)."""
    counts = rec.counts
    return (
        counts[0] + events > rec.events.shape[0]
        or (paths and counts[1] + 2 * N_BALLS + 8 > rec.segments.shape[0])
        or (energy and counts[2] + 2 > rec.energies.shape[0])
        or (paths and counts[3] + 2 > rec.impacts.shape[0])
    )


@njit
def record_event(rec: Records, kind: int, a: int, b: int, t: float) -> None:
    """Record an event of ``kind`` between ball a and ``b`` (a ball, cushion, pocket or -1)."""
    n = rec.counts[0]
    rec.events[n, 0], rec.events[n, 1], rec.events[n, 2] = kind, a, b
    rec.times[n] = t
    rec.counts[0] = n + 1


@njit
def record_segment(
    rec: Records, b: int, t0: float, x: float, y: float, vx: float, vy: float, ax: float, ay: float
) -> None:
    """Record a new piece of ball b's path, from time ``t0``."""
    n = rec.counts[1]
    row = rec.segments[n]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = b, t0, x, y, vx, vy, ax, ay
    rec.counts[1] = n + 1


@njit
def record_energy(rec: Records, value: float) -> None:
    """Record the total kinetic energy after an event."""
    n = rec.counts[2]
    rec.energies[n] = value
    rec.counts[2] = n + 1


@njit
def record_impact(rec: Records, before: Motion, after: Motion) -> None:
    """Record a cushion or jaw impact: the motion ``before`` and ``after`` it."""
    n = rec.counts[3]
    row = rec.impacts[n]
    row[0], row[1], row[2], row[3], row[4] = before[0], before[1], before[2], before[3], before[4]
    row[5], row[6], row[7], row[8], row[9] = after[0], after[1], after[2], after[3], after[4]
    rec.counts[3] = n + 1
