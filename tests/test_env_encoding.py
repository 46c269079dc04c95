"""The action and observation encoding: every point of the action space decodes to a valid
action (issue 4), the mapping rules of ACTION_DOC hold, and observations lie in their space."""

import math

import numpy as np
import pytest

from kinghill.envs.game.actions import ChoiceAction, FrameView, ShotAction
from kinghill.envs.rl.encoding import (
    action_space,
    decode_action,
    encode_action,
    encode_observation,
    observation_space,
)
from kinghill.envs.rules import Call, Decision, Frame, validate_shot
from kinghill.physics import BREAK_BALL, COLOURED, Cushion, Pocket, Shot, TableState


def _views() -> list[FrameView]:
    rack = TableState.rack()
    shot_frame = Frame.new().__class__(decision=Decision.SHOT, shots=1)
    sparse = rack.remove(3).remove(5).remove(2)
    return [
        FrameView(rack, Frame.new(), 0),
        FrameView(rack, shot_frame, 0),
        FrameView(sparse, shot_frame, 0),
        FrameView(sparse.remove(COLOURED).remove(1), shot_frame, 0),
    ]


@pytest.mark.parametrize("view", _views())
def test_every_sampled_action_decodes_to_a_valid_shot(view: FrameView) -> None:
    """Issue 4: every action in the space is valid by construction."""
    space = action_space()
    space.seed(7)
    for _ in range(500):
        decoded = decode_action(space.sample(), view)
        assert isinstance(decoded, ShotAction)
        state = view.state
        if decoded.place is not None:
            assert view.frame.decision is Decision.BREAK
            state = state.place(BREAK_BALL, decoded.place)
        validate_shot(view.frame, state, decoded.shot.cue_ball, decoded.call)
        assert decoded.shot.a**2 + decoded.shot.b**2 <= 0.25 + 1e-9


def test_break_forces_white_one_and_no_call() -> None:
    """Rules 1.3, 4.1: the break is white 1 from the house; no call on the break."""
    view = _views()[0]
    point = action_space().sample()
    point.update(cue_ball=5, call=1, place=np.array([1.0, 1.0], np.float32))
    decoded = decode_action(point, view)
    assert isinstance(decoded, ShotAction)
    assert decoded.shot.cue_ball == BREAK_BALL and decoded.call is None
    assert decoded.place is not None and decoded.place[0] < view.state.spec.house_line_x


def test_cue_ball_off_table_maps_to_next_on_table() -> None:
    view = _views()[2]  # balls 2, 3, 5 off
    point = action_space().sample()
    point.update(cue_ball=2, call=0)
    decoded = decode_action(point, view)
    assert isinstance(decoded, ShotAction) and decoded.shot.cue_ball == 4


def test_choice_decision_decodes_play_on() -> None:
    """Rule 10.4: during the choice only play_on counts."""
    state = TableState.rack()
    frame = Frame(decision=Decision.CHOICE, fouled_by=1, shots=3)
    point = action_space().sample()
    point["play_on"] = 0
    assert decode_action(point, FrameView(state, frame, 0)) == ChoiceAction(
        False, bool(point["extension"])
    )


@pytest.mark.parametrize(
    "call",
    [
        Call.plain(4, Pocket.REAR_LEFT),
        Call.double(1, Pocket.MIDDLE_RIGHT, [Cushion.LEFT_FRONT]),
        Call.abricol(6, Pocket.FRONT_LEFT, [Cushion.REAR, Cushion.RIGHT_REAR]),
        Call.combination(1, [7, 4], Pocket.REAR_RIGHT, [Cushion.REAR]),
        Call.carom(Pocket.MIDDLE_LEFT, [6, Cushion.LEFT_REAR]),
    ],
)
def test_encode_decode_round_trip(call: Call) -> None:
    view = _views()[1]
    action = ShotAction(Shot(call.cue_ball, 1.0, 3.0, 0.1, -0.2), call)
    back = decode_action(encode_action(action, view), view)
    assert isinstance(back, ShotAction) and back.call == call
    assert back.shot.cue_ball == call.cue_ball
    assert math.isclose(back.shot.phi, 1.0, abs_tol=1e-6)
    assert math.isclose(back.shot.speed, 3.0, rel_tol=1e-6)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("cue", np.array([np.nan, 0, 0, 0], np.float32), "NaN"),
        ("cue", np.array([0, 0, 0], np.float32), "outside"),
        ("cue_ball", 9, "outside"),
        ("place", np.array([2.0, 0.5], np.float32), "outside"),
    ],
)
def test_check_action_names_the_bad_key(key: str, value: object, message: str) -> None:
    point = action_space().sample()
    point[key] = value
    with pytest.raises(ValueError, match=rf"{key}.*{message}|{message}.*{key}"):
        action_space().check(point)


def test_observation_in_space() -> None:
    space = observation_space()
    for view in _views():
        obs = encode_observation(view)
        assert space.contains(obs), obs
    assert encode_observation(_views()[3])["on_table"][COLOURED] == 0


def test_a_ball_hanging_in_a_mouth_is_observed_where_it_is() -> None:
    """A ball hanging in the right middle pocket's mouth, its centre 5 mm from the cushion line
    (off the playing area), is seen where it is without clipping, and the observation is still
    in its space."""
    spec = TableState.rack().spec
    hanging = TableState.of(spec, {1: (spec.length / 2, 0.005), 0: (1.0, 0.8)})
    frame = Frame.new().__class__(decision=Decision.SHOT, shots=1)
    obs = encode_observation(FrameView(hanging, frame, 0))
    assert obs["balls"][1][1] == pytest.approx(0.005 / spec.width)
    assert observation_space().contains(obs)
