"""The event loop: analytic motion between events, exact event times, billiards responses.

Each ball moves on a quadratic path within its cloth phase (:mod:`cloth`), so the engine never
integrates: it asks, for every ball, when its phase ends, when it first meets a cushion, jaw,
fall edge or the centre line, and for every pair when the balls touch (:mod:`detect`), jumps
to the earliest of these, resolves it (:mod:`resolve`) and re-plans only the balls it changed.
Pymunk holds the static table (cushion noses, jaw tips and facings, the pockets' holes): the
kernel reads its shapes' bounding boxes, in the order of Pymunk's tree, for the broad phase
(which of them a ball's swept box over its current phase can reach).

The loop is one compiled kernel (:mod:`kinghill.physics.jit`) over arrays: each ball's state is
a row of ``balls`` (floats, columns :data:`X` ...) and ``flags`` (ints, :data:`ON` ...), the
table a tuple of arrays (:attr:`Table.kernel`); :func:`run` is its Python face.

A ball whose centre passes a fall edge is over the hole: it drops once it has stayed there for
the time it takes to sink out of a jaw's reach (``TableSpec.fall_drop``), or when it leaves the
hole anywhere but back over the fall edge between the jaws (it met the pocket's back); back over
the edge in time, it lands on the shelf and plays on. A ball at rest short of the fall edge,
off the playing area, hangs in the mouth and stays in play.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import pymunk

from kinghill.physics.cloth import (
    RADIUS,
    RESTING,
    ROLL_ACC,
    ROLLING,
    SLIDING,
    SPIN_DECAY,
    Cloth,
    spin_after,
)
from kinghill.physics.cloth import phase as cloth_phase
from kinghill.physics.detect import (
    INF,
    TIME_TOL,
    first_circle_contact,
    first_circle_exit,
    first_gap_closure,
    quadratic_roots,
)
from kinghill.physics.events import BallBall, BallCushion, CentreLine, Event, Pocketed
from kinghill.physics.geometry import GeometryArrays, TableGeometry, hanging_pocket
from kinghill.physics.jit import njit
from kinghill.physics.names import N_BALLS, Cushion, Pocket
from kinghill.physics.norm import hypot
from kinghill.physics.resolve.ball_ball import BallBallModel, Motion, impact
from kinghill.physics.resolve.ball_cushion import make_law
from kinghill.physics.resolve.ball_cushion.impact import rubber_impact
from kinghill.physics.spec import SPEC_CACHE_SIZE, TableSpec

PUSH_SPEED = 1e-3
"""Closing speed (m/s) under which a contact is a push rather than an impact: the sliding
ball(s) are brought to their rolling state at once and the balls leave with a common normal
speed (both only remove energy), instead of an endless train of ever smaller impacts. A ball
touching a cushion or jaw this slowly leans on it (:func:`_lean`)."""
MAX_EVENTS = 20000
"""Safety cap on events per shot (a real shot has a few hundred at most)."""

_PHASE, _CUSHION, _POCKET, _CENTRE, _FALL, _LAND = 0, 1, 2, 3, 4, 5
"""Kinds of a ball's next own event."""
X, Y, VX, VY, WX, WY, WZ, AX, AY, ALX, ALY, T0, TEND, BX0, BY0, BX1, BY1, SIDE = range(18)
OWN_T, FALL_T = 18, 19
"""Columns of ``balls``: position, velocity, spin, the phase's accelerations, the reference
time and the phase's end, the swept box, the side of the centre line, the time of the next own
event, when a ball over a hole has sunk (inf: not over one)."""
N_FLOATS = 20
ON, PHASE, OWN_KIND, OWN_DATA, FALL_POCKET = range(5)
"""Columns of ``flags``: on the table, the cloth phase, the next own event's kind and what it
meets (an element's row, a pocket, or -1), the pocket a ball is over (-1: none)."""
N_INTS = 5
LINE, CIRCLE, CAPTURE = 0, 1, 2
"""Kinds of the table's elements (column 0 of ``elements``): a cushion or facing line (the id
of its cushion, ``px, py, qx, qy, nx, ny, jaw``), a jaw tip (cushion, ``cx, cy, r``), a pocket's
hole (pocket, ``cx, cy, r``); columns 9-12 hold Pymunk's bounding box."""
BALL_BALL, BALL_CUSHION, POCKETED, CENTRE_LINE = 0, 1, 2, 3
"""Kinds of the events the kernel records (``(kind, ball, other ball / cushion / pocket)``)."""
_PAIRS = np.array([(i, j) for i in range(N_BALLS) for j in range(i + 1, N_BALLS)])
_PAIRS_OF = np.array(
    [
        [(k, i if j == b else j) for k, (i, j) in enumerate(_PAIRS.tolist()) if b in (i, j)]
        for b in range(N_BALLS)
    ]
)
"""Per ball: the pairs it is in, as (pair, other ball)."""
_CUSHIONS, _POCKETS = tuple(Cushion), tuple(Pocket)

