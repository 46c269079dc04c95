"""Players: agents that map a view of the frame to an action (the envs ``Agent`` protocol).

Built in: :class:`RandomAgent`, :class:`HeuristicAgent` (ghost-ball pots and safeties),
:class:`SearchAgent` (simulates candidate shots under execution noise) and :class:`PolicyAgent`
(a Stable-Baselines3 checkpoint); :func:`make_agent` builds any of them, the shipped models by
name (:func:`baselines`: ``make_agent("expert")``), and your own agents, from a spec
(``heuristic``, ``expert:PATH?budget=120``, ``mypkg.module:MyAgent?depth=3``, an entry point of
``kinghill.agents``); :func:`canonical_id` names each agent once whichever way its spec is
written.
"""

from kinghill.agents.heuristic import HeuristicAgent
from kinghill.agents.policy import PolicyAgent
from kinghill.agents.random_agent import RandomAgent
from kinghill.agents.registry import (
    ENTRY_POINT_GROUP,
    NAMES,
    AgentSpecError,
    Baseline,
    MissingExtraError,
    UnknownAgentError,
    baselines,
    build_agent,
    canonical_id,
    check_agent,
    check_one_each,
    make_agent,
    missing_extra,
    spec_files,
)
from kinghill.agents.search import SearchAgent
from kinghill.envs.rl.opponents import name_opponents_with

name_opponents_with(make_agent)  # gym.make(..., opponent="heuristic"): the envs build specs here

__all__ = [
    "Baseline",
    "MissingExtraError",
    "baselines",
    "canonical_id",
    "check_one_each",
    "missing_extra",
    "spec_files",
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
