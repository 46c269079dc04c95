"""One entry point for both backends: :func:`train` runs a :class:`TrainConfig` on
Stable-Baselines3 or an :class:`RLlibConfig` on RLlib; :func:`saved_config` reads a run's
configuration back to resume it."""

from __future__ import annotations

import shutil
from dataclasses import fields
from pathlib import Path
from typing import Any

from kinghill.envs import RewardWeights
from kinghill.experiments.training.config import (
    ConfigError,
    RLlibConfig,
    TrainConfig,
    TrainingInterrupted,
)
from kinghill.experiments.training.result import TrainResult, read_run


def train(config: TrainConfig | RLlibConfig, resume: bool = False) -> TrainResult:
    """Train as ``config`` says and write its run folder, ``config.out``: PPO, SAC or
    MaskablePPO on Stable-Baselines3 (a :class:`TrainConfig`), or PPO by self-play on RLlib
    (an :class:`RLlibConfig`, the ``rllib`` extra).

    :param resume: go on with the interrupted (or finished) run in ``config.out`` from its
        newest saved model, the step count, the curve and ``run.json`` carried on.
    A new run that fails having saved nothing to go on from (a bad opponent, a missing file,
    Ctrl-C before the first model) takes away what it wrote in ``config.out`` (``run.json``,
    its logs), so that the corrected command can start there; what the folder held before is
    kept.

    :raises ConfigError: a configuration that cannot be trained, naming the parameter; a new
        run (not ``resume``) in a folder that holds a run already (``out``), whose curve,
        evaluations and best model the new one would mix with its own.
    :raises TrainingError: a run that cannot go on for another reason.
    :raises TrainingInterrupted: Ctrl-C; what was learnt is saved and the run can be resumed.
    """
    if resume:
        _check_same_run(config)
        return _backend(config, resume)
    out = Path(config.out)
    _check_unused(out)
    found = set(out.iterdir()) if out.is_dir() else None
    try:
        return _backend(config, resume)
    except TrainingInterrupted:
        raise  # it saved what it had learnt: --resume goes on with it
    except BaseException:
        if not _resumable(config):
            _take_back(out, found)
        raise


def _backend(config: TrainConfig | RLlibConfig, resume: bool) -> TrainResult:
    if isinstance(config, RLlibConfig):
        from kinghill.experiments.training.rllib_train import train_rllib

        return train_rllib(config, resume)
    from kinghill.experiments.training.sb3 import train_sb3

    return train_sb3(config, resume)


def _resumable(config: TrainConfig | RLlibConfig) -> bool:
    """Whether the run in ``config.out`` saved a model or checkpoint to go on from."""
    if isinstance(config, RLlibConfig):
        from kinghill.experiments.training.rllib_train import resume_point
    else:
        from kinghill.experiments.training.sb3 import resume_point
    try:
        resume_point(Path(config.out))
    except ConfigError:
        return False
    return True


def _take_back(out: Path, found: set[Path] | None) -> None:
    """Remove what a failed start wrote in ``out``: every entry but those ``found`` before it
    (None: the folder did not exist, and goes too)."""
    if not out.is_dir():
        return
    if found is None:
        shutil.rmtree(out, ignore_errors=True)
        return
    for entry in set(out.iterdir()) - found:
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


RUN_MARKS = ("run.json", "evaluations.csv", "final.zip", "interrupted.zip", "interrupted",
             "checkpoints", "monitor", "tb")  # fmt: skip
"""What a training run leaves in its folder, either backend, from its first steps on."""


def _check_unused(out: Path) -> None:
    """Refuse a new run in a folder that holds one (see :data:`RUN_MARKS`)."""
    found = [name for name in RUN_MARKS if (out / name).exists()]
    if found:
        raise ConfigError(
            f"{out} holds a run already ({', '.join(found)}): --resume {out} goes on with it, a "
            "new run needs another --out (or the old folder removed)",
            "out",
        )


RESUME_CHANGES = ("steps", "iterations", "time_limit", "progress")
"""What a resumed run may be given anew; the rest of its configuration is the run's own."""


def _check_same_run(config: TrainConfig | RLlibConfig) -> None:
    """``config`` is the run's own in ``config.out`` but for :data:`RESUME_CHANGES`.

    :raises ConfigError: (the first field that differs) a resume with other settings would
        go on with another run's model, or fail inside the backend (another action space).
    """
    saved = saved_config(Path(config.out))
    if type(saved) is not type(config):
        raise ConfigError(f"{config.out} holds a {type(saved).__name__} run", "out")
    for field in fields(config):
        if field.name in (*RESUME_CHANGES, "out"):
            continue
        mine, theirs = getattr(config, field.name), getattr(saved, field.name)
        if mine != theirs:
            raise ConfigError(
                f"the run was trained with {theirs!r}, not {mine!r}; a resume changes only "
                f"{', '.join(RESUME_CHANGES)}",
                field.name,
            )


def saved_config(out: Path) -> TrainConfig | RLlibConfig:
    """The configuration a run in ``out`` was started with, read back from its ``run.json``
    (to resume it).

    :raises ConfigError: (``out``) there is no ``run.json`` there, or it does not hold a
        configuration of either backend.
    """
    record = read_run(out).get("config")
    if not isinstance(record, dict):
        raise ConfigError(f"{out} holds no run.json of a training run", "out")
    kind = RLlibConfig if "iterations" in record else TrainConfig
    known = {f.name for f in fields(kind)}
    values: dict[str, Any] = {k: v for k, v in record.items() if k in known}
    values["out"] = Path(out)
    values["net"] = tuple(values.get("net", ()))
    values["reward"] = RewardWeights(**values.get("reward", {}))
    if kind is TrainConfig:
        values["league"] = tuple(values.get("league", ()))
        values["init"] = None if values.get("init") is None else Path(values["init"])
    try:
        return kind(**values)
    except TypeError as error:
        raise ConfigError(f"{out}/run.json does not hold a configuration: {error}", "out") from None
