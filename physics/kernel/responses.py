"""What happens at an event (resolve): two balls collide, a ball bounces off a cushion or jaw
or leans on it, a ball drops into a pocket.

The impulses come from the contact laws of :mod:`kinghill.physics.resolve` (the ball-ball
model, the cushion and jaw laws chosen in the spec); this module applies them to the run's
arrays, records the event and handles the touches too slow to be impacts (pushes and leans).
"""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.kernel.cloth import RADIUS, RESTING, ROLL_ACC
from kinghill.physics.kernel.detect import INF
from kinghill.physics.kernel.layout import (
    BALL_BALL,
    BALL_CUSHION,
    CIRCLE,
    CX,
    CY,
    E_ID,
    E_KIND,
    FALL_POCKET,
    FALL_T,
    JAW,
    LINE,
    NX,
    NY,
    ON,
    OWN_DATA,
    OWN_KIND,
    OWN_PHASE,
    OWN_T,
    PAIRS_OF,
    PHASE,
    POCKETED,
    VX,
    VY,
    WX,
    WY,
    WZ,
    Records,
    TableArrays,
    X,
    Y,
)
from kinghill.physics.kernel.workspace import record_event, record_impact, record_segment
from kinghill.physics.names import N_BALLS
from kinghill.physics.norm import hypot
from kinghill.physics.resolve.ball_ball import impact
from kinghill.physics.resolve.ball_cushion.impact import rubber_impact

PUSH_SPEED = 1e-3
"""Closing speed (m/s) under which a contact is a push rather than an impact: the sliding
ball(s) are brought to their rolling state at once and the balls leave with a common normal
speed (both only remove energy), instead of an endless train of ever smaller impacts. A ball
touching a cushion or jaw this slowly leans on it (:func:`lean`)."""


@njit
def drop(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    rec: Records,
    paths: bool,
    b: int,
    pocket: int,
    t: float,
) -> None:
    """Ball b falls into ``pocket`` at time t and leaves the game."""
    flags[b, ON] = 0
    flags[b, PHASE] = RESTING
    balls[b, FALL_T], flags[b, FALL_POCKET] = INF, -1
    balls[b, WZ] = 0.0
    record_event(rec, POCKETED, b, pocket, t)
    for m in range(N_BALLS - 1):
        pairs[PAIRS_OF[b, m, 0]] = INF
    balls[b, OWN_T], flags[b, OWN_KIND], flags[b, OWN_DATA] = INF, OWN_PHASE, -1
    if paths:
        record_segment(rec, b, t, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0)


@njit
def collide(balls: np.ndarray, table: TableArrays, rec: Records, i: int, j: int, t: float) -> None:
    """Balls i and j, touching at time t, exchange their impulses (a slow touch: a push)."""
    a, b = balls[i], balls[j]
    dx, dy = b[X] - a[X], b[Y] - a[Y]
    d = math.sqrt(dx * dx + dy * dy)
    nx, ny = dx / d, dy / d
    striker_i = a[VX] * nx + a[VY] * ny >= -(b[VX] * nx + b[VY] * ny)
    if striker_i:
        record_event(rec, BALL_BALL, i, j, t)
    else:
        record_event(rec, BALL_BALL, j, i, t)
    closing = (a[VX] - b[VX]) * nx + (a[VY] - b[VY]) * ny
    out = impact(
        table.ball_ball,
        nx, ny, a[VX], a[VY], a[WX], a[WY], a[WZ], b[VX], b[VY], b[WX], b[WY], b[WZ],
    )  # fmt: skip
    a[VX], a[VY], a[WX], a[WY], a[WZ] = out[0], out[1], out[2], out[3], out[4]
    b[VX], b[VY], b[WX], b[WY], b[WZ] = out[5], out[6], out[7], out[8], out[9]
    if closing < PUSH_SPEED:
        r = table.cloth[RADIUS]
        _roll_now(a, r)
        _roll_now(b, r)
        closing = (a[VX] - b[VX]) * nx + (a[VY] - b[VY]) * ny
        if closing > 0.0:
            h = 0.5 * closing
            a[VX] -= h * nx
            a[VY] -= h * ny
            b[VX] += h * nx
            b[VY] += h * ny
            a[WX], a[WY] = -a[VY] / r, a[VX] / r
            b[WX], b[WY] = -b[VY] / r, b[VX] / r
        if _pressing(a, b, table.cloth[ROLL_ACC], nx, ny):
            a[VX] = a[VY] = a[WX] = a[WY] = 0.0
            b[VX] = b[VY] = b[WX] = b[WY] = 0.0


