"""Safeties, compiled: soft full-ball hits of a white that send the object ball to a cushion,
costed and checked in one kernel (:func:`kinghill.envs.planning.menu.safety_actions` gives
their meaning and wraps it). The arithmetic is that of the Python it replaced, so the menus are
the same to the bit (``tests/test_menu_fixture.py``).
"""

from __future__ import annotations

import math

import numpy as np

from kinghill.envs.planning.pot_kernel import near, speed_needed
from kinghill.physics.jit import njit
from kinghill.physics.names import COLOURED
from kinghill.physics.norm import hypot

SAFETY_ARRIVAL = 0.4
"""A safety sends its object ball to the cushion still rolling at this speed (m/s)."""
POCKET_CLEARANCE = 0.12
"""A safety's object ball must not run toward a pocket closer than this to its path (m)."""
SAFETY_MAX_SPEED = 4.0
"""The firmest safety (m/s)."""


@njit
def _rail_end(
    r: float, far_x: float, far_y: float, x: float, y: float, phi: float
) -> tuple[float, float, float]:
    """How far a ball's centre travels from (x, y) along ``phi`` before touching a cushion, and
    where: ``r``, ``far_x`` (L - R) and ``far_y`` (W - R) are the lines its centre touches."""
    dx, dy = math.cos(phi), math.sin(phi)
    limit = math.inf
    if dx > 1e-9:
        limit = (far_x - x) / dx
    elif dx < -1e-9:
        limit = (r - x) / dx
    if dy > 1e-9:
        limit = min(limit, (far_y - y) / dy)
    elif dy < -1e-9:
        limit = min(limit, (r - y) / dy)
    distance = max(0.0, limit)
    return distance, x + distance * dx, y + distance * dy


@njit
def find_safeties(
    points: np.ndarray,
    ids: np.ndarray,
    mouths: np.ndarray,
    scalars: np.ndarray,
    far: tuple[float, float],
    deceleration: float,
    limit: int,
) -> np.ndarray:
    """Rows (cue ball, phi, speed) of the safeties of the balls on the table (``points``,
    ``ids``), softest first, the first ``limit`` that pass (all when ``limit`` < 0): every pair
    of a white cue ball and another ball is costed, then the lines are checked in order of cost
    (a stable order; the colour as object ball costs 1 m/s more)."""
    radius, diameter = scalars[0], scalars[1]
    n = ids.shape[0]
    costs = np.empty(n * n)
    pairs = np.empty((n * n, 6))
    count = 0
    for c in range(n):
        cue_ball = ids[c]
        if cue_ball == COLOURED:
            continue
        cx, cy = points[c, 0], points[c, 1]
        for o in range(n):
            if o == c:
                continue
            ox, oy = points[o, 0], points[o, 1]
            phi = math.atan2(oy - cy, ox - cx)
            to_rail, ex, ey = _rail_end(radius, far[0], far[1], ox, oy, phi)
            cue_path = max(0.0, hypot(cx - ox, cy - oy) - diameter)
            object_start = speed_needed(to_rail, SAFETY_ARRIVAL, deceleration, 0.0)
            speed = speed_needed(cue_path, object_start / 0.975, deceleration, 0.0)
            costs[count] = speed + (1.0 if ids[o] == COLOURED else 0.0)
            row = pairs[count]
            row[0], row[1], row[2], row[3], row[4], row[5] = (
                c,
                o,
                phi,
                min(speed, SAFETY_MAX_SPEED),
                ex,
                ey,
            )
            count += 1
    order = np.argsort(costs[:count], kind="mergesort")
    out = np.empty((count, 3))
    mouth_ids = np.arange(mouths.shape[0])
    found = np.empty(1, np.int64)
    passed = 0
    for k in order:
        if limit >= 0 and passed >= limit:
            break
        c, o = int(pairs[k, 0]), int(pairs[k, 1])
        ox, oy = points[o, 0], points[o, 1]
        ends = (ox, oy, pairs[k, 4], pairs[k, 5])
        if near(mouths, mouth_ids, POCKET_CLEARANCE, ends, (-1, -1, -1), 1, found):
            continue  # it would run near a pocket's mouth
        line = (points[c, 0], points[c, 1], ox, oy)
        if near(points, ids, diameter, line, (ids[c], ids[o], -1), 1, found):
            continue
        out[passed, 0], out[passed, 1], out[passed, 2] = ids[c], pairs[k, 2], pairs[k, 3]
        passed += 1
    return out[:passed]
