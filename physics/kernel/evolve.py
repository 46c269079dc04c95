"""How the balls move between events (evolve): a run's start, a ball's state carried along
its cloth phase, a new phase begun, a ball stopped, the total energy.

Each ball's row holds its state at a reference time ``T0`` and its phase's constant
accelerations (:mod:`kinghill.physics.kernel.cloth`), so any later state is closed-form:
nothing here integrates.
"""

from __future__ import annotations

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.kernel.cloth import RADIUS, RESTING, ROLLING, SLIDING, SPIN_DECAY, spin_after
from kinghill.physics.kernel.cloth import phase as cloth_phase
from kinghill.physics.kernel.detect import INF
from kinghill.physics.kernel.layout import (
    ALX,
    ALY,
    AX,
    AY,
    BX0,
    BX1,
    BY0,
    BY1,
    FALL_POCKET,
    FALL_T,
    ON,
    OWN_DATA,
    OWN_KIND,
    OWN_PHASE,
    OWN_T,
    PHASE,
    SIDE,
    T0,
    TEND,
    VX,
    VY,
    WX,
    WY,
    WZ,
    Records,
    Start,
    TableArrays,
    Work,
    X,
    Y,
)
from kinghill.physics.kernel.workspace import record_segment
from kinghill.physics.names import N_BALLS


@njit
def new_state(work: Work, positions: np.ndarray, on_table: np.ndarray, centre_line: float) -> None:
    """Set the balls, their flags and the pairs' contact times to a table at rest; no
    records."""
    balls, flags = work.balls, work.flags
    balls[:] = 0.0
    for b in range(N_BALLS):
        on = on_table[b]
        x = positions[b, 0] if on else 0.0
        y = positions[b, 1] if on else 0.0
        balls[b, X], balls[b, Y] = x, y
        balls[b, TEND] = INF
        balls[b, BX0], balls[b, BY0], balls[b, BX1], balls[b, BY1] = x, y, x, y
        balls[b, SIDE] = 1.0 if x >= centre_line else -1.0
        balls[b, OWN_T] = INF
        balls[b, FALL_T] = INF
        flags[b, ON] = 1 if on else 0
        flags[b, PHASE] = RESTING
        flags[b, OWN_KIND] = OWN_PHASE
        flags[b, OWN_DATA] = -1
        flags[b, FALL_POCKET] = -1
    work.pairs[:] = INF
    work.records.counts[:] = 0


@njit
def set_up(work: Work, table: TableArrays, start: Start, paths: bool) -> None:
    """A run's start: the table at rest, the cue ball given its motion, every ball's phase."""
    balls, flags = work.balls, work.flags
    new_state(work, start.positions, start.on_table, table.centre_line)
    c = balls[start.cue]
    m = start.motion
    c[VX], c[VY], c[WX], c[WY], c[WZ] = m[0], m[1], m[2], m[3], m[4]
    for b in range(N_BALLS):
        if flags[b, ON]:
            start_phase(balls, flags, table.cloth, work.records, paths, b)


@njit
def rebase(balls: np.ndarray, flags: np.ndarray, cloth: np.ndarray, i: int, t: float) -> None:
    """Move ball i's reference state to time t along its current phase."""
    s = balls[i]
    dt = t - s[T0]
    if dt == 0.0:
        return
    ph = flags[i, PHASE]
    if ph != RESTING:
        ax, ay = s[AX], s[AY]
        vx, vy = s[VX], s[VY]
        s[X] += (vx + 0.5 * ax * dt) * dt
        s[Y] += (vy + 0.5 * ay * dt) * dt
        vx += ax * dt
        vy += ay * dt
        s[VX], s[VY] = vx, vy
        if ph == SLIDING:
            s[WX] += s[ALX] * dt
            s[WY] += s[ALY] * dt
        else:
            r = cloth[RADIUS]
            s[WX], s[WY] = -vy / r, vx / r
    s[WZ] = spin_after(cloth[SPIN_DECAY], s[WZ], dt)
    s[T0] = t


