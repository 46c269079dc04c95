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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from kinghill.envs.planning.aim import angle_to, ghost_point, mirror
from kinghill.envs.planning.object_routes import (
    OPEN_MARGIN,
    ObjectRoute,
    Point,
    ball_centres,
    balls_near,
    cushion_lines,
    cushion_point,
    object_routes,
    on_cushion,
    path_length,
    pocket_aims,
    pocket_window,
    route_blockers,
)
from kinghill.envs.rules import Call
from kinghill.physics import COLOURED, Cushion, NoiseModel, Pocket, Shot, TableSpec, TableState
from kinghill.physics.geometry import TableGeometry

MAX_CUT = math.radians(60.0)
"""Cuts thinner than this are not attempted (the brief's "simple cut")."""
COS_MAX_CUT = math.cos(MAX_CUT)
DEFAULT_ROLL_DECELERATION = 0.098
"""The planner's rolling deceleration on the default cloth (m/s^2): its mu_roll * g (0.0981)
as rounded when the menu was tuned and the masked reference model trained on it; kept, so the
default table's menus stay the same (``tests/test_menu_fixture.py``)."""
_DEFAULT_MU_ROLL_G = TableSpec().mu_roll * TableSpec().gravity
ROLLING_FRACTION = 5.0 / 7.0
"""A ball struck at its centre rolls at 5/7 of its initial speed once sliding ends."""
ARRIVAL_SPEED = 0.5
"""Speed at which a potted ball should reach the pocket (m/s): margin for the cloth."""
MAX_POT_SPEED = 6.0
STRAIGHT_CUT = math.radians(15.0)
"""Below this cut a rolling cue ball would follow the object ball toward the pocket..."""
DRAW = -0.4
"""...so such pots are played with this much draw (a fraction of R below centre)."""
BASE_SIGMA = math.radians(0.1)
"""Direction spread of the object ball beyond the cue's aim noise (throw, tip noise), rad."""
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
    """Whether no ball of ``centres`` (``ignore`` excepted) lies within ``diameter`` of the
    segment from ``start`` to ``end``."""
    return not balls_near(centres, diameter, start, end, ignore, 1)


def rolling_fraction(b: float = 0.0) -> float:
    """The share of its initial speed a cue ball keeps once it rolls, struck ``b`` R above
    centre: 5/7 (1 + b) (the slip of the cue-tip model wears off under sliding friction)."""
    return ROLLING_FRACTION * (1.0 + b)


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
    fraction = ROLLING_FRACTION * (1.0 + b)  # rolling_fraction(b), without the call
    return math.sqrt(arrival * arrival + 2 * deceleration * distance) / fraction


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
    return _window_chance(window, spec.radius, cut, cue_path, object_path, noise)


def _window_chance(
    window: float, radius: float, cut: float, cue_path: float, object_path: float, noise: NoiseModel
) -> float:
    """:func:`pot_chance` for a pocket whose window (m, > 0) is already known."""
    sigma_cut = cue_path * noise.sigma_phi / (2 * radius * math.cos(cut))
    sigma = object_path * math.hypot(sigma_cut, BASE_SIGMA) + 1e-4
    return math.erf(window / (sigma * math.sqrt(2)))


def _hanging(spec: TableSpec, centres: dict[int, Point]) -> dict[int, Pocket]:
    """The balls hanging in a pocket's mouth, and the pocket of each."""
    geometry = TableGeometry.from_spec(spec)
    found = {}
    for ball, (x, y) in centres.items():
        pocket = geometry.hanging_in(x, y)
        if pocket is not None:
            found[ball] = pocket
    return found


