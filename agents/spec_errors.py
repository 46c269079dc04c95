"""The errors of agent specs, apart from the registry that raises most of them, so that an agent
module the registry builds (e.g. :mod:`kinghill.agents.rllib_agent`) raises them without
importing the registry back."""

from __future__ import annotations


class AgentSpecError(ValueError):
    """An agent spec that cannot be turned into an agent; the message says what is wrong."""


class UnknownAgentError(AgentSpecError):
    """A spec naming no built-in agent, entry point or importable object; lists the known ones."""
