"""Placeholder until the engine lands (issue 2)."""

from __future__ import annotations

import numpy as np

from kinghill.physics.result import ShotResult
from kinghill.physics.shot import NoiseModel, Shot
from kinghill.physics.state import TableState


def simulate(
    state: TableState,
    shot: Shot,
    rng: np.random.Generator | None = None,
    *,
    noise: NoiseModel | None = None,
    trajectory: bool = False,
) -> ShotResult:
    """Play ``shot`` from ``state`` until all balls are at rest."""
    raise NotImplementedError("the physics engine is being built (issue 2)")
