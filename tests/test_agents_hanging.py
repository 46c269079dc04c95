"""Agents and hanging balls: a ball hanging in a mouth is potted into its own pocket, and a
hanging cue ball is only played out along lines that clear the jaw tips."""

from physics_support import SPEC

from kinghill.envs.planning.candidates import pots
from kinghill.physics import BallBall, CentreLine, Pocket, Pocketed, TableState, simulate

L = SPEC.length
HANGING = (L / 2, 0.005)
"""5 mm from the right cushion line, in the right middle pocket's mouth (off the playing area)."""


def test_a_hanging_object_ball_is_potted_into_its_own_pocket() -> None:
    state = TableState.of(SPEC, {3: HANGING, 1: (L / 2 + 0.3, 0.45), 0: (1.0, 1.2)})
    found = pots(state, [1], [3])
    assert found and {c.pocket for c in found} == {Pocket.MIDDLE_RIGHT}
    best = found[0]
    assert best.chance > 0.9
    res = simulate(state, best.shot)
    assert Pocketed(3, Pocket.MIDDLE_RIGHT) in [
        Pocketed(e.ball, e.pocket) for e in res.events if isinstance(e, Pocketed)
    ]


def test_a_hanging_cue_ball_plays_only_lines_that_clear_the_jaws() -> None:
    """Every pot offered with a hanging cue ball strikes its object ball before anything else."""
    layout = {1: HANGING, 3: (L / 2 + 0.25, 0.35), 4: (L / 2 - 0.6, 0.2), 0: (2.5, 1.4)}
    state = TableState.of(SPEC, layout)
    found = pots(state, [1], [3, 4])
    assert found
    for candidate in found:
        events = simulate(state, candidate.shot).events
        first = next(e for e in events if not isinstance(e, CentreLine))
        assert isinstance(first, BallBall), (candidate, first)
