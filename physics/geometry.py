"""Table geometry: cushion noses, pocket jaws (angled facings, rounded tips) and pocket captures.

Every pocket is built the same way from its mouth: the two *jaw points* where the pocket cuts the
cushion noses lie ``mouth`` apart; from each, a straight *facing* runs into the pocket, opened by
``jaw_angle`` from the pocket's axis (real pyramid jaws widen behind the mouth, which is what lets
a ball running along a cushion fall in), and the sharp corner between nose and facing is rounded
with the jaw radius. A ball whose centre enters the pocket's *capture circle* (just behind the
mouth, over the slate's edge) has passed the point of no return and is pocketed.

Contact elements for the engine are plain tuples (fast to read on the hot path):
``("line", cushion, px, py, qx, qy, nx, ny, jaw)`` with the unit normal ``n`` pointing to the
side a ball comes from and ``jaw`` whether it is a jaw facing, and ``("circle", cushion, cx, cy,
radius)`` for a rounded jaw tip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from kinghill.physics.names import Cushion, Pocket
from kinghill.physics.spec import SPEC_CACHE_SIZE, TableSpec

JAW_ANGLE = {"corner": math.radians(30.0), "middle": math.radians(12.0)}
"""Opening of each jaw facing from the pocket axis (rad); tuned so rail shots drop (see tests)."""
FACING_LENGTH = 0.06
"""Length of a jaw facing into the pocket (m); the capture comes well before its end."""
CAPTURE_DEPTH = {"corner": 0.004, "middle": 0.010}
"""Depth of the capture circle's near edge behind the mouth line (m)."""

Element = tuple  # ("line", cushion, px, py, qx, qy, nx, ny, jaw) | ("circle", cushion, cx, cy, r)


@dataclass(frozen=True)
class PocketShape:
    """One pocket: its mouth, aim point and capture circle (the point of no return).

    :param mouth_centre: middle of the segment between the two jaw points.
    :param aim: where to send a ball's centre to drop it (the capture circle's centre).
    :param axis: unit vector from the table into the pocket.
    :param capture_centre: centre of the capture circle.
    :param capture_radius: a ball whose centre enters this circle is pocketed.
    """

    pocket: Pocket
    mouth_centre: tuple[float, float]
    aim: tuple[float, float]
    axis: tuple[float, float]
    capture_centre: tuple[float, float]
    capture_radius: float
    jaw_points: tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class CushionShape:
    """One cushion: the nose segment between its two jaws, and its outline for drawing.

    ``outline`` is a closed polygon (nose, rounded jaw tips, facings, back) in table coordinates.
    """

    cushion: Cushion
    nose: tuple[tuple[float, float], tuple[float, float]]
    outline: tuple[tuple[float, float], ...]


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

    @staticmethod
    def from_spec(spec: TableSpec) -> TableGeometry:
        """The geometry of ``spec`` (memoised for the most recent specs: they are frozen)."""
        return _build(spec)


def _unit(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y)
    return (x / n, y / n)


@dataclass(frozen=True)
class _Jaw:
    cushion: Cushion
    point: tuple[float, float]  # sharp corner where nose and facing meet
    along: tuple[float, float]  # unit direction of the nose, pointing toward the pocket
    normal: tuple[float, float]  # nose normal into the table


def _pocket_frame(spec: TableSpec, pocket: Pocket) -> tuple[str, _Jaw, _Jaw]:
    """The pocket's kind and its two jaws, in the order of ``pocket.adjacent_cushions``."""
    L, W = spec.length, spec.width
    if pocket in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT):
        y, ny = (W, -1.0) if pocket is Pocket.MIDDLE_LEFT else (0.0, 1.0)
        h = spec.middle_mouth / 2
        front, rear = pocket.adjacent_cushions
        return (
            "middle",
            _Jaw(front, (L / 2 - h, y), (1.0, 0.0), (0.0, ny)),
            _Jaw(rear, (L / 2 + h, y), (-1.0, 0.0), (0.0, ny)),
        )
    short, long_ = pocket.adjacent_cushions
    cx = 0.0 if pocket in (Pocket.FRONT_LEFT, Pocket.FRONT_RIGHT) else L
    cy = W if pocket in (Pocket.FRONT_LEFT, Pocket.REAR_LEFT) else 0.0
    k = spec.corner_mouth / math.sqrt(2)
    sx = 1.0 if cx == 0.0 else -1.0  # direction from the corner into the table along x
    sy = 1.0 if cy == 0.0 else -1.0
    return (
        "corner",
        _Jaw(short, (cx, cy + sy * k), (0.0, -sy), (sx, 0.0)),
        _Jaw(long_, (cx + sx * k, cy), (-sx, 0.0), (0.0, sy)),
    )


