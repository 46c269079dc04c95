"""Hanging balls: a ball may rest in a pocket's mouth, off the playing area, and stays in play;
it drops only past the fall edge."""

import math

import pytest
from physics_support import SPEC, R

from kinghill.physics import Pocket, Pocketed, Shot, TableGeometry, TableState, simulate

L, W = SPEC.length, SPEC.width
GEOMETRY = TableGeometry.from_spec(SPEC)
MIDDLE = GEOMETRY.pockets[Pocket.MIDDLE_RIGHT]
ROLL = SPEC.mu_roll * SPEC.gravity
IN_MOUTH = (L / 2, 0.012)
"""A ball's centre 12 mm from the right cushion's line, over the middle pocket's mouth: off the
playing area (R = 34 mm), in front of the fall edge."""


def pots(result) -> list[int]:  # type: ignore[no-untyped-def]
    return [e.ball for e in result.events if isinstance(e, Pocketed)]


def test_state_holds_a_ball_in_the_mouth_and_nowhere_off_the_table() -> None:
    """A centre in the mouth is a place on the table; one overlapping a jaw tip, one past the
    fall edge and one behind a cushion are not (each a clear error)."""
    state = TableState.of(SPEC, {3: IN_MOUTH})
    assert state.hanging_in(3) is Pocket.MIDDLE_RIGHT
    assert TableState.of(SPEC, {3: (1.0, 0.8)}).hanging_in(3) is None
    tip = (L / 2 - SPEC.middle_mouth / 2 - SPEC.middle_jaw_radius, -SPEC.middle_jaw_radius)
    for bad in [(tip[0] + 0.02, 0.0), (L / 2, MIDDLE.aim[1] - 0.001), (1.0, 0.01)]:
        with pytest.raises(ValueError, match="not on the playing area nor hanging"):
            TableState.of(SPEC, {3: bad})


def test_a_slow_ball_that_stops_in_the_mouth_stays() -> None:
    """Rolled at the middle pocket just hard enough to stop 12 mm off the cushion line, the
    ball comes to rest there, hanging, and is still on the table."""
    start = (L / 2, 0.3)
    speed = math.sqrt(2 * ROLL * (start[1] - IN_MOUTH[1]))  # rolling from the strike (b = 0.4)
    res = simulate(TableState.of(SPEC, {1: start}), Shot(1, -math.pi / 2, speed, 0.0, 0.4))
    assert pots(res) == []
    assert res.final.hanging_in(1) is Pocket.MIDDLE_RIGHT
    assert res.final.xy(1)[1] == pytest.approx(IN_MOUTH[1], abs=0.002)
    assert res.final.xy(1)[1] < R


@pytest.mark.parametrize("speed", [0.005, 0.05])
@pytest.mark.parametrize(
    ("start", "phi"),
    [
        ((L / 2 - SPEC.middle_mouth / 2 - 0.012, R), 0.0),  # 12 mm short of a middle jaw
        ((L - 0.06, R), 0.0),  # frozen to the long cushion just short of a corner
    ],
)
def test_a_ball_frozen_to_the_cushion_near_a_jaw_and_nudged_stays(
    start: tuple[float, float], phi: float, speed: float
) -> None:
    """Nudged along the cushion toward the mouth at 5 mm/s or 5 cm/s, it creeps a little and
    stops: nothing drops."""
    res = simulate(TableState.of(SPEC, {2: (1.0, 0.8), 1: start}), Shot(1, phi, speed, 0.0, 0.4))
    assert pots(res) == []
    assert res.final.on_table[1]


def test_a_hanging_ball_struck_again_drops() -> None:
    """A white hanging in the middle mouth, struck by the cue ball, drops into that pocket."""
    state = TableState.of(SPEC, {3: IN_MOUTH, 1: (L / 2, 0.4)})
    res = simulate(state, Shot(1, -math.pi / 2, 1.5))
    assert 3 in pots(res)
    assert [e.pocket for e in res.events if isinstance(e, Pocketed) and e.ball == 3] == [
        Pocket.MIDDLE_RIGHT
    ]


def test_a_hanging_cue_ball_can_be_played_out_of_the_mouth_or_in() -> None:
    """The cue ball may hang: struck out toward the table it comes out and stays in play;
    nudged toward the pocket it drops."""
    state = TableState.of(SPEC, {1: IN_MOUTH})
    out = simulate(state, Shot(1, math.radians(80.0), 0.6))
    assert pots(out) == [] and out.final.hanging_in(1) is None
    assert pots(simulate(state, Shot(1, -math.pi / 2, 0.3))) == [1]
