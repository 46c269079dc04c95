"""One pocket's frame (mouth centre, axis, its jaws' cushions) and the limits its dimensions
must keep, from plain numbers: what :class:`~kinghill.physics.spec.TableSpec` checks when it is
made, and what :mod:`kinghill.physics.geometry` builds the pocket's shape on.

Kept apart from both so that the spec can check its pockets without building the geometry
(which is made from a spec): the arrows run spec -> here <- geometry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kinghill.physics.names import Cushion, Pocket

Point = tuple[float, float]
HOLD_TOLERANCE = 1e-9
"""A resting ball may overlap a jaw or reach over the fall edge by this much (m): rounding."""


@dataclass(frozen=True)
class PocketDimensions:
    """The dimensions of one kind of pocket (corner or middle), read from a :class:`TableSpec`."""

    mouth: float
    jaw_radius: float
    facing_angle: float
    fall_depth: float
    fall_radius: float


@dataclass(frozen=True)
class Frame:
    """A pocket's kind, mouth centre, axis, and its jaws' cushions with their nose normals (into
    the table) and sides (+1: across the axis to the left of it, -1: to the right)."""

    kind: str
    centre: Point
    axis: Point
    jaws: tuple[tuple[Cushion, Point, float], tuple[Cushion, Point, float]]


def kind_of(pocket: Pocket) -> str:
    """``"middle"`` or ``"corner"``."""
    return "middle" if pocket in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT) else "corner"


def unit(x: float, y: float) -> Point:
    """The vector (x, y) scaled to length 1."""
    n = math.hypot(x, y)
    return (x / n, y / n)


def pocket_frame(pocket: Pocket, dims: PocketDimensions, length: float, width: float) -> Frame:
    """The frame of ``pocket`` (of dimensions ``dims``) on a ``length`` x ``width`` table."""
    L, W = length, width
    r = dims.jaw_radius
    if kind_of(pocket) == "middle":
        y, ny = (W, -1.0) if pocket is Pocket.MIDDLE_LEFT else (0.0, 1.0)
        front, rear = pocket.adjacent_cushions
        axis = (0.0, -ny)
        # left of the axis is (-ay, ax): for MIDDLE_LEFT (axis +y) that is -x, the front side
        side = 1.0 if pocket is Pocket.MIDDLE_LEFT else -1.0
        return Frame(
            "middle",
            (L / 2, y - ny * r),
            axis,
            ((front, (0.0, ny), side), (rear, (0.0, ny), -side)),
        )
    short, long_ = pocket.adjacent_cushions
    cx = 0.0 if pocket in (Pocket.FRONT_LEFT, Pocket.FRONT_RIGHT) else L
    cy = W if pocket in (Pocket.FRONT_LEFT, Pocket.REAR_LEFT) else 0.0
    sx = 1.0 if cx == 0.0 else -1.0  # direction from the corner into the table along x
    sy = 1.0 if cy == 0.0 else -1.0
    axis = unit(-sx, -sy)
    # the tips' centres lie r behind both noses: the mouth line is this far from the corner
    back = dims.mouth / 2 + r - math.sqrt(2.0) * r
    centre = (cx - axis[0] * back, cy - axis[1] * back)
    left = (-axis[1], axis[0])
    short_side = 1.0 if left[1] * sy > 0 else -1.0  # the short cushion's jaw lies along +-y
    return Frame(
        "corner", centre, axis, ((short, (sx, 0.0), short_side), (long_, (0.0, sy), -short_side))
    )


def fall_reach(kind: str, dims: PocketDimensions, ball_radius: float) -> float:
    """How deep behind the mouth line a ball's centre running down a facing meets the fall edge.

    The slate's cut must span the throat there (else a ball could roll on beside the fall edge):
    a clear error if it does not.
    """
    mouth, radius, opening, depth, cut = (
        dims.mouth,
        dims.jaw_radius,
        dims.facing_angle,
        dims.fall_depth,
        dims.fall_radius,
    )
    c, t = math.cos(opening), math.tan(opening)
    d = depth
    for _ in range(50):  # the centre's room widens with depth, the cut's edge recedes with width
        half = max(0.0, mouth / 2 + radius * (1 - c) + (d - radius * math.sin(opening)) * t)
        half = max(0.0, half - ball_radius / c)
        if half >= 0.98 * cut:
            raise ValueError(
                f"TableSpec.{kind}_fall_radius ({cut} m) is too small: the slate's cut must span "
                f"the room between the facings ({half:.4f} m either side of the axis)"
            )
        d = depth + cut - math.sqrt(cut * cut - half * half)
    return d


def check_closing(kind: str, dims: PocketDimensions, ball_radius: float) -> None:
    """Facings that close in behind the tips must do so over the slate's cut: a ball's centre
    touching the start of one must already be past the fall edge, else a ball still on the
    slate would meet a gap narrower than the mouth (a clear error names the deepest fall edge
    that allows the angle)."""
    if dims.facing_angle >= 0.0:
        return
    reach = dims.jaw_radius + ball_radius
    across = dims.mouth / 2 + dims.jaw_radius - reach * math.cos(dims.facing_angle)
    along = reach * math.sin(dims.facing_angle)  # in front of the mouth line (< 0)
    cut = dims.fall_radius
    deepest = along - cut + math.sqrt(max(cut * cut - across * across, 0.0))
    if across >= cut or dims.fall_depth > deepest + HOLD_TOLERANCE:
        raise ValueError(
            f"TableSpec.{kind}_facing_angle ({math.degrees(dims.facing_angle):.1f} degrees) "
            f"closes the facings in front of the fall edge, narrower than the mouth: put "
            f"TableSpec.{kind}_fall_depth at {deepest:.4f} m or less, or open the facings"
        )


def capture_centre(frame: Frame, dims: PocketDimensions) -> Point:
    """The centre of the slate's circular cut, whose edge is the fall edge."""
    (ox, oy), (ax, ay) = frame.centre, frame.axis
    depth = dims.fall_depth + dims.fall_radius
    return (ox + ax * depth, oy + ay * depth)


def check_pocket(
    pocket: Pocket, dims: PocketDimensions, ball_radius: float, length: float, width: float
) -> None:
    """A clear error if ``pocket``'s dimensions cannot make a pocket: the slate's cut too small
    for the throat, facings closing in front of the fall edge, or a fall edge within reach of
    a ball standing on the playing area."""
    kind = kind_of(pocket)
    fall_reach(kind, dims, ball_radius)
    check_closing(kind, dims, ball_radius)
    capture = capture_centre(pocket_frame(pocket, dims, length, width), dims)
    r = ball_radius
    nearest = (min(max(capture[0], r), length - r), min(max(capture[1], r), width - r))
    if math.dist(nearest, capture) <= dims.fall_radius:
        raise ValueError(
            f"TableSpec.{kind}_fall_depth ({dims.fall_depth} m) puts the fall edge within "
            "reach of a ball standing on the playing area: move it deeper into the pocket"
        )
