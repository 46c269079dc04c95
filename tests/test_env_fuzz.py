"""Fuzz (issue 4): 5,000 random actions from the action space over random frames, with random
handicaps and shot limits: no exception, the referee's invariants hold after every decision,
observations stay in their space and every episode ends."""

import gymnasium as gym
import numpy as np

import kinghill.envs  # noqa: F401
from kinghill.envs.rules import check_invariants

ACTIONS = 5_000


def test_random_actions_keep_invariants_and_episodes_end() -> None:
    rng = np.random.default_rng(2024)
    steps = episodes = 0
    while steps < ACTIONS:
        required = (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
        limit = int(rng.integers(5, 60))
        env = gym.make(
            "kinghill/KingOfTheHill-v0", required=required, shot_limit=limit, breaker="random"
        )
        game = env.unwrapped.game  # type: ignore[attr-defined]
        obs, info = env.reset(seed=int(rng.integers(2**31)))
        env.action_space.seed(int(rng.integers(2**31)))
        done, length = False, 0
        while not done:
            before = game.frame
            obs, reward, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
            check_invariants(game.frame, game.state, before)
            assert env.observation_space.contains(obs)
            assert np.isfinite(reward)
            done = term or trunc
            steps += 1
            length += 1
            assert length <= limit + 1, "an episode outlived its shot limit"
        assert game.frame.is_over
        episodes += 1
    assert episodes > 10