def _jaw_parts(
    jaw: _Jaw, axis: tuple[float, float], opening: float, radius: float
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]:
    """Nose end, tip-circle centre, facing start and facing direction of one rounded jaw."""
    jx, jy = jaw.point
    # the facing leaves the jaw point along the axis, turned away from the pocket's middle
    side = (-axis[1], axis[0])  # across the axis, away from the other jaw
    if side[0] * jaw.along[0] + side[1] * jaw.along[1] > 0:
        side = (axis[1], -axis[0])
    c, s = math.cos(opening), math.sin(opening)
    fx, fy = axis[0] * c + side[0] * s, axis[1] * c + side[1] * s
    # facing normal pointing into the gap (toward the pocket's middle)
    gx, gy = -fy, fx
    if gx * side[0] + gy * side[1] > 0:
        gx, gy = -gx, -gy
    nx, ny = jaw.normal
    # tip centre: inside the cushion, `radius` behind both the nose and the facing
    # solve (C-J).n = -r and (C-J).g = -r
    det = nx * gy - ny * gx
    cx = jx + (-radius * gy + radius * ny) / det
    cy = jy + (-nx * radius + gx * radius) / det
    nose_end = (cx + radius * nx, cy + radius * ny)
    facing_start = (cx + radius * gx, cy + radius * gy)
    return nose_end, (cx, cy), facing_start, (fx, fy)


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def _build(spec: TableSpec) -> TableGeometry:
    elements: list[Element] = []
    pockets: dict[Pocket, PocketShape] = {}
    nose_ends: dict[Cushion, list[tuple[float, float]]] = {c: [] for c in Cushion}
    jaw_outlines: dict[Cushion, list[list[tuple[float, float]]]] = {c: [] for c in Cushion}
    for pocket in Pocket:
        kind, j1, j2 = _pocket_frame(spec, pocket)
        radius = spec.corner_jaw_radius if kind == "corner" else spec.middle_jaw_radius
        mx, my = (j1.point[0] + j2.point[0]) / 2, (j1.point[1] + j2.point[1]) / 2
        ax, ay = _unit(j1.normal[0] + j2.normal[0], j1.normal[1] + j2.normal[1])
        axis = (-ax, -ay)
        for jaw in (j1, j2):
            nose_end, centre, f0, (fx, fy) = _jaw_parts(jaw, axis, JAW_ANGLE[kind], radius)
            f1 = (f0[0] + fx * FACING_LENGTH, f0[1] + fy * FACING_LENGTH)
            gx, gy = (f0[0] - centre[0]) / radius, (f0[1] - centre[1]) / radius
            elements.append(("circle", jaw.cushion, centre[0], centre[1], radius))
            elements.append(("line", jaw.cushion, f0[0], f0[1], f1[0], f1[1], gx, gy, True))
            nose_ends[jaw.cushion].append(nose_end)
            arc = _arc(centre, radius, jaw.normal, (gx, gy))
            jaw_outlines[jaw.cushion].append([*arc, f1])
        depth = CAPTURE_DEPTH[kind]
        rc = (spec.corner_mouth if kind == "corner" else spec.middle_mouth) / 2
        cc = (mx + axis[0] * (depth + rc), my + axis[1] * (depth + rc))
        pockets[pocket] = PocketShape(pocket, (mx, my), cc, axis, cc, rc, (j1.point, j2.point))
    cushions: dict[Cushion, CushionShape] = {}
    for cushion in Cushion:
        (px, py), (qx, qy) = nose_ends[cushion]
        nx, ny = _unit(-(qy - py), qx - px)
        mid = ((px + qx) / 2, (py + qy) / 2)
        if (spec.length / 2 - mid[0]) * nx + (spec.width / 2 - mid[1]) * ny < 0:
            nx, ny = -nx, -ny
        elements.append(("line", cushion, px, py, qx, qy, nx, ny, False))
        a, b = jaw_outlines[cushion]
        outline = tuple(reversed(a)) + tuple(b)
        cushions[cushion] = CushionShape(cushion, ((px, py), (qx, qy)), outline)
    return TableGeometry(spec, pockets, cushions, tuple(elements))


def _arc(
    centre: tuple[float, float], radius: float, n0: tuple[float, float], n1: tuple[float, float]
) -> list[tuple[float, float]]:
    """Points of the rounded tip from the nose normal ``n0`` to the facing normal ``n1``."""
    a0, a1 = math.atan2(n0[1], n0[0]), math.atan2(n1[1], n1[0])
    d = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
    return [
        (
            centre[0] + radius * math.cos(a0 + d * i / 6),
            centre[1] + radius * math.sin(a0 + d * i / 6),
        )
        for i in range(7)
    ]
