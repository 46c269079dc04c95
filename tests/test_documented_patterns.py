"""Issue 39, item 12: the patterns the README and the guide show work on every env and API they
name — a masked env sampled with its own ``info["action_mask"]``, an opponent named by spec in
``gym.make`` (agents are named by spec everywhere), and a decision function given to
``evaluate``."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import kinghill.envs  # noqa: F401  (registers the envs)
from kinghill.agents import HeuristicAgent, SearchAgent
from kinghill.envs.rl.masked import SLOTS
from kinghill.experiments import evaluate


def test_the_readme_loop_samples_the_masked_env_by_its_mask() -> None:
    env = gym.make("kinghill/KingOfTheHill-Masked-v0", opponent="random")
    obs, info = env.reset(seed=3)
    for _ in range(30):
        offered = np.flatnonzero(info["action_mask"][:SLOTS])
        action = env.action_space.sample(info["action_mask"])
        assert action[0] in offered and env.action_space.contains(action)
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()
    with pytest.raises(ValueError, match="must be .* flags"):
        env.action_space.sample(np.ones(5, dtype=np.int8))
    assert env.action_space.sample(tuple(np.ones(n, np.int8) for n in env.action_space.nvec)).shape


@pytest.mark.parametrize(
    ("env_id", "spec", "kind"),
    [
        ("kinghill/KingOfTheHill-v0", "heuristic", HeuristicAgent),
        ("kinghill/KingOfTheHill-Masked-v0", "search:10", SearchAgent),
    ],
)
def test_gym_make_takes_an_opponent_by_spec(env_id: str, spec: str, kind: type) -> None:
    env = gym.make(env_id, opponent=spec)
    assert isinstance(env.unwrapped.opponent, kind)
    env.reset(seed=0)


def test_evaluate_takes_a_decision_function_for_an_agent() -> None:
    heuristic = HeuristicAgent()
    agents = {"me": lambda view: heuristic.act(view), "random": "random"}
    report = evaluate(agents, 2, max_shots=4, noise=False)  # a factory call would fail here
    assert report.markdown().count("| me |") >= 1
