"""Shared helpers for the physics tests: hand-made layouts and reading the engine's paths."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kinghill.physics import (
    BallBall,
    BallCushion,
    CentreLine,
    Pocketed,
    Shot,
    TableSpec,
    TableState,
)
from kinghill.physics.cue import strike
from kinghill.physics.events import Event
from kinghill.physics.kernel import loop
from kinghill.physics.kernel.table import Table
from kinghill.physics.resolve.motion import Motion

SPEC = TableSpec()
R = SPEC.radius


@dataclass
class Run:
    """What one run of the event loop produced, as Python values."""

    positions: list[tuple[float, float]]
    on_table: list[bool]
    events: list[Event]
    duration: float
    steps: int
    segments: list[list[tuple[float, ...]]] | None = None
    """Per ball: ``(t0, x, y, vx, vy, ax, ay)`` at every change of its path (for trajectories)."""
    energies: list[float] = field(default_factory=list)
    """Total kinetic energy after each event (when asked for)."""
    cushion_impacts: list[tuple[Motion, Motion]] = field(default_factory=list)
    """The motion before and after each impact a cushion or jaw law resolved (with paths)."""


def run(
    spec: TableSpec,
    positions: list[tuple[float, float]],
    on_table: list[bool],
    cue_ball: int,
    motion: Motion,
    *,
    record_paths: bool = False,
    record_energy: bool = False,
) -> Run:
    """Play from ``positions`` with ``cue_ball`` given ``motion`` until every ball is at rest."""
    raw = loop.run(
        Table.of(spec),
        np.array(positions, dtype=np.float64),
        np.array(on_table, dtype=np.bool_),
        cue_ball,
        motion,
        record_paths=record_paths,
        record_energy=record_energy,
    )
    return Run(
        positions=[(x, y) for x, y in raw.positions.tolist()],
        on_table=raw.on_table.tolist(),
        events=raw.events(),
        duration=raw.duration,
        steps=raw.steps,
        segments=raw.paths() if record_paths else None,
        energies=raw.energies.tolist(),
        cushion_impacts=[(tuple(m[:5]), tuple(m[5:])) for m in raw.impacts.tolist()],
    )


def lone_ball(xy: tuple[float, float]) -> tuple[list[tuple[float, float]], list[bool]]:
    """Engine-level layout with only ball 1 at ``xy``."""
    return layout({1: xy})


def layout(balls: dict[int, tuple[float, float]]) -> tuple[list[tuple[float, float]], list[bool]]:
    """Engine-level layout: positions and on-table flags for the given balls."""
    pos = [(0.0, 0.0)] * 8
    on = [False] * 8
    for b, xy in balls.items():
        pos[b], on[b] = xy, True
    return pos, on


def state(balls: dict[int, tuple[float, float]]) -> TableState:
    """A TableState with only the given balls on the table."""
    return TableState.of(SPEC, balls)


def play(balls: dict[int, tuple[float, float]], shot: Shot) -> Run:
    """Run the engine with paths recorded."""
    pos, on = layout(balls)
    return run(SPEC, pos, on, shot.cue_ball, strike(shot, R), record_paths=True)


def velocity_at(out: Run, ball: int, t: float) -> tuple[float, float]:
    """Velocity of ``ball`` just after time ``t`` (from its recorded path segments)."""
    assert out.segments is not None
    seg = [s for s in out.segments[ball] if s[0] <= t][-1]
    dt = t - seg[0]
    return (seg[3] + seg[5] * dt, seg[4] + seg[6] * dt)


def position_at(out: Run, ball: int, t: float) -> tuple[float, float]:
    """Position of ``ball`` at time ``t``."""
    assert out.segments is not None
    seg = [s for s in out.segments[ball] if s[0] <= t][-1]
    dt = t - seg[0]
    return (seg[1] + (seg[3] + 0.5 * seg[5] * dt) * dt, seg[2] + (seg[4] + 0.5 * seg[6] * dt) * dt)


def angle_deg(v: tuple[float, float], w: tuple[float, float]) -> float:
    """Unsigned angle between two vectors, degrees."""
    c = (v[0] * w[0] + v[1] * w[1]) / (math.hypot(*v) * math.hypot(*w))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def check_log(events: list, on_before: list[bool], on_after: list[bool]) -> None:
    """The log is time-ordered, of the four event types, and names only balls on the table;
    exactly the pocketed balls leave it."""
    times = [e.t for e in events]
    assert times == sorted(times), "log not time-ordered"
    gone: set[int] = set()
    for e in events:
        balls = (e.a, e.b) if isinstance(e, BallBall) else (e.ball,)
        assert isinstance(e, (BallBall, BallCushion, Pocketed, CentreLine))
        for b in balls:
            assert on_before[b], "event for a ball that was not on the table"
            assert b not in gone, "event for a pocketed ball"
        if isinstance(e, Pocketed):
            gone.add(e.ball)
    for b in range(8):
        assert on_after[b] == (on_before[b] and b not in gone)


def assert_physical(out: Run, on_before: list[bool], shot: object = None) -> None:
    """Every ball ends on the playing area without overlap (TableState checks), the log is
    consistent, and kinetic energy (``record_energy`` runs) never rises between events."""
    TableState(SPEC, np.array(out.positions), np.array(out.on_table))
    check_log(out.events, on_before, out.on_table)
    e = out.energies
    assert all(b <= a * (1 + 1e-9) + 1e-12 for a, b in zip(e, e[1:], strict=False)), shot