TableArrays = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    GeometryArrays,
]
"""A table as the kernel reads it: cloth, ball-ball model, cushion law, jaw law, elements,
pockets (per id: capture centre, axis), scalars (centre line, fall time), geometry."""


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
        self.kernel: TableArrays = (
            self.cloth.params,
            self.ball_ball.params,
            self.ball_cushion.params,
            self.jaw.params,
            self._elements(),
            np.array([(*self.geometry.pockets[p].capture_centre, *self.axes[p]) for p in Pocket]),
            np.array([spec.centre_line_x, self.fall_time]),
            self.geometry.arrays,
        )
        """The table as the kernel reads it (:data:`TableArrays`)."""

    def _elements(self) -> np.ndarray:
        """The elements (:data:`LINE` ...) in the order in which Pymunk's tree visits them, so
        that the kernel's broad phase meets them as a Pymunk box query would list them."""
        whole = pymunk.BB(-1e9, -1e9, 1e9, 1e9)
        rows = []
        for shape in self.space.bb_query(whole, pymunk.ShapeFilter()):
            el = self.targets[shape]
            bb = (shape.bb.left, shape.bb.bottom, shape.bb.right, shape.bb.top)
            if el[0] == "line":
                data = [LINE, int(el[1]), *el[2:8], float(el[8])]
            else:
                data = [CIRCLE if el[0] == "circle" else CAPTURE, int(el[1]), *el[2:5], 0, 0, 0, 0]
            rows.append(data + list(bb))
        return np.array(rows, dtype=np.float64)

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
    cushion_impacts: list[tuple[Motion, Motion]] = field(default_factory=list)
    """The motion before and after each impact a cushion or jaw law resolved (with paths)."""


@dataclass
class RawRun:
    """What the kernel returns, as arrays: final positions (8 x 2; where a ball left the table
    for one that did), on the table, the events (``kinds_balls``: kind, ball, other;
    ``times``), the path segments (``ball, t0, x, y, vx, vy, ax, ay`` rows, when asked for),
    energies, steps and duration."""

    positions: np.ndarray
    on_table: np.ndarray
    kinds_balls: np.ndarray
    times: np.ndarray
    segments: np.ndarray
    energies: np.ndarray
    impacts: np.ndarray
    """Cushion and jaw impacts the law resolved (when paths are recorded): the motion before
    and after, ``(vx, vy, wx, wy, wz)`` twice a row."""
    steps: int
    duration: float

    def events(self) -> list[Event]:
        """The event log as :mod:`events` objects."""
        out: list[Event] = []
        for (kind, a, b), t in zip(self.kinds_balls.tolist(), self.times.tolist(), strict=True):
            if kind == BALL_BALL:
                out.append(BallBall(a, b, t))
            elif kind == BALL_CUSHION:
                out.append(BallCushion(a, _CUSHIONS[b], t))
            elif kind == POCKETED:
                out.append(Pocketed(a, _POCKETS[b], t))
            else:
                out.append(CentreLine(a, t))
        return out

    def paths(self) -> list[list[tuple[float, ...]]]:
        """Per ball, its segments ``(t0, x, y, vx, vy, ax, ay)`` in order."""
        out: list[list[tuple[float, ...]]] = [[] for _ in range(N_BALLS)]
        for row in self.segments.tolist():
            out[int(row[0])].append(tuple(row[1:]))
        return out


