"""Issue 4: PPO and SAC run a few hundred steps on each SB3 wrapper, with ``SubprocVecEnv``
(2 workers) and with ``gymnasium.make_vec(..., vectorization_mode="async")``; issue 18: the
split vector env (env 0 in the trainer's process, the others in workers, stepped at once)
steps the same envs as ``DummyVecEnv``, step for step."""

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from stable_baselines3.common.vec_env import SubprocVecEnv

from kinghill.envs.rl.encoding import observation_space
from kinghill.experiments.training.config import ConfigError, TrainConfig
from kinghill.experiments.training.curve import load_curve
from kinghill.experiments.training.sb3 import make_model, make_vec_env
from kinghill.experiments.training.split_vec import SplitVecEnv
from kinghill.experiments.training.vector import GymnasiumVecEnv

STEPS = 256


@pytest.mark.slow
@pytest.mark.parametrize("vectorization", ["sb3", "gymnasium"])
@pytest.mark.parametrize("action", ["aim", "flat"])
@pytest.mark.parametrize("algo", ["ppo", "sac"])
def test_sb3_algorithm_runs_on_two_worker_vec_env(
    tmp_path: Path, algo: str, action: str, vectorization: str
) -> None:
    config = TrainConfig(
        out=tmp_path,
        algo=algo,
        action=action,
        steps=STEPS,
        envs=2,
        vectorization=vectorization,
        net=(16,),
        n_steps=64,
        batch_size=32,
        progress=False,
    )
    env = make_vec_env(config)
    try:
        assert isinstance(env, SubprocVecEnv if vectorization == "sb3" else GymnasiumVecEnv)
        model = make_model(config, env)
        model.learn(total_timesteps=STEPS)
        assert model.num_timesteps >= STEPS
    finally:
        env.close()
    curve = load_curve(tmp_path / "monitor")
    assert curve.episodes > 0  # both workers logged finished episodes
    assert np.all(np.diff(curve.steps) > 0)


def test_sb3_gymnasium_vec_hands_over_terminal_observation(tmp_path: Path) -> None:
    """A finished env is reset within the step and its last observation is in the info."""
    env = make_vec_env(TrainConfig(out=tmp_path, envs=2, vectorization="gymnasium"))
    try:
        env.seed(3)
        obs = env.reset()
        assert obs.shape == (2, *env.observation_space.shape)
        ended = []
        for _ in range(60):
            obs, rewards, dones, infos = env.step(
                np.stack([env.action_space.sample() for _ in range(2)])
            )
            assert rewards.shape == (2,)
            for done, info, now in zip(dones, infos, obs, strict=True):
                if done:  # the last observation of the frame that ended, not the new frame's
                    last = info["terminal_observation"]
                    assert last.shape == env.observation_space.shape
                    assert not np.array_equal(last, now)
                    seen = spaces.unflatten(observation_space(), last)
                    frame = info["frame"]  # the learner sits in seat 0: its view is the frame's
                    assert seen["fouls"].tolist() == list(frame.fouls)
                    assert seen["credited"].tolist() == list(frame.credit_counts)
                    assert "episode" in info  # the Monitor's record of the finished episode
                    ended.append(info)
            if len(ended) >= 2:
                break
        assert ended, "no episode ended in 60 steps"
    finally:
        env.close()


AUTO_CASES = [
    (2, 2, "split"),
    (3, 2, "sb3"),
    (16, 1, "in-process"),
    (1, 4, "in-process"),
    (2, 4, "in-process"),
]


