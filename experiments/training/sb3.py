"""A Stable-Baselines3 run: PPO, SAC or MaskablePPO on the SB3 wrappers of
``KingOfTheHill-v0``, against a built-in agent or a pool of the learner's own snapshots
(:mod:`.selfplay`, :mod:`.league`), the environments in worker processes.

Outputs in ``DIR``: ``final.zip`` (the model; ``interrupted.zip`` after Ctrl-C) with
``final.json`` (how to load it), checkpoints under ``checkpoints/``, logs under ``tb/``
(TensorBoard when it is installed, CSV always), episodes under ``monitor/``,
``learning_curve.png`` and ``run.json`` (configuration, wall time, last curve values). A run
that was interrupted goes on from its newest saved model (``resume=True``): the step count and
the curve carry on, the later sessions' logs beside the first's.
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
from stable_baselines3.common.callbacks import ProgressBarCallback

from kinghill.agents.masked_policy import MaskedMenuPolicy
from kinghill.envs.planning import warm_up
from kinghill.experiments.training.algorithms import algorithm
from kinghill.experiments.training.config import (
    POOLED,
    ConfigError,
    TrainConfig,
    TrainingInterrupted,
)
from kinghill.experiments.training.curve import CURVE_FILE, plot_learning_curve
from kinghill.experiments.training.environments import MONITOR_DIR, EnvFactory
from kinghill.experiments.training.masks import MasksFromInfos
from kinghill.experiments.training.result import TrainResult, session_of, write_run
from kinghill.experiments.training.split_vec import SplitVecEnv
from kinghill.experiments.training.win_rate import EVALUATIONS_FILE

MODEL_FILE = "final.zip"
MODEL_META = "final.json"
INTERRUPTED_FILE = "interrupted.zip"
CHECKPOINTS_DIR = "checkpoints"
ADAM = {"eps": 1e-5, "fused": True}
"""PPO's optimiser: SB3's Adam (its ``eps``) in torch's fused form, the same algorithm in one
kernel: on one CPU thread the default steps a small network's dozen tensors one by one."""


def vectorization(config: TrainConfig) -> str:
    """How the run's envs are stepped: ``config.vectorization``, "auto" resolved: "sb3" with a
    core for every env and the trainer, "split" with a core for every env (env 0 steps in the
    trainer's process while the others step in workers), else "in-process"."""
    if config.vectorization != "auto":
        return config.vectorization
    cores = os.cpu_count() or 1
    if config.envs > 1 and cores > config.envs:
        return "sb3"
    return "split" if config.envs > 1 and cores == config.envs else "in-process"


def evaluation(config: TrainConfig) -> str:
    """Where the run's evaluations play: ``config.evaluation``, "auto" resolved ("background"
    where a core is left beside the trainer and its ``sb3`` env workers; a split vector env's
    worker is not counted: an evaluation, a second or so every few thousand steps, shares its
    core while it plays, which ``benchmarks/training/results.md`` measured)."""
    if config.evaluation != "auto":
        return config.evaluation
    sb3_workers = vectorization(config) == "sb3" and config.envs > 1
    busy = config.envs + 1 if sb3_workers else 1
    return "background" if (os.cpu_count() or 1) > busy else "inline"


