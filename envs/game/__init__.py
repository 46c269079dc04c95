"""The game: one frame of King of the Hill played decision by decision, physics and referee joined.

What a player decides (:class:`ShotAction`, :class:`ChoiceAction`) from what it sees
(:class:`FrameView`), how a decision is asked and timed (:func:`ask`, :class:`DecisionClock`;
:func:`describe` says what went wrong when an agent failed), the loop that turns decisions into
shots and rulings (:class:`Game`), and start positions other than the rack
(:func:`start_position`). Pure Python over :mod:`kinghill.physics` and :mod:`kinghill.envs.rules`:
no Gymnasium, no PettingZoo, no Pillow (``lint-imports`` holds it to that).
"""

from kinghill.envs.game.actions import (
    Action,
    Agent,
    ChoiceAction,
    FrameView,
    InvalidAction,
    ShotAction,
    check_action,
)
from kinghill.envs.game.decision_clock import DecisionClock
from kinghill.envs.game.decisions import Answer, ask, describe
from kinghill.envs.game.loop import (
    Decided,
    Game,
    GameSnapshot,
    Outcome,
    Played,
    Rulings,
    Simulate,
    Turn,
    noisy_outcomes,
    play_noisy,
    play_shot,
    shot_position,
)
from kinghill.envs.game.start import start_position

__all__ = [
    "Action",
    "Agent",
    "Answer",
    "ChoiceAction",
    "Decided",
    "DecisionClock",
    "FrameView",
    "Game",
    "GameSnapshot",
    "InvalidAction",
    "Outcome",
    "Played",
    "Rulings",
    "ShotAction",
    "Simulate",
    "Turn",
    "ask",
    "check_action",
    "describe",
    "noisy_outcomes",
    "play_noisy",
    "play_shot",
    "shot_position",
    "start_position",
]