def run_raw(
    table: Table,
    positions: np.ndarray,
    on_table: np.ndarray,
    cue_ball: int,
    motion: Motion,
    *,
    record_paths: bool = False,
    record_energy: bool = False,
) -> RawRun:
    """Play from ``positions`` (8 x 2) with ``cue_ball`` given ``motion`` until every ball is at
    rest, in the compiled kernel; the arrays as it returns them."""
    pos = np.asarray(positions, dtype=np.float64)
    on = np.asarray(on_table, dtype=np.bool_)
    return play_in(_play, table.kernel, pos, on, cue_ball, *motion, record_paths, record_energy)


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
    raw = run_raw(
        Table.of(spec),
        np.array(positions, dtype=np.float64),
        np.array(on_table, dtype=np.bool_),
        cue_ball,
        motion,
        record_paths=record_paths,
        record_energy=record_energy,
    )
    return Run(
        positions=[(x, y) for x, y in raw.positions.tolist()],
        on_table=raw.on_table.tolist(),
        events=raw.events(),
        duration=raw.duration,
        steps=raw.steps,
        segments=raw.paths() if record_paths else None,
        energies=raw.energies.tolist(),
        cushion_impacts=[(tuple(m[:5]), tuple(m[5:])) for m in raw.impacts.tolist()],
    )


