"""Issue 10.1: a bad decision never aborts play. Whatever an agent raises or returns that is not
a valid action is charged by the rules as a shot not played (a foul, 12.4; the second loses the
frame, 10.5) or, for the 10.4 choice, as playing on -- in ``Game``, the Gym env's opponent and
the AEC env. A signal's ``KeyboardInterrupt`` still stops play; engine errors still propagate."""

import os
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium as gym
import pytest

import kinghill.envs  # noqa: F401  (registers the env)
from kinghill.envs import (
    Answer,
    ChoiceAction,
    FrameView,
    Game,
    InvalidAction,
    KingOfTheHillEnv,
    ShotAction,
    ask,
    check_action,
)
from kinghill.envs.rl.aec_env import raw_env
from kinghill.envs.rules import Call, Decision, EndReason
from kinghill.physics import BREAK_BALL, Pocket, Shot

BREAK = ShotAction(Shot(BREAK_BALL, 0.0, 7.0), place=(0.44, 0.8875))

GARBAGE: dict[str, tuple[object, str]] = {
    "None": (None, "expected a ShotAction or a ChoiceAction, got None"),
    "a string": ("a lovely shot", "got str 'a lovely shot'"),
    "ShotAction(None)": (ShotAction(None), "ShotAction.shot must be a Shot, got None"),  # type: ignore[arg-type]
    "place=(0.4,)": (
        ShotAction(Shot(BREAK_BALL, 0.0, 7.0), place=(0.4,)),  # type: ignore[arg-type]
        "ShotAction.place must be None or an (x, y) pair",
    ),
    "call='plain'": (
        ShotAction(Shot(BREAK_BALL, 0.0, 7.0), call="plain"),  # type: ignore[arg-type]
        "ShotAction.call must be a Call or None, got str 'plain'",
    ),
    "place of NaN": (
        ShotAction(Shot(BREAK_BALL, 0.0, 7.0), place=(float("nan"), 0.8)),
        "ShotAction.place must be None or an (x, y) pair of finite numbers",
    ),
    "claim_extension='yes'": (
        ShotAction(Shot(BREAK_BALL, 0.0, 7.0), claim_extension="yes"),  # type: ignore[arg-type]
        "ShotAction.claim_extension must be True or False",
    ),
    "ChoiceAction('no')": (
        ChoiceAction("no"),  # type: ignore[arg-type]
        "ChoiceAction.play_on must be True or False",
    ),
    "a call on the break": (
        ShotAction(Shot(BREAK_BALL, 0.0, 7.0), Call.plain(BREAK_BALL, Pocket.REAR_LEFT)),
        "no call on the break",
    ),
    "the break ball outside the house": (
        ShotAction(Shot(BREAK_BALL, 0.0, 7.0), place=(2.0, 0.8)),
        "the break is played from the house",
    ),
}


@pytest.mark.parametrize("name", GARBAGE)
def test_game_refuses_garbage_naming_what_is_wrong_and_changes_nothing(name: str) -> None:
    """One structural check at the boundary (check_action), then the referee's (4.1, 4.4)."""
    bad, message = GARBAGE[name]
    game = Game()
    game.reset(seed=1)
    before = game.snapshot()
    with pytest.raises(InvalidAction, match=message.replace("(", r"\(").replace(")", r"\)")):
        game.play(bad)  # type: ignore[arg-type]
    assert game.frame == before.frame and game.state is before.state


def test_check_action_passes_valid_actions_with_place_as_floats() -> None:
    import numpy as np

    checked = check_action(ShotAction(BREAK.shot, place=np.array([0.44, 0.8875])))  # type: ignore[arg-type]
    assert isinstance(checked, ShotAction) and checked.place == (0.44, 0.8875)
    assert check_action(ChoiceAction(True)) == ChoiceAction(True)


class Agent:
    """An agent whose every decision is ``decide(view)``."""

    def __init__(self, decide: Callable[[FrameView], Any]) -> None:
        self.decide = decide

    def act(self, view: FrameView) -> Any:
        return self.decide(view)


def raising(error: BaseException) -> Callable[[FrameView], Any]:
    def decide(view: FrameView) -> Any:
        raise error

    return decide


FAULTS: dict[str, Callable[[FrameView], Any]] = {
    **{name: (lambda view, bad=bad: bad) for name, (bad, _) in GARBAGE.items()},
    "RuntimeError": raising(RuntimeError("out of order")),
    "AttributeError": raising(AttributeError("no such thing")),
    "SystemExit(3)": raising(SystemExit(3)),
    "its own KeyboardInterrupt": raising(KeyboardInterrupt()),
}


