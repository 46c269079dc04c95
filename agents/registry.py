"""Agents by name, as the command line and the tournament runner give them.

Names: ``random``, ``heuristic``, ``search`` (default budget), ``search:N`` (N simulations per
decision), ``search:Xs`` (X seconds per decision), ``policy:PATH`` (a Stable-Baselines3
checkpoint, aim-assisted action).
"""

from __future__ import annotations

from kinghill.envs import Agent

NAMES = ("random", "heuristic", "search", "search:N", "search:Xs", "policy:PATH")
"""The agent names :func:`make_agent` understands, as shown in errors and help."""


class UnknownAgentError(ValueError):
    """An agent name that the registry does not know; the message lists the known ones."""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """The agent called ``name``, seeded with ``seed``.

    :raises UnknownAgentError: the name is not one of :data:`NAMES`.
    """
    kind, _, argument = name.partition(":")
    if kind == "random" and not argument:
        from kinghill.agents.random_agent import RandomAgent

        return RandomAgent(seed)
    if kind == "heuristic" and not argument:
        from kinghill.agents.heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if kind == "search":
        from kinghill.agents.search import SearchAgent

        if not argument:
            return SearchAgent(seed)
        if argument.isdigit() and int(argument) > 0:
            return SearchAgent(seed, budget=int(argument))
        seconds = _seconds(argument)
        if seconds is not None:
            return SearchAgent(seed, time_budget=seconds)
        raise UnknownAgentError(
            f"search:N needs a positive number of simulations, search:Xs positive seconds; "
            f"got {name!r}"
        )
    if kind == "policy" and argument:
        from kinghill.agents.policy import PolicyAgent

        return PolicyAgent(argument)
    raise UnknownAgentError(f"unknown agent {name!r}; known agents: {', '.join(NAMES)}")


def _seconds(text: str) -> float | None:
    """``2.5`` for ``"2.5s"``; None for anything else or a value that is not positive."""
    if not text.endswith("s"):
        return None
    try:
        value = float(text[:-1])
    except ValueError:
        return None
    return value if value > 0 and value != float("inf") else None
