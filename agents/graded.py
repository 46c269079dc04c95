"""Graded opponents: five players from a beginner to the strongest the package ships, each a
named agent (entry points of ``kinghill.agents``: ``kinghill play human club``), for people to
play against (``kinghill serve`` lists them with their ratings on the ladder's scale).

- ``beginner``: :class:`ShakyHand` over the heuristic, the heuristic's shots with a
  beginner's aim (about 2° off) and touch (15% off the speed);
- ``casual``: ``heuristic``, the best-scoring candidate shot, no look-ahead;
- ``club``: ``search:30``, the noise-aware search with 30 simulations a decision;
- ``strong``: ``search``, the search at its default budget (120);
- ``master``: ``expert-position``, the search guided by the shipped prior net with its chosen
  pot refined and its leaves scored by a learnt value of the position, the strongest player in
  the package at noise 1x (the zoo's ``expert-position@1``).

Their ratings are measured, not set: :mod:`kinghill.experiments.serve.levels` holds them with
the runs they come from.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from kinghill.agents.graded_specs import PLAYS_AS
from kinghill.agents.heuristic import HeuristicAgent
from kinghill.agents.registry import make_agent
from kinghill.envs import Action, Agent, FrameView, ShotAction
from kinghill.envs.rules import Decision
from kinghill.physics import MAX_SPEED

BEGINNER_AIM_DEGREES = 2.0
BEGINNER_SPEED_FRACTION = 0.15
MIN_SPEED = 0.1


class ShakyHand:
    """Another player's shots played with an unsteady hand: each shot's aim off by a normal
    error of ``aim_degrees`` (its standard deviation) and its speed by a normal fraction
    ``speed_fraction``, on top of the table's own execution noise. The break and the 10.4
    choice are the player's own.

    :param player: whose decisions these are.
    :param seed: seeds the hand's errors (the frame's seed in tournaments).
    """

    def __init__(
        self,
        player: Agent,
        aim_degrees: float = BEGINNER_AIM_DEGREES,
        speed_fraction: float = BEGINNER_SPEED_FRACTION,
        seed: int | None = None,
    ) -> None:
        if not (aim_degrees >= 0 and speed_fraction >= 0):
            raise ValueError(
                f"aim_degrees and speed_fraction must be >= 0, got {aim_degrees}, {speed_fraction}"
            )
        self.player = player
        self.aim = math.radians(aim_degrees)
        self.speed = speed_fraction
        self.rng = np.random.default_rng(seed)

    def act(self, view: FrameView) -> Action:
        action = self.player.act(view)
        if view.decision is Decision.BREAK or not isinstance(action, ShotAction):
            return action
        shot = action.shot
        speed = shot.speed * (1.0 + self.speed * float(self.rng.standard_normal()))
        shaken = replace(
            shot,
            phi=shot.phi + self.aim * float(self.rng.standard_normal()),
            speed=min(max(speed, MIN_SPEED), MAX_SPEED),
        )
        return replace(action, shot=shaken)


def beginner(seed: int | None = None) -> ShakyHand:
    """The heuristic with a beginner's hand (``beginner``)."""
    return ShakyHand(HeuristicAgent(seed), seed=seed)


def casual(seed: int | None = None) -> Agent:
    """The heuristic (``casual``)."""
    return make_agent(PLAYS_AS["casual"], seed)


def club(seed: int | None = None) -> Agent:
    """The search with 30 simulations a decision and the hand-made break (``club``: the zoo's
    ``search-30@1``)."""
    return make_agent(PLAYS_AS["club"], seed)


def strong(seed: int | None = None) -> Agent:
    """The search at its default budget, with the package's learnt break (``strong``: the zoo's
    ``search-120@2``)."""
    return make_agent(PLAYS_AS["strong"], seed)


def master(seed: int | None = None) -> Agent:
    """The built-in ``expert-position`` (``master``): the strongest shipped player at noise 1x,
    and one that decides in about a sixth of ``expert?budget=120``'s time."""
    return make_agent(PLAYS_AS["master"], seed)
