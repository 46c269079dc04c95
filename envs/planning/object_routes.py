"""The object ball's half of a pot: its route into each pocket (straight, or off one cushion as a
double), the pocket's window at the angle it arrives, and the balls in its way.

A decision asks for the routes of every object ball into every pocket (dozens), each worked out
once per position (:func:`object_routes`); the pockets' windows are those measured on the
project's table (``kinghill pockets``).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import lru_cache
from typing import NamedTuple

from kinghill.envs.planning.aim import ghost_point, mirror, pocket_target
from kinghill.physics import Cushion, Pocket, TableSpec, TableState
from kinghill.physics.geometry import TableGeometry
from kinghill.physics.spec import SPEC_CACHE_SIZE

Point = tuple[float, float]

WINDOW = {"corner": (0.006, math.radians(42.0)), "middle": (0.013, math.radians(51.0))}
"""Half-width of the window head on (m), and the approach angle where it closes: read off the
acceptance charts (``kinghill pockets``, README) at 1.2-2 m/s (pots are planned to arrive at
``ARRIVAL_SPEED`` or faster; slower the windows are a little wider): the corner +-6 mm head on;
the middle +-13 mm head on, a run of about 17 mm at 30 degrees and 6 mm at 45."""
CUSHION_MARGIN = 0.1
"""A rebound point this close to a cushion segment's ends (m) is too near the jaws to count."""
OPEN_MARGIN = 1e-9
"""Relative margin of the quick pre-checks (a ball far off a path's box, a cut clearly too
thin): they rule out only what is clearly outside the limits, so rounding never decides (the
exact checks see the rest)."""
WAYS = (None, *Cushion)
"""How an object ball may go into a pocket: straight, or off one of the cushions."""


class ObjectRoute(NamedTuple):
    """The object ball's path to the pocket, shared by every cue ball that might play it: the
    ghost point, the approach angle and the pocket's window at that angle (a tuple: dozens are
    made per decision)."""

    object_ball: int
    pocket: Pocket
    double: Cushion | None
    points: tuple[Point, ...]
    ghost: Point
    approach: float
    window: float
    path: float


class CushionLine(NamedTuple):
    """The line a ball's centre touches a cushion along (``x = at`` when ``across``, else
    ``y = at``), and the stretch of it (``low`` to ``high`` in the other coordinate) clear of
    the jaws."""

    across: bool
    at: float
    low: float
    high: float


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def cushion_lines(spec: TableSpec) -> dict[Cushion, CushionLine]:
    """Each cushion's :class:`CushionLine` on ``spec``."""
    r, m, half = spec.radius, CUSHION_MARGIN, spec.length / 2
    return {
        Cushion.FRONT: CushionLine(True, r, m, spec.width - m),
        Cushion.REAR: CushionLine(True, spec.length - r, m, spec.width - m),
        Cushion.LEFT_FRONT: CushionLine(False, spec.width - r, m, half - m),
        Cushion.LEFT_REAR: CushionLine(False, spec.width - r, half + m, spec.length - m),
        Cushion.RIGHT_FRONT: CushionLine(False, r, m, half - m),
        Cushion.RIGHT_REAR: CushionLine(False, r, half + m, spec.length - m),
    }


def cushion_point(start: Point, mirrored_end: Point, line: CushionLine) -> Point:
    """Where a straight path from ``start`` to the mirror image ``mirrored_end`` meets the line
    a ball's centre touches a cushion along (:func:`cushion_lines`)."""
    (sx, sy), (ex, ey) = start, mirrored_end
    if line.across:
        t = (line.at - sx) / ((ex - sx) or 1e-12)
        return (line.at, sy + t * (ey - sy))
    t = (line.at - sy) / ((ey - sy) or 1e-12)
    return (sx + t * (ex - sx), line.at)


def on_cushion(point: Point, line: CushionLine) -> bool:
    """Whether ``point`` (on a cushion's ``line``) lies along that cushion segment, off the
    jaws."""
    along = point[1] if line.across else point[0]
    return line.low < along < line.high


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def pocket_aims(spec: TableSpec) -> dict[Pocket, tuple[Point, Point]]:
    """Per pocket: where to send a ball's centre to drop it (:func:`envs.aim.pocket_target`), and
    the pocket's axis (unit vector into the pocket)."""
    pockets = TableGeometry.from_spec(spec).pockets
    return {p: (pocket_target(p, spec), pockets[p].axis) for p in Pocket}


def _window_of(pocket: Pocket) -> tuple[float, float]:
    return WINDOW["middle" if pocket in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT) else "corner"]


def pocket_window(pocket: Pocket, approach: float) -> float:
    """Half-width (m) of the lateral window of ``pocket`` for a ball arriving ``approach`` rad
    off the pocket's axis; 0 when it cannot drop."""
    return window_width(*_window_of(pocket), approach)


def window_width(half: float, closes: float, approach: float) -> float:
    """:func:`pocket_window` of a pocket whose window is ``half`` head on and closes at
    ``closes`` rad."""
    return half * max(0.0, 1.0 - (approach / closes) ** 2)


