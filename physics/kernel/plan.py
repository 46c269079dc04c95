"""When each ball's next event happens (detect): its own (its phase ends, it meets a cushion
or jaw, passes a fall edge or comes back over it, crosses the centre line, has sunk) and each
pair's next touch, planned after every event for the balls it changed.

The broad phase is here: a ball's swept box over its current phase (grown by its radius) is
tested against each table element's bounding box (:mod:`kinghill.physics.kernel.table`) before
the exact contact time is solved (:mod:`kinghill.physics.kernel.detect`).
"""

from __future__ import annotations

import numpy as np

from kinghill.physics.geometry import hanging_pocket, on_playing_area
from kinghill.physics.jit import njit
from kinghill.physics.kernel.cloth import RADIUS, RESTING
from kinghill.physics.kernel.detect import (
    INF,
    first_circle_contact,
    first_circle_exit,
    first_gap_closure,
    quadratic_roots,
)
from kinghill.physics.kernel.layout import (
    AX,
    AY,
    BB_X0,
    BB_X1,
    BB_Y0,
    BB_Y1,
    BX0,
    BX1,
    BY0,
    BY1,
    CIRCLE,
    CR,
    CX,
    CY,
    E_ID,
    E_KIND,
    FALL_POCKET,
    FALL_T,
    LINE,
    NX,
    NY,
    ON,
    OWN_CENTRE,
    OWN_CUSHION,
    OWN_DATA,
    OWN_FALL,
    OWN_KIND,
    OWN_LAND,
    OWN_PHASE,
    OWN_POCKET,
    OWN_T,
    PAIRS_OF,
    PHASE,
    PX,
    PY,
    QX,
    QY,
    SIDE,
    T0,
    TEND,
    VX,
    VY,
    TableArrays,
    X,
    Y,
)
from kinghill.physics.names import N_BALLS


