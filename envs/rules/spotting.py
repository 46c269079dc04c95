"""Spotting balls on the real table geometry (11.1-11.4, R-spot).

The coloured ball goes on the rear spot, whites at the middle of the rear cushion touching it
(centre x = L - R). A taken place gives way to the nearest free point on the long axis (the
spotting line); for the coloured ball a tie goes toward the rear cushion.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from kinghill.physics import COLOURED, TableState


def spot_point(state: TableState, ball: int) -> tuple[float, float]:
    """Where ``ball`` is spotted on ``state`` (11.1, 11.2, 11.3, R-spot)."""
    spec = state.spec
    target = spec.rear_spot[0] if ball == COLOURED else spec.length - spec.radius
    return (_nearest_free_x(state, target, ignore=ball), spec.width / 2)


def spot(state: TableState, balls: Iterable[int]) -> TableState:
    """``state`` with ``balls`` spotted one by one, in the order given (R-spot: coloured first)."""
    for ball in balls:
        state = state.place(ball, spot_point(state, ball))
    return state


def _nearest_free_x(state: TableState, target: float, ignore: int) -> float:
    """The free point on the long axis nearest to ``target``; a tie goes to the larger x."""
    spec = state.spec
    r, yc = spec.radius, spec.width / 2
    lo_x, hi_x = r, spec.length - r
    blocked = []
    for b in state.balls_on_table():
        if b == ignore:
            continue
        bx, by = state.xy(b)
        dy = abs(by - yc)
        if dy < 2 * r:
            half = math.sqrt(4 * r * r - dy * dy)
            blocked.append((bx - half, bx + half))
    merged: list[list[float]] = []
    for lo, hi in sorted(blocked):
        if merged and lo < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    for lo, hi in merged:
        if lo < target < hi:
            options = [x for x in (hi, lo) if lo_x <= x <= hi_x]
            if not options:
                raise ValueError("no free point on the spotting line")  # 8 balls never fill it
            return min(options, key=lambda x: abs(x - target))
    return target
