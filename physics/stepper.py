"""The event loop: analytic motion between events, exact event times, billiards responses.

Each ball moves on a quadratic path within its cloth phase (:mod:`cloth`), so the engine never
integrates: it asks, for every ball, when its phase ends, when it first meets a cushion, jaw,
fall edge or the centre line, and for every pair when the balls touch (:mod:`detect`), jumps
to the earliest of these, resolves it (:mod:`resolve`) and re-plans only the balls it changed.
Pymunk holds the static table (cushion noses, jaw tips and facings, the pockets' holes) and
answers the broad phase: which of them a ball's swept box over its current phase can reach.

A ball whose centre passes a fall edge is over the hole: it drops once it has stayed there for
the time it takes to sink out of a jaw's reach (``TableSpec.fall_drop``), or when it leaves the
hole anywhere but back over the fall edge between the jaws (it met the pocket's back); back over
the edge in time, it lands on the shelf and plays on. A ball at rest short of the fall edge,
off the playing area, hangs in the mouth and stays in play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pymunk

from kinghill.physics.cloth import RESTING, ROLLING, SLIDING, Cloth
from kinghill.physics.detect import (
    INF,
    TIME_TOL,
    first_circle_contact,
    first_circle_exit,
    first_gap_closure,
    quadratic_roots,
)
from kinghill.physics.events import BallBall, BallCushion, CentreLine, Event, Pocketed
from kinghill.physics.geometry import TableGeometry
from kinghill.physics.names import N_BALLS, Cushion, Pocket
from kinghill.physics.resolve.ball_ball import BallBallModel, Motion
from kinghill.physics.resolve.ball_cushion import make_law
from kinghill.physics.spec import SPEC_CACHE_SIZE, TableSpec

PUSH_SPEED = 1e-3
"""Closing speed (m/s) under which a contact is a push rather than an impact: the sliding
ball(s) are brought to their rolling state at once and the balls leave with a common normal
speed (both only remove energy), instead of an endless train of ever smaller impacts. A ball
touching a cushion or jaw this slowly leans on it (:meth:`_Loop.lean`)."""
MAX_EVENTS = 20000
"""Safety cap on events per shot (a real shot has a few hundred at most)."""

_PHASE, _CUSHION, _POCKET, _CENTRE, _FALL, _LAND = 0, 1, 2, 3, 4, 5
Planned = tuple[float, int, Any]
"""A ball's next own event: (time, kind, what it meets)."""
_PAIRS = tuple((i, j) for i in range(N_BALLS) for j in range(i + 1, N_BALLS))
_PAIR_INDEX = {p: k for k, p in enumerate(_PAIRS)}
_PAIRS_OF = tuple(
    tuple((k, i if j == b else j) for k, (i, j) in enumerate(_PAIRS) if b in (i, j))
    for b in range(N_BALLS)
)


class Table:
    """Everything about one spec that the loop needs, built once and cached (Pymunk space too)."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.geometry = TableGeometry.from_spec(spec)
        self.cloth = Cloth(spec)
        self.ball_ball = BallBallModel(spec)
        self.ball_cushion = make_law(spec.cushion_law, spec.cushion_rubber)
        self.jaw = make_law(spec.jaw_law, spec.jaw_rubber)
        self.space = pymunk.Space()
        self.filter = pymunk.ShapeFilter()
        self.targets: dict[pymunk.Shape, tuple] = {}
        self.axes: dict[Pocket, tuple[float, float]] = {}
        body = self.space.static_body
        for el in self.geometry.elements:
            if el[0] == "line":
                shape: pymunk.Shape = pymunk.Segment(body, (el[2], el[3]), (el[4], el[5]), 0.0)
            else:
                shape = pymunk.Circle(body, el[4], (el[2], el[3]))
            self.targets[shape] = el
        for pocket, ps in self.geometry.pockets.items():
            shape = pymunk.Circle(body, ps.capture_radius, ps.capture_centre)
            self.targets[shape] = ("capture", pocket, *ps.capture_centre, ps.capture_radius)
            self.axes[pocket] = ps.axis
        self.space.add(*self.targets)
        self.fall_time = math.sqrt(2.0 * spec.fall_drop / spec.gravity)
        """How long a ball's centre must stay past a fall edge to sink out of reach (s)."""

    def back_over_edge(self, pocket: Pocket, x: float, y: float) -> bool:
        """Whether a ball leaving ``pocket``'s hole at (x, y) comes back over the fall edge onto
        the shelf (on the hole's near half, between the jaws), rather than meeting the pocket's
        back (anywhere else)."""
        cx, cy = self.geometry.pockets[pocket].capture_centre
        ax, ay = self.axes[pocket]
        return (x - cx) * ax + (y - cy) * ay < 0.0 and self.geometry.holds(x, y)

    @staticmethod
    def of(spec: TableSpec) -> Table:
        """The table of ``spec``, cached for the :data:`SPEC_CACHE_SIZE` most recent specs."""
        return _table_of(spec)


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def _table_of(spec: TableSpec) -> Table:
    return Table(spec)


