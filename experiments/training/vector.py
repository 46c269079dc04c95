"""``gymnasium.make_vec`` environments for Stable-Baselines3.

SB3 steps a ``VecEnv`` that resets a finished env within the same step and hands over the last
observation as ``info["terminal_observation"]``; a Gymnasium vector env batches its infos in
dicts with masks. :class:`GymnasiumVecEnv` bridges the two, using Gymnasium's ``SAME_STEP``
autoreset so that no step is lost.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from gymnasium.wrappers import FlattenObservation
from stable_baselines3.common.vec_env import VecEnv

from kinghill.envs.rl.wrappers import WRAPPERS
from kinghill.experiments.training.environments import (
    in_worker_process,
    monitored,
    training_opponent,
)

if TYPE_CHECKING:
    from kinghill.experiments.training.config import TrainConfig

ENV_ID = "kinghill/KingOfTheHill-v0"


class GymnasiumVecEnv(VecEnv):
    """A Gymnasium ``VectorEnv`` (made with ``autoreset_mode=SAME_STEP``) as an SB3 ``VecEnv``.

    ``env_is_wrapped`` cannot look inside the workers and answers False for every env.
    """

    def __init__(self, venv: SyncVectorEnv | AsyncVectorEnv) -> None:
        if venv.metadata.get("autoreset_mode") is not AutoresetMode.SAME_STEP:
            raise ValueError("make the vector env with autoreset_mode=AutoresetMode.SAME_STEP")
        self.venv = venv
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> Any:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        options = self._options[0] if self._options and self._options[0] else None
        obs: Any
        obs, infos = self.venv.reset(seed=seeds, options=options)
        self.reset_infos = [_unbatch(infos, i) for i in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> Any:
        step: tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]
        step = self.venv.step(self._actions)
        obs, rewards, terminated, truncated, infos = step
        dones = terminated | truncated
        out = []
        for i in range(self.num_envs):
            if dones[i]:
                info = _unbatch(infos.get("final_info", {}), i)
                info["terminal_observation"] = infos["final_obs"][i]
                info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            else:
                info = _unbatch(infos, i)
            out.append(info)
        return obs, rewards.astype(np.float32), dones, out

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        values = self.venv.get_attr(attr_name)
        return [values[i] for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        if list(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError("set_attr on a gymnasium vector env sets every env (indices=None)")
        self.venv.set_attr(attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        values = self.venv.call(method_name, *method_args, **method_kwargs)
        return [values[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: None | int | Iterable[int]) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def _unbatch(infos: dict[str, Any], i: int) -> dict[str, Any]:
    """Env ``i``'s own info from a batched Gymnasium info dict (keys present per the masks)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_") or key in ("final_info", "final_obs"):
            continue
        mask = infos.get(f"_{key}")
        if mask is not None and not mask[i]:
            continue
        out[key] = _unbatch(value, i) if isinstance(value, dict) else value[i]
    return out


@dataclass(frozen=True)
class TrainingWrappers:
    """The wrappers ``kinghill train`` puts around each env, as one picklable ``wrappers=``
    entry of ``gymnasium.make_vec`` (it runs in the worker; the Monitor file is named by the
    run's session and the worker's process id)."""

    config: TrainConfig
    session: int = 0

    def __call__(self, env: gym.Env[Any, Any]) -> gym.Wrapper[Any, Any, Any, Any]:
        in_worker_process()
        return monitored(env, self.config.out, f"s{self.session}-pid{os.getpid()}")


def make_gymnasium_vec(config: TrainConfig, session: int = 0) -> GymnasiumVecEnv:
    """The run's envs through ``gymnasium.make_vec(..., vectorization_mode="async")``; their
    ``Monitor`` files are named by the session of the run and the worker's process id."""
    venv = gym.make_vec(
        ENV_ID,
        num_envs=config.envs,
        vectorization_mode="async",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
        wrappers=[FlattenObservation, WRAPPERS[config.action], TrainingWrappers(config, session)],
        opponent=training_opponent(config),
        noise=config.noise,
        noise_scale=config.noise_scale,
    )
    assert isinstance(venv, AsyncVectorEnv)
    return GymnasiumVecEnv(venv)
