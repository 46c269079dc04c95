"""The path a call describes, as points on the table: what renders draw to show a call.

Each leg of the called route (R-route) runs from its ball to the next station (the next chain
ball, a ball touched on the way, or, for the coloured ball's last leg, the called pocket); its
cushions are drawn as banks found by unfolding the table in them (the mirror images of
:mod:`kinghill.envs.planning.aim`). Geometry only, no physics: a picture of the intention, not a
prediction of the shot.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kinghill.envs.planning.aim import mirror, pocket_target
from kinghill.envs.rules import Call
from kinghill.physics import Cushion, TableSpec

Point = tuple[float, float]


def bank_points(
    start: Point, cushions: Sequence[Cushion], end: Point, spec: TableSpec
) -> list[Point]:
    """The points where a ball's centre meets ``cushions`` in order on its way ``start`` to
    ``end``, found by aiming at ``end``'s image in the unfolded table."""
    target = end
    for cushion in reversed(cushions):
        target = mirror(target, cushion, spec)
    points, here = [], start
    for cushion in cushions:
        here = _meet(here, target, cushion, spec)
        points.append(here)
        target = mirror(target, cushion, spec)
    return points


def _meet(start: Point, target: Point, cushion: Cushion, spec: TableSpec) -> Point:
    """Where the line ``start`` to ``target`` crosses the line of centres along ``cushion``."""
    r = spec.radius
    axis, level = {
        Cushion.FRONT: (0, r),
        Cushion.REAR: (0, spec.length - r),
        Cushion.LEFT_FRONT: (1, spec.width - r),
        Cushion.LEFT_REAR: (1, spec.width - r),
        Cushion.RIGHT_FRONT: (1, r),
        Cushion.RIGHT_REAR: (1, r),
    }[cushion]
    span = target[axis] - start[axis]
    t = 0.5 if abs(span) < 1e-12 else min(max((level - start[axis]) / span, 0.0), 1.0)
    return (start[0] + t * (target[0] - start[0]), start[1] + t * (target[1] - start[1]))


def call_path(call: Call, positions: np.ndarray, spec: TableSpec) -> list[Point]:
    """The called route as one polyline: from the cue ball through every bank and ball of
    every leg, chain ball by chain ball, to the called pocket. ``positions`` are the balls'
    positions (8 x 2) before the shot."""
    stations: list[tuple[Point, list[Cushion]]] = []
    for ball, leg in zip(call.chain, call.legs, strict=True):
        stations.append((_at(positions, ball), []))
        for touch in leg:
            if isinstance(touch, Cushion):
                stations[-1][1].append(touch)
            else:
                stations.append((_at(positions, touch), []))
    end = pocket_target(call.pocket, spec)
    path: list[Point] = []
    for i, (point, cushions) in enumerate(stations):
        following = stations[i + 1][0] if i + 1 < len(stations) else end
        path.append(point)
        path.extend(bank_points(point, cushions, following, spec))
    path.append(end)
    return path


def _at(positions: np.ndarray, ball: int) -> Point:
    return (float(positions[ball][0]), float(positions[ball][1]))