def _leaves_mouth(spec: TableSpec, pocket: Pocket, start: Point, end: Point) -> bool:
    """Whether a ball rolling from ``start`` (hanging in ``pocket``'s mouth) toward ``end``
    clears the pocket's jaw tips on its way out."""
    geometry = TableGeometry.from_spec(spec)
    mouth = geometry.pockets[pocket].mouth_centre
    tips = [el for el in geometry.elements if el[0] == "circle"]
    return all(
        segment_clear({-1: (el[2], el[3])}, spec.radius + el[4], start, end, ())
        for el in tips
        if math.dist((el[2], el[3]), mouth) < 0.1
    )


ROUTE_MEMORY = 1024
"""Routes kept across decisions, by object ball and position (cleared when full): a ball's
routes depend on its own position alone, and at most decisions most balls stand where they
stood at the one before (44% of them in ``kinghill bench-env``'s frames)."""


@dataclass
class _RouteMemo:
    """The routes worked out on one table spec, by ``(ball, x, y, doubles)``."""

    spec: TableSpec | None = None
    routes: dict[tuple[int, float, float, bool], list[ObjectRoute]] = field(default_factory=dict)

    def on(self, spec: TableSpec) -> dict[tuple[int, float, float, bool], list[ObjectRoute]]:
        """The routes kept for ``spec`` (none when the spec changed or the memory is full)."""
        if (self.spec is not spec and self.spec != spec) or len(self.routes) > ROUTE_MEMORY:
            self.spec, self.routes = spec, {}
        return self.routes


_ROUTES = _RouteMemo()


@dataclass(frozen=True)
class _Table:
    """What every pot in one position shares: the balls' centres, the hanging ones, the pockets'
    aims, the table's sizes and cloth, and the object balls' routes (kept across positions:
    :data:`ROUTE_MEMORY`) and what blocks them, found so far (each worked out once)."""

    state: TableState
    spec: TableSpec
    centres: dict[int, Point]
    hanging: dict[int, Pocket]
    aims: dict[Pocket, tuple[Point, Point]]
    radius: float
    diameter: float
    deceleration: float
    noise: NoiseModel
    routes: dict[tuple[int, float, float, bool], list[ObjectRoute]]
    blocked: dict[tuple[int, Pocket, Cushion | None], frozenset[int]] = field(default_factory=dict)

    def routes_of(self, balls: list[int], doubles: bool) -> list[ObjectRoute]:
        """The open routes of ``balls`` into the pockets (:func:`routes.object_routes`, once per
        position of each ball). A ball hanging in a mouth drops at a touch into that pocket,
        and into no other."""
        found = []
        for ball in balls:
            key = (ball, *self.centres[ball], doubles)
            routes = self.routes.get(key)
            if routes is None:
                routes = self.routes[key] = self._routes(ball, doubles)
            found += routes
        return found

    def _routes(self, ball: int, doubles: bool) -> list[ObjectRoute]:
        pocket = self.hanging.get(ball)
        if pocket is None:
            return object_routes(self.spec, self.centres, ball, doubles)
        obj = self.centres[ball]
        target = TableGeometry.from_spec(self.spec).pockets[pocket].capture_centre
        ghost = ghost_point(obj, target, self.spec)
        path = math.dist(obj, target)
        return [
            ObjectRoute(
                ball, pocket, None, (obj, target), ghost, 0.0, pocket_window(pocket, 0.0), path
            )
        ]

    def blockers(self, route: ObjectRoute) -> frozenset[int]:
        """:func:`routes.route_blockers` of ``route``, once per position (more than one: no
        pot)."""
        key = (route.object_ball, route.pocket, route.double)
        if key not in self.blocked:
            self.blocked[key] = route_blockers(self.centres, self.diameter, route)
        return self.blocked[key]


_LAST: list[_Table] = []
"""The position asked about last: one decision asks for several lists of pots (the whites, the
coloured ball with doubles, the opponent's best pot) from the same position."""


