"""Billiards physics of the pyramid table: table, cue, cloth, contacts, pockets.

An analytic, event-driven engine compiled with numba (:mod:`kinghill.physics.kernel`); Pymunk
is read once per table spec, for the bounding boxes of the cushions, jaws and pockets, and the
broad phase over them runs in the compiled kernel. Knows nothing of the rules. The entry point
is :func:`simulate`; :func:`simulate_many` and :func:`simulate_noisy` play many shots in one
call (:func:`simulate_batch` the same, its outcomes kept as arrays; :func:`simulate_departures`
how a struck ball leaves its first contact, for the search's aim calibration).
"""

from kinghill.physics.events import BallBall, BallCushion, CentreLine, Event, Pocketed
from kinghill.physics.geometry import CushionShape, PocketShape, TableGeometry
from kinghill.physics.names import BREAK_BALL, COLOURED, N_BALLS, WHITES, Cushion, Pocket
from kinghill.physics.result import ShotResult, Trajectory
from kinghill.physics.shot import MAX_SPEED, MISCUE_LIMIT, NoiseModel, Shot
from kinghill.physics.simulate import simulate
from kinghill.physics.simulate_many import (
    Departures,
    ShotBatch,
    simulate_batch,
    simulate_departures,
    simulate_many,
    simulate_noisy,
)
from kinghill.physics.spec import TableSpec
from kinghill.physics.state import TableState
from kinghill.physics.warm_up import warm_up

__all__ = [
    "BREAK_BALL",
    "COLOURED",
    "MAX_SPEED",
    "MISCUE_LIMIT",
    "N_BALLS",
    "WHITES",
    "BallBall",
    "BallCushion",
    "CentreLine",
    "Cushion",
    "CushionShape",
    "Departures",
    "Event",
    "NoiseModel",
    "Pocket",
    "PocketShape",
    "Pocketed",
    "Shot",
    "ShotBatch",
    "ShotResult",
    "TableGeometry",
    "TableSpec",
    "TableState",
    "Trajectory",
    "simulate",
    "simulate_batch",
    "simulate_departures",
    "simulate_many",
    "simulate_noisy",
    "warm_up",
]
