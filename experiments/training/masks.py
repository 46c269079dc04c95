"""The action masks of a vector of masked envs, read off the steps' infos.

sb3-contrib's ``MaskablePPO`` asks the vector env for every env's ``action_masks()`` before
each step: with ``SubprocVecEnv`` that is a second round trip to every worker a step (13% of a
training step's time in a profile of the reference command). The masked env already puts the
mask of its new decision in ``info["action_mask"]`` (:class:`kinghill.envs.rl.masked.
MaskedShots`); :class:`MasksFromInfos` keeps those of the last step (of the reset that followed
where an episode ended) and answers ``env_method("action_masks")`` with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

MASK_KEY = "action_mask"
METHOD = "action_masks"


class MasksFromInfos(VecEnvWrapper):
    """A vector env whose ``env_method("action_masks")`` gives the masks the envs reported with
    their last step or reset, without asking them again."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self._masks: list[np.ndarray] = []

    def reset(self) -> Any:
        obs = self.venv.reset()
        self._masks = [info[MASK_KEY] for info in self.venv.reset_infos]
        return obs

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = self.venv.step_wait()
        self._masks = [
            (self.venv.reset_infos[k] if done else info)[MASK_KEY]
            for k, (done, info) in enumerate(zip(dones, infos, strict=True))
        ]
        return obs, rewards, dones, infos

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name == METHOD and not method_args and not method_kwargs and self._masks:
            return [self._masks[k] for k in self._indices(indices)]
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)