def approach_angle(target: Point, axis: Point, start: Point) -> float:
    """The angle between a ball's path from ``start`` to a pocket's ``target`` and its ``axis``."""
    dx, dy = target[0] - start[0], target[1] - start[1]
    d = math.hypot(dx, dy) or 1.0
    return math.acos(max(-1.0, min(1.0, (dx * axis[0] + dy * axis[1]) / d)))


def ball_centres(state: TableState) -> dict[int, Point]:
    """The centres of the balls on the table, as plain floats (fast to read)."""
    return {
        int(b): (float(x), float(y))
        for b, (x, y) in enumerate(state.positions.tolist())
        if state.on_table[b]
    }


class _Way(NamedTuple):
    """A pocket and how to reach it (straight, or off ``line``'s cushion), with the constants
    of its routes: the aim point, its mirror image in the cushion, the axis and the window."""

    pocket: Pocket
    double: Cushion | None
    target: Point
    image: Point
    axis: Point
    line: CushionLine | None
    half: float
    closes: float


@lru_cache(maxsize=2 * SPEC_CACHE_SIZE)
def _ways(spec: TableSpec, doubles: bool) -> tuple[_Way, ...]:
    """The ways into the pockets, straight and (with ``doubles``) off each cushion but the
    pocket's own (7.5: a rebound off a jaw's cushion is no double)."""
    aims, lines = pocket_aims(spec), cushion_lines(spec)
    return tuple(
        _Way(
            pocket,
            way,
            aims[pocket][0],
            aims[pocket][0] if way is None else mirror(aims[pocket][0], way, spec),
            aims[pocket][1],
            None if way is None else lines[way],
            *_window_of(pocket),
        )
        for pocket in Pocket
        for way in (WAYS if doubles else (None,))
        if way is None or way not in pocket.adjacent_cushions
    )


def object_routes(
    spec: TableSpec, centres: dict[int, Point], ball: int, doubles: bool
) -> list[ObjectRoute]:
    """The open routes of ``ball`` (not hanging in a mouth) into the pockets, straight and, with
    ``doubles``, off each other cushion: open when the pocket's window is open at the angle the
    ball arrives and a double's rebound point lies along its cushion."""
    obj = centres[ball]
    found = []
    for way in _ways(spec, doubles):
        target, line = way.target, way.line
        points: tuple[Point, ...] = (obj, target)
        if line is not None:
            rail = cushion_point(obj, way.image, line)
            if not on_cushion(rail, line):
                continue
            points = (obj, rail, target)
        approach = approach_angle(target, way.axis, points[-2])
        window = window_width(way.half, way.closes, approach)
        if window <= 0:
            continue
        ghost = ghost_point(obj, points[1], spec)
        path = path_length(points)
        found.append(
            ObjectRoute(ball, way.pocket, way.double, points, ghost, approach, window, path)
        )
    return found


def path_length(points: tuple[Point, ...]) -> float:
    """The length of the polyline through ``points`` (at least two), summed leg by leg."""
    length = math.dist(points[0], points[1])
    for k in range(2, len(points)):
        length += math.dist(points[k - 1], points[k])
    return length


def balls_near(
    centres: dict[int, Point],
    diameter: float,
    start: Point,
    end: Point,
    ignore: Collection[int],
    limit: int,
) -> list[int]:
    """The first ``limit`` balls of ``centres`` (``ignore`` excepted) whose centres lie within
    ``diameter`` of the segment from ``start`` to ``end``, in the order of ``centres``."""
    sx, sy = start
    ex, ey = end
    dx, dy = ex - sx, ey - sy
    length2 = dx * dx + dy * dy
    limit2 = diameter * diameter
    reach = diameter * (1.0 + OPEN_MARGIN)
    low_x, high_x = (sx - reach, ex + reach) if dx > 0 else (ex - reach, sx + reach)
    low_y, high_y = (sy - reach, ey + reach) if dy > 0 else (ey - reach, sy + reach)
    found = []
    for ball, (bx, by) in centres.items():
        if not (low_x < bx < high_x and low_y < by < high_y) or ball in ignore:
            continue  # off the box round the segment: clear of it, whatever the rounding
        t = 0.0 if length2 == 0 else ((bx - sx) * dx + (by - sy) * dy) / length2
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        px, py = sx + t * dx - bx, sy + t * dy - by
        if px * px + py * py < limit2:
            found.append(ball)
            if len(found) >= limit:
                break
    return found


def route_blockers(
    centres: dict[int, Point], diameter: float, route: ObjectRoute
) -> frozenset[int]:
    """The balls (the route's object ball excepted) whose centres lie within ``diameter`` of
    its path; it stops at two, since a pot can have at most one (its cue ball) in the object
    ball's way."""
    points, object_ball = route.points, route.object_ball
    seen = {object_ball}  # excepted on every leg, as are the balls found on an earlier one
    for start, end in zip(points, points[1:], strict=False):
        seen.update(balls_near(centres, diameter, start, end, seen, 3 - len(seen)))
        if len(seen) > 2:
            break
    return frozenset(seen - {object_ball})
