"""Training: Stable-Baselines3 (PPO, SAC, MaskablePPO) and RLlib trainers, self-play and the
league of opponents, the warm start by imitation, evaluation during training, and the search's
learned leaf values.

The Python API under ``kinghill train``, ``kinghill train-value`` and ``kinghill
train-position``::

    from kinghill.experiments.training import PositionConfig, TrainConfig, train, train_value
    from kinghill.experiments.training import train_position

    result = train(TrainConfig(out=Path("runs/ppo"), steps=20_000))   # or an RLlibConfig
    report = train_value(2000, Path("value.npz"))
    run = train_position(PositionConfig(out=Path("runs/position"), iterations=2, jobs=2))

Errors are :class:`TrainingError` (a :class:`ConfigError` for a configuration that cannot be
trained), naming the parameter at fault; Ctrl-C raises :class:`TrainingInterrupted` once the
model is saved, and ``train(config, resume=True)`` goes on from there.
"""

from kinghill.experiments.training.config import (
    ConfigError,
    RLlibConfig,
    TrainConfig,
    TrainingError,
    TrainingInterrupted,
)
from kinghill.experiments.training.position_iteration import PositionConfig, train_position
from kinghill.experiments.training.result import TrainResult
from kinghill.experiments.training.run import train
from kinghill.experiments.training.value_training import train_value

__all__ = [
    "ConfigError",
    "PositionConfig",
    "RLlibConfig",
    "TrainConfig",
    "TrainResult",
    "TrainingError",
    "TrainingInterrupted",
    "train",
    "train_position",
    "train_value",
]
