"""The learning curve from ``Monitor`` logs, and the guards around each training env."""

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from kinghill.experiments.train import PhysicsFailureTruncation, load_curve, plot_learning_curve


def _monitor(path: Path, rows: list[tuple[float, int, float, float]]) -> None:
    lines = ['#{"t_start": 0.0, "env_id": "x"}', "r,l,t,won,physics_failures"]
    lines += [f"{r},{n},{t},{won},0.0" for r, n, t, won in rows]
    path.write_text("\n".join(lines) + "\n")


def test_train_curve_merges_envs_in_time_order(tmp_path: Path) -> None:
    _monitor(tmp_path / "0.monitor.csv", [(1.0, 2, 1.0, 1.0), (-1.0, 3, 3.0, 0.0)])
    _monitor(tmp_path / "1.monitor.csv", [(0.5, 4, 2.0, 1.0)])
    curve = load_curve(tmp_path, window=2)
    np.testing.assert_allclose(curve.steps, [2, 6, 9])
    np.testing.assert_allclose(curve.reward_mean, [1.0, 0.75, -0.25])
    np.testing.assert_allclose(curve.win_rate, [1.0, 1.0, 0.5])
    png = plot_learning_curve(tmp_path, tmp_path / "c.png", window=2)
    assert png.episodes == 3
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")


class _Stuck(gym.Env[np.ndarray, np.ndarray]):
    observation_space = gym.spaces.Box(-1, 1, (1,))
    action_space = gym.spaces.Box(-1, 1, (1,))

    def __init__(self, message: str) -> None:
        self.message = message

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        return np.zeros(1, np.float32), {}

    def step(self, action: np.ndarray) -> Any:
        raise RuntimeError(self.message)


def test_train_physics_failure_truncates_the_episode() -> None:
    env = PhysicsFailureTruncation(_Stuck("physics: event cap exceeded"))
    obs, _ = env.reset()
    after, reward, terminated, truncated, info = env.step(np.zeros(1))
    assert after is obs
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["physics_failure"].startswith("physics:")


def test_train_other_runtime_errors_propagate() -> None:
    env = PhysicsFailureTruncation(_Stuck("something else"))
    env.reset()
    with pytest.raises(RuntimeError, match="something else"):
        env.step(np.zeros(1))
