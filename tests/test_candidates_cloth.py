"""The planned pot speed follows the table's cloth (issue 20 item 4): on a slower cloth (a custom
``TableSpec.mu_roll``) the pot is struck harder and still drops, where the default cloth's speed
leaves the object ball short; the default cloth keeps the menu's number."""

import dataclasses

import pytest

from kinghill.envs.planning.candidates import (
    DEFAULT_ROLL_DECELERATION,
    pot_speed,
    pots,
    roll_deceleration,
)
from kinghill.physics import Pocket, Pocketed, Shot, TableSpec, TableState, simulate

SLOW_CLOTH = TableSpec(mu_roll=0.03)


def _long_straight_pot(spec: TableSpec) -> TableState:
    """Ball 1 on the diagonal of the front-right corner pocket, ball 0 behind it on that line."""
    return TableState.of(spec, {1: (0.6, 0.6), 0: (1.5, 1.5)})


def _pots_ball_1(state: TableState, shot: Shot) -> bool:
    events = simulate(state, shot).events
    return any(isinstance(e, Pocketed) and e.ball == 1 for e in events)


def test_the_default_cloth_keeps_the_menus_deceleration() -> None:
    assert roll_deceleration(TableSpec()) == DEFAULT_ROLL_DECELERATION
    assert roll_deceleration(SLOW_CLOTH) == pytest.approx(3 * DEFAULT_ROLL_DECELERATION)


def test_a_pot_on_a_slow_cloth_is_planned_for_it_and_drops() -> None:
    state = _long_straight_pot(SLOW_CLOTH)
    (pot,) = [p for p in pots(state, [0], [1]) if p.pocket is Pocket.FRONT_RIGHT]
    assert pot.deceleration == roll_deceleration(SLOW_CLOTH)
    assert _pots_ball_1(state, pot.shot)
    default_speed = pot_speed(pot.cue_path, pot.object_path, pot.cut, DEFAULT_ROLL_DECELERATION)
    assert pot.shot.speed > default_speed
    short = dataclasses.replace(pot.shot, speed=default_speed)
    assert not _pots_ball_1(state, short), "the default cloth's speed would pot too: no test"
