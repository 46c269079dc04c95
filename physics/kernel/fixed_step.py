"""Fixed-step reference mode: the same balls, cloth and contact models, stepped at a fixed dt.

Every step moves all balls along their analytic cloth paths by dt; contacts are noticed only
when the bodies already overlap at the end of a step (as in a fixed-step integrator) and are
resolved there, with the normal taken from the overlapping positions. Comparing it with the
event-driven engine shows what exact contact times buy (the benchmark reports both). It is a
compiled kernel too, made of the event loop's own pieces (:mod:`.evolve`, :mod:`.responses`).
"""

from __future__ import annotations

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.kernel.cloth import RADIUS, RESTING
from kinghill.physics.kernel.detect import INF
from kinghill.physics.kernel.evolve import end_phase, rebase, set_up, start_phase
from kinghill.physics.kernel.layout import (
    CAPTURE,
    CENTRE_LINE,
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
    PHASE,
    PX,
    PY,
    QX,
    QY,
    SIDE,
    TEND,
    VX,
    VY,
    Records,
    Start,
    TableArrays,
    Work,
    X,
    Y,
    named,
)
from kinghill.physics.kernel.plan import back_over_edge, overlaps
from kinghill.physics.kernel.responses import bounce, collide, drop
from kinghill.physics.kernel.table import Table
from kinghill.physics.kernel.workspace import RawRun, full, play_in, record_event
from kinghill.physics.names import N_BALLS
from kinghill.physics.norm import hypot
from kinghill.physics.resolve.motion import Motion

REFERENCE_STEP = 1.0 / 5000.0
"""Time step of the fixed-step reference mode (s)."""


def run(
    table: Table,
    positions: np.ndarray,
    on_table: np.ndarray,
    cue_ball: int,
    motion: Motion,
    dt: float = REFERENCE_STEP,
) -> RawRun:
    """Play the shot with contacts checked every ``dt`` seconds."""
    return play_in(enter_fixed_step, table.plain, positions, on_table, cue_ball, motion, dt)


@njit
def enter_fixed_step(work: tuple, table: tuple, start: tuple, dt: float) -> tuple[bool, int, float]:
    """:func:`play_fixed_step` entered from Python, its arguments plain tuples
    (:func:`.layout.named`)."""
    w, t, s = named(work, table, start)
    return play_fixed_step(w, t, s, dt)


@njit
def _moving(flags: np.ndarray, b: int) -> bool:
    return flags[b, ON] != 0 and (flags[b, PHASE] != RESTING or flags[b, FALL_POCKET] >= 0)


@njit
def play_fixed_step(
    work: Work, table: TableArrays, start: Start, dt: float
) -> tuple[bool, int, float]:
    """The fixed-step loop, a kernel (:data:`~kinghill.physics.kernel.layout.Kernel`), as
    :func:`kinghill.physics.kernel.loop.play` returns."""
    balls, flags, pairs, rec = work.balls, work.flags, work.pairs, work.records
    cloth = table.cloth
    set_up(work, table, start, False)
    R = cloth[RADIUS]
    half = table.centre_line
    t, steps = 0.0, 0
    moving = np.zeros(N_BALLS, dtype=np.bool_)
    changed = np.zeros(N_BALLS, dtype=np.bool_)
    while True:
        any_moving = False
        for b in range(N_BALLS):
            moving[b] = _moving(flags, b)
            any_moving = any_moving or moving[b]
        if not any_moving:
            break
        if full(rec, False, False, 4 * N_BALLS * (N_BALLS + 2)):
            return False, steps, 0.0
        steps += 1
        t = steps * dt
        for b in range(N_BALLS):
            if not moving[b]:
                continue
            while balls[b, TEND] <= t and flags[b, PHASE] != RESTING:
                end_phase(balls, flags, cloth, b)
                start_phase(balls, flags, cloth, rec, False, b)
            rebase(balls, flags, cloth, b, t)
            side = 1.0 if balls[b, X] >= half else -1.0
            if side != balls[b, SIDE]:
                balls[b, SIDE] = side
                record_event(rec, CENTRE_LINE, b, -1, t)
        changed[:] = False
        for b in range(N_BALLS):
            if moving[b] and flags[b, ON]:
                _touch_table(balls, flags, pairs, table, rec, b, t, R, changed)
        for a in range(N_BALLS):
            for o in range(a + 1, N_BALLS):
                if not (flags[a, ON] and flags[o, ON]):
                    continue
                dx, dy = balls[o, X] - balls[a, X], balls[o, Y] - balls[a, Y]
                if dx * dx + dy * dy < 4 * R * R:
                    closing = (balls[a, VX] - balls[o, VX]) * dx + (
                        balls[a, VY] - balls[o, VY]
                    ) * dy
                    if closing > 0.0:
                        rebase(balls, flags, cloth, a, t)
                        rebase(balls, flags, cloth, o, t)
                        collide(balls, table, rec, a, o, t)
                        changed[a] = changed[o] = True
        for b in range(N_BALLS):
            if changed[b] and flags[b, ON]:
                start_phase(balls, flags, cloth, rec, False, b)
    return True, steps, t


@njit
def _falls(
    balls: np.ndarray,
    flags: np.ndarray,
    table: TableArrays,
    b: int,
    pocket_of: int,
    t: float,
    over: bool,
) -> bool:
    """Track ball b over the hole of pocket ``pocket_of``: whether it has sunk out of reach by
    ``t``."""
    gone, pocket = balls[b, FALL_T], flags[b, FALL_POCKET]
    if pocket < 0 and over:
        balls[b, FALL_T], flags[b, FALL_POCKET] = t + table.fall_time, pocket_of
    elif pocket == pocket_of and not over:
        if not back_over_edge(table, pocket_of, balls[b, X], balls[b, Y]):
            return True  # left the hole on its far side: the pocket's back
        balls[b, FALL_T], flags[b, FALL_POCKET] = INF, -1
    return pocket == pocket_of and over and t >= gone


@njit
def _touch_table(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    table: TableArrays,
    rec: Records,
    b: int,
    t: float,
    R: float,
    changed: np.ndarray,
) -> None:
    """Cushion, jaw or capture contacts of ball b at the end of a step."""
    x, y = balls[b, X], balls[b, Y]
    elements = table.elements
    for e in range(elements.shape[0]):
        el = elements[e]
        if not overlaps(el, x - R, y - R, x + R, y + R):
            continue
        if el[E_KIND] == CAPTURE:
            pocket = int(el[E_ID])
            over = hypot(x - el[CX], y - el[CY]) < el[CR]
            if _falls(balls, flags, table, b, pocket, t, over):
                drop(balls, flags, pairs, rec, False, b, pocket, t)
                return
        elif el[E_KIND] == LINE:
            px, py, qx, qy, nx, ny = el[PX], el[PY], el[QX], el[QY], el[NX], el[NY]
            ex, ey = qx - px, qy - py
            u = (x - px) * ex + (y - py) * ey
            if (
                (x - px) * nx + (y - py) * ny < R
                and 0.0 <= u <= ex * ex + ey * ey
                and balls[b, VX] * nx + balls[b, VY] * ny < 0.0
            ):
                bounce(balls, table, rec, False, b, e, t)
                changed[b] = True
        else:
            dx, dy = x - el[CX], y - el[CY]
            if hypot(dx, dy) < R + el[CR] and balls[b, VX] * dx + balls[b, VY] * dy < 0.0:
                bounce(balls, table, rec, False, b, e, t)
                changed[b] = True
