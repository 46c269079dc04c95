"""Opponents for the single-seat environment: anything that decides for the other player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kinghill.envs.game.actions import Action, Agent, FrameView
from kinghill.envs.rl.encoding import action_space, decode_action

Decide = Callable[[FrameView], Action]
"""A decision function: a view of the frame to an action."""
SpecResolver = Callable[[str], Any]
"""Builds the agent an agent spec names (``"heuristic"``, ``"policy:PATH"``)."""
_RESOLVERS: list[SpecResolver] = []


def name_opponents_with(resolver: SpecResolver) -> None:
    """Let the environments take an opponent named by an agent spec (``opponent="heuristic"``),
    built by ``resolver``. :mod:`kinghill.agents` registers its ``make_agent`` here when it is
    imported: the envs are a floor below the agents and cannot import them."""
    _RESOLVERS[:] = [resolver]


def as_opponent(opponent: Any) -> Any:
    """The opponent itself, or the agent a spec string names (:func:`name_opponents_with`).

    :raises ValueError: a spec while no resolver is registered (``kinghill.agents`` not imported).
    """
    if not isinstance(opponent, str):
        return opponent
    if not _RESOLVERS:
        raise ValueError(
            f"opponent={opponent!r} is an agent spec: import kinghill.agents first (it teaches "
            "the environments its specs), or pass an agent"
        )
    return _RESOLVERS[0](opponent)


class RandomOpponent:
    """Uniform over the action space, decoded into a valid action (the built-in default)."""

    def __init__(self, seed: int | None = None) -> None:
        self.space = action_space()
        self.space.seed(seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the sampler (called by the environment on ``reset(seed=...)``)."""
        self.space.seed(seed)

    def act(self, view: FrameView) -> Action:
        return decode_action(self.space.sample(), view)


def as_decide(opponent: Any) -> Decide:
    """The decision function of an :class:`Agent`, or the callable itself."""
    if isinstance(opponent, Agent):
        return opponent.act
    if callable(opponent):
        return opponent
    raise TypeError(
        f"opponent must be an agent (with act(view)), a callable view -> action, or a frozen "
        f"policy wrapped by kinghill.envs.rl.wrappers.FrozenPolicy; got {type(opponent).__name__}"
    )


def reseed(opponent: Any, rng: np.random.Generator) -> None:
    """Re-seed an opponent that has ``reset(seed)``, from the environment's generator."""
    reset = getattr(opponent, "reset", None)
    if callable(reset):
        reset(int(rng.integers(2**31)))
