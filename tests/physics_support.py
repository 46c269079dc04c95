"""Shared helpers for the physics tests: hand-made layouts and reading the engine's paths."""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics import Shot, TableSpec, TableState
from kinghill.physics.cue import strike
from kinghill.physics.stepper import Run, run

SPEC = TableSpec()
R = SPEC.radius


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
    pos = np.full((8, 2), np.nan)
    on = np.zeros(8, dtype=bool)
    for b, xy in balls.items():
        pos[b], on[b] = xy, True
    return TableState(SPEC, pos, on)


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
