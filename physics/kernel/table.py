"""The table arrays built from a spec: cloth, contact laws, and the cushions, jaws and pockets
as rows the broad phase scans.

Pymunk is read here once per spec, and nowhere else: its static space holds the cushion noses,
jaw tips and facings and the pockets' holes, and gives each its bounding box and the order in
which its tree lists them. The broad phase itself (which elements a ball's swept box over its
current phase can reach) runs in the compiled kernel over those boxes
(:func:`kinghill.physics.kernel.plan.plan_own`), in the same order, so that it meets the
elements as a Pymunk box query would list them.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pymunk

from kinghill.physics.geometry import TableGeometry
from kinghill.physics.kernel.cloth import Cloth
from kinghill.physics.kernel.layout import CAPTURE, CIRCLE, LINE, TableArrays
from kinghill.physics.names import Pocket
from kinghill.physics.resolve.ball_ball import BallBallModel
from kinghill.physics.resolve.ball_cushion import make_law
from kinghill.physics.spec import SPEC_CACHE_SIZE, TableSpec


class Table:
    """Everything about one spec that the kernel needs, built once and cached (Pymunk space
    too): :attr:`arrays` is what the kernel reads."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.geometry = TableGeometry.from_spec(spec)
        self.cloth = Cloth(spec)
        self.ball_ball = BallBallModel(
            spec.radius, spec.e_ball, spec.mu_ball_a, spec.mu_ball_b, spec.mu_ball_c
        )
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
        self.arrays = TableArrays(
            cloth=self.cloth.params,
            ball_ball=self.ball_ball.params,
            cushion_law=self.ball_cushion.params,
            jaw_law=self.jaw.params,
            elements=self._elements(),
            pockets=np.array(
                [(*self.geometry.pockets[p].capture_centre, *self.axes[p]) for p in Pocket]
            ),
            centre_line=spec.centre_line_x,
            fall_time=math.sqrt(2.0 * spec.fall_drop / spec.gravity),
            geometry=self.geometry.arrays,
        )
        """The table as the kernel reads it."""
        self.plain = tuple(self.arrays)
        """The same as a plain tuple, as Python hands it to a kernel (:func:`.layout.named`)."""

    def _elements(self) -> np.ndarray:
        """The elements (:data:`LINE` ...) with their bounding boxes, in the order in which
        Pymunk's tree visits them."""
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
        """The table of ``spec``, cached for the :data:`SPEC_CACHE_SIZE` most recent specs (the
        last spec asked about found by identity first: hashing a spec reads all its fields)."""
        global _last
        found = _last
        if found is None or found[0] is not spec:
            found = _last = (spec, _table_of(spec))
        return found[1]


_last: tuple[TableSpec, Table] | None = None
"""The last spec :meth:`Table.of` was asked about and its table."""


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def _table_of(spec: TableSpec) -> Table:
    return Table(spec)
