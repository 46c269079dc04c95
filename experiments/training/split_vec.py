"""A vector env whose first env steps in the trainer's process while the others step in worker
processes at the same time.

On a 2-core machine neither of SB3's vector envs uses both cores while the rollout steps:
``DummyVecEnv`` steps the envs one after the other on one core, and ``SubprocVecEnv`` leaves
the trainer idle while its workers step (three processes on two cores, with a round trip per
step). :class:`SplitVecEnv` hands the workers their actions, steps env 0 itself meanwhile and
then collects the workers' results: each env is the same env, seeded the same (``seed + k``),
as in either of them, so a run is the same step for step whichever of the three steps it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices


class SplitVecEnv(VecEnv):
    """Env 0 in this process (``DummyVecEnv``), envs 1.. in worker processes
    (``SubprocVecEnv``), stepped at the same time; at least two envs."""

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env[Any, Any]]]) -> None:
        if len(env_fns) < 2:
            raise ValueError(f"SplitVecEnv needs at least 2 envs (got {len(env_fns)})")
        self.local = DummyVecEnv([env_fns[0]])
        self.remote = SubprocVecEnv(list(env_fns[1:]))
        self.parts: tuple[VecEnv, VecEnv] = (self.local, self.remote)
        super().__init__(len(env_fns), self.local.observation_space, self.local.action_space)
        self._actions: np.ndarray | None = None

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        seeds = list(super().seed(seed))
        self.local.seed(seeds[0])
        self.remote.seed(seeds[1])  # the workers' envs get seeds[1] + j, as in one vector env
        return seeds

    def set_options(self, options: list[dict[str, Any]] | dict[str, Any] | None = None) -> None:
        super().set_options(options)
        self.local.set_options(self._options[:1])
        self.remote.set_options(self._options[1:])

    def reset(self) -> Any:
        obs = [part.reset() for part in self.parts]  # once a run: the workers reset themselves
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [*self.local.reset_infos, *self.remote.reset_infos]
        return _concatenate(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions
        self.remote.step_async(actions[1:])

    def step_wait(self) -> Any:
        assert self._actions is not None, "step_async comes first"
        obs, rewards, dones, infos = self.local.step(self._actions[:1])
        remote_obs, remote_rewards, remote_dones, remote_infos = self.remote.step_wait()
        self._actions = None
        self.reset_infos = [*self.local.reset_infos, *self.remote.reset_infos]
        return (
            _concatenate([obs, remote_obs]),
            np.concatenate([rewards, remote_rewards]).astype(np.float32),
            np.concatenate([dones, remote_dones]),
            [*infos, *remote_infos],
        )

    def close(self) -> None:
        for part in self.parts:
            part.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [
            value
            for part, local in self._split(indices)
            for value in part.get_attr(attr_name, local)
        ]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for part, local in self._split(indices):
            part.set_attr(attr_name, value, local)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        return [
            value
            for part, local in self._split(indices)
            for value in part.env_method(method_name, *method_args, indices=local, **method_kwargs)
        ]

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]], indices: VecEnvIndices = None
    ) -> list[bool]:
        return [
            value
            for part, local in self._split(indices)
            for value in part.env_is_wrapped(wrapper_class, local)
        ]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [*self.local.get_images(), *self.remote.get_images()]

    def _split(self, indices: VecEnvIndices) -> Iterable[tuple[VecEnv, list[int]]]:
        """The parts that hold ``indices`` (global) and their indices there, in order."""
        wanted = list(self._get_indices(indices))
        local = [k for k in wanted if k == 0]
        remote = [k - 1 for k in wanted if k > 0]
        return [(part, ks) for part, ks in ((self.local, local), (self.remote, remote)) if ks]


def _concatenate(batches: Sequence[Any]) -> Any:
    """Batches of observations (arrays or dicts of arrays) end to end."""
    first = batches[0]
    if isinstance(first, dict):
        return {key: np.concatenate([batch[key] for batch in batches]) for key in first}
    return np.concatenate(batches)