@dataclass
class Run:
    """What one run of the loop produced."""

    positions: list[tuple[float, float]]
    on_table: list[bool]
    events: list[Event]
    duration: float
    steps: int
    segments: list[list[tuple[float, ...]]] | None = None
    """Per ball: ``(t0, x, y, vx, vy, ax, ay)`` at every change of its path (for trajectories)."""
    energies: list[float] = field(default_factory=list)
    """Total kinetic energy after each event (when asked for)."""
    pocket_times: list[float] = field(default_factory=list)


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
    return _Loop(Table.of(spec), positions, on_table, record_paths, record_energy).play(
        cue_ball, motion
    )


class _Loop:
    def __init__(
        self,
        table: Table,
        positions: list[tuple[float, float]],
        on_table: list[bool],
        record_paths: bool,
        record_energy: bool,
    ) -> None:
        self.t = table
        n = N_BALLS
        self.on = list(on_table)
        self.x = [p[0] if on_table[i] else 0.0 for i, p in enumerate(positions)]
        self.y = [p[1] if on_table[i] else 0.0 for i, p in enumerate(positions)]
        z = [0.0] * n
        self.vx, self.vy, self.wx, self.wy, self.wz = z[:], z[:], z[:], z[:], z[:]
        self.ax, self.ay, self.alx, self.aly = z[:], z[:], z[:], z[:]
        self.t0 = z[:]
        self.tend = [INF] * n
        self.phase = [RESTING] * n
        self.box = [(x, y, x, y) for x, y in zip(self.x, self.y, strict=True)]
        half = table.spec.centre_line_x
        self.side = [1.0 if x >= half else -1.0 for x in self.x]
        self.own: list[Planned] = [(INF, _PHASE, None)] * n
        self.falling: list[tuple[float, Any]] = [(INF, None)] * n
        """Per ball over a pocket's hole: when it has sunk out of reach, and the pocket."""
        self.pair = [INF] * len(_PAIRS)
        self.paths: list[list[tuple[float, ...]]] | None = None
        if record_paths:
            self.paths = [[] for _ in range(n)]
        self.energies: list[float] | None = [] if record_energy else None

    # ---- motion ------------------------------------------------------------------------------
    def rebase(self, i: int, t: float) -> None:
        """Move ball i's reference state to time t along its current phase."""
        dt = t - self.t0[i]
        if dt == 0.0:
            return
        ph = self.phase[i]
        if ph != RESTING:
            ax, ay = self.ax[i], self.ay[i]
            vx, vy = self.vx[i], self.vy[i]
            self.x[i] += (vx + 0.5 * ax * dt) * dt
            self.y[i] += (vy + 0.5 * ay * dt) * dt
            vx += ax * dt
            vy += ay * dt
            self.vx[i], self.vy[i] = vx, vy
            if ph == SLIDING:
                self.wx[i] += self.alx[i] * dt
                self.wy[i] += self.aly[i] * dt
            else:
                r = self.t.cloth.radius
                self.wx[i], self.wy[i] = -vy / r, vx / r
        self.wz[i] = self.t.cloth.spin_after(self.wz[i], dt)
        self.t0[i] = t

    def start_phase(self, i: int) -> None:
        """Set ball i's phase law from its current state (reference time t0)."""
        ph, ax, ay, alx, aly, dur = self.t.cloth.phase(
            self.vx[i], self.vy[i], self.wx[i], self.wy[i]
        )
        self.phase[i] = ph
        self.ax[i], self.ay[i], self.alx[i], self.aly[i] = ax, ay, alx, aly
        self.tend[i] = self.t0[i] + dur
        x, y = self.x[i], self.y[i]
        if ph == RESTING:
            self.vx[i] = self.vy[i] = self.wx[i] = self.wy[i] = 0.0
            self.box[i] = (x, y, x, y)
        else:
            self.box[i] = _swept_box(x, y, self.vx[i], self.vy[i], ax, ay, dur)
        if self.paths is not None:
            self.paths[i].append((self.t0[i], x, y, self.vx[i], self.vy[i], ax, ay))

    def stop(self, i: int) -> None:
        """Bring ball i to rest where it is (side spin goes on decaying); a ball at rest in a
        mouth, short of the fall edge, hangs there and stays in play."""
        self.vx[i] = self.vy[i] = self.wx[i] = self.wy[i] = 0.0
        if self.on[i]:
            self.start_phase(i)

    def end_phase(self, i: int) -> None:
        """Snap the state exactly onto the next phase at the end of the current one."""
        self.rebase(i, self.tend[i])
        r = self.t.cloth.radius
        if self.phase[i] == SLIDING:
            self.wx[i], self.wy[i] = -self.vy[i] / r, self.vx[i] / r
        else:
            self.vx[i] = self.vy[i] = self.wx[i] = self.wy[i] = 0.0

    # ---- planning ----------------------------------------------------------------------------
    def plan_own(self, i: int, now: float) -> None:
        """Ball i's next phase end, cushion/jaw contact, fall edge (passing it or coming back
        over it) or centre-line crossing; a ball over a hole drops once it has sunk."""
        gone, falling_into = self.falling[i]
        if self.phase[i] == RESTING:
            self.own[i] = (gone, _POCKET, falling_into) if gone < INF else (INF, _PHASE, None)
            return
        best: Planned = (self.tend[i], _PHASE, None)
        if gone < best[0]:
            best = (gone, _POCKET, falling_into)
        horizon = self.tend[i] - now
        dt = now - self.t0[i]
        ax, ay = self.ax[i], self.ay[i]
        vx, vy = self.vx[i] + ax * dt, self.vy[i] + ay * dt
        x = self.x[i] + (self.vx[i] + 0.5 * ax * dt) * dt
        y = self.y[i] + (self.vy[i] + 0.5 * ay * dt) * dt
        R = self.t.cloth.radius
        x0, y0, x1, y1 = self.box[i]
        bb = pymunk.BB(x0 - R, y0 - R, x1 + R, y1 + R)
        for shape in self.t.space.bb_query(bb, self.t.filter):
            el = self.t.targets[shape]
            kind = el[0]
            if kind == "line":
                _, cushion, px, py, qx, qy, nx, ny, jaw = el
                s0 = (x - px) * nx + (y - py) * ny - R
                tc = first_gap_closure(
                    s0, vx * nx + vy * ny, 0.5 * (ax * nx + ay * ny), min(horizon, best[0] - now)
                )
                if tc < INF:
                    # the contact point must lie on the segment
                    cx = x + (vx + 0.5 * ax * tc) * tc - px
                    cy = y + (vy + 0.5 * ay * tc) * tc - py
                    ex, ey = qx - px, qy - py
                    u = cx * ex + cy * ey
                    if 0.0 <= u <= ex * ex + ey * ey and now + tc < best[0]:
                        best = (now + tc, _CUSHION, (cushion, nx, ny, None, jaw))
            elif kind == "circle" or falling_into is None:
                reach = el[4] + R if kind == "circle" else el[4]
                tc = first_circle_contact(
                    x - el[2], y - el[3], vx, vy, ax, ay, reach, min(horizon, best[0] - now)
                )
                if now + tc < best[0]:
                    if kind == "circle":
                        best = (now + tc, _CUSHION, (el[1], 0.0, 0.0, (el[2], el[3]), True))
                    else:
                        best = (now + tc, _FALL, el[1])
            elif el[1] == falling_into:
                tc = first_circle_exit(
                    x - el[2], y - el[3], vx, vy, ax, ay, el[4], min(horizon, best[0] - now)
                )
                if now + tc < best[0]:
                    best = (now + tc, _LAND, el[1])
        # centre line: the first time x crosses L/2 moving to the other side
        side = self.side[i]
        for tc in quadratic_roots(x - self.t.spec.centre_line_x, vx, 0.5 * ax):
            if tc >= 0.0 and now + tc < best[0] and (vx + ax * tc) * side < 0.0:
                best = (now + tc, _CENTRE, None)
                break
        self.own[i] = best

    def plan_pair(self, k: int, i: int, j: int, now: float) -> None:
        """When balls i and j next touch (inf if not within both balls' current phases)."""
        if (
            not self.on[j]
            or not self.on[i]
            or (self.phase[i] == RESTING and self.phase[j] == RESTING)
        ):
            self.pair[k] = INF
            return
        bi, bj = self.box[i], self.box[j]
        d = 2.0 * self.t.cloth.radius
        if bi[0] > bj[2] + d or bj[0] > bi[2] + d or bi[1] > bj[3] + d or bj[1] > bi[3] + d:
            self.pair[k] = INF
            return
        horizon = min(self.tend[i], self.tend[j]) - now
        dti, dtj = now - self.t0[i], now - self.t0[j]
        axi, ayi, axj, ayj = self.ax[i], self.ay[i], self.ax[j], self.ay[j]
        xi = self.x[i] + (self.vx[i] + 0.5 * axi * dti) * dti
        yi = self.y[i] + (self.vy[i] + 0.5 * ayi * dti) * dti
        xj = self.x[j] + (self.vx[j] + 0.5 * axj * dtj) * dtj
        yj = self.y[j] + (self.vy[j] + 0.5 * ayj * dtj) * dtj
        vx = self.vx[j] + axj * dtj - self.vx[i] - axi * dti
        vy = self.vy[j] + ayj * dtj - self.vy[i] - ayi * dti
        self.pair[k] = now + first_circle_contact(
            xj - xi, yj - yi, vx, vy, axj - axi, ayj - ayi, d, horizon
        )

    def replan(self, balls: tuple[int, ...], now: float) -> None:
        for i in balls:
            self.plan_own(i, now)
        for i in balls:
            for k, j in _PAIRS_OF[i]:
                if j not in balls or j > i:
                    self.plan_pair(k, i, j, now)

    # ---- the loop ----------------------------------------------------------------------------
    def play(self, cue_ball: int, motion: Motion) -> Run:
        i = cue_ball
        self.vx[i], self.vy[i], self.wx[i], self.wy[i], self.wz[i] = motion
        for b in range(N_BALLS):
            if self.on[b]:
                self.start_phase(b)
        self.replan(tuple(b for b in range(N_BALLS) if self.on[b]), 0.0)
        events: list[Event] = []
        now = 0.0
        if self.energies is not None:
            self.energies.append(self.energy(0.0))
        steps = 0
        own, pair = self.own, self.pair
        while True:
            steps += 1
            if steps > MAX_EVENTS:
                raise RuntimeError("physics: event cap exceeded (a stuck contact?)")
            b, ob = 0, own[0]
            for n in range(1, N_BALLS):
                if own[n][0] < ob[0]:
                    b, ob = n, own[n]
            tp = min(pair)
            if tp < ob[0]:
                k = pair.index(tp)
                t = now = tp
                i, j = _PAIRS[k]
                self.rebase(i, t)
                self.rebase(j, t)
                self.collide(i, j, events, t)
                self.start_phase(i)
                self.start_phase(j)
                self.replan((i, j), t)
                if pair[k] <= t + TIME_TOL:
                    # still closing after the response (a press the rules above missed): stop
                    self.stop(i)
                    self.stop(j)
                    self.replan((i, j), t)
            else:
                t, kind, data = ob
                if t == INF:
                    break
                now = t
                if kind == _PHASE:
                    self.end_phase(b)
                    self.start_phase(b)
                    self.replan((b,), t)
                    continue
                if kind == _CENTRE:
                    events.append(CentreLine(b, t))
                    self.side[b] = -self.side[b]
                    self.plan_own(b, t)
                    continue
                if kind == _POCKET:
                    self.rebase(b, t)
                    self.drop(b, data, events, t)
                    continue
                if kind in (_FALL, _LAND):
                    # past the fall edge the ball sinks; back over it in time, it is on the slate
                    # (unless it left the hole on the far side: then it met the pocket's back)
                    self.rebase(b, t)
                    if kind == _FALL:
                        self.falling[b] = (t + self.t.fall_time, data)
                    elif self.t.back_over_edge(data, self.x[b], self.y[b]):
                        self.falling[b] = (INF, None)
                    else:
                        self.drop(b, data, events, t)
                        continue
                    self.plan_own(b, t)
                    continue
                self.rebase(b, t)
                self.bounce(b, data, events, t)
                self.start_phase(b)
                self.replan((b,), t)
                if own[b][0] <= t + TIME_TOL and own[b][2] == data:
                    # still pressed into the same cushion or jaw after the response: it stops
                    self.stop(b)
                    self.replan((b,), t)
            if self.energies is not None:
                self.energies.append(self.energy(now))
        duration = max(
            [0.0]
            + [e.t for e in events[-1:]]
            + [
                self.t0[b] + abs(self.wz[b]) / self.t.cloth.spin_decay
                for b in range(N_BALLS)
                if self.on[b]
            ]
        )
        return Run(
            positions=[(self.x[b], self.y[b]) for b in range(N_BALLS)],
            on_table=self.on,
            events=events,
            duration=duration,
            steps=steps,
            segments=self.paths,
            energies=self.energies or [],
        )

    def drop(self, b: int, pocket: Pocket, events: list[Event], t: float) -> None:
        """Ball b falls into ``pocket`` at time t and leaves the game."""
        self.on[b] = False
        self.phase[b] = RESTING
        self.falling[b] = (INF, None)
        self.wz[b] = 0.0
        events.append(Pocketed(b, Pocket(pocket), t))
        for k, _ in _PAIRS_OF[b]:
            self.pair[k] = INF
        self.own[b] = (INF, _PHASE, None)
        if self.paths is not None:
            self.paths[b].append((t, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0))

    def collide(self, i: int, j: int, events: list[Event], t: float) -> None:
        dx, dy = self.x[j] - self.x[i], self.y[j] - self.y[i]
        d = math.sqrt(dx * dx + dy * dy)
        nx, ny = dx / d, dy / d
        a = (self.vx[i], self.vy[i], self.wx[i], self.wy[i], self.wz[i])
        b = (self.vx[j], self.vy[j], self.wx[j], self.wy[j], self.wz[j])
        striker_i = a[0] * nx + a[1] * ny >= -(b[0] * nx + b[1] * ny)
        events.append(BallBall(i, j, t) if striker_i else BallBall(j, i, t))
        closing = (a[0] - b[0]) * nx + (a[1] - b[1]) * ny
        a, b = self.t.ball_ball.solve(nx, ny, a, b)
        self.vx[i], self.vy[i], self.wx[i], self.wy[i], self.wz[i] = a
        self.vx[j], self.vy[j], self.wx[j], self.wy[j], self.wz[j] = b
        if closing < PUSH_SPEED:
            self.roll_now(i)
            self.roll_now(j)
            closing = (self.vx[i] - self.vx[j]) * nx + (self.vy[i] - self.vy[j]) * ny
            if closing > 0.0:
                h = 0.5 * closing
                self.vx[i] -= h * nx
                self.vy[i] -= h * ny
                self.vx[j] += h * nx
                self.vy[j] += h * ny
                self.wx[i], self.wy[i] = (
                    -self.vy[i] / self.t.cloth.radius,
                    self.vx[i] / self.t.cloth.radius,
                )
                self.wx[j], self.wy[j] = (
                    -self.vy[j] / self.t.cloth.radius,
                    self.vx[j] / self.t.cloth.radius,
                )
            if self.pressing(i, j, nx, ny):
                for ball in (i, j):
                    self.vx[ball] = self.vy[ball] = self.wx[ball] = self.wy[ball] = 0.0

    def pressing(self, i: int, j: int, nx: float, ny: float) -> bool:
        """Whether two touching rolling balls' decelerations would push them into each other."""
        c = self.t.cloth
        rel = 0.0
        for b, sign in ((i, 1.0), (j, -1.0)):
            speed = math.hypot(self.vx[b], self.vy[b])
            if speed > 0.0:
                rel -= sign * c.roll_acc * (self.vx[b] * nx + self.vy[b] * ny) / speed
        return rel > 0.0

    def roll_now(self, i: int) -> None:
        """Jump a sliding ball to the state its slide would end in (v - 2/7 u, rolling)."""
        r = self.t.cloth.radius
        ux, uy = self.vx[i] - r * self.wy[i], self.vy[i] + r * self.wx[i]
        self.vx[i] -= ux * (2.0 / 7.0)
        self.vy[i] -= uy * (2.0 / 7.0)
        self.wx[i], self.wy[i] = -self.vy[i] / r, self.vx[i] / r

    def bounce(self, i: int, data: tuple, events: list[Event], t: float) -> None:
        cushion, nx, ny, centre, jaw = data
        if centre is not None:
            dx, dy = self.x[i] - centre[0], self.y[i] - centre[1]
            d = math.sqrt(dx * dx + dy * dy)
            nx, ny = dx / d, dy / d
        events.append(BallCushion(i, Cushion(cushion), t))
        vn = self.vx[i] * nx + self.vy[i] * ny
        if vn > -PUSH_SPEED:
            self.lean(i, nx, ny, vn)
            return
        m = (self.vx[i], self.vy[i], self.wx[i], self.wy[i], self.wz[i])
        m = (self.t.jaw if jaw else self.t.ball_cushion).solve(nx, ny, m)
        self.vx[i], self.vy[i], self.wx[i], self.wy[i], self.wz[i] = m

    def lean(self, i: int, nx: float, ny: float, vn: float) -> None:
        """A touch slower than ``PUSH_SPEED`` (a ball resting on or running along a cushion): the
        cushion takes the inward normal speed and, if cloth friction would drive the ball on into
        it, the spin that does so; the ball runs along the cushion instead of an endless train of
        ever smaller bounces. Both only remove energy."""
        self.vx[i] -= vn * nx
        self.vy[i] -= vn * ny
        # slip u = v - R (w x z); its normal part is now -R (w . t), t = (-ny, nx)
        wt = -ny * self.wx[i] + nx * self.wy[i]
        if wt < 0.0:  # slip away from the cushion: cloth friction pushes the ball into it
            self.wx[i] += wt * ny
            self.wy[i] -= wt * nx

    def energy(self, t: float) -> float:
        """Total kinetic energy per unit mass at time t (diagnostic; nothing is moved)."""
        cloth = self.t.cloth
        r = cloth.radius
        e = 0.0
        for b in range(N_BALLS):
            if not self.on[b]:
                continue
            dt = t - self.t0[b]
            vx, vy = self.vx[b] + self.ax[b] * dt, self.vy[b] + self.ay[b] * dt
            if self.phase[b] == SLIDING:
                wx, wy = self.wx[b] + self.alx[b] * dt, self.wy[b] + self.aly[b] * dt
            elif self.phase[b] == ROLLING:
                wx, wy = -vy / r, vx / r
            else:
                wx, wy = self.wx[b], self.wy[b]
            wz = cloth.spin_after(self.wz[b], dt)
            e += 0.5 * (vx * vx + vy * vy) + 0.2 * r * r * (wx * wx + wy * wy + wz * wz)
        return e


def _swept_box(
    x: float, y: float, vx: float, vy: float, ax: float, ay: float, dur: float
) -> tuple[float, float, float, float]:
    """Bounding box of the path ``p + v t + a t^2 / 2`` for t in [0, dur]."""
    xs = [x, x + (vx + 0.5 * ax * dur) * dur]
    ys = [y, y + (vy + 0.5 * ay * dur) * dur]
    if ax != 0.0 and 0.0 < -vx / ax < dur:
        t = -vx / ax
        xs.append(x + (vx + 0.5 * ax * t) * t)
    if ay != 0.0 and 0.0 < -vy / ay < dur:
        t = -vy / ay
        ys.append(y + (vy + 0.5 * ay * t) * t)
    return (min(xs), min(ys), max(xs), max(ys))
