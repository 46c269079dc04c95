"""Issue 9: ``reset(options=...)`` starts a frame from a chosen position and frame situation;
a bad one is a clear error naming what is wrong, and leaves the env as it was."""

import gymnasium as gym
import numpy as np
import pytest

import kinghill.envs  # noqa: F401
from kinghill.envs import KingOfTheHillEnv
from kinghill.envs.rules import Decision, check_invariants

BALLS = {0: (2.5, 0.9), 3: (1.0, 0.5), 5: (3.0, 1.5)}
"""The coloured ball and two whites; the five others are off the table."""


def _env(**kwargs: object) -> KingOfTheHillEnv:
    return gym.make("kinghill/KingOfTheHill-v0", noise=False, **kwargs).unwrapped


def test_a_start_position_sets_the_table_and_the_frame() -> None:
    env = _env()
    options = {"balls": BALLS, "credited": (3, 2), "fouls": (1, 0), "required": (3, 3)}
    obs, _ = env.reset(seed=0, options=options)
    game = env.game
    assert game.state.balls_on_table() == (0, 3, 5)
    assert game.state.xy(3) == BALLS[3]
    assert game.frame.decision is Decision.SHOT and game.frame.to_move == 0
    assert game.frame.credit_counts == (3, 2) and game.frame.fouls == (1, 0)
    assert obs["credited"].tolist() == [3, 2]
    check_invariants(game.frame, game.state)  # nothing lost: every white off is credited


def test_the_opponent_shoots_first_when_asked() -> None:
    played = []

    def opponent(view):  # records that it was asked, then plays a soft shot at ball 3
        from kinghill.envs import ShotAction
        from kinghill.envs.planning.aim import angle_to
        from kinghill.physics import Shot

        played.append(view.frame.shots)
        cue = view.state.xy(5)
        return ShotAction(Shot(5, angle_to(cue, view.state.xy(3)), 2.0))

    env = _env(opponent=opponent)
    env.reset(seed=0, options={"balls": BALLS, "credited": (2, 3), "to_move": "opponent"})
    assert played == [0]
    assert env.game.frame.shots == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"balls": BALLS, "colour": 1}, "unknown keys \\['colour'\\]"),
        ({"credited": (0, 0)}, "need 'balls'"),
        ({"balls": {3: (1.0, 0.5), 5: (3.0, 1.5)}}, "coloured ball \\(0\\) must be on the table"),
        ({"balls": {0: (2.5, 0.9)}}, "at least two balls"),
        ({"balls": {0: (2.5, 0.9), 9: (1.0, 1.0)}}, "ball id 9"),
        ({"balls": {0: (2.5, 0.9), 1: (2.52, 0.9)}}, "overlap"),
        ({"balls": {0: (2.5, 0.9), 1: (5.0, 0.9)}}, "not on the playing area"),
        ({"balls": {0: (2.5, 0.9), 1: (np.nan, 0.9)}}, "not finite"),
        ({"balls": {0: (2.5, 0.9), 1: "here"}}, "must be \\(x, y\\)"),
        ({"balls": BALLS, "credited": (4, 1)}, "learner 4 exceeds required 3"),
        ({"balls": BALLS, "credited": (1, 1)}, "2 whites credited but 5 whites are off"),
        ({"balls": BALLS, "credited": (3, 2), "fouls": (2, 0)}, "fouls.*integers 0-1"),
        ({"balls": BALLS, "credited": (3, 2), "to_move": "me"}, "to_move"),
        ({"balls": BALLS, "credited": 5}, "must be a pair"),
    ],
)
def test_a_bad_start_is_a_clear_error_and_changes_nothing(options: dict, message: str) -> None:
    env = _env()
    env.reset(seed=1)
    before = (env.game.state, env.game.frame)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=2, options=options)
    assert (env.game.state, env.game.frame) == before


def test_from_a_start_position_a_called_pot_of_the_colour_wins_the_frame() -> None:
    from kinghill.envs import ShotAction
    from kinghill.envs.planning.aim import ghost_aim
    from kinghill.envs.rules import Call
    from kinghill.physics import Pocket, Shot

    colour, cue = (3.0, 1.4), (2.5, 1.06)  # straight at the rear-left corner
    env = _env()
    env.reset(seed=0, options={"balls": {0: colour, 3: cue}, "credited": (3, 3)})
    phi = ghost_aim(cue, colour, Pocket.REAR_LEFT, env.game.spec)
    call = Call.plain(3, Pocket.REAR_LEFT)
    _, reward, terminated, _, info = env.step(ShotAction(Shot(3, phi, 2.0), call))
    assert terminated and info["is_success"] and reward == pytest.approx(1.0)


def test_a_frame_the_opponent_ends_before_the_learner_decides_is_drawn_again() -> None:
    """The first draw ends at the opponent's first shot (a sure pot of the colour); reset draws
    the frame again, and the episode starts at the learner's first decision of that draw."""
    from kinghill.envs import ShotAction
    from kinghill.envs.planning.aim import ghost_aim
    from kinghill.envs.rules import Call
    from kinghill.physics import Pocket, Shot

    colour, cue = (3.0, 1.4), (2.5, 1.06)
    asked = []

    def pots_at_first(view):  # the colour at once on the first draw, a soft miss after
        asked.append(view.state)
        phi = ghost_aim(cue, colour, Pocket.REAR_LEFT, view.state.spec)
        speed = 2.0 if len(asked) == 1 else 0.05
        return ShotAction(Shot(3, phi, speed), Call.plain(3, Pocket.REAR_LEFT))

    env = _env(opponent=pots_at_first)
    options = {"balls": {0: colour, 3: cue}, "credited": (3, 3), "to_move": "opponent"}
    obs, info = env.reset(seed=0, options=options)
    assert len(asked) == 2 and asked[0].xy(3) == asked[1].xy(3) == cue  # the same start, twice
    assert not env.game.is_over and env.game.frame.to_move == 0  # the learner decides
    assert len(info["turns"]) == 1  # the turns of the frame played, not of the one drawn again
    assert env.game.state.balls_on_table() == (0, 3)  # the soft miss left the colour up


def test_a_frame_the_opponent_ends_every_time_is_refused_after_so_many_draws() -> None:
    from kinghill.envs import ShotAction
    from kinghill.envs.planning.aim import ghost_aim
    from kinghill.envs.rules import Call
    from kinghill.physics import Pocket, Shot

    colour, cue = (3.0, 1.4), (2.5, 1.06)

    def sure_pot(view):  # the opponent pots the colour at once, every time
        phi = ghost_aim(cue, colour, Pocket.REAR_LEFT, view.state.spec)
        return ShotAction(Shot(3, phi, 2.0), Call.plain(3, Pocket.REAR_LEFT))

    env = _env(opponent=sure_pot)
    options = {"balls": {0: colour, 3: cue}, "credited": (3, 3), "to_move": "opponent"}
    with pytest.raises(RuntimeError, match="before the learner's turn"):
        env.reset(seed=0, options=options)
