"""Issue 9 item 6: the shortcuts of :func:`kinghill.envs.candidates.pots` find the same pots: the
numpy pre-check of the cut (every route and cue ball at once) never rules out a pot that the
exact check accepts, and rules out most pairs (its purpose); with a minimum chance, the bound
on a route's best chance skips only pots below it."""

import numpy as np

from kinghill.envs.candidates import DEFAULT_NOISE, _open_lines, _pot, _table, best_chance, pots
from kinghill.physics import TableSpec, TableState

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
