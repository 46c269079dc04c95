"""What a player decides: a shot (with its call and, on the break, the house placement) or the
10.4 choice after the opponent's foul; and the view of the frame an agent decides from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

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


@dataclass(frozen=True)
class FrameView:
    """Everything a player may see when it is to decide: the table, the frame, and who it is."""

    state: TableState
    frame: Frame
    player: int

    @property
    def decision(self) -> Decision:
        return self.frame.decision


@runtime_checkable
class Agent(Protocol):
    """A player: maps a view of the frame to an action."""

    def act(self, view: FrameView) -> Action:
        """Decide the action for ``view``."""
        ...
