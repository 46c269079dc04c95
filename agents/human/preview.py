"""Where the aimed cue ball first meets something: the ghost ball of the aim line.

Straight-line geometry on the table (no cloth, no spin): the cue ball's centre runs from where
it stands along the aim until it touches a ball (centres 2R apart) or a cushion (its centre R
from the cushion's line), whichever comes first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kinghill.physics.state import TableState

Point = tuple[float, float]


@dataclass(frozen=True)
class AimPreview:
    """The aim line's end: the ghost ball's centre and the ball it touches (None: a cushion)."""

    start: Point
    ghost: Point
    ball: int | None


def preview(state: TableState, cue_ball: int, phi: float) -> AimPreview:
    """The first contact of ``cue_ball`` aimed at ``phi`` on ``state``."""
    spec, r = state.spec, state.spec.radius
    x0, y0 = state.xy(cue_ball)
    dx, dy = math.cos(phi), math.sin(phi)
    reach = math.inf
    for low, high, p, d in ((r, spec.length - r, x0, dx), (r, spec.width - r, y0, dy)):
        if d > 1e-12:
            reach = min(reach, (high - p) / d)
        elif d < -1e-12:
            reach = min(reach, (low - p) / d)
    hit = None
    for ball in state.balls_on_table():
        if ball == cue_ball:
            continue
        bx, by = state.xy(ball)
        along = (bx - x0) * dx + (by - y0) * dy
        across2 = (bx - x0) ** 2 + (by - y0) ** 2 - along**2
        if along <= 0 or across2 >= (2 * r) ** 2:
            continue
        t = along - math.sqrt((2 * r) ** 2 - across2)
        if 0 <= t < reach:
            reach, hit = t, ball
    reach = max(reach, 0.0)
    return AimPreview((x0, y0), (x0 + reach * dx, y0 + reach * dy), hit)