@njit
def _pressing(a: np.ndarray, b: np.ndarray, roll_acc: float, nx: float, ny: float) -> bool:
    """Whether two touching rolling balls' decelerations would push them into each other."""
    rel = 0.0
    speed = hypot(a[VX], a[VY])
    if speed > 0.0:
        rel -= 1.0 * roll_acc * (a[VX] * nx + a[VY] * ny) / speed
    speed = hypot(b[VX], b[VY])
    if speed > 0.0:
        rel -= -1.0 * roll_acc * (b[VX] * nx + b[VY] * ny) / speed
    return rel > 0.0


@njit
def _roll_now(s: np.ndarray, r: float) -> None:
    """Jump a sliding ball to the state its slide would end in (v - 2/7 u, rolling)."""
    ux, uy = s[VX] - r * s[WY], s[VY] + r * s[WX]
    s[VX] -= ux * (2.0 / 7.0)
    s[VY] -= uy * (2.0 / 7.0)
    s[WX], s[WY] = -s[VY] / r, s[VX] / r


@njit
def bounce(
    balls: np.ndarray, table: TableArrays, rec: Records, paths: bool, i: int, e: int, t: float
) -> None:
    """Ball i meets element ``e`` (a cushion or facing line, or a jaw tip) at time t."""
    s, el = balls[i], table.elements[e]
    if el[E_KIND] == CIRCLE:
        dx, dy = s[X] - el[CX], s[Y] - el[CY]
        d = math.sqrt(dx * dx + dy * dy)
        nx, ny = dx / d, dy / d
        jaw = True
    else:
        nx, ny = el[NX], el[NY]
        jaw = el[JAW] != 0.0
    record_event(rec, BALL_CUSHION, i, int(el[E_ID]), t)
    vn = s[VX] * nx + s[VY] * ny
    if vn > -PUSH_SPEED:
        lean(s, nx, ny, vn)
        return
    law = table.jaw_law if jaw else table.cushion_law
    out = rubber_impact(law, nx, ny, s[VX], s[VY], s[WX], s[WY], s[WZ])
    if paths:
        record_impact(rec, (s[VX], s[VY], s[WX], s[WY], s[WZ]), out)
    s[VX], s[VY], s[WX], s[WY], s[WZ] = out[0], out[1], out[2], out[3], out[4]


@njit
def lean(s: np.ndarray, nx: float, ny: float, vn: float) -> None:
    """A touch slower than ``PUSH_SPEED`` (a ball resting on or running along a cushion): the
    cushion takes the inward normal speed and, if cloth friction would drive the ball on into
    it, the spin that does so; the ball runs along the cushion instead of an endless train of
    ever smaller bounces. Both only remove energy."""
    s[VX] -= vn * nx
    s[VY] -= vn * ny
    # slip u = v - R (w x z); its normal part is now -R (w . t), t = (-ny, nx)
    wt = -ny * s[WX] + nx * s[WY]
    if wt < 0.0:  # slip away from the cushion: cloth friction pushes the ball into it
        s[WX] += wt * ny
        s[WY] -= wt * nx


@njit
def same_contact(elements: np.ndarray, a: int, b: int) -> bool:
    """Whether elements a and b are the same contact for a ball (a line: the same cushion,
    normal and kind; a tip: the same cushion and centre)."""
    ea, eb = elements[a], elements[b]
    if ea[E_KIND] != eb[E_KIND] or ea[E_ID] != eb[E_ID]:
        return False
    if ea[E_KIND] == LINE:
        return ea[NX] == eb[NX] and ea[NY] == eb[NY] and ea[JAW] == eb[JAW]
    return ea[CX] == eb[CX] and ea[CY] == eb[CY]
