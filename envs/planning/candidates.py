"""Candidate pots by the ghost-ball method, with a makeability estimate for each.

A candidate is a cue ball, an object ball and a pocket, played straight in, as a one-cushion
double of the object ball, or as a one-cushion abricol of the cue ball. Its ``chance`` estimates
the probability of the pot under execution noise: the aim error of the cue carried through the cut
to the pocket, against the pocket's window (measured on the project's table, rolling at 2 m/s
toward :func:`~kinghill.envs.planning.aim.pocket_target`: a corner admits +-6 mm head on, +-3 mm at
30
degrees and nothing from 45; a middle pocket +-12 mm head on, +-7 mm at 30 degrees, +-1 mm at 45).
A ball hanging in a mouth is potted into its own pocket; a hanging cue ball is played only along
lines that clear that pocket's jaw tips.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from kinghill.envs.planning.object_routes import ObjectRoute, Point, pocket_aims, pocket_window
from kinghill.envs.planning.pot_kernel import (
    ROUTE_COLUMNS,
    ball_routes,
    find_pots,
    near,
    speed_needed,
    window_chance,
)
from kinghill.envs.planning.pot_kernel import best_chances as best_chances_kernel
from kinghill.envs.planning.table_arrays import PlanningArrays, planning_arrays
from kinghill.envs.rules import Call
from kinghill.physics import COLOURED, Cushion, NoiseModel, Pocket, Shot, TableSpec, TableState
from kinghill.physics.geometry import hanging_pocket

DEFAULT_ROLL_DECELERATION = 0.098
"""The planner's rolling deceleration on the default cloth (m/s^2): its mu_roll * g (0.0981)
as rounded when the menu was tuned and the masked reference model trained on it; kept, so the
default table's menus stay the same (``tests/test_menu_fixture.py``)."""
_DEFAULT_MU_ROLL_G = TableSpec().mu_roll * TableSpec().gravity
ARRIVAL_SPEED = 0.5
"""Speed at which a potted ball should reach the pocket (m/s): margin for the cloth."""
MAX_POT_SPEED = 6.0
DEFAULT_NOISE = NoiseModel()


class PotCandidate(NamedTuple):
    """One pot: which balls and pocket, how it is played, and its estimated chance.

    ``double``: the cushion the object ball rebounds from; ``abricol``: the cushion the cue ball
    rebounds from first. ``cut`` is the cut angle (rad), ``cue_path`` and ``object_path`` the
    distances the two balls travel (m), ``heading`` the direction the object ball must leave in,
    ``phi`` the cue's aim and ``b`` its tip height (draw on straight pots), ``deceleration`` the
    cloth's :func:`roll_deceleration` (what :attr:`shot`'s speed is planned for). A tuple, fast to
    make: a decision finds a score of pots and plays one.
    """

    cue_ball: int
    object_ball: int
    pocket: Pocket
    cut: float
    cue_path: float
    object_path: float
    chance: float
    heading: float
    phi: float
    b: float
    deceleration: float
    double: Cushion | None = None
    abricol: Cushion | None = None

    @property
    def shot(self) -> Shot:
        """The shot that plays the pot (:func:`pot_speed`), built when asked for (most
        candidates are only ranked)."""
        speed = pot_speed(self.cue_path, self.object_path, self.cut, self.deceleration, self.b)
        return Shot(self.cue_ball, self.phi, speed, b=self.b)

    @property
    def call(self) -> Call | None:
        """The call for a pot of the coloured ball (None for a white), built when asked for."""
        if self.object_ball != COLOURED:
            return None
        if self.abricol is not None:
            colour_leg = () if self.double is None else (self.double,)
            return Call.abricol(self.cue_ball, self.pocket, [self.abricol], colour_leg)
        if self.double is not None:
            return Call.double(self.cue_ball, self.pocket, [self.double])
        return Call.plain(self.cue_ball, self.pocket)


def pocket_point(spec: TableSpec, pocket: Pocket) -> Point:
    """Where to send a ball's centre to drop it in ``pocket``."""
    return pocket_aims(spec)[pocket][0]


