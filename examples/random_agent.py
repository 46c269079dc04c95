"""A random agent in the Gymnasium env: one frame of King of the Hill, and its last picture.

python3 examples/random_agent.py
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import kinghill.envs  # noqa: F401  (registers kinghill/KingOfTheHill-v0)


def play_one_frame(seed: int = 42) -> float:
    """Play one frame with random actions against the default (random) opponent; return the
    learner's total reward."""
    env = gym.make("kinghill/KingOfTheHill-v0", render_mode="rgb_array")
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)  # the random actions too: the same frame on every run
    total, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        action = env.action_space.sample(info["action_mask"])  # every point is a valid action
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        print(info["ruling"])
    picture = np.asarray(env.render())  # (H, W, 3) uint8
    shots = info["frame"].shots
    print(f"frame over after {shots} shots; reward {total:+.2f}; picture {picture.shape}")
    env.close()
    return total


if __name__ == "__main__":
    play_one_frame()
