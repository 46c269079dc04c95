"""Issue 18 item 4: the env declares its vector envs' autoreset mode (Gymnasium 1.1+), and a
vector env made with it starts the next frame as declared: with ``NEXT_STEP`` the step after a
frame ends returns the new frame's first observation, reward 0, neither terminated nor
truncated; the training adapter's ``SAME_STEP`` resets within the ending step."""

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

import kinghill.envs  # noqa: F401  (registers the env)
from kinghill.envs.game.actions import FrameView
from kinghill.envs.rl.gym_env import AUTORESET_MODE, KingOfTheHillEnv

ENV_ID = "kinghill/KingOfTheHill-v0"


def _raising(view: FrameView) -> Any:
    """An opponent that never plays: each of its shots is a foul (12.4), so frames end soon."""
    raise RuntimeError("no shot")


def _vector(mode: AutoresetMode) -> gym.vector.VectorEnv:
    return gym.make_vec(
        ENV_ID,
        num_envs=2,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        opponent=_raising,
        breaker="learner",
    )


def _until_a_frame_ends(envs: gym.vector.VectorEnv) -> tuple[Any, ...]:
    for _ in range(50):
        step = envs.step(envs.action_space.sample())
        if np.any(step[2] | step[3]):
            return step
    raise AssertionError("no frame ended in 50 steps")


def test_the_env_declares_next_step_and_its_vector_envs_carry_it() -> None:
    assert AUTORESET_MODE is AutoresetMode.NEXT_STEP
    assert KingOfTheHillEnv.metadata["autoreset_mode"] is AUTORESET_MODE
    envs = _vector(AUTORESET_MODE)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    envs.close()


def test_next_step_the_step_after_a_frame_ends_is_the_new_frames_start() -> None:
    envs = _vector(AUTORESET_MODE)
    envs.action_space.seed(0)
    envs.reset(seed=0)
    _, _, terminated, truncated, _ = _until_a_frame_ends(envs)
    ended = terminated | truncated
    assert terminated[ended].all()  # won or lost on fouls, not cut off
    obs, reward, terminated, truncated, _ = envs.step(envs.action_space.sample())
    assert np.all(reward[ended] == 0.0)
    assert not terminated[ended].any() and not truncated[ended].any()
    # the learner breaks every frame: a new frame's first decision is its break, shot 0
    assert np.all(obs["decision"][ended] == 0) and np.all(obs["shots"][ended] == 0.0)
    assert np.all(obs["fouls"][ended] == 0)
    envs.close()


def test_same_step_a_frame_that_ends_is_reset_within_the_step() -> None:
    envs = _vector(AutoresetMode.SAME_STEP)
    envs.action_space.seed(0)
    envs.reset(seed=0)
    obs, _, terminated, truncated, infos = _until_a_frame_ends(envs)
    ended = terminated | truncated
    assert infos["_final_obs"][ended].all()
    assert np.all(obs["decision"][ended] == 0) and np.all(obs["shots"][ended] == 0.0)
    for i in np.flatnonzero(ended):
        assert infos["final_obs"][i]["fouls"].max() == 2  # the frame's last position
    envs.close()