def make_vec_env(config: TrainConfig, session: int = 0) -> Any:
    """The run's vector env: ``DummyVecEnv`` for one env or in-process (:func:`vectorization`),
    :class:`~.split_vec.SplitVecEnv` split, else ``SubprocVecEnv`` (or ``gymnasium.make_vec(...,
    "async")`` adapted for SB3 with ``vectorization="gymnasium"``);
    masked envs' masks read off their steps (:class:`~.masks.MasksFromInfos`)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    warm_up()  # a cold compile of the kernels announced here, once, not silently or per worker
    mode = vectorization(config)
    if mode == "gymnasium":
        from kinghill.experiments.training.vector import make_gymnasium_vec

        return make_gymnasium_vec(config, session)
    in_worker = config.envs > 1 and mode != "in-process"
    fns: list[Callable[[], gym.Env[Any, Any]]] = [
        EnvFactory(config, rank, in_worker and (rank > 0 or mode != "split"), session)
        for rank in range(config.envs)
    ]
    if in_worker and mode == "split":
        vec: Any = SplitVecEnv(fns)
    elif in_worker:
        vec = SubprocVecEnv(fns)
    else:
        vec = DummyVecEnv(fns)
    return MasksFromInfos(vec) if config.action == "masked" else vec


def make_model(config: TrainConfig, env: Any, start: Path | None = None) -> Any:
    """The run's model on ``env``: loaded from ``start`` (a resumed run) or ``config.init``,
    else a fresh one with the run's network and step sizes (and the process's torch threads
    set to ``config.torch_threads``)."""
    import torch

    torch.set_num_threads(config.torch_threads)
    if start is None and config.init is not None and not Path(config.init).is_file():
        raise ConfigError(f"no checkpoint at {config.init}", "init")  # SB3 would add .zip
    if start is not None or config.init is not None:
        model = algorithm(config.algo).load(start or config.init, env=env, device="cpu")
        model.set_random_seed(config.seed)
        return model
    common: dict[str, Any] = {
        "learning_rate": config.learning_rate,
        "batch_size": config.batch_size,
        "seed": config.seed,
        "device": "cpu",
        "verbose": 0,
    }
    if config.algo in ("ppo", "maskable-ppo"):
        net = {
            "net_arch": {"pi": list(config.net), "vf": list(config.net)},
            "optimizer_kwargs": dict(ADAM),
        }
        return algorithm(config.algo)(
            MaskedMenuPolicy if config.algo == "maskable-ppo" else "MlpPolicy",
            env,
            n_steps=config.n_steps,
            ent_coef=config.ent_coef,
            policy_kwargs=net,
            **common,
        )
    learning_starts = min(1_000, config.steps // 10)
    net = {"net_arch": {"pi": list(config.net), "qf": list(config.net)}}
    return algorithm("sac")(
        "MlpPolicy", env, learning_starts=learning_starts, policy_kwargs=net, **common
    )


def resume_point(out: Path) -> Path:
    """The newest model a run saved: ``interrupted.zip``, its last checkpoint or ``final.zip``.

    :raises ConfigError: (``out``) the folder holds none.
    """
    saved = [out / INTERRUPTED_FILE, out / MODEL_FILE, *(out / CHECKPOINTS_DIR).glob("*.zip")]
    found = [path for path in saved if path.is_file()]
    if not found:
        raise ConfigError(f"{out} holds no {INTERRUPTED_FILE}, checkpoint or model to go on from",
                          "out")  # fmt: skip
    return max(found, key=lambda path: path.stat().st_mtime)


def _logger(folder: Path) -> Any:
    """SB3 logger writing CSV, plus TensorBoard when it is importable."""
    from stable_baselines3.common.logger import configure

    formats = ["csv"]
    try:
        import tensorboard  # noqa: F401

        formats.append("tensorboard")
    except ImportError:
        pass
    return configure(str(folder), formats)


def _callbacks(config: TrainConfig) -> list[Any]:
    """The callbacks of ``learn``: the progress bar, the time limit, checkpoints, snapshots
    of the learner for its opponents, evaluations."""
    from stable_baselines3.common.callbacks import CheckpointCallback

    out: list[Any] = [ProgressBarCallback()] if config.progress else []
    if config.time_limit is not None:
        from kinghill.experiments.training.time_limit import WallClockLimit

        out.append(WallClockLimit(config.time_limit))
    if config.checkpoint_every > 0:
        out.append(
            CheckpointCallback(
                save_freq=max(config.checkpoint_every // config.envs, 1),
                save_path=str(Path(config.out) / CHECKPOINTS_DIR),
                name_prefix=config.algo,
            )
        )
    if config.opponent in POOLED:
        from kinghill.experiments.training.selfplay import SnapshotCallback

        out.append(SnapshotCallback(config.out, config.refresh))
    if config.eval_every > 0:
        from kinghill.experiments.training.win_rate import WinRateEval

        out.append(
            WinRateEval(
                config.out,
                config.action,
                config.eval_opponent,
                config.eval_frames,
                config.eval_every,
                noise=config.noise,
                noise_scale=config.noise_scale,
                background=evaluation(config) == "background",
            )
        )
    return out


def train_sb3(config: TrainConfig, resume: bool = False) -> TrainResult:
    """Train as ``config`` says; save the model, its load note, the curve and ``run.json``.

    :param resume: go on with the run in ``config.out`` from its newest saved model (see
        :func:`resume_point`) up to ``config.steps`` in all.
    :raises TrainingInterrupted: Ctrl-C; the model was saved as ``interrupted.zip`` first.
    """
    out = Path(config.out)
    start_from = resume_point(out) if resume else None
    learnt = 0 if start_from is None else _steps_learnt(start_from)
    steps = config.steps - learnt
    if steps < 1:  # before the session is counted or its logs begun
        raise ConfigError(f"the run has learnt {learnt} steps already; ask for more", "steps")
    session = session_of(out) if resume else 0
    out.mkdir(parents=True, exist_ok=True)
    write_run(out, config, None, session + 1)
    start = time.perf_counter()
    env = make_vec_env(config, session)
    try:
        model = make_model(config, env, start_from)
        model.set_logger(_logger(out / "tb" / (f"s{session}" if session else "")))
        warm = _warm_start(config, model) if start_from is None else {}
        if config.opponent in POOLED:
            from kinghill.experiments.training.selfplay import pool_folder, save_snapshot, snapshots

            if not snapshots(pool_folder(out)):
                save_snapshot(model, out, 0)  # the pool is never empty
        callbacks = _callbacks(config)
        try:
            model.learn(
                total_timesteps=steps,
                callback=callbacks,
                reset_num_timesteps=start_from is None,
            )
        except KeyboardInterrupt:
            from kinghill.experiments.training.win_rate import WinRateEval

            inner = getattr(env, "unwrapped", env)  # the SubprocVecEnv under any wrapper
            if getattr(inner, "waiting", False):
                # Ctrl-C inside SubprocVecEnv.step_wait, maybe after some workers' results were
                # read: close() would wait for those again, forever; the workers just close
                inner.waiting = False
            for callback in callbacks:
                if isinstance(callback, ProgressBarCallback):
                    callback.on_training_end()  # the bar ends before the line that says why
                if isinstance(callback, WinRateEval):
                    callback.abandon()  # evaluations still playing in the background
            model.save(out / INTERRUPTED_FILE)  # what was learnt so far is kept
            raise TrainingInterrupted(out, out / INTERRUPTED_FILE, model.num_timesteps) from None
        model.save(out / MODEL_FILE)
    finally:
        env.close()
    (out / INTERRUPTED_FILE).unlink(missing_ok=True)  # the run went on past it
    wall = time.perf_counter() - start
    meta = {"algo": config.algo, "action": config.action}
    (out / MODEL_META).write_text(json.dumps(meta, indent=2) + "\n")
    curve = plot_learning_curve(
        out / MONITOR_DIR,
        out / CURVE_FILE,
        title=_title(config),
        evaluations=out / EVALUATIONS_FILE,
        eval_label=f"eval vs {config.eval_opponent} ({config.eval_frames} frames)",
    )
    result = TrainResult(
        model=out / MODEL_FILE,
        curve=out / CURVE_FILE,
        wall_seconds=wall,
        episodes=curve.episodes,
        final_reward_mean=curve.last_reward_mean,
        final_win_rate=curve.last_win_rate,
        extra={"warm_start": warm} if warm else {},
    )
    if config.time_limit is not None and model.num_timesteps < config.steps:
        result.extra["time_limit_stop"] = [model.num_timesteps, config.steps, "steps"]
    write_run(out, config, result, session + 1)
    return result


def _steps_learnt(checkpoint: Path) -> int:
    """The steps the model saved in ``checkpoint`` has learnt (SB3 keeps them in its data)."""
    with zipfile.ZipFile(checkpoint) as archive:
        return int(json.loads(archive.read("data")).get("num_timesteps", 0))


def _warm_start(config: TrainConfig, model: Any) -> dict[str, float]:
    """Imitate the heuristic before learning when ``config.warm_start`` asks it; what it did."""
    if not config.warm_start:
        return {}
    from kinghill.experiments.training.warm_start import demonstrations, pretrain

    data = demonstrations(config.warm_start, seed=config.seed + 1_000_000)
    return {"decisions": len(data), **pretrain(model, data, seed=config.seed)}


def _title(config: TrainConfig) -> str:
    return (
        f"{config.algo.upper()} ({config.action}) vs {config.opponent}, "
        f"{config.envs} env(s), seed {config.seed}"
    )
