"""The errors of agent specs, apart from the registry that raises most of them, so that an agent
module the registry builds (e.g. :mod:`kinghill.agents.rllib_agent`) raises them without
importing the registry back."""

from __future__ import annotations


class AgentSpecError(ValueError):
    """An agent spec that cannot be turned into an agent; the message says what is wrong."""


class UnknownAgentError(AgentSpecError):
    """A spec naming no built-in agent, entry point or importable object; lists the known ones."""


class MissingExtraError(AgentSpecError):
    """A built-in agent whose pip extra of kinghill is not installed (``rllib``).

    :param extra: the extra's name, for ``pip install 'kinghill[EXTRA]'``: a ladder skips a
        zoo member that needs one, naming it.
    """

    def __init__(self, message: str, extra: str) -> None:
        super().__init__(message)
        self.extra = extra
