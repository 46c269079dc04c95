"""Players: agents that map a view of the frame to an action (the envs ``Agent`` protocol).

Built in: :class:`RandomAgent`, :class:`HeuristicAgent` (ghost-ball pots and safeties),
:class:`SearchAgent` (simulates candidate shots under execution noise) and :class:`PolicyAgent`
(a Stable-Baselines3 checkpoint); :func:`make_agent` builds any of them, and your own agents,
from a spec (``heuristic``, ``mypkg.module:MyAgent?depth=3``, an entry point of
``kinghill.agents``).
"""

from kinghill.agents.heuristic import HeuristicAgent
from kinghill.agents.policy import PolicyAgent
from kinghill.agents.random_agent import RandomAgent
from kinghill.agents.registry import (
    ENTRY_POINT_GROUP,
    NAMES,
    AgentSpecError,
    UnknownAgentError,
    build_agent,
    check_agent,
    make_agent,
)
from kinghill.agents.search import SearchAgent
from kinghill.envs.rl.opponents import name_opponents_with

name_opponents_with(make_agent)  # gym.make(..., opponent="heuristic"): the envs build specs here

__all__ = [
    "ENTRY_POINT_GROUP",
    "NAMES",
    "AgentSpecError",
    "HeuristicAgent",
    "PolicyAgent",
    "RandomAgent",
    "SearchAgent",
    "UnknownAgentError",
    "build_agent",
    "check_agent",
    "make_agent",
]
