"""Fixed-step reference mode: the same balls, cloth and contact models, stepped at a fixed dt.

Every step moves all balls along their analytic cloth paths by dt; contacts are noticed only
when the bodies already overlap at the end of a step (as in a fixed-step integrator) and are
resolved there, with the normal taken from the overlapping positions. Comparing it with the
event-driven engine shows what exact contact times buy (the benchmark reports both).
"""

from __future__ import annotations

import math

import pymunk

from kinghill.physics.cloth import RESTING
from kinghill.physics.detect import INF
from kinghill.physics.events import CentreLine, Event
from kinghill.physics.names import N_BALLS
from kinghill.physics.resolve.ball_ball import Motion
from kinghill.physics.stepper import Run, Table, _Loop


def run_fixed_step(
    table: Table,
    positions: list[tuple[float, float]],
    on_table: list[bool],
    cue_ball: int,
    motion: Motion,
    dt: float,
) -> Run:
    """Play the shot with contacts checked every ``dt`` seconds."""
    loop = _Loop(table, positions, on_table, False, False)
    i = cue_ball
    loop.vx[i], loop.vy[i], loop.wx[i], loop.wy[i], loop.wz[i] = motion
    for b in range(N_BALLS):
        if loop.on[b]:
            loop.start_phase(b)
    events: list[Event] = []
    R = table.cloth.radius
    half = table.spec.centre_line_x
    t, steps = 0.0, 0
    while any(
        loop.on[b] and (loop.phase[b] != RESTING or loop.falling[b][1] is not None)
        for b in range(N_BALLS)
    ):
        steps += 1
        t = steps * dt
        moving = [
            b
            for b in range(N_BALLS)
            if loop.on[b] and (loop.phase[b] != RESTING or loop.falling[b][1] is not None)
        ]
        for b in moving:
            while loop.tend[b] <= t and loop.phase[b] != RESTING:
                loop.end_phase(b)
                loop.start_phase(b)
            loop.rebase(b, t)
            side = 1.0 if loop.x[b] >= half else -1.0
            if side != loop.side[b]:
                loop.side[b] = side
                events.append(CentreLine(b, t))
        changed: set[int] = set()
        for b in moving:
            if loop.on[b]:
                _touch_table(loop, b, events, t, R, changed)
        for a in range(N_BALLS):
            for c in range(a + 1, N_BALLS):
                if not (loop.on[a] and loop.on[c]):
                    continue
                dx, dy = loop.x[c] - loop.x[a], loop.y[c] - loop.y[a]
                if dx * dx + dy * dy < 4 * R * R:
                    closing = (loop.vx[a] - loop.vx[c]) * dx + (loop.vy[a] - loop.vy[c]) * dy
                    if closing > 0.0:
                        loop.rebase(a, t)
                        loop.rebase(c, t)
                        loop.collide(a, c, events, t)
                        changed.update((a, c))
        for b in sorted(changed):
            if loop.on[b]:
                loop.start_phase(b)
    return Run(
        positions=[(loop.x[b], loop.y[b]) for b in range(N_BALLS)],
        on_table=loop.on,
        events=events,
        duration=t,
        steps=steps,
    )


def _falls(loop: _Loop, b: int, capture: tuple, t: float, over: bool) -> bool:
    """Track ball b over the hole of ``capture``: whether it has sunk out of reach by ``t``."""
    gone, pocket = loop.falling[b]
    if pocket is None and over:
        loop.falling[b] = (t + loop.t.fall_time, capture[1])
    elif pocket == capture[1] and not over:
        if not loop.t.back_over_edge(capture[1], loop.x[b], loop.y[b]):
            return True  # left the hole on its far side: the pocket's back
        loop.falling[b] = (INF, None)
    return pocket == capture[1] and over and t >= gone


def _touch_table(
    loop: _Loop, b: int, events: list[Event], t: float, R: float, changed: set[int]
) -> None:
    """Cushion, jaw or capture contacts of ball b at the end of a step."""
    x, y = loop.x[b], loop.y[b]
    table = loop.t
    for shape in table.space.bb_query(pymunk.BB(x - R, y - R, x + R, y + R), table.filter):
        el = table.targets[shape]
        if el[0] == "capture":
            if _falls(loop, b, el, t, math.hypot(x - el[2], y - el[3]) < el[4]):
                loop.drop(b, el[1], events, t)
                return
        elif el[0] == "line":
            _, cushion, px, py, qx, qy, nx, ny, jaw = el
            ex, ey = qx - px, qy - py
            u = (x - px) * ex + (y - py) * ey
            if (
                (x - px) * nx + (y - py) * ny < R
                and 0.0 <= u <= ex * ex + ey * ey
                and loop.vx[b] * nx + loop.vy[b] * ny < 0.0
            ):
                loop.bounce(b, (cushion, nx, ny, None, jaw), events, t)
                changed.add(b)
        else:
            d = math.hypot(x - el[2], y - el[3])
            if d < R + el[4] and loop.vx[b] * (x - el[2]) + loop.vy[b] * (y - el[3]) < 0.0:
                loop.bounce(b, (el[1], 0.0, 0.0, (el[2], el[3]), True), events, t)
                changed.add(b)
