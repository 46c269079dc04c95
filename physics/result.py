"""What a simulated shot returns: the final state, the event log and optional trajectories."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kinghill.physics.events import Event
from kinghill.physics.shot import Shot
from kinghill.physics.state import TableState


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Ball positions sampled at a fixed rate for rendering.

    ``times`` has shape (T,), ``positions`` (T, 8, 2) (NaN once a ball is pocketed),
    ``on_table`` (T, 8).
    """

    times: np.ndarray
    positions: np.ndarray
    on_table: np.ndarray


@dataclass(frozen=True, eq=False)
class ShotResult:
    """The outcome of :func:`kinghill.physics.simulate`.

    :param shot: the shot as played (after execution noise, if any).
    :param final: the table when all balls are at rest.
    :param events: the complete, time-ordered event log.
    :param duration: simulated seconds until all balls were at rest.
    :param steps: integration steps taken (a cost statistic).
    :param trajectory: sampled positions when asked for, else None.
    """

    shot: Shot
    final: TableState
    events: tuple[Event, ...]
    duration: float
    steps: int
    trajectory: Trajectory | None = None
