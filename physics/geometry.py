"""Table geometry: cushion noses, pocket jaws (rounded tips, angled facings), shelves, fall edges.

Every pocket is built the same way, in its own frame (the *axis* points from the table into the
pocket, *across* is perpendicular to it):

- the two jaw tips are circles of the jaw radius, tangent to their cushion's nose line, whose
  nearest points lie ``mouth`` apart: the **mouth** is the free gap a ball meets at the jaws'
  narrowest point, on the *mouth line* through the tips' centres;
- from each tip a straight **facing** runs into the pocket, opened from the axis by the facing
  angle (0: parallel facings); the tip's arc joins nose and facing without a corner;
- the slate's circular pocket cut ends in the **fall edge**, which crosses the axis at the fall
  depth (behind the mouth line, or in front of it where the rubber tips overhang the cut): a
  ball whose centre passes it has passed the point of no return and drops;
- between the playing area and the fall edge lies the **shelf**, slate on which a ball can
  still come to rest off the playing area: it *hangs* in the mouth and stays in play.

Contact elements for the engine are plain tuples (fast to read on the hot path):
``("line", cushion, px, py, qx, qy, nx, ny, jaw)`` with the unit normal ``n`` pointing to the
side a ball comes from and ``jaw`` whether it is a jaw facing, and ``("circle", cushion, cx, cy,
radius)`` for a rounded jaw tip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.names import Cushion, Pocket
from kinghill.physics.norm import hypot
from kinghill.physics.pocket_frame import (
    HOLD_TOLERANCE,
    Point,
    capture_centre,
    fall_reach,
    kind_of,
    pocket_frame,
    unit,
)
from kinghill.physics.spec import SPEC_CACHE_SIZE, TableSpec

Element = tuple  # ("line", cushion, px, py, qx, qy, nx, ny, jaw) | ("circle", cushion, cx, cy, r)
FACING_MARGIN = 0.010
"""The facings reach this far (m) beyond the deepest place where a ball touching one meets the
fall edge: deeper in, a ball is over the hole."""


@dataclass(frozen=True)
class PocketShape:
    """One pocket: its mouth, shelf and fall edge.

    :param kind: ``"corner"`` or ``"middle"``.
    :param mouth_centre: middle of the mouth, on the mouth line through the jaw tips' centres.
    :param mouth_ends: the two jaws' nearest points (``mouth`` apart), in the order of
        ``pocket.adjacent_cushions``.
    :param axis: unit vector from the table into the pocket.
    :param aim: where the fall edge crosses the axis; a ball's centre sent there drops.
    :param capture_centre: centre of the slate's circular cut; its edge is the fall edge.
    :param capture_radius: a ball whose centre comes within this of ``capture_centre`` drops.
    :param throat: closed outline of the room between the jaws (nose ends, tips, facings), in
        which a ball's centre may stand off the playing area, in front of the fall edge.
    """

    pocket: Pocket
    kind: str
    mouth_centre: Point
    mouth_ends: tuple[Point, Point]
    axis: Point
    aim: Point
    capture_centre: Point
    capture_radius: float
    throat: tuple[Point, ...]


@dataclass(frozen=True)
class CushionShape:
    """One cushion: the nose segment between its two jaws, and its outline for drawing.

    ``outline`` is a closed polygon (nose, rounded jaw tips, facings, back) in table coordinates.
    """

    cushion: Cushion
    nose: tuple[Point, Point]
    outline: tuple[Point, ...]


@dataclass(frozen=True)
class TableGeometry:
    """Where the cushions, jaws and pockets are, for the engine, renderers and agents.

    Build it with :meth:`from_spec`; it is cached per spec.
    """

    spec: TableSpec
    pockets: dict[Pocket, PocketShape]
    cushions: dict[Cushion, CushionShape]
    elements: tuple[Element, ...]
    """Contact elements (nose and facing lines, jaw-tip circles), each tagged with its cushion."""
    arrays: GeometryArrays = field(compare=False, repr=False)
    """The same as the kernels read it."""

    @staticmethod
    def from_spec(spec: TableSpec) -> TableGeometry:
        """The geometry of ``spec`` (memoised for the most recent specs: they are frozen)."""
        return _build(spec)

    def on_playing_area(self, x: float, y: float) -> bool:
        """Whether a ball's centre at (x, y) lies over the playing area: at least R inside every
        cushion nose line (a ball there touches no jaw and no other pocket edge)."""
        r, s = self.spec.radius - HOLD_TOLERANCE, self.spec
        return r <= x <= s.length - r and r <= y <= s.width - r

    def hanging_in(self, x: float, y: float) -> Pocket | None:
        """The pocket in whose mouth a ball with its centre at (x, y) can stand (off the playing
        area, clear of the jaws, in front of the fall edge); None if there is none."""
        if self.on_playing_area(x, y):
            return None
        pocket = hanging_pocket(self.arrays, x, y)
        return None if pocket < 0 else Pocket(pocket)

    def holds(self, x: float, y: float) -> bool:
        """Whether a ball's centre may stand at (x, y): on the playing area or hanging in a
        mouth."""
        return self.on_playing_area(x, y) or hanging_pocket(self.arrays, x, y) >= 0


GeometryArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""A table's geometry as the kernels read it (:func:`_arrays`): the scalars (``R - tolerance``,
length, width, twice the ball's diameter), one row per pocket (id, mouth centre, capture centre
and radius, outline length), the pockets' throat outlines, and the contact elements (kind 0: a
line ``px, py, qx, qy``; 1: a circle ``cx, cy, r``)."""