@njit
def overlaps(el: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether element ``el``'s bounding box meets the box (x0, y0)-(x1, y1)."""
    return el[BB_X0] <= x1 and x0 <= el[BB_X1] and el[BB_Y0] <= y1 and y0 <= el[BB_Y1]


@njit
def plan_own(balls: np.ndarray, flags: np.ndarray, table: TableArrays, i: int, now: float) -> None:
    """Ball i's next phase end, cushion/jaw contact, fall edge (passing it or coming back
    over it) or centre-line crossing; a ball over a hole drops once it has sunk."""
    s, f = balls[i], flags[i]
    gone, falling_into = s[FALL_T], f[FALL_POCKET]
    if f[PHASE] == RESTING:
        if gone < INF:
            s[OWN_T], f[OWN_KIND], f[OWN_DATA] = gone, OWN_POCKET, falling_into
        else:
            s[OWN_T], f[OWN_KIND], f[OWN_DATA] = INF, OWN_PHASE, -1
        return
    bt, bk, bd = s[TEND], OWN_PHASE, -1
    if gone < bt:
        bt, bk, bd = gone, OWN_POCKET, falling_into
    horizon = s[TEND] - now
    dt = now - s[T0]
    ax, ay = s[AX], s[AY]
    vx, vy = s[VX] + ax * dt, s[VY] + ay * dt
    x = s[X] + (s[VX] + 0.5 * ax * dt) * dt
    y = s[Y] + (s[VY] + 0.5 * ay * dt) * dt
    R = table.cloth[RADIUS]
    elements = table.elements
    qx0, qy0, qx1, qy1 = s[BX0] - R, s[BY0] - R, s[BX1] + R, s[BY1] + R
    for e in range(elements.shape[0]):
        el = elements[e]
        if not overlaps(el, qx0, qy0, qx1, qy1):
            continue
        kind = el[E_KIND]
        if kind == LINE:
            px, py, qx, qy, nx, ny = el[PX], el[PY], el[QX], el[QY], el[NX], el[NY]
            s0 = (x - px) * nx + (y - py) * ny - R
            tc = first_gap_closure(
                s0, vx * nx + vy * ny, 0.5 * (ax * nx + ay * ny), min(horizon, bt - now)
            )
            if tc < INF:
                # the contact point must lie on the segment
                cx = x + (vx + 0.5 * ax * tc) * tc - px
                cy = y + (vy + 0.5 * ay * tc) * tc - py
                ex, ey = qx - px, qy - py
                u = cx * ex + cy * ey
                if 0.0 <= u <= ex * ex + ey * ey and now + tc < bt:
                    bt, bk, bd = now + tc, OWN_CUSHION, e
        elif kind == CIRCLE or falling_into < 0:
            reach = el[CR] + R if kind == CIRCLE else el[CR]
            tc = first_circle_contact(
                x - el[CX], y - el[CY], vx, vy, ax, ay, reach, min(horizon, bt - now)
            )
            if now + tc < bt:
                if kind == CIRCLE:
                    bt, bk, bd = now + tc, OWN_CUSHION, e
                else:
                    bt, bk, bd = now + tc, OWN_FALL, int(el[E_ID])
        elif int(el[E_ID]) == falling_into:
            tc = first_circle_exit(
                x - el[CX], y - el[CY], vx, vy, ax, ay, el[CR], min(horizon, bt - now)
            )
            if now + tc < bt:
                bt, bk, bd = now + tc, OWN_LAND, int(el[E_ID])
    # centre line: the first time x crosses L/2 moving to the other side
    side = s[SIDE]
    n, r1, r2 = quadratic_roots(x - table.centre_line, vx, 0.5 * ax)
    for k in range(n):
        tc = r1 if k == 0 else r2
        if tc >= 0.0 and now + tc < bt and (vx + ax * tc) * side < 0.0:
            bt, bk, bd = now + tc, OWN_CENTRE, -1
            break
    s[OWN_T], f[OWN_KIND], f[OWN_DATA] = bt, bk, bd


@njit
def plan_pair(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    cloth: np.ndarray,
    k: int,
    i: int,
    j: int,
    now: float,
) -> None:
    """When balls i and j next touch (inf if not within both balls' current phases)."""
    if (
        not flags[j, ON]
        or not flags[i, ON]
        or (flags[i, PHASE] == RESTING and flags[j, PHASE] == RESTING)
    ):
        pairs[k] = INF
        return
    a, b = balls[i], balls[j]
    d = 2.0 * cloth[RADIUS]
    if a[BX0] > b[BX1] + d or b[BX0] > a[BX1] + d or a[BY0] > b[BY1] + d or b[BY0] > a[BY1] + d:
        pairs[k] = INF
        return
    horizon = min(a[TEND], b[TEND]) - now
    dti, dtj = now - a[T0], now - b[T0]
    axi, ayi, axj, ayj = a[AX], a[AY], b[AX], b[AY]
    xi = a[X] + (a[VX] + 0.5 * axi * dti) * dti
    yi = a[Y] + (a[VY] + 0.5 * ayi * dti) * dti
    xj = b[X] + (b[VX] + 0.5 * axj * dtj) * dtj
    yj = b[Y] + (b[VY] + 0.5 * ayj * dtj) * dtj
    vx = b[VX] + axj * dtj - a[VX] - axi * dti
    vy = b[VY] + ayj * dtj - a[VY] - ayi * dti
    pairs[k] = now + first_circle_contact(
        xj - xi, yj - yi, vx, vy, axj - axi, ayj - ayi, d, horizon
    )


@njit
def replan(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    table: TableArrays,
    i: int,
    j: int,
    now: float,
) -> None:
    """Re-plan ball i (and j, if not -1) and their pairs after they changed at ``now``."""
    plan_own(balls, flags, table, i, now)
    if j >= 0:
        plan_own(balls, flags, table, j, now)
    for b in (i, j):
        if b < 0:
            continue
        for m in range(N_BALLS - 1):
            k, other = PAIRS_OF[b, m, 0], PAIRS_OF[b, m, 1]
            changed = other in (i, j)
            if not changed or other > b:
                plan_pair(balls, flags, pairs, table.cloth, k, b, other, now)


@njit
def plan_all(
    balls: np.ndarray, flags: np.ndarray, pairs: np.ndarray, table: TableArrays, now: float
) -> None:
    """Plan every ball on the table and their pairs (at the start)."""
    for b in range(N_BALLS):
        if flags[b, ON]:
            plan_own(balls, flags, table, b, now)
    for b in range(N_BALLS):
        if not flags[b, ON]:
            continue
        for m in range(N_BALLS - 1):
            k, other = PAIRS_OF[b, m, 0], PAIRS_OF[b, m, 1]
            if not flags[other, ON] or other > b:
                plan_pair(balls, flags, pairs, table.cloth, k, b, other, now)


@njit
def back_over_edge(table: TableArrays, pocket: int, x: float, y: float) -> bool:
    """Whether a ball leaving ``pocket``'s hole at (x, y) comes back over the fall edge onto
    the shelf (on the hole's near half, between the jaws), rather than meeting the pocket's
    back (anywhere else)."""
    row = table.pockets[pocket]
    cx, cy, ax, ay = row[0], row[1], row[2], row[3]
    if not (x - cx) * ax + (y - cy) * ay < 0.0:
        return False
    return on_playing_area(table.geometry, x, y) or hanging_pocket(table.geometry, x, y) >= 0