@pytest.mark.parametrize("name", FAULTS)
def test_every_fault_of_an_agent_is_charged_and_the_frame_goes_on(name: str) -> None:
    """Game.settle(ask(...)): the faulty breaker is charged a foul (12.4), the opponent gets
    the 10.4 choice; hand back, the second fault loses the frame (10.5)."""
    game = Game()
    game.reset(seed=1, breaker=0)
    first = game.settle(ask(FAULTS[name], game.view()))
    assert first.fault is not None and first.turn.ruling.is_foul
    assert not first.turn.ruling.shot_played and "12.4" in str(first.turn.ruling)
    assert game.frame.fouls == (1, 0) and game.frame.decision is Decision.CHOICE
    game.settle(ask(lambda view: ChoiceAction(play_on=False), game.view()))  # hand back
    second = game.settle(ask(FAULTS[name], game.view()))
    assert second.fault == first.fault
    assert game.frame.result is not None and game.frame.result.winner == 1
    assert game.frame.result.reason is EndReason.SECOND_FOUL


def test_a_10_4_choice_not_made_is_taken_as_playing_on() -> None:
    """R-foul-choice: the faulty chooser is not charged a foul; it plays the position on."""
    game = Game(noise=None)
    game.reset(seed=1, breaker=0)
    game.settle(ask(raising(RuntimeError("no")), game.view()))
    assert game.frame.decision is Decision.CHOICE and game.to_move == 1
    decided = game.settle(ask(lambda view: "whatever", game.view()))
    assert decided.fault is not None and decided.turn.ruling is None
    assert game.to_move == 1 and game.frame.fouls == (1, 0)
    assert game.frame.decision is Decision.BREAK  # nothing was played: the break is still due


def test_engine_errors_are_not_taken_for_agent_faults() -> None:
    """Only the action is checked at the boundary: a failure inside the engine propagates."""

    def broken_simulate(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("engine bug")

    game = Game(simulate=broken_simulate)
    game.reset(seed=1)
    with pytest.raises(ValueError, match="engine bug"):
        game.settle(Answer(BREAK))


@pytest.fixture
def terminal_sigint() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt, as in a terminal, even where the test runner was started
    with SIGINT ignored (a background job, some CI runners)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.skipif(os.name != "posix", reason="sends itself a signal")
@pytest.mark.usefixtures("terminal_sigint")
def test_a_real_ctrl_c_still_stops_play_while_an_agent_thinks() -> None:
    """SIGINT during act(): the signal's KeyboardInterrupt propagates; an agent's own does not."""

    def interrupted(view: FrameView) -> Any:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the handler raises long before this ends

    game = Game()
    game.reset(seed=1)
    with pytest.raises(KeyboardInterrupt):
        ask(interrupted, game.view())
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handler restored
    assert ask(raising(KeyboardInterrupt()), game.view()).fault == "raised KeyboardInterrupt"


def _gym(opponent: Any) -> KingOfTheHillEnv:
    env = gym.make("kinghill/KingOfTheHill-v0", opponent=opponent, breaker="opponent")
    assert isinstance(env.unwrapped, KingOfTheHillEnv)
    return env.unwrapped


@pytest.mark.parametrize("name", ["ShotAction(None)", "place=(0.4,)", "call='plain'"])
def test_gym_opponent_returning_garbage_is_charged_a_foul(name: str) -> None:
    """The issue's repro: reset() with such an opponent breaking no longer raises."""
    env = _gym(Agent(FAULTS[name]))
    obs, info = env.reset(seed=1)
    assert obs["fouls"][1] == 1 and obs["decision"] == 2  # the learner's 10.4 choice
    assert "invalid action" in info["turns"][0] and GARBAGE[name][1][:20] in info["turns"][0]


@pytest.mark.parametrize("name", ["SystemExit(3)", "its own KeyboardInterrupt"])
def test_gym_opponent_raising_base_exceptions_is_charged_a_foul(name: str) -> None:
    env = _gym(FAULTS[name])
    obs, info = env.reset(seed=1)
    assert obs["fouls"][1] == 1
    assert name.split("(")[0].replace("its own ", "") in info["turns"][0]


@pytest.mark.parametrize("name", ["ShotAction(None)", "place=(0.4,)", "call='plain'", "None"])
def test_aec_player_with_an_unplayable_action_is_charged_a_foul(name: str) -> None:
    e = raw_env(noise=False)
    e.reset(seed=2)
    mover = e.agent_selection
    other = "player_1" if mover == "player_0" else "player_0"
    e.step(GARBAGE[name][0])
    assert e.infos[mover]["fault"] is not None and "invalid action" in e.infos[mover]["fault"]
    assert e.rewards[mover] == pytest.approx(-0.3)  # a foul
    assert e.agent_selection == other and e.game.frame.decision is Decision.CHOICE
    e.step(ChoiceAction(play_on=True))
    assert e.agent_selection == other and e.infos[other]["fault"] is None


def test_aec_dict_outside_the_space_is_still_the_callers_error() -> None:
    e = raw_env(noise=False)
    e.reset(seed=2)
    point = e.action_space(e.agent_selection).sample()
    point["cue_ball"] = 99
    with pytest.raises(ValueError, match="cue_ball"):
        e.step(point)
    assert e.game.frame.shots == 0
