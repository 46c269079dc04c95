"""What a player decides: a shot (with its call and, on the break, the house placement) or the
10.4 choice after the opponent's foul; and the view of the frame an agent decides from."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from numbers import Real
from typing import Protocol, runtime_checkable

import numpy as np

from kinghill.envs.game.decision_clock import DecisionClock
from kinghill.envs.rules import Call, Decision, Frame
from kinghill.physics import Shot, TableState


@dataclass(frozen=True)
class ShotAction:
    """A shot: the cue, the call (None = whites only) and, on the break, where white 1 stands.

    :param shot: the cue parameters; on the break its cue ball must be white 1 (rule 1.3).
    :param call: the coloured ball's declared pocket and route (rule 7), or None.
    :param place: the break ball's position in the house (R-rack); None keeps it where it is.
    :param claim_extension: claim the once-per-frame 15 s extension for this decision (12.5).
    """

    shot: Shot
    call: Call | None = None
    place: tuple[float, float] | None = None
    claim_extension: bool = False


@dataclass(frozen=True)
class ChoiceAction:
    """The 10.4 decision after the opponent's foul: play on, or hand the shot back."""

    play_on: bool
    claim_extension: bool = False


Action = ShotAction | ChoiceAction


class InvalidAction(ValueError):
    """A decision that cannot be played: not an action, a malformed one, or one that does not fit
    the position. The message names what is wrong; nothing has changed. Playing through a
    :class:`~kinghill.envs.Game`, it is charged to the agent (``Game.settle``)."""


def check_action(action: object) -> Action:
    """``action`` as a well-formed :data:`Action` (``place`` as a pair of floats), or
    :class:`InvalidAction` naming the part that is wrong. Only the structure is checked here;
    whether it fits the position is the referee's business (``validate_shot``)."""
    if isinstance(action, ChoiceAction):
        _check_flag(action.play_on, "ChoiceAction.play_on")
        _check_flag(action.claim_extension, "ChoiceAction.claim_extension")
        return action
    if not isinstance(action, ShotAction):
        raise InvalidAction(f"expected a ShotAction or a ChoiceAction, got {_shown(action)}")
    if not isinstance(action.shot, Shot):
        raise InvalidAction(f"ShotAction.shot must be a Shot, got {_shown(action.shot)}")
    if action.call is not None and not isinstance(action.call, Call):
        raise InvalidAction(f"ShotAction.call must be a Call or None, got {_shown(action.call)}")
    _check_flag(action.claim_extension, "ShotAction.claim_extension")
    if action.place is None:
        return action
    place = action.place
    if isinstance(place, np.ndarray):
        place = tuple(place.tolist())
    if not (
        isinstance(place, tuple | list)
        and len(place) == 2
        and all(_is_real(v) and math.isfinite(v) for v in place)
    ):
        raise InvalidAction(
            f"ShotAction.place must be None or an (x, y) pair of finite numbers in metres, "
            f"got {_shown(action.place)}"
        )
    return replace(action, place=(float(place[0]), float(place[1])))


def _check_flag(value: object, name: str) -> None:
    if not isinstance(value, bool | np.bool_):
        raise InvalidAction(f"{name} must be True or False, got {_shown(value)}")


def _is_real(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool | np.bool_)


def _shown(value: object) -> str:
    """A value as an error message shows it: its type and a short repr."""
    if value is None:
        return "None"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


@dataclass(frozen=True)
class FrameView:
    """Everything a player may see when it is to decide: the table, the frame, who it is, and
    the decision's clock when someone times it (``clock.time_left()``; None: nobody does)."""

    state: TableState
    frame: Frame
    player: int
    clock: DecisionClock | None = None

    @property
    def decision(self) -> Decision:
        return self.frame.decision


@runtime_checkable
class Agent(Protocol):
    """A player: maps a view of the frame to an action."""

    def act(self, view: FrameView) -> Action:
        """Decide the action for ``view``."""
        ...
