"""The random player: uniform over the action space, decoded into a valid action."""

from __future__ import annotations

from kinghill.envs import RandomOpponent


class RandomAgent(RandomOpponent):
    """Uniform over the Gym action space (every point decodes to a valid action for the view);
    the environment's :class:`~kinghill.envs.RandomOpponent` under its agent name."""
