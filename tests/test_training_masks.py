"""Issue 18 item 4: the masked env's masks come with its steps (``info["action_mask"]``), and
the training's vector env answers MaskablePPO's ``action_masks`` call from them: the same masks
as asking every env again, across the ends of frames, in one process and in workers."""

import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from kinghill.envs.rl.masked import make_masked_env
from kinghill.experiments.training.masks import MasksFromInfos


def masked_env():  # noqa: ANN201  (a module-level factory: SubprocVecEnv pickles it)
    from kinghill.agents import make_agent

    return make_masked_env(opponent=make_agent("random", 5), shot_limit=12)


@pytest.mark.parametrize("vector", [DummyVecEnv, SubprocVecEnv])
def test_masks_read_off_the_steps_are_the_envs_own(vector: type) -> None:
    venv = vector([masked_env, masked_env])
    wrapped = MasksFromInfos(venv)
    try:
        wrapped.seed(3)
        wrapped.reset()
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(60):
            masks = np.stack(wrapped.env_method("action_masks"))
            asked = np.stack(venv.env_method("action_masks"))
            assert np.array_equal(masks, asked)
            slots = [rng.choice(np.flatnonzero(m[:13])) for m in masks]
            actions = np.array([[s, rng.integers(3), rng.integers(4)] for s in slots])
            _, _, dones, _ = wrapped.step(actions)
            ends += int(dones.sum())
        assert ends > 0  # frames ended and were reset on the way
        assert wrapped.env_method("action_masks", indices=[1])[0].shape == masks[1].shape
        assert wrapped.env_method("get_wrapper_attr", "action_space")  # others pass through
    finally:
        wrapped.close()
