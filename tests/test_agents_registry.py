"""The agent registry: every built-in name builds an agent; unknown names say what is known."""

from pathlib import Path

import pytest

from kinghill.agents import (
    NAMES,
    HeuristicAgent,
    RandomAgent,
    SearchAgent,
    UnknownAgentError,
    make_agent,
)
from kinghill.envs import Agent, RandomOpponent


def test_built_in_names_build_their_agents() -> None:
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("heuristic", 1), HeuristicAgent)
    default = make_agent("search", 1)
    assert isinstance(default, SearchAgent)
    small = make_agent("search:7", 1)
    assert isinstance(small, SearchAgent) and small.budget == 7
    timed = make_agent("search:0.5s", 1)
    assert isinstance(timed, SearchAgent) and timed.time_budget == 0.5
    for name in ("random", "heuristic", "search", "search:7"):
        assert isinstance(make_agent(name, None), Agent)


def test_random_agent_is_the_environments_random_opponent() -> None:
    assert issubclass(RandomAgent, RandomOpponent)


@pytest.mark.parametrize(
    "name", ["randomm", "search:0", "search:x", "search:-1s", "policy", "heuristic:2", ""]
)
def test_unknown_names_list_the_known_ones(name: str) -> None:
    with pytest.raises(UnknownAgentError) as error:
        make_agent(name, 0)
    if not name.startswith("search:"):
        assert all(known in str(error.value) for known in NAMES)


def test_policy_without_a_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no policy checkpoint"):
        make_agent(f"policy:{tmp_path / 'missing.zip'}", 0)