def segment_clear(
    centres: dict[int, Point], diameter: float, start: Point, end: Point, ignore: tuple[int, ...]
) -> bool:
    """Whether no ball of ``centres`` (``ignore``, at most three, excepted) lies within
    ``diameter`` of the segment from ``start`` to ``end`` (:func:`.pot_kernel.near`)."""
    points = np.array(list(centres.values()), dtype=np.float64).reshape(-1, 2)
    ids = np.array(list(centres), dtype=np.int64)
    a, b, c = (*ignore, -1, -1, -1)[:3]
    return not near(points, ids, diameter, (*start, *end), (a, b, c), 1, np.empty(1, np.int64))


def roll_deceleration(spec: TableSpec) -> float:
    """How fast the planner takes a rolling ball to slow on ``spec``'s cloth (m/s^2): in
    proportion to its mu_roll * g, :data:`DEFAULT_ROLL_DECELERATION` on the default cloth."""
    return DEFAULT_ROLL_DECELERATION * (spec.mu_roll * spec.gravity / _DEFAULT_MU_ROLL_G)


def rolling_speed_needed(
    distance: float, arrival: float, deceleration: float, b: float = 0.0
) -> float:
    """The initial speed of a ball struck ``b`` R above centre that still rolls at ``arrival``
    m/s after ``distance`` m on a cloth that slows it by ``deceleration`` m/s^2 (sliding losses
    folded into the rolling fraction)."""
    return speed_needed(distance, arrival, deceleration, b)


def pot_speed(
    cue_path: float,
    object_path: float,
    cut: float,
    deceleration: float,
    b: float = 0.0,
    arrival: float = ARRIVAL_SPEED,
) -> float:
    """A cue speed that pots with margin on a cloth of ``deceleration``
    (:func:`roll_deceleration`): the object ball reaches the pocket at ``arrival``."""
    object_start = rolling_speed_needed(object_path, arrival, deceleration)
    at_contact = object_start / (0.975 * math.cos(cut))
    return min(rolling_speed_needed(cue_path, at_contact, deceleration, b), MAX_POT_SPEED)


def pot_chance(
    spec: TableSpec,
    pocket: Pocket,
    approach: float,
    cut: float,
    cue_path: float,
    object_path: float,
    noise: NoiseModel = DEFAULT_NOISE,
) -> float:
    """Estimated probability of the pot: the lateral error at the pocket (the cue's aim error
    turned into a cut error, ``d theta = d_cue d_phi / (2R cos cut)``) against the window."""
    window = pocket_window(pocket, approach)
    if window <= 0:
        return 0.0
    return window_chance(window, spec.radius, cut, cue_path, object_path, noise.sigma_phi)


_POCKETS = tuple(Pocket)
_CUSHIONS: tuple[Cushion | None, ...] = (*Cushion, None)
"""By a row's cushion code: 0-5, and -1 for none."""


def object_routes(
    spec: TableSpec, centres: dict[int, Point], ball: int, doubles: bool = False
) -> list[ObjectRoute]:
    """The open routes of ``ball`` into the pockets, straight and, with ``doubles``, off each
    other cushion: open when the pocket's window is open at the angle the ball arrives and a
    double's rebound point lies along its cushion. A ball hanging in a mouth drops at a touch
    into that pocket, and into no other (:func:`.pot_kernel.ball_routes`)."""
    arrays = planning_arrays(spec)
    ways = arrays.doubles if doubles else arrays.straight
    x, y = centres[ball]
    hanging = hanging_pocket(arrays.geometry, x, y)
    rows = np.empty((ways.shape[0] + 1, ROUTE_COLUMNS))
    n = ball_routes(rows, 0, ball, 0, x, y, hanging, ways, arrays.pockets, spec.radius)
    return [
        ObjectRoute(
            int(row[0]),
            _POCKETS[int(row[1])],
            _CUSHIONS[int(row[2])],
            tuple((row[4 + 2 * k], row[5 + 2 * k]) for k in range(int(row[3]))),
            (row[10], row[11]),
            row[12],
            row[13],
            row[14],
        )
        for row in rows[:n].tolist()
    ]


