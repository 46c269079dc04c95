"""The agent registry: every built-in name builds an agent; unknown names say what is known."""

from pathlib import Path

import pytest

from kinghill.agents import (
    NAMES,
    AgentSpecError,
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


@pytest.mark.parametrize("name", ["randomm", ""])
def test_unknown_names_list_the_known_ones(name: str) -> None:
    with pytest.raises(UnknownAgentError) as error:
        make_agent(name, 0)
    assert all(known in str(error.value) for known in NAMES)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("search:0", "search:ARG is N simulations"),
        ("search:x", "search:ARG is N simulations"),
        ("search:-1s", "search:ARG is N simulations"),
        ("policy", "policy needs :PATH"),
        ("heuristic:2", "heuristic takes no argument"),
    ],
)
def test_a_built_in_with_a_wrong_argument_says_what_it_takes(name: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(name, 0)


def test_policy_without_a_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="no policy checkpoint"):
        make_agent(f"policy:{tmp_path / 'missing.zip'}", 0)
