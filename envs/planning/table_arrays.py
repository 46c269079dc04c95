"""A table's constants as the planning kernels read them (:mod:`.pot_kernel`,
:mod:`.safety_kernel`): plain arrays built once per table spec from the same sources the
Python side uses (the cushion lines, the ways into the pockets, the windows, the jaw tips).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from kinghill.envs.planning.object_routes import cushion_lines, ways, window_of
from kinghill.physics import Pocket, TableSpec
from kinghill.physics.geometry import GeometryArrays, TableGeometry
from kinghill.physics.spec import SPEC_CACHE_SIZE

TIP_REACH = 0.1
"""A jaw tip this close to a pocket's mouth centre (m) is one of that pocket's: a ball hanging
in the mouth must pass clear of it on its way out."""
WAY_COLUMNS = 14
"""A way's row: pocket, cushion (-1 straight), aim x, y, its mirror image x, y, the pocket's
axis x, y, the cushion line (across: 1/0, -1 straight; at, low, high), the window's half-width
head on and the angle it closes at."""


class PlanningArrays(NamedTuple):
    """One table spec's constants for the kernels."""

    scalars: np.ndarray
    """R, the ball's diameter, and the three mirror constants 2R, 2(L - R), 2(W - R)."""
    lines: np.ndarray
    """Per cushion: across (1/0), at, low, high (:class:`.object_routes.CushionLine`)."""
    straight: np.ndarray
    """The straight ways into the pockets (rows of :data:`WAY_COLUMNS`)."""
    doubles: np.ndarray
    """The straight ways and the one-cushion doubles."""
    pockets: np.ndarray
    """Per pocket id: the capture centre x, y, the window's half-width and closing angle."""
    tips: np.ndarray
    """Per pocket id: its jaw tips (x, y, radius), ``tip_counts`` of them."""
    tip_counts: np.ndarray
    mouths: np.ndarray
    """The pockets' mouth centres, in the geometry's order."""
    geometry: GeometryArrays


def _way_rows(spec: TableSpec, doubles: bool) -> np.ndarray:
    rows = []
    for way in ways(spec, doubles):
        line = (-1.0, 0.0, 0.0, 0.0)
        if way.line is not None:
            line = (float(way.line.across), *way.line[1:])
        rows.append(
            (
                int(way.pocket),
                -1 if way.double is None else int(way.double),
                *way.target,
                *way.image,
                *way.axis,
                *line,
                way.half,
                way.closes,
            )
        )
    return np.array(rows, dtype=np.float64).reshape(-1, WAY_COLUMNS)


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def planning_arrays(spec: TableSpec) -> PlanningArrays:
    """The :class:`PlanningArrays` of ``spec`` (memoised: specs are frozen)."""
    geometry = TableGeometry.from_spec(spec)
    r = spec.radius
    scalars = np.array(
        [
            r,
            spec.ball_diameter,
            2 * r,
            2 * (spec.length - r),
            2 * (spec.width - r),
        ]
    )
    lines = np.array([(float(line.across), *line[1:]) for line in cushion_lines(spec).values()])
    pockets = np.zeros((len(Pocket), 4))
    circles = [(el[2], el[3], el[4]) for el in geometry.elements if el[0] == "circle"]
    tips = np.zeros((len(Pocket), max(len(circles), 1), 3))
    tip_counts = np.zeros(len(Pocket), np.int64)
    for pocket, shape in geometry.pockets.items():
        pockets[pocket] = (*shape.capture_centre, *window_of(pocket))
        for tip in circles:
            if math.dist(tip[:2], shape.mouth_centre) < TIP_REACH:
                tips[pocket, tip_counts[pocket]] = tip
                tip_counts[pocket] += 1
    mouths = np.array([shape.mouth_centre for shape in geometry.pockets.values()])
    assert list(cushion_lines(spec)) == sorted(cushion_lines(spec))  # rows by cushion id
    return PlanningArrays(
        scalars,
        lines,
        _way_rows(spec, False),
        _way_rows(spec, True),
        pockets,
        tips,
        tip_counts,
        mouths,
        geometry.arrays,
    )