def _table(state: TableState, noise: NoiseModel) -> _Table:
    """The shared part of the pots in ``state``; the last one is kept (a ``TableState`` is
    immutable, and kept alive by the entry, so being the same object means the same position)."""
    if _LAST and _LAST[0].state is state and _LAST[0].noise == noise:
        return _LAST[0]
    spec = state.spec
    centres = ball_centres(state)
    hanging = _hanging(spec, centres)
    aims = pocket_aims(spec)
    table = _Table(
        state,
        spec,
        centres,
        hanging,
        aims,
        spec.radius,
        spec.ball_diameter,
        roll_deceleration(spec),
        noise,
        _ROUTES.on(spec),
    )
    _LAST[:] = [table]
    return table


def _pot(
    table: _Table,
    cue_ball: int,
    route: ObjectRoute,
    abricol: Cushion | None,
    min_chance: float = 0.0,
) -> PotCandidate | None:
    """The pot of ``route`` by ``cue_ball`` (off ``abricol`` first), or None (also when less
    likely than ``min_chance``). The cheap tests (the cut, the chance) come before the lines'."""
    spec, centres = table.spec, table.centres
    cue, obj, ghost = centres[cue_ball], route.points[0], route.ghost
    cue_points: tuple[Point, ...] = (cue, ghost)
    if abricol is not None:
        line = cushion_lines(spec)[abricol]
        rail = cushion_point(cue, mirror(ghost, abricol, spec), line)
        if not on_cushion(rail, line):
            return None
        cue_points = (cue, rail, ghost)
    (ax, ay), (ox, oy), (tx, ty) = cue_points[-2], obj, route.points[1]
    ux, uy, vx, vy = ghost[0] - ax, ghost[1] - ay, tx - ox, ty - oy
    norms = math.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy)) or 1e-12
    cos_cut = (ux * vx + uy * vy) / norms
    if cos_cut < COS_MAX_CUT:
        return None
    cut = math.acos(min(1.0, cos_cut))
    cue_path = path_length(cue_points)
    chance = _window_chance(route.window, table.radius, cut, cue_path, route.path, table.noise)
    if route.double is not None or abricol is not None:
        chance *= 0.5  # cushion rebounds are not mirror-true: throw and the rail's grip
    if chance <= 0 or chance < min_chance:
        return None
    ignore = (cue_ball, route.object_ball)
    for p, q in zip(cue_points, cue_points[1:], strict=False):
        if not segment_clear(centres, table.diameter, p, q, ignore):
            return None
    hanging = table.hanging.get(cue_ball)
    if hanging is not None and not _leaves_mouth(spec, hanging, cue, cue_points[1]):
        return None
    return PotCandidate(
        cue_ball,
        route.object_ball,
        route.pocket,
        cut,
        cue_path,
        route.path,
        chance,
        angle_to(obj, route.points[1]),
        angle_to(cue, cue_points[1]),
        DRAW if cut < STRAIGHT_CUT else 0.0,
        table.deceleration,
        route.double,
        abricol,
    )


def _open_lines(table: _Table, cues: list[int], routes: list[ObjectRoute]) -> list[list[bool]]:
    """For every route and cue ball, whether the cut of a straight pot is not too thin: the
    formula of :func:`_pot` without its square root (``cos >= c`` as ``dot >= 0`` and ``dot^2 >=
    c^2 |u|^2 |v|^2``); most pairs fail here, and :func:`_pot` need look only at the others."""
    limit = COS_MAX_CUT - OPEN_MARGIN
    limit2 = limit * limit
    starts = [table.centres[c] for c in cues]
    lines = []
    for route in routes:
        (ox, oy), (tx, ty) = route.points[0], route.points[1]
        gx, gy = route.ghost
        vx, vy = tx - ox, ty - oy
        bound = limit2 * (vx * vx + vy * vy)
        row = []
        for sx, sy in starts:
            ux, uy = gx - sx, gy - sy
            dot = ux * vx + uy * vy
            row.append(dot > 0 and dot * dot >= bound * (ux * ux + uy * uy))
        lines.append(row)
    return lines