def _arrays(
    spec: TableSpec, pockets: dict[Pocket, PocketShape], elements: list[Element]
) -> GeometryArrays:
    """The geometry's :data:`GeometryArrays`, pockets in the order of ``pockets``."""
    scalars = np.array(
        [spec.radius - HOLD_TOLERANCE, spec.length, spec.width, 2 * spec.ball_diameter]
    )
    rows = np.array(
        [
            (int(p.pocket), *p.mouth_centre, *p.capture_centre, p.capture_radius, len(p.throat))
            for p in pockets.values()
        ]
    )
    throats = np.zeros((len(pockets), max(len(p.throat) for p in pockets.values()), 2))
    for k, p in enumerate(pockets.values()):
        throats[k, : len(p.throat)] = p.throat
    contact = np.array(
        [(0.0, *el[2:6]) if el[0] == "line" else (1.0, *el[2:5], 0.0) for el in elements]
    )
    return scalars, rows, throats, contact


@njit
def on_playing_area(geometry: GeometryArrays, x: float, y: float) -> bool:
    """:meth:`TableGeometry.on_playing_area`, compiled."""
    r, length, width = geometry[0][0], geometry[0][1], geometry[0][2]
    return r <= x <= length - r and r <= y <= width - r


@njit
def hanging_pocket(geometry: GeometryArrays, x: float, y: float) -> int:
    """The id of the pocket in whose mouth a ball's centre at (x, y) can stand, or -1: in its
    throat or near its mouth on the table, at least the fall radius from the capture centre
    (within tolerance), overlapping no nose, tip or facing."""
    scalars, rows, throats, _ = geometry
    if on_playing_area(geometry, x, y):
        return -1
    near, length, width = scalars[3], scalars[1], scalars[2]
    for k in range(rows.shape[0]):
        row = rows[k]
        if _inside(throats[k], int(row[6]), x, y) or (
            0.0 <= x <= length and 0.0 <= y <= width and hypot(x - row[1], y - row[2]) < near
        ):
            far = row[5] - HOLD_TOLERANCE
            if hypot(x - row[3], y - row[4]) >= far and _clear(geometry, x, y):
                return int(row[0])
    return -1


@njit
def _clear(geometry: GeometryArrays, x: float, y: float) -> bool:
    """Whether a ball at (x, y) overlaps no nose, tip or facing (within rounding)."""
    reach, contact = geometry[0][0], geometry[3]
    for k in range(contact.shape[0]):
        el = contact[k]
        if el[0] == 1.0:
            if hypot(x - el[1], y - el[2]) < el[3] + reach:
                return False
        elif _segment_distance(x, y, el[1], el[2], el[3], el[4]) < reach:
            return False
    return True


@njit
def _segment_distance(x: float, y: float, px: float, py: float, qx: float, qy: float) -> float:
    ex, ey = qx - px, qy - py
    t = max(0.0, min(1.0, ((x - px) * ex + (y - py) * ey) / (ex * ex + ey * ey)))
    return hypot(x - px - t * ex, y - py - t * ey)