# ---- the kernel: state ------------------------------------------------------------------------
Records = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""What a run records: events (kind, ball, other), their times, path segments, energies, the
counts of these four and of the cushion impacts (``counts[0..3]``), the cushion impacts."""


class Workspace:
    """The arrays one run works in, allocated once per thread and reused (the kernel fills
    them; allocating them per shot would cost more than a short shot's physics)."""

    def __init__(self, events: int = 1024, segments: int = 2048) -> None:
        self.balls = np.zeros((N_BALLS, N_FLOATS))
        self.flags = np.zeros((N_BALLS, N_INTS), dtype=np.int64)
        self.pairs = np.zeros(len(_PAIRS))
        self.kinds = np.zeros((events, 3), dtype=np.int64)
        self.times = np.zeros(events)
        self.segments = np.zeros((segments, 8))
        self.energies = np.zeros(events + 1)
        self.counts = np.zeros(4, dtype=np.int64)
        self.impacts = np.zeros((events, 10))

    @property
    def records(self) -> Records:
        """The record buffers as the kernel takes them."""
        return (self.kinds, self.times, self.segments, self.energies, self.counts, self.impacts)

    def grown(self) -> Workspace:
        """This thread's workspace replaced by one with twice the room for records."""
        work = Workspace(2 * self.kinds.shape[0], 2 * self.segments.shape[0])
        _WORKSPACES.work = work
        return work

    def result(self, steps: int, duration: float) -> RawRun:
        """The run just played, copied out of the buffers."""
        n, m, k, c = self.counts.tolist()
        return RawRun(
            positions=self.balls[:, X : Y + 1].copy(),
            on_table=self.flags[:, ON] != 0,
            kinds_balls=self.kinds[:n].copy(),
            times=self.times[:n].copy(),
            segments=self.segments[:m].copy(),
            energies=self.energies[:k].copy(),
            impacts=self.impacts[:c].copy(),
            steps=steps,
            duration=duration,
        )


_WORKSPACES = threading.local()


def workspace() -> Workspace:
    """This thread's workspace (made on first use)."""
    work: Workspace | None = getattr(_WORKSPACES, "work", None)
    if work is None:
        work = _WORKSPACES.work = Workspace()
    return work


def play_in(kernel: Callable[..., tuple[bool, int, float]], *args: Any) -> RawRun:
    """Run ``kernel(balls, flags, pairs, records, *args)`` in this thread's workspace, again
    in a bigger one if the records ran out of room (the run is deterministic: the same)."""
    work = workspace()
    while True:
        done, steps, duration = kernel(work.balls, work.flags, work.pairs, work.records, *args)
        if done:
            return work.result(steps, duration)
        work = work.grown()


@njit
def new_state(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    rec: Records,
    positions: np.ndarray,
    on_table: np.ndarray,
    centre_line: float,
) -> None:
    """Set ``balls``, ``flags`` and the pairs' contact times to a table at rest; no records."""
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
        flags[b, OWN_KIND] = _PHASE
        flags[b, OWN_DATA] = -1
        flags[b, FALL_POCKET] = -1
    pairs[:] = INF
    rec[4][:] = 0


@njit
def set_up(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    rec: Records,
    table: TableArrays,
    positions: np.ndarray,
    on_table: np.ndarray,
    cue: int,
    vx: float,
    vy: float,
    wx: float,
    wy: float,
    wz: float,
    paths: bool,
) -> None:
    """A run's start: the table at rest, the cue ball given its motion, every ball's phase."""
    new_state(balls, flags, pairs, rec, positions, on_table, table[6][0])
    c = balls[cue]
    c[VX], c[VY], c[WX], c[WY], c[WZ] = vx, vy, wx, wy, wz
    for b in range(N_BALLS):
        if flags[b, ON]:
            start_phase(balls, flags, table[0], rec, paths, b)


@njit
def full(rec: Records, paths: bool, energy: bool, events: int) -> bool:
    """Whether the record buffers lack room for one more step's records (``events`` events
    among them)."""
    counts = rec[4]
    return (
        counts[0] + events > rec[0].shape[0]
        or (paths and counts[1] + 2 * N_BALLS + 8 > rec[2].shape[0])
        or (energy and counts[2] + 2 > rec[3].shape[0])
        or (paths and counts[3] + 2 > rec[5].shape[0])
    )


@njit
def _event(rec: Records, kind: int, a: int, b: int, t: float) -> None:
    n = rec[4][0]
    rec[0][n, 0], rec[0][n, 1], rec[0][n, 2] = kind, a, b
    rec[1][n] = t
    rec[4][0] = n + 1


@njit
def _segment(
    rec: Records, b: int, t0: float, x: float, y: float, vx: float, vy: float, ax: float, ay: float
) -> None:
    n = rec[4][1]
    row = rec[2][n]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = b, t0, x, y, vx, vy, ax, ay
    rec[4][1] = n + 1


# ---- the kernel: motion -----------------------------------------------------------------------
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
        s[BX0], s[BY0], s[BX1], s[BY1] = _swept_box(x, y, s[VX], s[VY], ax, ay, dur)
    if paths:
        _segment(rec, i, s[T0], x, y, s[VX], s[VY], ax, ay)


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
def _swept_box(
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


# ---- the kernel: planning ---------------------------------------------------------------------
@njit
def _overlaps(el: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether element ``el``'s box meets the box (x0, y0)-(x1, y1) (Pymunk's test)."""
    return el[9] <= x1 and x0 <= el[11] and el[10] <= y1 and y0 <= el[12]


@njit
def plan_own(balls: np.ndarray, flags: np.ndarray, table: TableArrays, i: int, now: float) -> None:
    """Ball i's next phase end, cushion/jaw contact, fall edge (passing it or coming back
    over it) or centre-line crossing; a ball over a hole drops once it has sunk."""
    s, f = balls[i], flags[i]
    gone, falling_into = s[FALL_T], f[FALL_POCKET]
    if f[PHASE] == RESTING:
        if gone < INF:
            s[OWN_T], f[OWN_KIND], f[OWN_DATA] = gone, _POCKET, falling_into
        else:
            s[OWN_T], f[OWN_KIND], f[OWN_DATA] = INF, _PHASE, -1
        return
    bt, bk, bd = s[TEND], _PHASE, -1
    if gone < bt:
        bt, bk, bd = gone, _POCKET, falling_into
    horizon = s[TEND] - now
    dt = now - s[T0]
    ax, ay = s[AX], s[AY]
    vx, vy = s[VX] + ax * dt, s[VY] + ay * dt
    x = s[X] + (s[VX] + 0.5 * ax * dt) * dt
    y = s[Y] + (s[VY] + 0.5 * ay * dt) * dt
    R = table[0][RADIUS]
    elements = table[4]
    qx0, qy0, qx1, qy1 = s[BX0] - R, s[BY0] - R, s[BX1] + R, s[BY1] + R
    for e in range(elements.shape[0]):
        el = elements[e]
        if not _overlaps(el, qx0, qy0, qx1, qy1):
            continue
        kind = el[0]
        if kind == LINE:
            px, py, qx, qy, nx, ny = el[2], el[3], el[4], el[5], el[6], el[7]
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
                    bt, bk, bd = now + tc, _CUSHION, e
        elif kind == CIRCLE or falling_into < 0:
            reach = el[4] + R if kind == CIRCLE else el[4]
            tc = first_circle_contact(
                x - el[2], y - el[3], vx, vy, ax, ay, reach, min(horizon, bt - now)
            )
            if now + tc < bt:
                if kind == CIRCLE:
                    bt, bk, bd = now + tc, _CUSHION, e
                else:
                    bt, bk, bd = now + tc, _FALL, int(el[1])
        elif int(el[1]) == falling_into:
            tc = first_circle_exit(
                x - el[2], y - el[3], vx, vy, ax, ay, el[4], min(horizon, bt - now)
            )
            if now + tc < bt:
                bt, bk, bd = now + tc, _LAND, int(el[1])
    # centre line: the first time x crosses L/2 moving to the other side
    side = s[SIDE]
    n, r1, r2 = quadratic_roots(x - table[6][0], vx, 0.5 * ax)
    for k in range(n):
        tc = r1 if k == 0 else r2
        if tc >= 0.0 and now + tc < bt and (vx + ax * tc) * side < 0.0:
            bt, bk, bd = now + tc, _CENTRE, -1
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
            k, other = _PAIRS_OF[b, m, 0], _PAIRS_OF[b, m, 1]
            changed = other in (i, j)
            if not changed or other > b:
                plan_pair(balls, flags, pairs, table[0], k, b, other, now)


@njit
def _replan_all(
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
            k, other = _PAIRS_OF[b, m, 0], _PAIRS_OF[b, m, 1]
            if not flags[other, ON] or other > b:
                plan_pair(balls, flags, pairs, table[0], k, b, other, now)


@njit
def _back_over_edge(table: TableArrays, pocket: int, x: float, y: float) -> bool:
    """Whether a ball leaving ``pocket``'s hole at (x, y) comes back over the fall edge onto
    the shelf (on the hole's near half, between the jaws), rather than meeting the pocket's
    back (anywhere else)."""
    cx, cy, ax, ay = (
        table[5][pocket, 0],
        table[5][pocket, 1],
        table[5][pocket, 2],
        table[5][pocket, 3],
    )
    if not (x - cx) * ax + (y - cy) * ay < 0.0:
        return False
    geometry = table[7]
    r, length, width = geometry[0][0], geometry[0][1], geometry[0][2]
    on_area = r <= x <= length - r and r <= y <= width - r
    return on_area or hanging_pocket(geometry, x, y) >= 0


# ---- the kernel: responses --------------------------------------------------------------------
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
    _event(rec, POCKETED, b, pocket, t)
    for m in range(N_BALLS - 1):
        pairs[_PAIRS_OF[b, m, 0]] = INF
    balls[b, OWN_T], flags[b, OWN_KIND], flags[b, OWN_DATA] = INF, _PHASE, -1
    if paths:
        _segment(rec, b, t, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0)


@njit
def collide(balls: np.ndarray, table: TableArrays, rec: Records, i: int, j: int, t: float) -> None:
    """Balls i and j, touching at time t, exchange their impulses (a slow touch: a push)."""
    a, b = balls[i], balls[j]
    dx, dy = b[X] - a[X], b[Y] - a[Y]
    d = math.sqrt(dx * dx + dy * dy)
    nx, ny = dx / d, dy / d
    striker_i = a[VX] * nx + a[VY] * ny >= -(b[VX] * nx + b[VY] * ny)
    if striker_i:
        _event(rec, BALL_BALL, i, j, t)
    else:
        _event(rec, BALL_BALL, j, i, t)
    closing = (a[VX] - b[VX]) * nx + (a[VY] - b[VY]) * ny
    out = impact(
        table[1], nx, ny, a[VX], a[VY], a[WX], a[WY], a[WZ], b[VX], b[VY], b[WX], b[WY], b[WZ]
    )
    a[VX], a[VY], a[WX], a[WY], a[WZ] = out[0], out[1], out[2], out[3], out[4]
    b[VX], b[VY], b[WX], b[WY], b[WZ] = out[5], out[6], out[7], out[8], out[9]
    if closing < PUSH_SPEED:
        r = table[0][RADIUS]
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
        if _pressing(a, b, table[0][ROLL_ACC], nx, ny):
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
    s, el = balls[i], table[4][e]
    if el[0] == CIRCLE:
        dx, dy = s[X] - el[2], s[Y] - el[3]
        d = math.sqrt(dx * dx + dy * dy)
        nx, ny = dx / d, dy / d
        jaw = True
    else:
        nx, ny = el[6], el[7]
        jaw = el[8] != 0.0
    _event(rec, BALL_CUSHION, i, int(el[1]), t)
    vn = s[VX] * nx + s[VY] * ny
    if vn > -PUSH_SPEED:
        _lean(s, nx, ny, vn)
        return
    law = table[3] if jaw else table[2]
    out = rubber_impact(law, nx, ny, s[VX], s[VY], s[WX], s[WY], s[WZ])
    if paths:
        n = rec[4][3]
        row = rec[5][n]
        row[0], row[1], row[2], row[3], row[4] = s[VX], s[VY], s[WX], s[WY], s[WZ]
        row[5], row[6], row[7], row[8], row[9] = out[0], out[1], out[2], out[3], out[4]
        rec[4][3] = n + 1
    s[VX], s[VY], s[WX], s[WY], s[WZ] = out[0], out[1], out[2], out[3], out[4]


@njit
def _lean(s: np.ndarray, nx: float, ny: float, vn: float) -> None:
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
def _same_contact(elements: np.ndarray, a: int, b: int) -> bool:
    """Whether elements a and b are the same contact for a ball (a line: the same cushion,
    normal and kind; a tip: the same cushion and centre)."""
    ea, eb = elements[a], elements[b]
    if ea[0] != eb[0] or ea[1] != eb[1]:
        return False
    if ea[0] == LINE:
        return ea[6] == eb[6] and ea[7] == eb[7] and ea[8] == eb[8]
    return ea[2] == eb[2] and ea[3] == eb[3]


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


# ---- the kernel: the loop ---------------------------------------------------------------------
@njit
def _play(
    balls: np.ndarray,
    flags: np.ndarray,
    pairs: np.ndarray,
    rec: Records,
    table: TableArrays,
    positions: np.ndarray,
    on_table: np.ndarray,
    cue: int,
    vx: float,
    vy: float,
    wx: float,
    wy: float,
    wz: float,
    paths: bool,
    record_energy: bool,
) -> tuple[bool, int, float]:
    """The event loop: ``(done, steps, duration)``, the run in ``balls``, ``flags`` and
    ``rec``; not done if the records ran out of room."""
    cloth = table[0]
    set_up(balls, flags, pairs, rec, table, positions, on_table, cue, vx, vy, wx, wy, wz, paths)
    _replan_all(balls, flags, pairs, table, 0.0)
    now = 0.0
    if record_energy:
        _energy(rec, energy(balls, flags, cloth, 0.0))
    steps = 0
    while True:
        steps += 1
        if steps > MAX_EVENTS:
            raise RuntimeError("physics: event cap exceeded (a stuck contact?)")
        if full(rec, paths, record_energy, 2):
            return False, steps, 0.0
        b, ob = 0, balls[0, OWN_T]
        for n in range(1, N_BALLS):
            if balls[n, OWN_T] < ob:
                b, ob = n, balls[n, OWN_T]
        k, tp = 0, pairs[0]
        for m in range(1, len(pairs)):
            if pairs[m] < tp:
                k, tp = m, pairs[m]
        if tp < ob:
            t = now = tp
            i, j = _PAIRS[k, 0], _PAIRS[k, 1]
            rebase(balls, flags, cloth, i, t)
            rebase(balls, flags, cloth, j, t)
            collide(balls, table, rec, i, j, t)
            start_phase(balls, flags, cloth, rec, paths, i)
            start_phase(balls, flags, cloth, rec, paths, j)
            replan(balls, flags, pairs, table, i, j, t)
            if pairs[k] <= t + TIME_TOL:
                # still closing after the response (a press the rules above missed): stop
                stop(balls, flags, cloth, rec, paths, i)
                stop(balls, flags, cloth, rec, paths, j)
                replan(balls, flags, pairs, table, i, j, t)
        else:
            t = ob
            kind, data = flags[b, OWN_KIND], flags[b, OWN_DATA]
            if t == INF:
                break
            now = t
            if kind == _PHASE:
                end_phase(balls, flags, cloth, b)
                start_phase(balls, flags, cloth, rec, paths, b)
                replan(balls, flags, pairs, table, b, -1, t)
                continue
            if kind == _CENTRE:
                _event(rec, CENTRE_LINE, b, -1, t)
                balls[b, SIDE] = -balls[b, SIDE]
                plan_own(balls, flags, table, b, t)
                continue
            if kind == _POCKET:
                rebase(balls, flags, cloth, b, t)
                drop(balls, flags, pairs, rec, paths, b, data, t)
                continue
            if kind in (_FALL, _LAND):
                # past the fall edge the ball sinks; back over it in time, it is on the slate
                # (unless it left the hole on the far side: then it met the pocket's back)
                rebase(balls, flags, cloth, b, t)
                if kind == _FALL:
                    balls[b, FALL_T], flags[b, FALL_POCKET] = t + table[6][1], data
                elif _back_over_edge(table, data, balls[b, X], balls[b, Y]):
                    balls[b, FALL_T], flags[b, FALL_POCKET] = INF, -1
                else:
                    drop(balls, flags, pairs, rec, paths, b, data, t)
                    continue
                plan_own(balls, flags, table, b, t)
                continue
            rebase(balls, flags, cloth, b, t)
            bounce(balls, table, rec, paths, b, data, t)
            start_phase(balls, flags, cloth, rec, paths, b)
            replan(balls, flags, pairs, table, b, -1, t)
            if (
                balls[b, OWN_T] <= t + TIME_TOL
                and flags[b, OWN_KIND] == _CUSHION
                and _same_contact(table[4], flags[b, OWN_DATA], data)
            ):
                # still pressed into the same cushion or jaw after the response: it stops
                stop(balls, flags, cloth, rec, paths, b)
                replan(balls, flags, pairs, table, b, -1, t)
        if record_energy:
            _energy(rec, energy(balls, flags, cloth, now))
    n_events = rec[4][0]
    duration = max(0.0, rec[1][n_events - 1]) if n_events > 0 else 0.0
    for b in range(N_BALLS):
        if flags[b, ON]:
            duration = max(duration, balls[b, T0] + abs(balls[b, WZ]) / cloth[SPIN_DECAY])
    return True, steps, duration


@njit
def _energy(rec: Records, value: float) -> None:
    n = rec[4][2]
    rec[3][n] = value
    rec[4][2] = n + 1