def _chance_bound(table: _Table, route: ObjectRoute, cues: list[int]) -> float:
    """An upper bound on the chance of any pot of ``route`` by one of ``cues``: the nearest cue
    ball's straight line to the ghost point (no path is shorter), played without a cut."""
    ghost, centres, object_ball = route.ghost, table.centres, route.object_ball
    nearest = math.inf
    for c in cues:  # a loop: the bound is asked for of every route of the colour's doubles
        if c != object_ball and (d := math.dist(centres[c], ghost)) < nearest:
            nearest = d
    if nearest == math.inf:
        return 0.0
    chance = _window_chance(route.window, table.radius, 0.0, nearest, route.path, table.noise)
    return 0.5 * chance if route.double is not None else chance


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
    ``min_chance``, only those at least that likely (the others' lines are not checked).

    The object ball's route to each pocket is worked out once per position and shared by all
    cue balls (and by the several lists a decision asks for)."""
    table = _table(state, noise)
    cues = [b for b in cue_balls if b in table.centres]
    objects = [b for b in object_balls if b in table.centres]
    order = {ball: j for j, ball in enumerate(objects)}
    straight: list[Cushion | None] = [None]
    kicks = [None, *Cushion] if abricols else straight
    opened = [
        route
        for route in table.routes_of(objects, doubles)
        if min_chance <= 0 or _chance_bound(table, route, cues) >= min_chance - OPEN_MARGIN
    ]
    found: list[tuple[tuple[float, int, int, int, int], PotCandidate]] = []
    for route, open_line in zip(opened, _open_lines(table, cues, opened), strict=True):
        if not (abricols and route.double is None or any(open_line)):
            continue  # no straight line open, no kick asked for: its blockers do not matter
        blockers = table.blockers(route)
        if len(blockers) > 1:
            continue
        j = order[route.object_ball]
        object_ball, pocket, double = route.object_ball, route.pocket, route.double
        for i, cue_ball in enumerate(cues):
            if cue_ball == object_ball or (blockers and cue_ball not in blockers):
                continue  # the one ball in the object ball's way must be the cue ball
            kick = double is None and cue_ball != COLOURED
            for abricol in kicks if kick else straight:
                if abricol is None and not open_line[i]:
                    continue
                candidate = _pot(table, cue_ball, route, abricol, min_chance)
                if candidate is not None:
                    way = (
                        0
                        if double is None and abricol is None
                        else 1 + int(double)
                        if double is not None
                        else 1 + len(Cushion) + int(abricol)  # type: ignore[arg-type]
                    )
                    key = (-candidate.chance, i, j, int(pocket), way)
                    found.append((key, candidate))
    found.sort(key=lambda item: item[0])  # best first; ties in the order cue, object, pocket
    return [candidate for _, candidate in found]


def best_chance(
    state: TableState,
    cue_balls: Iterable[int],
    object_balls: Iterable[int],
    noise: NoiseModel = DEFAULT_NOISE,
) -> float:
    """The chance of the likeliest straight pot of :func:`pots` (0 if there is none), without
    working out the others: routes are tried best bound first (:func:`_chance_bound`) until no
    route left can beat the best pot found (a position estimate, asked for at every leaf)."""
    table = _table(state, noise)
    cues = [b for b in cue_balls if b in table.centres]
    routes = table.routes_of([b for b in object_balls if b in table.centres], doubles=False)
    bounds = [_chance_bound(table, route, cues) for route in routes]
    best = 0.0
    for k in sorted(range(len(routes)), key=lambda k: -bounds[k]):
        if bounds[k] < best - OPEN_MARGIN:
            break
        route = routes[k]
        blockers = table.blockers(route)
        if len(blockers) > 1:
            continue
        for cue_ball in cues:
            if cue_ball == route.object_ball or (blockers and cue_ball not in blockers):
                continue
            candidate = _pot(table, cue_ball, route, None, best)
            if candidate is not None and candidate.chance > best:
                best = candidate.chance
    return best
