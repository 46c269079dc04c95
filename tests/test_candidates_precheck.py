"""Issue 9 item 6: the shortcuts of :func:`kinghill.envs.planning.candidates.pots` find the same
pots: the
pre-check of the cut (every route and cue ball) never rules out a pot that the exact check
accepts, and rules out most pairs (its purpose); with a minimum chance, the bound on a route's
best chance skips only pots below it; the box round a path that the line checks skip balls by
gives the answers of the distance itself."""

import math

import numpy as np

import kinghill.envs.planning.candidates as candidates
from kinghill.envs.planning.candidates import (
    DEFAULT_NOISE,
    _open_lines,
    _pot,
    _table,
    best_chance,
    pots,
    segment_clear,
)
from kinghill.envs.planning.object_routes import ObjectRoute, route_blockers
from kinghill.physics import Pocket, TableSpec, TableState

SPEC = TableSpec()


def _scattered(rng: np.random.Generator, balls: int) -> TableState:
    """``balls`` balls at random spots on the playing area, none overlapping."""
    r = SPEC.radius
    while True:
        xy = np.column_stack(
            [rng.uniform(r, SPEC.length - r, balls), rng.uniform(r, SPEC.width - r, balls)]
        )
        gaps = np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.eye(balls)
        if gaps.min() > SPEC.ball_diameter:
            return TableState.of(SPEC, {b: tuple(p) for b, p in enumerate(xy.tolist())})


def test_the_pre_check_keeps_every_pot_the_exact_check_accepts() -> None:
    rng = np.random.default_rng(0)
    kept = ruled_out = 0
    for k in range(150):
        state = _scattered(rng, 2 + k % 7)
        table = _table(state, DEFAULT_NOISE)
        balls = list(table.centres)
        routes = table.routes_of(balls, doubles=True)
        for route, line in zip(routes, _open_lines(table, balls, routes), strict=True):
            for cue_ball, open_line in zip(balls, line, strict=True):
                if cue_ball == route.object_ball:
                    continue
                if _pot(table, cue_ball, route, None) is not None:
                    assert open_line, (k, cue_ball, route)
                    kept += 1
                elif not open_line:
                    ruled_out += 1
    assert kept > 100 and ruled_out > kept


def test_a_minimum_chance_skips_only_pots_below_it() -> None:
    """``pots(min_chance=...)`` bounds each route's best chance before looking at its lines:
    it must give exactly the pots of the full list that are at least that likely."""
    rng = np.random.default_rng(1)
    skipped = 0
    for k in range(120):
        state = _scattered(rng, 3 + k % 6)
        balls = [int(b) for b in np.flatnonzero(state.on_table)]
        for floor in (0.05, 0.3, 0.6):
            full = pots(state, balls[1:], balls, doubles=True)
            likely = pots(state, balls[1:], balls, doubles=True, min_chance=floor)
            assert likely == [c for c in full if c.chance >= floor], (k, floor)
            skipped += len(full) - len(likely)
    assert skipped > 0


def test_best_chance_is_the_chance_of_the_first_pot() -> None:
    """``best_chance`` stops early (routes by their bound), and must still give exactly the
    chance of the best of the full list, or 0 when there is none."""
    rng = np.random.default_rng(2)
    empty = 0
    for k in range(150):
        state = _scattered(rng, 2 + k % 7)
        balls = [int(b) for b in np.flatnonzero(state.on_table)]
        for objects in (balls[1:], balls[:1]):
            found = pots(state, balls[1:], objects)
            expected = found[0].chance if found else 0.0
            assert best_chance(state, balls[1:], objects) == expected, k
            empty += not found
    assert 0 < empty < 150


def _distance(
    point: tuple[float, float], start: tuple[float, float], end: tuple[float, float]
) -> float:
    """The distance from ``point`` to the segment, worked out apart (projection, clamped)."""
    d, p = np.subtract(end, start), np.subtract(point, start)
    t = float(np.clip(p @ d / (d @ d), 0.0, 1.0)) if d @ d > 0 else 0.0
    return float(np.linalg.norm(p - t * d))


def test_the_box_round_a_path_skips_only_balls_clear_of_it() -> None:
    """``segment_clear`` and ``route_blockers`` skip balls outside the box round each leg: on
    random legs (level, upright, a point, any way round) with balls at random and at a
    diameter's distance give or take a hair, they answer as the distance does."""
    rng = np.random.default_rng(3)
    diameter = SPEC.ball_diameter
    near = 0
    for k in range(400):
        start = tuple(rng.uniform(0.0, 2.0, 2))
        end = [tuple(rng.uniform(0.0, 2.0, 2)), (start[0], 1.5), (0.3, start[1]), start][k % 4]
        balls: dict[int, tuple[float, float]] = {0: start, 1: end}
        for ball in range(2, 8):
            if ball % 2:  # off a point of the leg by a diameter, a hair more or less
                t, angle = rng.uniform(-0.2, 1.2), rng.uniform(0, 2 * math.pi)
                base = np.add(start, np.clip(t, 0, 1) * np.subtract(end, start))
                gap = diameter * (1 + rng.choice([-1e-7, 1e-7]))
                balls[ball] = tuple(base + gap * np.array([math.cos(angle), math.sin(angle)]))
            else:
                balls[ball] = tuple(rng.uniform(0.0, 2.0, 2))
        within = {b for b in range(2, 8) if _distance(balls[b], start, end) < diameter}
        near += len(within)
        assert segment_clear(balls, diameter, start, end, (0, 1)) == (not within), k
        route = ObjectRoute(0, Pocket(0), None, (start, end), start, 0.0, 0.0, 0.0)
        found = route_blockers({b: p for b, p in balls.items() if b != 1}, diameter, route)
        assert found <= within and len(found) == min(len(within), 2), k
    assert near > 200


def fresh(state: TableState, balls: list[int]) -> list:
    """The pots of ``balls`` by ``balls`` with nothing kept from earlier decisions."""
    candidates._ROUTES.routes.clear()
    candidates._LAST.clear()
    return pots(state, balls, balls, doubles=True)


def test_routes_kept_across_decisions_are_those_of_the_position_and_table() -> None:
    """The routes kept between decisions (by ball and position) give the pots worked out from
    nothing: after balls move, on another table spec (the same positions, a shorter table), and
    once the memory has been cleared for being full."""
    rng = np.random.default_rng(4)
    short = TableSpec(length=3.2)
    for k in range(60):
        state = _scattered(rng, 3 + k % 6)
        balls = [int(b) for b in np.flatnonzero(state.on_table)]
        expected = fresh(state, balls)
        candidates._LAST.clear()  # a new decision: only the kept routes carry over
        assert pots(state, balls, balls, doubles=True) == expected
        spot = (0.5 + 0.01 * k, 0.3)  # one ball moves, the others stand
        moved = state.place(balls[0], spot) if state.is_free(spot, [balls[0]]) else state
        kept = pots(moved, balls, balls, doubles=True)
        assert kept == fresh(moved, balls), k
        other = TableState.of(short, {b: moved.xy(b) for b in balls if moved.xy(b)[0] < 3.1})
        others = [b for b in balls if other.on_table[b]]
        kept = pots(other, others, others, doubles=True)
        assert kept == fresh(other, others), k
    candidates._ROUTES.routes.update({(99, float(k), 0.0, True): [] for k in range(2000)})
    candidates._LAST.clear()
    found = pots(state, balls, balls, doubles=True)
    assert len(candidates._ROUTES.routes) == len(balls)  # cleared, then this position's
    assert found == fresh(state, balls)
