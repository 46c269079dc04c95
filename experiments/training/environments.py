"""The environments of a Stable-Baselines3 run: each the SB3 wrapper of ``KingOfTheHill-v0``
against the run's opponent, the frame's outcome recorded, logged by ``Monitor`` under
``DIR/monitor``."""

from __future__ import annotations

import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym

from kinghill.agents import make_agent
from kinghill.envs.rl.curriculum import CURRICULA, Curriculum
from kinghill.experiments.training.config import LEAGUE, SELF_PLAY, TrainConfig

MONITOR_DIR = "monitor"
MONITOR_KEYS = ("won",)
"""Keys of the last ``info`` of an episode that ``Monitor`` logs (see :class:`WonColumn`)."""


class WonColumn(gym.Wrapper[Any, Any, Any, Any]):
    """Puts ``won`` (1.0 for a frame won by the learner, else 0.0) in the last ``info`` of an
    episode: the ``won`` column of the ``Monitor`` log that the learning curve reads
    (:mod:`.curve`, a file format kept since the first runs). The env's own ``is_success``
    says the same as a bool; this is the log's column, a number in every episode's last
    ``info``."""

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            frame = self.env.unwrapped.game.frame  # type: ignore[attr-defined]
            info["won"] = float(frame.winner == 0)
        return obs, reward, terminated, truncated, info


DIAGNOSTIC_KEYS = ("ruling", "turns", "rulings", "events", "frame")
"""Keys of the env's ``info`` that explain a step to a person (its rulings, events, the frame)
and that no trainer reads: :class:`LeanInfo` leaves them in the worker."""


class LeanInfo(gym.Wrapper[Any, Any, Any, Any]):
    """Drops :data:`DIAGNOSTIC_KEYS` from ``info``: a worker pickles every step's ``info`` to
    the trainer, and those dataclasses were most of its bytes (about 3 kB a step) and of the
    trainer's unpickling."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return obs, _lean(info)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, _lean(info)


def _lean(info: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in info.items() if key not in DIAGNOSTIC_KEYS}


def training_guards(env: gym.Env[Any, Any]) -> gym.Env[Any, Any]:
    """``env`` with :class:`WonColumn` around it."""
    return WonColumn(env)


def monitored(env: gym.Env[Any, Any], out: Path, name: str) -> gym.Wrapper[Any, Any, Any, Any]:
    """``env`` guarded and logged by a ``Monitor`` to ``DIR/monitor/<name>.monitor.csv``."""
    from stable_baselines3.common.monitor import Monitor

    path = Path(out) / MONITOR_DIR / name
    return Monitor(training_guards(env), str(path), info_keywords=MONITOR_KEYS)


def in_worker_process() -> None:
    """Set up an env worker process: one torch thread (workers only run small opponent
    policies), and Ctrl-C left to the trainer, which saves the model and then closes the
    workers (a worker the terminal's SIGINT ended would break the pipe the trainer closes)."""
    import torch

    torch.set_num_threads(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def training_opponent(config: TrainConfig) -> Any:
    """The opponent of one training env: the named agent, the self-play pool or the league."""
    from kinghill.experiments.training.selfplay import SnapshotPool, pool_folder

    if config.opponent == SELF_PLAY:
        return SnapshotPool(pool_folder(config.out), config.algo, config.action, config.pool_size)
    if config.opponent == LEAGUE:
        from kinghill.experiments.training.league import League

        folder = pool_folder(config.out)
        return League(folder, config.algo, config.action, list(config.league), config.pool_size)
    return make_agent(config.opponent)


def make_training_env(
    config: TrainConfig, rank: int, in_worker: bool, session: int = 0
) -> gym.Env[Any, Any]:
    """Env ``rank`` of a run: the SB3 wrapper, the run's opponent, the outcome record, and a
    ``Monitor`` writing ``DIR/monitor/<rank>.monitor.csv`` (``s<session>-<rank>`` when the run
    is resumed, so that the earlier sessions' episodes are kept), its ``info`` lean."""
    from kinghill.envs.rl.wrappers import make_sb3_env

    if in_worker:
        in_worker_process()
    env = make_sb3_env(
        config.action,
        opponent=training_opponent(config),
        noise=config.noise,
        noise_scale=config.noise_scale,
        reward_weights=config.reward,
    )
    if config.curriculum is not None:
        env = Curriculum(env, CURRICULA[config.curriculum], config.steps // config.envs)
    if config.opponent == LEAGUE:
        from kinghill.experiments.training.league import LeagueFeedback

        env = LeagueFeedback(env)
    return LeanInfo(monitored(env, config.out, f"s{session}-{rank}" if session else str(rank)))


@dataclass(frozen=True)
class EnvFactory:
    """A picklable :func:`make_training_env` call for a worker process."""

    config: TrainConfig
    rank: int
    in_worker: bool
    session: int = 0

    def __call__(self) -> gym.Env[Any, Any]:
        return make_training_env(self.config, self.rank, self.in_worker, self.session)
