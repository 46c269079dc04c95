"""A ghost-ball player: pots the most makeable white, calls the coloured ball when it may, plays
safe when nothing is on, and breaks firmly from the house (the shots of
:mod:`kinghill.envs.planning.menu`)."""

from __future__ import annotations

import numpy as np

from kinghill.envs import Action, ChoiceAction, FrameView
from kinghill.envs.planning import (
    break_action,
    fallback_action,
    legal_pots,
    pot_action,
    safety_actions,
)
from kinghill.envs.rules import Decision

PLAY_ON_CHANCE = 0.3
"""10.4: play on when the best pot is at least this likely, else hand the shot back."""
POT_CHANCE = 0.02
"""Below this a pot is not worth trying: play safe instead."""
SAFETY_CHOICES = 2
"""The safety is drawn from this many of the softest (ties between equal safeties broken)."""


class HeuristicAgent:
    """Ghost-ball pots, the coloured ball called when permitted, safeties, a firm break.

    :param seed: seeds the small jitter used to break ties between equal safeties.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, view: FrameView) -> Action:
        if view.decision is Decision.CHOICE:
            best = legal_pots(view)
            return ChoiceAction(play_on=bool(best) and best[0].chance >= PLAY_ON_CHANCE)
        if view.decision is Decision.BREAK:
            return break_action(view.state)
        best = legal_pots(view)
        if best and best[0].chance >= POT_CHANCE:
            return pot_action(best[0])
        safeties = safety_actions(view, SAFETY_CHOICES)
        if safeties:
            return safeties[int(self.rng.integers(len(safeties)))]
        return fallback_action(view)