@njit
def _inside(polygon: np.ndarray, n: int, x: float, y: float) -> bool:
    """Whether (x, y) lies inside the first ``n`` points of ``polygon`` (even-odd rule)."""
    inside = False
    for k in range(n):
        ax, ay = polygon[k, 0], polygon[k, 1]
        nxt = k + 1 if k + 1 < n else 0
        bx, by = polygon[nxt, 0], polygon[nxt, 1]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def _build(spec: TableSpec) -> TableGeometry:
    elements: list[Element] = []
    pockets: dict[Pocket, PocketShape] = {}
    nose_ends: dict[Cushion, list[Point]] = {c: [] for c in Cushion}
    jaw_outlines: dict[Cushion, list[list[Point]]] = {c: [] for c in Cushion}
    for pocket in Pocket:  # the spec has checked its pockets (pocket_frame.check_pocket)
        dims = spec.pocket(kind_of(pocket))
        frame = pocket_frame(pocket, dims, spec.length, spec.width)
        radius, mouth, opening = dims.jaw_radius, dims.mouth, dims.facing_angle
        fall_depth, fall_radius = dims.fall_depth, dims.fall_radius
        (ox, oy), (ax, ay) = frame.centre, frame.axis
        left = (-ay, ax)
        reach = fall_reach(frame.kind, dims, spec.radius)
        depth = max(reach, radius) + spec.radius + FACING_MARGIN
        ends: list[Point] = []
        sides: list[list[Point]] = []
        for cushion, normal, side in frame.jaws:
            ex, ey = side * left[0], side * left[1]  # across, from the axis toward this jaw
            cx, cy = ox + ex * (mouth / 2 + radius), oy + ey * (mouth / 2 + radius)
            c, s = math.cos(opening), math.sin(opening)
            gx, gy = -c * ex + s * ax, -c * ey + s * ay  # facing normal, into the gap
            fx, fy = s * ex + c * ax, s * ey + c * ay  # facing direction, into the pocket
            f0 = (cx + radius * gx, cy + radius * gy)
            length = (depth - radius * s) / c
            if s < 0.0:  # a closing facing ends at the throat, where it leaves a ball's width
                a0 = mouth / 2 + radius * (1 - c)  # the facing's start, across from the axis
                length = min(length, (spec.radius - a0 * c) / s * c - a0 * s)
            f1 = (f0[0] + fx * length, f0[1] + fy * length)
            elements.append(("circle", cushion, cx, cy, radius))
            elements.append(("line", cushion, f0[0], f0[1], f1[0], f1[1], gx, gy, True))
            nose_ends[cushion].append((cx + radius * normal[0], cy + radius * normal[1]))
            arc = _arc((cx, cy), radius, normal, (gx, gy))
            jaw_outlines[cushion].append([*arc, f1])
            ends.append((cx - ex * radius, cy - ey * radius))
            sides.append([*arc, f1])
        capture = capture_centre(frame, dims)
        throat = tuple(sides[0]) + tuple(reversed(sides[1]))
        pockets[pocket] = PocketShape(
            pocket=pocket,
            kind=frame.kind,
            mouth_centre=(ox, oy),
            mouth_ends=(ends[0], ends[1]),
            axis=(ax, ay),
            aim=(ox + ax * fall_depth, oy + ay * fall_depth),
            capture_centre=capture,
            capture_radius=fall_radius,
            throat=throat,
        )
    cushions: dict[Cushion, CushionShape] = {}
    for cushion in Cushion:
        (px, py), (qx, qy) = nose_ends[cushion]
        nx, ny = unit(-(qy - py), qx - px)
        mid = ((px + qx) / 2, (py + qy) / 2)
        if (spec.length / 2 - mid[0]) * nx + (spec.width / 2 - mid[1]) * ny < 0:
            nx, ny = -nx, -ny
        elements.append(("line", cushion, px, py, qx, qy, nx, ny, False))
        a, b = jaw_outlines[cushion]
        outline = tuple(reversed(a)) + tuple(b)
        cushions[cushion] = CushionShape(cushion, ((px, py), (qx, qy)), outline)
    return TableGeometry(spec, pockets, cushions, tuple(elements), _arrays(spec, pockets, elements))


def _arc(centre: Point, radius: float, n0: Point, n1: Point) -> list[Point]:
    """Points of the rounded tip from the nose normal ``n0`` to the facing normal ``n1``."""
    a0, a1 = math.atan2(n0[1], n0[0]), math.atan2(n1[1], n1[0])
    d = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
    return [
        (
            centre[0] + radius * math.cos(a0 + d * i / 8),
            centre[1] + radius * math.sin(a0 + d * i / 8),
        )
        for i in range(9)
    ]
