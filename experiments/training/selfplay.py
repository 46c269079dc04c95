"""Self-play for ``kinghill train sb3 --opponent self``: a pool of frozen snapshots of the learner.

The trainer saves a snapshot into ``DIR/pool/`` at the start and every ``refresh`` steps
(:class:`SnapshotCallback`); each environment's opponent (:class:`SnapshotPool`, living in the
worker process) draws one of the latest ``size`` snapshots at every episode start. The folder is
the only thing shared, so this works across processes and vector-env kinds alike.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from kinghill.envs import Action, FrameView, RandomOpponent
from kinghill.envs.rl.wrappers import FrozenPolicy
from kinghill.experiments.training.algorithms import algorithm

POOL_DIR = "pool"
_SNAPSHOT = re.compile(r"^snapshot_(\d+)\.zip$")


def pool_folder(out: Path | str) -> Path:
    """The folder of a run's self-play snapshots."""
    return Path(out) / POOL_DIR


def save_snapshot(model: Any, out: Path | str, steps: int) -> Path:
    """Save ``model`` as the pool's snapshot at ``steps``, atomically (readers never see half a
    file)."""
    folder = pool_folder(out)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"snapshot_{steps:010d}.zip"
    partial = folder / f".partial_{steps:010d}_{os.getpid()}.zip"
    model.save(partial)
    os.replace(partial, path)
    return path


def snapshots(folder: Path | str) -> list[Path]:
    """The pool's snapshots, oldest first."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _SNAPSHOT.match(p.name))


def load_snapshot(path: Path, algo: str, action: str, deterministic: bool) -> FrozenPolicy:
    """The snapshot at ``path`` as a player (``algo`` and ``action`` as it was trained)."""
    model = algorithm(algo).load(path, device="cpu")
    return FrozenPolicy(model, action, deterministic)


class SnapshotCallback(BaseCallback):
    """Adds a snapshot of the learner to the pool every ``refresh`` environment steps."""

    def __init__(self, out: Path | str, refresh: int) -> None:
        super().__init__()
        self.out = out
        self.refresh = refresh
        self._next = refresh

    def _on_training_start(self) -> None:
        self._next = self.num_timesteps + self.refresh  # a resumed run goes on from its steps

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            save_snapshot(self.model, self.out, self.num_timesteps)
            self._next += self.refresh
        return True


class SnapshotPool:
    """An opponent that plays, each episode, one snapshot drawn from the latest ``size`` of the
    pool (a random opponent while the pool is empty). Loaded snapshots are kept while they stay
    in the pool.

    :param folder: the pool folder (see :func:`pool_folder`).
    :param algo: the snapshots' algorithm, "ppo" or "sac".
    :param action: the action wrapper they were trained with, "aim" or "flat".
    :param size: how many of the latest snapshots to draw from.
    :param deterministic: play each snapshot's mean action rather than sample it.
    """

    def __init__(
        self,
        folder: Path | str,
        algo: str,
        action: str,
        size: int = 5,
        deterministic: bool = False,
    ) -> None:
        self.folder = Path(folder)
        self.algo = algo
        self.action = action
        self.size = size
        self.deterministic = deterministic
        self._rng = np.random.default_rng()
        self._loaded: dict[Path, FrozenPolicy] = {}
        self._fallback = RandomOpponent()
        self.current: Path | None = None

    def reset(self, seed: int | None = None) -> None:
        """Start an episode: draw this episode's snapshot (called by the env on reset)."""
        self._rng = np.random.default_rng(seed)
        self._fallback.reset(seed)
        pool = snapshots(self.folder)[-self.size :]
        self._loaded = {p: m for p, m in self._loaded.items() if p in pool}
        self.current = pool[int(self._rng.integers(len(pool)))] if pool else None

    def act(self, view: FrameView) -> Action:
        if self.current is None:
            return self._fallback.act(view)
        return self._policy(self.current).act(view)

    def _policy(self, path: Path) -> FrozenPolicy:
        if path not in self._loaded:
            self._loaded[path] = load_snapshot(path, self.algo, self.action, self.deterministic)
        return self._loaded[path]
