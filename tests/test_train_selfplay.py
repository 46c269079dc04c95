"""Self-play pool: opponents draw, per episode, from the latest snapshots only."""

from pathlib import Path

import pytest
from stable_baselines3 import PPO

from kinghill.envs import ChoiceAction, ShotAction
from kinghill.envs.rl.wrappers import make_sb3_env
from kinghill.experiments.training.selfplay import SnapshotPool, save_snapshot, snapshots


@pytest.fixture(scope="module")
def model() -> PPO:
    env = make_sb3_env("aim")
    return PPO("MlpPolicy", env, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [8]})


def test_selfplay_empty_pool_plays_random(tmp_path: Path) -> None:
    pool = SnapshotPool(tmp_path / "pool", "ppo", "aim")
    env = make_sb3_env("aim", opponent=pool, breaker="opponent")
    env.reset(seed=1)  # the opponent broke with the fallback
    assert pool.current is None


def test_selfplay_pool_draws_from_latest_snapshots(tmp_path: Path, model: PPO) -> None:
    for steps in (0, 100, 200, 300):
        save_snapshot(model, tmp_path, steps)
    assert [p.name for p in snapshots(tmp_path / "pool")][-1] == "snapshot_0000000300.zip"
    assert not list((tmp_path / "pool").glob(".partial*"))
    pool = SnapshotPool(tmp_path / "pool", "ppo", "aim", size=2)
    drawn = set()
    for seed in range(20):
        pool.reset(seed)
        assert pool.current is not None
        drawn.add(pool.current.name)
    assert drawn == {"snapshot_0000000200.zip", "snapshot_0000000300.zip"}


def test_selfplay_snapshot_opponent_plays_a_frame(tmp_path: Path, model: PPO) -> None:
    save_snapshot(model, tmp_path, 0)
    pool = SnapshotPool(tmp_path / "pool", "ppo", "aim")
    env = make_sb3_env("aim", opponent=pool, breaker="opponent")
    _, info = env.reset(seed=2)
    assert pool.current is not None
    assert info["turns"]  # the snapshot broke
    game = env.unwrapped.game
    assert isinstance(pool.act(game.view(game.to_move)), ShotAction | ChoiceAction)