@njit
def start_phase(
    balls: np.ndarray, flags: np.ndarray, cloth: np.ndarray, rec: Records, paths: bool, i: int
) -> None:
    """Set ball i's phase law from its current state (reference time t0)."""
    s = balls[i]
    ph, ax, ay, alx, aly, dur = cloth_phase(cloth, s[VX], s[VY], s[WX], s[WY])
    flags[i, PHASE] = ph
    s[AX], s[AY], s[ALX], s[ALY] = ax, ay, alx, aly
    s[TEND] = s[T0] + dur
    x, y = s[X], s[Y]
    if ph == RESTING:
        s[VX] = s[VY] = s[WX] = s[WY] = 0.0
        s[BX0], s[BY0], s[BX1], s[BY1] = x, y, x, y
    else:
        s[BX0], s[BY0], s[BX1], s[BY1] = swept_box(x, y, s[VX], s[VY], ax, ay, dur)
    if paths:
        record_segment(rec, i, s[T0], x, y, s[VX], s[VY], ax, ay)


@njit
def stop(
    balls: np.ndarray, flags: np.ndarray, cloth: np.ndarray, rec: Records, paths: bool, i: int
) -> None:
    """Bring ball i to rest where it is (side spin goes on decaying); a ball at rest in a
    mouth, short of the fall edge, hangs there and stays in play."""
    s = balls[i]
    s[VX] = s[VY] = s[WX] = s[WY] = 0.0
    if flags[i, ON]:
        start_phase(balls, flags, cloth, rec, paths, i)


@njit
def end_phase(balls: np.ndarray, flags: np.ndarray, cloth: np.ndarray, i: int) -> None:
    """Snap the state exactly onto the next phase at the end of the current one."""
    rebase(balls, flags, cloth, i, balls[i, TEND])
    s = balls[i]
    r = cloth[RADIUS]
    if flags[i, PHASE] == SLIDING:
        s[WX], s[WY] = -s[VY] / r, s[VX] / r
    else:
        s[VX] = s[VY] = s[WX] = s[WY] = 0.0


@njit
def swept_box(
    x: float, y: float, vx: float, vy: float, ax: float, ay: float, dur: float
) -> tuple[float, float, float, float]:
    """Bounding box of the path ``p + v t + a t^2 / 2`` for t in [0, dur]."""
    x1 = x + (vx + 0.5 * ax * dur) * dur
    y1 = y + (vy + 0.5 * ay * dur) * dur
    lx, hx = min(x, x1), max(x, x1)
    ly, hy = min(y, y1), max(y, y1)
    if ax != 0.0 and 0.0 < -vx / ax < dur:
        t = -vx / ax
        xt = x + (vx + 0.5 * ax * t) * t
        lx, hx = min(lx, xt), max(hx, xt)
    if ay != 0.0 and 0.0 < -vy / ay < dur:
        t = -vy / ay
        yt = y + (vy + 0.5 * ay * t) * t
        ly, hy = min(ly, yt), max(hy, yt)
    return lx, ly, hx, hy


@njit
def energy(balls: np.ndarray, flags: np.ndarray, cloth: np.ndarray, t: float) -> float:
    """Total kinetic energy per unit mass at time t (diagnostic; nothing is moved)."""
    r = cloth[RADIUS]
    e = 0.0
    for b in range(N_BALLS):
        if not flags[b, ON]:
            continue
        s = balls[b]
        dt = t - s[T0]
        vx, vy = s[VX] + s[AX] * dt, s[VY] + s[AY] * dt
        if flags[b, PHASE] == SLIDING:
            wx, wy = s[WX] + s[ALX] * dt, s[WY] + s[ALY] * dt
        elif flags[b, PHASE] == ROLLING:
            wx, wy = -vy / r, vx / r
        else:
            wx, wy = s[WX], s[WY]
        wz = spin_after(cloth[SPIN_DECAY], s[WZ], dt)
        e += 0.5 * (vx * vx + vy * vy) + 0.2 * r * r * (wx * wx + wy * wy + wz * wz)
    return e
