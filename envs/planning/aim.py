"""Ghost-ball aiming: the aim angle that sends an object ball to a pocket, straight or off one
cushion (a double), and the cue ball's aim off one cushion (an abricol).

Geometry only: the ghost ball is where the cue ball's centre must be at contact, 2R behind the
object ball on the line from the pocket's aim point through the object ball. A cushion is replaced
by its mirror image (the line a ball's centre runs along when touching it), so a one-cushion path
is a straight line to the mirrored target.
"""

from __future__ import annotations

import math

from kinghill.physics import Cushion, Pocket, TableSpec
from kinghill.physics.geometry import TableGeometry

Point = tuple[float, float]


def mirror(point: Point, cushion: Cushion, spec: TableSpec) -> Point:
    """``point`` reflected in the line a ball's centre touches ``cushion`` along."""
    x, y = point
    r = spec.radius
    if cushion is Cushion.FRONT:
        return (2 * r - x, y)
    if cushion is Cushion.REAR:
        return (2 * (spec.length - r) - x, y)
    if cushion in (Cushion.LEFT_FRONT, Cushion.LEFT_REAR):
        return (x, 2 * (spec.width - r) - y)
    return (x, 2 * r - y)


def ghost_point(obj: Point, target: Point, spec: TableSpec) -> Point:
    """Where the cue ball's centre must be to send ``obj`` toward ``target``."""
    dx, dy = target[0] - obj[0], target[1] - obj[1]
    d = math.hypot(dx, dy) or 1.0
    return (obj[0] - 2 * spec.radius * dx / d, obj[1] - 2 * spec.radius * dy / d)


def angle_to(origin: Point, point: Point) -> float:
    """The aim angle from ``origin`` to ``point`` (rad, 0 = +x, counter-clockwise)."""
    return math.atan2(point[1] - origin[1], point[0] - origin[0])


MOUTH_INSET = 0.014
"""The pocket target lies this far in front of the mouth's centre, on the pocket axis (m): the
point that centres the measured window (within 1 mm) at every approach angle up to 40 degrees
(the fall edge, further in, sits off-centre for balls arriving at an angle)."""


def pocket_target(pocket: Pocket, spec: TableSpec) -> Point:
    """The point to send a ball's centre to, to drop it in ``pocket`` (see :data:`MOUTH_INSET`)."""
    shape = TableGeometry.from_spec(spec).pockets[pocket]
    (mx, my), (ax, ay) = shape.mouth_centre, shape.axis
    return (mx - MOUTH_INSET * ax, my - MOUTH_INSET * ay)


def ghost_aim(
    cue: Point,
    obj: Point,
    pocket: Pocket,
    spec: TableSpec,
    double: Cushion | None = None,
    abricol: Cushion | None = None,
) -> float:
    """The aim angle of the cue ball at ``cue`` to send the ball at ``obj`` into ``pocket``:
    straight, as a double off ``double``, and/or with the cue ball off ``abricol`` first."""
    target = pocket_target(pocket, spec)
    if double is not None:
        target = mirror(target, double, spec)
    ghost = ghost_point(obj, target, spec)
    if abricol is not None:
        ghost = mirror(ghost, abricol, spec)
    return angle_to(cue, ghost)
