"""Self-play pool: opponents draw, per episode, from the latest snapshots only."""

from pathlib import Path

import pytest
from stable_baselines3 import PPO

from kinghill.envs import RandomOpponent
from kinghill.envs.rl.wrappers import make_sb3_env
from kinghill.experiments.training.selfplay import (
    SnapshotPool,
    load_snapshot,
    save_snapshot,
    snapshots,
)


@pytest.fixture(scope="module")
def model() -> PPO:
    env = make_sb3_env("aim")
    return PPO("MlpPolicy", env, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [8]})


def test_selfplay_empty_pool_plays_random(tmp_path: Path) -> None:
    """With no snapshot yet, the pool's opponent is a random agent seeded as the episode."""
    pool = SnapshotPool(tmp_path / "pool", "ppo", "aim")
    env = make_sb3_env("aim", opponent=pool, breaker="opponent")
    _, info = env.reset(seed=1)
    assert pool.current is None
    assert info["turns"]  # the opponent broke, with the fallback
    game = env.unwrapped.game
    view = game.view(game.to_move)
    random = RandomOpponent()
    for seed in (3, 4):
        pool.reset(seed)
        random.reset(seed)
        assert pool.act(view) == random.act(view)


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
    """Once a snapshot is in the pool, the opponent plays its moves: the snapshot's own
    (deterministic) action at every decision of a frame it plays out."""
    path = save_snapshot(model, tmp_path, 0)
    pool = SnapshotPool(tmp_path / "pool", "ppo", "aim", deterministic=True)
    snapshot = load_snapshot(path, "ppo", "aim", deterministic=True)
    env = make_sb3_env("aim", opponent=pool, breaker="opponent")
    _, info = env.reset(seed=2)
    assert pool.current == path
    assert info["turns"]  # the snapshot broke
    game = env.unwrapped.game
    decisions = 0
    for _ in range(200):
        if game.is_over:
            break
        view = game.view(game.to_move)
        assert pool.act(view) == snapshot.act(view)
        decisions += 1
        game.play(snapshot.act(view))
    assert decisions > 0 and game.is_over  # both seats' moves, to the end of the frame