@pytest.mark.parametrize(("cores", "envs", "expected"), AUTO_CASES)
def test_auto_vectorization_keeps_workers_for_machines_with_a_core_to_spare(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cores: int, envs: int, expected: str
) -> None:
    """``--vectorization auto`` (the default): worker processes where every env and the trainer
    have a core; on 2 cores 2 envs split (one in the trainer's process, one in a worker); with
    fewer cores than envs, all in the trainer's process (DummyVecEnv)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from kinghill.experiments.training import sb3

    monkeypatch.setattr(sb3.os, "cpu_count", lambda: cores)
    config = TrainConfig(out=tmp_path, envs=envs)
    assert config.vectorization == "auto" and sb3.vectorization(config) == expected
    assert sb3.vectorization(TrainConfig(out=tmp_path, envs=envs, vectorization="sb3")) == "sb3"
    if expected == "in-process":
        warmed: list[bool] = []  # the kernels loaded (a cold compile announced) first here too
        monkeypatch.setattr(sb3, "warm_up", lambda: warmed.append(True) or 0.0)
        env = make_vec_env(config)
        try:
            assert isinstance(env, DummyVecEnv) and env.num_envs == envs and warmed == [True]
        finally:
            env.close()


EVALUATION_CASES = [(2, 2, "background"), (3, 2, "inline"), (4, 2, "background"), (1, 4, "inline")]


@pytest.mark.parametrize(("cores", "envs", "expected"), EVALUATION_CASES)
def test_auto_evaluation_plays_in_the_background_on_a_core_the_training_leaves_free(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cores: int, envs: int, expected: str
) -> None:
    """``--evaluation auto`` (the default): a background worker where the trainer (and its env
    workers, one a core) leave a core free; an explicit mode is kept."""
    from kinghill.experiments.training import sb3

    monkeypatch.setattr(sb3.os, "cpu_count", lambda: cores)
    assert sb3.evaluation(TrainConfig(out=tmp_path, envs=envs)) == expected
    for mode in ("inline", "background"):
        assert sb3.evaluation(TrainConfig(out=tmp_path, envs=envs, evaluation=mode)) == mode
    with pytest.raises(ConfigError, match="evaluation"):
        TrainConfig(out=tmp_path, evaluation="elsewhere")


def _masked_config(tmp_path: Path, vectorization: str) -> TrainConfig:
    return TrainConfig(
        out=tmp_path / vectorization,
        algo="maskable-ppo",
        action="masked",
        opponent="heuristic",
        envs=2,
        seed=5,
        vectorization=vectorization,
    )


def _rollout(vec: Any, steps: int) -> list[tuple[Any, ...]]:
    """``steps`` steps of random legal actions (a fixed generator), everything they return."""
    rng = np.random.default_rng(0)
    vec.seed(5)
    seen: list[tuple[Any, ...]] = [(vec.reset(), vec.env_method("action_masks"))]
    for _ in range(steps):
        masks = vec.env_method("action_masks")
        actions = [
            [rng.choice(np.flatnonzero(part)) for part in np.split(mask, [13, 16])]
            for mask in masks
        ]
        obs, rewards, dones, infos = vec.step(np.array(actions))
        ended = [info.get("won") for info in infos]
        seen.append((obs, rewards, dones, ended, vec.env_method("action_masks")))
    return seen


@pytest.mark.slow
def test_the_split_vec_env_steps_the_same_envs_as_dummy_vec_env(tmp_path: Path) -> None:
    """Env 0 steps in this process while env 1 steps in a worker; observations, rewards (their
    dtype too), episode ends and masks equal ``DummyVecEnv``'s, step for step."""
    from stable_baselines3.common.monitor import Monitor

    in_process = make_vec_env(_masked_config(tmp_path, "in-process"))
    split = make_vec_env(_masked_config(tmp_path, "split"))
    try:
        assert isinstance(split.venv, SplitVecEnv)
        assert isinstance(split.venv.remote, SubprocVecEnv) and split.venv.remote.num_envs == 1
        expected, got = _rollout(in_process, 120), _rollout(split, 120)
        assert any(any(dones) for _, _, dones, _, _ in expected[1:])  # a frame ended and reset
        for want, have in zip(expected, got, strict=True):
            for a, b in zip(want, have, strict=True):
                if isinstance(a, np.ndarray):
                    assert a.dtype == b.dtype and np.array_equal(a, b)
                else:
                    assert len(a) == len(b) and all(
                        np.array_equal(x, y) for x, y in zip(a, b, strict=True)
                    )
        # the worker's env answers for index 1, this process's for index 0
        inner = split.venv
        assert inner.env_is_wrapped(Monitor) == [True, True]
        masks = inner.env_method("action_masks")
        assert np.array_equal(inner.env_method("action_masks", indices=[1])[0], masks[1])
        inner.set_attr("marker", 7, indices=1)
        assert inner.get_attr("marker", indices=[1]) == [7]
        assert not hasattr(inner.local.envs[0], "marker")
    finally:
        in_process.close()
        split.close()


def test_the_split_vec_env_needs_two_envs() -> None:
    with pytest.raises(ValueError, match="at least 2 envs"):
        SplitVecEnv([lambda: None])  # type: ignore[list-item, return-value]