def pots(
    state: TableState,
    cue_balls: Iterable[int],
    object_balls: Iterable[int],
    doubles: bool = False,
    abricols: bool = False,
    noise: NoiseModel = DEFAULT_NOISE,
    min_chance: float = 0.0,
) -> list[PotCandidate]:
    """Every playable pot of an object ball from ``object_balls`` by a cue ball from
    ``cue_balls`` (straight in; one-cushion doubles and abricols when asked), best first; with
    ``min_chance``, only those at least that likely.

    Found by the compiled planner (:func:`.pot_kernel.find_pots`): the object balls' routes
    (:func:`object_routes`), each shared by all cue balls, then each cue ball's line."""
    rows = _pot_rows(state, cue_balls, object_balls, doubles, abricols, noise, min_chance, False)
    deceleration = roll_deceleration(state.spec)
    return [_candidate(row, deceleration) for row in rows.tolist()]


def _candidate(row: list[float], deceleration: float) -> PotCandidate:
    """The :class:`PotCandidate` of a pot row (:data:`.pot_kernel.POT_COLUMNS`)."""
    cut, cue_path, object_path, chance, heading, phi, b = row[3:10]
    return PotCandidate(
        int(row[0]),
        int(row[1]),
        _POCKETS[int(row[2])],
        cut,
        cue_path,
        object_path,
        chance,
        heading,
        phi,
        b,
        deceleration,
        _CUSHIONS[int(row[10])],
        _CUSHIONS[int(row[11])],
    )


def _pot_rows(
    state: TableState,
    cue_balls: Iterable[int],
    object_balls: Iterable[int],
    doubles: bool,
    abricols: bool,
    noise: NoiseModel,
    min_chance: float,
    best_only: bool,
) -> np.ndarray:
    """The pots as :func:`.pot_kernel.find_pots` rows (``best_only``: the first row right, the
    others maybe left out)."""
    on = state.on_table
    ids = np.flatnonzero(on)
    arrays = planning_arrays(state.spec)
    return find_pots(
        state.positions[ids],
        ids,
        np.array([b for b in cue_balls if on[b]], dtype=np.int64),
        np.array([b for b in object_balls if on[b]], dtype=np.int64),
        arrays.doubles if doubles else arrays.straight,
        abricols,
        min_chance,
        best_only,
        noise.sigma_phi,
        *_table(arrays),
    )


def _table(arrays: PlanningArrays) -> tuple[Any, ...]:
    """The table's arrays :func:`.pot_kernel.find_pots` takes last."""
    return (
        arrays.scalars,
        arrays.lines,
        arrays.pockets,
        arrays.tips,
        arrays.tip_counts,
        arrays.geometry,
    )


def best_chance(
    state: TableState,
    cue_balls: Iterable[int],
    object_balls: Iterable[int],
    noise: NoiseModel = DEFAULT_NOISE,
) -> float:
    """The chance of the likeliest straight pot of :func:`pots` (0 if there is none), without
    building the pots (a position estimate, asked for at every leaf)."""
    rows = _pot_rows(state, cue_balls, object_balls, False, False, noise, 0.0, True)
    return float(rows[0, 6]) if rows.shape[0] else 0.0


def best_chances(
    states: Sequence[TableState],
    cue_masks: np.ndarray,
    object_masks: np.ndarray,
    noise: NoiseModel = DEFAULT_NOISE,
) -> np.ndarray:
    """:func:`best_chance` of each of ``states`` (all on one table spec) with the cue balls and
    object balls marked in the rows of ``cue_masks`` and ``object_masks`` (n x 8, in ball
    order), the same numbers in one compiled call (the search's leaves, many at a time)."""
    if not states:
        return np.zeros(0)
    positions = np.array([s.positions for s in states])
    on_table = np.array([s.on_table for s in states])
    return best_chances_at(positions, on_table, cue_masks, object_masks, states[0].spec, noise)


def best_chances_at(
    positions: np.ndarray,
    on_table: np.ndarray,
    cue_masks: np.ndarray,
    object_masks: np.ndarray,
    spec: TableSpec,
    noise: NoiseModel = DEFAULT_NOISE,
) -> np.ndarray:
    """:func:`best_chances` of tables given as arrays: ball places (n x 8 x 2, NaN off the
    table) and which balls are on the table (n x 8), on ``spec``'s table."""
    if not len(positions):
        return np.zeros(0)
    arrays = planning_arrays(spec)
    return best_chances_kernel(
        np.ascontiguousarray(positions, np.float64),
        np.ascontiguousarray(on_table, np.bool_),
        np.asarray(cue_masks, np.bool_),
        np.asarray(object_masks, np.bool_),
        arrays.straight,
        noise.sigma_phi,
        _table(arrays),
    )
