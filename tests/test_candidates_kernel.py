"""Issue 18 item 4: the compiled planner (:mod:`kinghill.envs.planning.pot_kernel`) finds the pots
as specified: with a minimum chance, exactly the pots of the full list at least that likely;
``best_chance`` the chance of the first pot; the box round a path that the line checks skip
balls by gives the answers of the distance itself; and its Python source, run uncompiled
(``NUMBA_DISABLE_JIT=1``), gives the recorded menus as the compiled kernels do."""

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from kinghill.envs.planning.candidates import best_chance, object_routes, pots, segment_clear
from kinghill.envs.planning.object_routes import ObjectRoute
from kinghill.envs.planning.pot_kernel import ROUTE_COLUMNS, blockers
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


def test_a_minimum_chance_skips_only_pots_below_it() -> None:
    """``pots(min_chance=...)`` gives exactly the pots of the full list at least that likely."""
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
    """``best_chance`` gives exactly the chance of the best of the full list, or 0 when there is
    none."""
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
    """``segment_clear`` and the route's ``blockers`` skip balls outside the box round each leg: on
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
        others = {b: p for b, p in balls.items() if b != 1}
        count, first = blockers(
            np.array(list(others.values())), np.array(list(others)), diameter, _route(start, end)
        )
        assert count == min(len(within), 2) and (count == 0 or first in within), k
    assert near > 200


def _route(start: tuple[float, float], end: tuple[float, float]) -> np.ndarray:
    """A route row of ball 0 from ``start`` to ``end`` (the kernel's layout)."""
    row = np.zeros(ROUTE_COLUMNS)
    row[3], row[4:8] = 2, (*start, *end)
    return row


def test_object_routes_go_into_open_pockets_and_a_hanging_ball_into_its_own() -> None:
    """The routes of a ball in the open end at a pocket's aim (straight) or off a cushion
    (doubles, one more point); a ball hanging in a mouth has one route, into that pocket."""
    open_ball = {0: (1.2, 0.6)}
    straight = object_routes(SPEC, open_ball, 0)
    doubled = object_routes(SPEC, open_ball, 0, doubles=True)
    assert {r.pocket for r in straight} == set(Pocket) and all(r.double is None for r in straight)
    assert [r for r in doubled if r.double is None] == straight and len(doubled) > len(straight)
    assert all(len(r.points) == 3 for r in doubled if r.double is not None)
    assert all(isinstance(r, ObjectRoute) and r.window > 0 for r in doubled)
    hanging = {0: (SPEC.length / 2, 0.005)}  # in the right middle pocket's mouth
    (route,) = object_routes(SPEC, hanging, 0, doubles=True)
    assert route.pocket is Pocket.MIDDLE_RIGHT and route.approach == 0.0


def test_the_uncompiled_source_gives_the_recorded_menus() -> None:
    """The menu fixture passes with the planning kernels run as plain Python."""
    tests = Path(__file__).parent
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_menu_fixture.py"],
        cwd=tests,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "2 passed" in done.stdout
