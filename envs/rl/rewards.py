"""Reward weights of the environments and the reward of one decision for one seat."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from kinghill.envs.game.loop import Turn
from kinghill.envs.rules import Frame


@dataclass(frozen=True)
class RewardWeights:
    """What each outcome is worth to a seat (defaults in brackets).

    :param white: each white legally credited to the seat (+0.1).
    :param foul: each foul of the seat, a time foul included (-0.3).
    :param win: the seat wins the frame, on its own shot or the opponent's second foul (+1).
    :param loss: the seat loses the frame, on either player's shot (-1).
    """

    white: float = 0.1
    foul: float = -0.3
    win: float = 1.0
    loss: float = -1.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"RewardWeights.{f.name}: a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"RewardWeights.{f.name} must be finite")

    def of_turns(self, turns: list[Turn], seat: int) -> float:
        """The seat's reward for its own credits and fouls in ``turns``."""
        total = 0.0
        for turn in turns:
            if turn.ruling is not None and turn.player == seat:
                total += self.white * turn.ruling.whites_credited + self.foul * turn.ruling.is_foul
        return total

    def of_result(self, frame: Frame, seat: int) -> float:
        """The seat's reward for the frame's result (0 while it goes on or when truncated)."""
        if frame.winner is None:
            return 0.0
        return self.win if frame.winner == seat else self.loss
