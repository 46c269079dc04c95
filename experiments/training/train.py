"""``kinghill train``: PPO or SAC on the Stable-Baselines3 wrappers of ``KingOfTheHill-v0``.

The learner plays against a built-in agent (random, heuristic, search, ``policy:PATH``) or, with
``--opponent self``, against a pool of its own frozen earlier snapshots
(:mod:`kinghill.experiments.training.selfplay`). Environments run in worker processes; every
episode is logged by SB3's ``Monitor`` under ``DIR/monitor``, from which the learning curve is
drawn.

``--backend rllib`` trains by self-play on RLlib instead
(:mod:`kinghill.experiments.training.rllib_train`).

Outputs in ``DIR``: ``final.zip`` (the model; ``interrupted.zip`` after Ctrl-C) with
``final.json`` (how to load it), checkpoints under ``checkpoints/``, logs under ``tb/``
(TensorBoard when it is installed, CSV always), ``learning_curve.png`` and ``run.json``
(configuration, wall time, last curve values).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from kinghill.agents import check_agent, make_agent
from kinghill.envs import RewardWeights
from kinghill.envs.rl.curriculum import CURRICULA, Curriculum
from kinghill.envs.rl.wrappers import ACTIONS
from kinghill.experiments.cli.app import (
    UsageError,
    agent_name,
    int_list,
    non_negative_int,
    output_dir,
    positive_float,
    positive_int,
    seed,
)
from kinghill.experiments.training.rllib_train import RLlibConfig

BACKENDS = ("sb3", "rllib")
"""``--backend``: Stable-Baselines3 here, or RLlib (:mod:`.rllib_train`)."""
RLLIB_ONLY = ("ray", "iterations", "iteration_steps", "epochs", "policies")
"""Arguments of ``--backend rllib`` alone (None unless given)."""
RLLIB_DEFAULTS = RLlibConfig(out=Path("."))
ALGORITHMS = ("ppo", "sac", "maskable-ppo")
"""PPO and SAC (Stable-Baselines3) on the ``Box`` actions; MaskablePPO (sb3-contrib) on the
masked discrete action."""
SELF_PLAY = "self"
"""The ``--opponent`` that trains against the learner's own frozen snapshots."""
LEAGUE = "league"
"""The ``--opponent`` that trains against a league: built-in agents and snapshots, by PFSP."""
POOLED = (SELF_PLAY, LEAGUE)
"""Opponents that keep a pool of the learner's snapshots."""
SAVED_BY = {"PPO": "ppo", "SAC": "sac", "MaskablePPO": "maskable-ppo"}
"""``--algo`` of each algorithm a checkpoint may be saved by."""
MONITOR_DIR = "monitor"
MONITOR_KEYS = ("won",)
"""Keys of the last ``info`` of an episode that ``Monitor`` logs (see :class:`FrameOutcome`)."""
CURVE_FILE = "learning_curve.png"
MODEL_FILE = "final.zip"
MODEL_META = "final.json"
INTERRUPTED_FILE = "interrupted.zip"
EVALUATIONS_FILE = "evaluations.csv"


@dataclass(frozen=True)
class TrainConfig:
    """One training run.

    :param out: the run's folder (created).
    :param algo: "ppo", "sac" or "maskable-ppo".
    :param action: the SB3 action wrapper, "aim" (aim-assisted) or "flat" (PPO, SAC), or
        "masked" (:mod:`kinghill.envs.rl.masked`; MaskablePPO, and only it).
    :param opponent: an agent spec (``random``, ``policy:PATH``, ``mypkg.module:MyAgent``, ...;
        see :mod:`kinghill.agents.registry`) or "self" (self-play).
    :param steps: total environment steps (learner decisions) over all envs.
    :param envs: environments, each in its own worker process when more than one.
    :param seed: seeds the model and the environments (env k gets ``seed + k``).
    :param vectorization: "sb3" (``SubprocVecEnv``) or "gymnasium" (``gymnasium.make_vec``).
    :param checkpoint_every: steps between checkpoints (0: none).
    :param pool_size: self-play: how many of the latest snapshots the opponents draw from.
    :param refresh: self-play: steps between snapshots added to the pool.
    :param net: hidden layer sizes of the policy and value networks.
    :param n_steps: PPO rollout length per env.
    :param batch_size: minibatch size.
    :param learning_rate: the optimiser's step size.
    :param noise: execution noise on the shots (both players).
    :param torch_threads: threads of the learner's torch (small networks train fastest on one,
        and the env workers need the other cores).
    :param init: start from this saved model (same algo and action) instead of a fresh one,
        e.g. to go on against a stronger opponent; its hyperparameters are kept.
    :param progress: show SB3's progress bar.
    :param reward: the env's :class:`~kinghill.envs.RewardWeights`.
    :param eval_every: steps between evaluations against ``eval_opponent`` (0: none); see
        :mod:`kinghill.experiments.training.evaluation`.
    :param eval_opponent: the fixed opponent of the evaluations (an agent spec).
    :param eval_frames: frames per evaluation (even; seats alternate).
    :param league: the built-in agents of the league (``opponent="league"``), besides the
        learner's snapshots; see :mod:`kinghill.experiments.training.league`.
    :param time_limit: stop training after this many minutes of wall time (the model is saved
        and evaluated as at the end of ``steps``); None: run all ``steps``.
    :param ent_coef: PPO / MaskablePPO entropy bonus (keeps exploring after a warm start).
    :param warm_start: maskable-ppo: imitate the heuristic on this many frames of heuristic
        play before learning (:mod:`kinghill.experiments.training.warm_start`); 0: none.
    :param curriculum: a built-in curriculum of start positions (``"practice"``, see
        :mod:`kinghill.envs.rl.curriculum`) or None for full frames only.
    """

    out: Path
    algo: str = "ppo"
    action: str = "aim"
    opponent: str = "random"
    steps: int = 20_000
    envs: int = 2
    seed: int = 0
    vectorization: str = "sb3"
    checkpoint_every: int = 5_000
    pool_size: int = 5
    refresh: int = 5_000
    net: tuple[int, ...] = (64, 64)
    n_steps: int = 256
    batch_size: int = 128
    learning_rate: float = 3e-4
    noise: bool = True
    torch_threads: int = 1
    init: Path | None = None
    progress: bool = True
    reward: RewardWeights = field(default_factory=RewardWeights)
    eval_every: int = 0
    eval_opponent: str = "heuristic"
    eval_frames: int = 40
    curriculum: str | None = None
    league: tuple[str, ...] = ("heuristic",)
    time_limit: float | None = None
    warm_start: int = 0
    ent_coef: float = 0.0

    def __post_init__(self) -> None:
        if self.algo not in ALGORITHMS:
            raise ValueError(f"algo must be one of {ALGORITHMS}, got {self.algo!r}")
        if self.action not in ACTIONS:
            raise ValueError(f"action must be one of {ACTIONS}, got {self.action!r}")
        if (self.algo == "maskable-ppo") != (self.action == "masked"):
            raise ValueError("maskable-ppo trains the masked action (--action masked), and only it")
        if self.eval_every < 0 or self.eval_frames < 2 or self.eval_frames % 2:
            raise ValueError("eval_every must be >= 0 and eval_frames an even number >= 2")
        if self.eval_every:
            check_agent(self.eval_opponent)
        if not (math.isfinite(self.ent_coef) and self.ent_coef >= 0):
            raise ValueError(f"ent_coef must be a finite number >= 0: {self.ent_coef}")
        if self.warm_start < 0 or (self.warm_start and self.algo != "maskable-ppo"):
            raise ValueError("warm_start (frames, >= 0) is for maskable-ppo only")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of minutes: {self.time_limit}")
        if self.curriculum is not None and self.curriculum not in CURRICULA:
            raise ValueError(
                f"curriculum must be one of {sorted(CURRICULA)}, got {self.curriculum!r}"
            )
        if self.opponent == LEAGUE:
            for member in self.league:
                check_agent(member)
        elif self.opponent != SELF_PLAY:
            check_agent(self.opponent)  # AgentSpecError (a ValueError) names what is wrong
        if self.vectorization not in ("sb3", "gymnasium"):
            raise ValueError("vectorization must be 'sb3' or 'gymnasium'")
        if (
            min(
                self.steps,
                self.envs,
                self.pool_size,
                self.refresh,
                self.n_steps,
                self.torch_threads,
            )
            < 1
        ):
            raise ValueError(
                "steps, envs, pool_size, refresh, n_steps and torch_threads must be positive"
            )


@dataclass(frozen=True)
class TrainResult:
    """Where a run left its outputs, how long it took, and where its curve ended."""

    model: Path
    curve: Path
    wall_seconds: float
    episodes: int
    final_reward_mean: float
    final_win_rate: float
    extra: dict[str, Any] = field(default_factory=dict)


# ---- environments --------------------------------------------------------------------------
class FrameOutcome(gym.Wrapper[Any, Any, Any, Any]):
    """Puts ``won`` (1 for a frame won by the learner, else 0) in the last ``info`` of an
    episode, for the ``Monitor`` log and the learning curve."""

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            frame = self.env.unwrapped.game.frame  # type: ignore[attr-defined]
            info["won"] = float(frame.winner == 0)
        return obs, reward, terminated, truncated, info


def make_training_env(config: TrainConfig, rank: int, in_worker: bool) -> gym.Env[Any, Any]:
    """Env ``rank`` of a run: the SB3 wrapper, the run's opponent, the outcome record,
    and a ``Monitor`` writing ``DIR/monitor/<rank>.monitor.csv``."""
    from stable_baselines3.common.monitor import Monitor

    from kinghill.envs.rl.wrappers import make_sb3_env

    if in_worker:
        import torch

        torch.set_num_threads(1)  # workers only run small opponent policies
    env = make_sb3_env(
        config.action,
        opponent=training_opponent(config),
        noise=config.noise,
        reward_weights=config.reward,
    )
    if config.curriculum is not None:
        env = Curriculum(env, CURRICULA[config.curriculum], config.steps // config.envs)
    if config.opponent == LEAGUE:
        from kinghill.experiments.training.league import LeagueFeedback

        env = LeagueFeedback(env)
    monitor = Path(config.out) / MONITOR_DIR / str(rank)
    return Monitor(training_guards(env), str(monitor), info_keywords=MONITOR_KEYS)


def training_guards(env: gym.Env[Any, Any]) -> gym.Env[Any, Any]:
    """``env`` with :class:`FrameOutcome` around it."""
    return FrameOutcome(env)


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


def make_vec_env(config: TrainConfig) -> Any:
    """The run's vector env: ``DummyVecEnv`` for one env, else ``SubprocVecEnv`` (or
    ``gymnasium.make_vec(..., "async")`` adapted for SB3 with ``vectorization="gymnasium"``)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    if config.vectorization == "gymnasium":
        from kinghill.experiments.training.vector import make_gymnasium_vec

        return make_gymnasium_vec(config)
    in_worker = config.envs > 1
    fns: list[Callable[[], gym.Env[Any, Any]]] = [
        _EnvFactory(config, rank, in_worker) for rank in range(config.envs)
    ]
    if in_worker:
        return SubprocVecEnv(fns)
    return DummyVecEnv(fns)


@dataclass(frozen=True)
class _EnvFactory:
    """A picklable ``make_training_env`` call for a worker process."""

    config: TrainConfig
    rank: int
    in_worker: bool

    def __call__(self) -> gym.Env[Any, Any]:
        return make_training_env(self.config, self.rank, self.in_worker)


# ---- the model -----------------------------------------------------------------------------
def algorithm(name: str) -> Any:
    """The SB3 class of ``name`` ("ppo", "sac", or "maskable-ppo" from sb3-contrib)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO, SAC

    return {"ppo": PPO, "sac": SAC, "maskable-ppo": MaskablePPO}[name]


def make_model(config: TrainConfig, env: Any) -> Any:
    """A fresh PPO or SAC model on ``env`` with the run's network and step sizes (and the
    process's torch threads set to ``config.torch_threads``)."""
    import torch

    torch.set_num_threads(config.torch_threads)
    if config.init is not None:
        model = algorithm(config.algo).load(config.init, env=env, device="cpu")
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
        net = {"net_arch": {"pi": list(config.net), "vf": list(config.net)}}
        return algorithm(config.algo)(
            "MlpPolicy",
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
    from stable_baselines3.common.callbacks import CheckpointCallback

    out: list[Any] = []
    if config.time_limit is not None:
        from kinghill.experiments.training.time_limit import WallClockLimit

        out.append(WallClockLimit(config.time_limit))
    if config.checkpoint_every > 0:
        out.append(
            CheckpointCallback(
                save_freq=max(config.checkpoint_every // config.envs, 1),
                save_path=str(Path(config.out) / "checkpoints"),
                name_prefix=config.algo,
            )
        )
    if config.opponent in POOLED:
        from kinghill.experiments.training.selfplay import SnapshotCallback

        out.append(SnapshotCallback(config.out, config.refresh))
    if config.eval_every > 0:
        from kinghill.experiments.training.evaluation import WinRateEval

        out.append(
            WinRateEval(
                config.out,
                config.action,
                config.eval_opponent,
                config.eval_frames,
                config.eval_every,
                noise=config.noise,
            )
        )
    return out


def train(config: TrainConfig) -> TrainResult:
    """Train as ``config`` says; save the model, its load note, the curve and ``run.json``."""
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    env = make_vec_env(config)
    try:
        model = make_model(config, env)
        model.set_logger(_logger(out / "tb"))
        warm = {}
        if config.warm_start:
            from kinghill.experiments.training.warm_start import demonstrations, pretrain

            data = demonstrations(config.warm_start, seed=config.seed + 1_000_000)
            warm = {"decisions": len(data), **pretrain(model, data, seed=config.seed)}
        if config.opponent in POOLED:
            from kinghill.experiments.training.selfplay import save_snapshot

            save_snapshot(model, out, 0)  # the pool is never empty
        try:
            model.learn(
                total_timesteps=config.steps,
                callback=_callbacks(config),
                progress_bar=config.progress,
            )
        except KeyboardInterrupt:
            model.save(out / INTERRUPTED_FILE)  # what was learnt so far is kept
            raise
        model.save(out / MODEL_FILE)
    finally:
        env.close()
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
    record = {"config": jsonable(asdict(config)), "result": jsonable(asdict(result))}
    (out / "run.json").write_text(json.dumps(record, indent=2) + "\n")
    return result


def _title(config: TrainConfig) -> str:
    return (
        f"{config.algo.upper()} ({config.action}) vs {config.opponent}, "
        f"{config.envs} env(s), seed {config.seed}"
    )


def jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it: paths as text, tuples as lists, NaN and inf as null."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# ---- the learning curve --------------------------------------------------------------------
@dataclass(frozen=True)
class Curve:
    """Episode statistics along training, from the ``Monitor`` logs of every env."""

    steps: np.ndarray
    reward_mean: np.ndarray
    win_rate: np.ndarray

    @property
    def episodes(self) -> int:
        return len(self.steps)

    @property
    def last_reward_mean(self) -> float:
        return float(self.reward_mean[-1]) if self.episodes else math.nan

    @property
    def last_win_rate(self) -> float:
        return float(self.win_rate[-1]) if self.episodes else math.nan


def load_curve(monitor_dir: Path, window: int = 200) -> Curve:
    """Episodes of all envs in end-time order: cumulative steps, and the reward mean and win
    rate over the last ``window`` episodes (fewer at the start)."""
    rows = sorted(
        (row for path in sorted(Path(monitor_dir).glob("*.monitor.csv")) for row in _rows(path)),
        key=lambda row: float(row["t"]),
    )

    def column(key: str) -> np.ndarray:
        return np.array([float(row.get(key) or 0.0) for row in rows])

    steps = np.cumsum(column("l"))
    return Curve(
        steps=steps,
        reward_mean=_running_mean(column("r"), window),
        win_rate=_running_mean(column("won"), window),
    )


def _rows(path: Path) -> list[dict[str, str]]:
    """The episodes of one ``Monitor`` file (a JSON comment line, then CSV with a header)."""
    with path.open(newline="") as f:
        f.readline()
        return list(csv.DictReader(f))


def _running_mean(values: np.ndarray, window: int) -> np.ndarray:
    sums = np.cumsum(np.insert(values, 0, 0.0))
    ends = np.arange(1, len(values) + 1)
    starts = np.maximum(ends - window, 0)
    return (sums[ends] - sums[starts]) / (ends - starts)


def plot_learning_curve(
    monitor_dir: Path,
    path: Path,
    title: str = "",
    window: int = 200,
    evaluations: Path | None = None,
    eval_label: str = "evaluation",
) -> Curve:
    """Draw episode reward mean and win rate against steps into ``path``, with the evaluation
    win rates of ``evaluations`` (``evaluations.csv``, with their intervals) when it exists;
    return the curve."""
    curve = load_curve(monitor_dir, window)
    draw_learning_curve(
        curve,
        path,
        title,
        evaluations,
        eval_label,
        reward_label=f"episode reward (mean of last {window})",
        win_label="frames won (same window)",
    )
    return curve


def draw_learning_curve(
    curve: Curve,
    path: Path,
    title: str = "",
    evaluations: Path | None = None,
    eval_label: str = "evaluation",
    reward_label: str = "episode reward",
    win_label: str = "frames won",
) -> None:
    """Draw ``curve`` (reward on the left axis, win rate on the right) and the evaluations of
    ``evaluations`` with their intervals into ``path``; both training backends use it."""
    import matplotlib

    from kinghill.experiments.training.evaluation import load_evaluations

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, reward_axis = plt.subplots(figsize=(7, 4), dpi=120)
    reward_axis.plot(curve.steps, curve.reward_mean, color="tab:blue")
    reward_axis.set_xlabel("environment steps")
    reward_axis.set_ylabel(reward_label, color="tab:blue")
    win_axis = reward_axis.twinx()
    win_axis.plot(curve.steps, curve.win_rate, color="tab:green")
    win_axis.set_ylabel(win_label, color="tab:green")
    win_axis.set_ylim(0, 1)
    rows = load_evaluations(evaluations) if evaluations is not None else []
    if rows:
        x = [r["steps"] for r in rows]
        y = [r["win_rate"] for r in rows]
        err = [[r["win_rate"] - r["low"] for r in rows], [r["high"] - r["win_rate"] for r in rows]]
        win_axis.errorbar(x, y, yerr=err, color="tab:red", marker="o", ms=3, label=eval_label)
        win_axis.legend(loc="lower right", fontsize=7)
    reward_axis.set_title(title, fontsize=9)
    reward_axis.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# ---- the command ---------------------------------------------------------------------------
def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill train``."""
    d = TrainConfig(out=Path("."))
    parser = subparsers.add_parser(
        "train",
        help="train a PPO or SAC agent (against built-in agents or by self-play)",
        description=(
            "PPO or SAC on the aim-assisted (or flat) env against a built-in agent, a saved "
            "policy, or by self-play against a pool of its own frozen snapshots. Writes "
            "DIR/final.zip, DIR/checkpoints/, DIR/tb/ (CSV; TensorBoard when installed), "
            "DIR/monitor/, DIR/learning_curve.png and DIR/run.json. With --backend rllib: PPO by "
            "self-play on RLlib (the rllib extra), env runners on a local Ray instance or a "
            "cluster (--ray); DIR/final/ is the RLlib checkpoint (agent rllib:DIR/final)."
        ),
        epilog="examples: kinghill train --algo ppo --opponent random --steps 20000 "
        "--out runs/ppo; kinghill train --backend rllib --iterations 20 --envs 2 --out runs/rllib",
    )
    parser.add_argument("--out", type=output_dir, required=True, metavar="DIR", help="run folder")
    parser.add_argument(
        "--backend", choices=BACKENDS, default="sb3",
        help="sb3: Stable-Baselines3 / sb3-contrib against an opponent (default); rllib: RLlib "
        "PPO by self-play on the two-seat shot-menu env (the rllib extra; see --ray)",
    )  # fmt: skip
    parser.add_argument(
        "--algo", choices=ALGORITHMS, default=d.algo, help="the learning algorithm (default: ppo)"
    )
    parser.add_argument(
        "--action",
        choices=ACTIONS,
        help="action wrapper (default: masked for maskable-ppo, else aim)",
    )
    parser.add_argument(
        "--opponent",
        type=opponent_name,
        metavar="NAME",
        help="an agent spec (random, heuristic, search, policy:PATH, mypkg.module:MyAgent, an "
        "entry point of kinghill.agents), self (self-play) or league (--league agents and "
        "snapshots, sampled by PFSP) (default: random)",
    )
    parser.add_argument(
        "--league", type=agent_list, default=d.league, metavar="A,B",
        help=f"the league's built-in agents besides the snapshots (default: {','.join(d.league)})",
    )  # fmt: skip
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=d.steps,
        help=f"environment steps to learn for (default: {d.steps})",
    )
    parser.add_argument(
        "--envs",
        type=positive_int,
        default=d.envs,
        metavar="K",
        help="worker processes (default: 2)",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=d.seed,
        help="seed of the learner, the environments and the opponent (default: 0)",
    )
    parser.add_argument(
        "--vectorization",
        choices=("sb3", "gymnasium"),
        default=d.vectorization,
        help="SubprocVecEnv or gymnasium.make_vec async (default: sb3)",
    )
    parser.add_argument(
        "--checkpoint-every", type=non_negative_int, metavar="N",
        help=f"steps (sb3) or iterations (rllib) between checkpoints, 0 for none (default: "
        f"{d.checkpoint_every} steps, {RLLIB_DEFAULTS.checkpoint_every} iterations)",
    )  # fmt: skip
    parser.add_argument(
        "--pool-size", type=positive_int, default=d.pool_size, help="self-play pool (default: 5)"
    )
    parser.add_argument(
        "--refresh", type=positive_int, default=d.refresh, metavar="STEPS",
        help=f"self-play: steps between snapshots (default: {d.refresh})",
    )  # fmt: skip
    parser.add_argument("--net", type=int_list, default=d.net, help="hidden sizes (default: 64,64)")
    parser.add_argument(
        "--n-steps", type=positive_int, default=d.n_steps, help="PPO rollout per env"
    )
    parser.add_argument(
        "--batch-size",
        type=positive_int,
        default=d.batch_size,
        help=f"minibatch size of each gradient step (default: {d.batch_size})",
    )
    parser.add_argument(
        "--learning-rate",
        type=positive_float,
        default=d.learning_rate,
        help=f"the optimiser's step size (default: {d.learning_rate:g})",
    )
    parser.add_argument(
        "--torch-threads",
        type=positive_int,
        default=d.torch_threads,
        help="learner threads (default: 1)",
    )
    parser.add_argument(
        "--init", type=checkpoint, metavar="ZIP", help="start from this saved model (same --algo)"
    )
    parser.add_argument("--no-noise", action="store_true", help="exact shots (no noise)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--reward", type=reward_weights, default=d.reward, metavar="K=V,...",
        help="RewardWeights, e.g. white=0.2,foul=-0.5 (keys: white, foul, win, loss)",
    )  # fmt: skip
    parser.add_argument(
        "--eval-every", type=non_negative_int, default=d.eval_every, metavar="N",
        help="evaluate the deterministic policy every N steps (sb3) or iterations (rllib) "
        "(0: never; default 0)",
    )  # fmt: skip
    parser.add_argument(
        "--eval-opponent", type=agent_name, default=d.eval_opponent, metavar="NAME",
        help=f"the fixed opponent of the evaluations (default: {d.eval_opponent})",
    )  # fmt: skip
    parser.add_argument(
        "--eval-frames", type=even_frames, default=d.eval_frames, metavar="N",
        help=f"frames per evaluation, seats alternating (default: {d.eval_frames})",
    )  # fmt: skip
    parser.add_argument(
        "--ent-coef", type=entropy_coefficient, default=d.ent_coef,
        help="PPO entropy bonus (default 0)",
    )  # fmt: skip
    parser.add_argument(
        "--warm-start", type=non_negative_int, default=0, metavar="FRAMES",
        help="maskable-ppo: first imitate the heuristic on FRAMES frames of its play (default 0)",
    )  # fmt: skip
    parser.add_argument(
        "--time-limit", type=positive_float, metavar="MINUTES",
        help="stop training after MINUTES of wall time (the model is saved as at the end)",
    )  # fmt: skip
    parser.add_argument(
        "--curriculum", choices=sorted(CURRICULA),
        help="start episodes from a built-in curriculum of practice positions",
    )  # fmt: skip
    rllib = parser.add_argument_group("--backend rllib")
    rllib.add_argument(
        "--ray", metavar="ADDRESS",
        help="the Ray cluster for the env runners: auto, HOST:PORT, or local (default: local, "
        "a Ray instance started and stopped by the run)",
    )  # fmt: skip
    rllib.add_argument(
        "--iterations", type=positive_int, metavar="N",
        help=f"PPO iterations (default: {RLLIB_DEFAULTS.iterations})",
    )  # fmt: skip
    rllib.add_argument(
        "--iteration-steps", type=positive_int, metavar="STEPS",
        help=f"env steps (both seats) sampled per iteration (default: "
        f"{RLLIB_DEFAULTS.batch_steps})",
    )  # fmt: skip
    rllib.add_argument(
        "--epochs", type=positive_int,
        help=f"SGD passes over each iteration's steps (default: {RLLIB_DEFAULTS.epochs})",
    )  # fmt: skip
    rllib.add_argument(
        "--policies", choices=("shared", "per-seat"),
        help="one policy for both seats (default) or one per seat",
    )  # fmt: skip
    return parser


def opponent_name(text: str) -> str:
    """``--opponent``: ``self``, ``league``, or an agent name of the registry."""
    return text if text in POOLED else agent_name(text)


def checkpoint(text: str) -> Path:
    """``--init``: a saved SB3 model (``PATH`` or ``PATH.zip``), as the file that will be loaded."""
    from kinghill.agents.policy import find_checkpoint

    try:
        return find_checkpoint(text)
    except (OSError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def agent_list(text: str) -> tuple[str, ...]:
    """``--league``: comma-separated agent names of the registry."""
    return tuple(agent_name(name.strip()) for name in text.split(",") if name.strip())


def entropy_coefficient(text: str) -> float:
    """``--ent-coef``: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0 (got {text})")
    return value


def even_frames(text: str) -> int:
    """``--eval-frames``: an even number of frames, at least 2 (both seats equally)."""
    value = positive_int(text)
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"must be even, so that both seats play equally (got {value})"
        )
    return value


def reward_weights(text: str) -> RewardWeights:
    """``--reward``: ``RewardWeights`` from ``"white=0.2,foul=-0.5"`` (unnamed weights keep
    their defaults)."""
    try:
        return parse_reward(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parse_reward(text: str) -> RewardWeights:
    """``RewardWeights`` from ``"white=0.2,foul=-0.5"`` (unnamed weights keep their defaults)."""
    known = {f.name for f in fields(RewardWeights)}
    values: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in known:
            raise ValueError(f"{item!r} is not KEY=VALUE with KEY one of {sorted(known)}")
        try:
            values[key.strip()] = float(value)
        except ValueError:
            raise ValueError(f"{key.strip()}={value!r} is not a number") from None
    return RewardWeights(**values)


def run(args: argparse.Namespace) -> int:
    """Run ``kinghill train`` and print where the outputs are."""
    if args.backend == "rllib":
        from kinghill.experiments.training.rllib_train import (
            config_from_args,
            require_rllib,
            train_rllib,
        )

        rllib_config = config_from_args(args)
        require_rllib()
        return report(train_rllib(rllib_config))
    for name in RLLIB_ONLY:
        if getattr(args, name) is not None:
            raise UsageError("is for --backend rllib", "--" + name.replace("_", "-"))
    d = TrainConfig(out=args.out)
    action = args.action or ("masked" if args.algo == "maskable-ppo" else "aim")
    if (args.algo == "maskable-ppo") != (action == "masked"):
        raise UsageError("maskable-ppo trains the masked action, and only it", "--action")
    if args.init is not None:
        from kinghill.agents.policy import algorithm_of

        saved_by = algorithm_of(args.init)
        saved_algo = None if saved_by is None else SAVED_BY[saved_by]
        if saved_algo is not None and saved_algo != args.algo:
            raise UsageError(
                f"{args.init} was saved by {saved_by}; train it with --algo {saved_algo}",
                "--init",
            )
    config = TrainConfig(
        out=args.out,
        algo=args.algo,
        action=action,
        opponent=args.opponent or d.opponent,
        steps=args.steps,
        envs=args.envs,
        seed=args.seed,
        vectorization=args.vectorization,
        checkpoint_every=(
            d.checkpoint_every if args.checkpoint_every is None else args.checkpoint_every
        ),
        pool_size=args.pool_size,
        refresh=args.refresh,
        net=args.net,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        noise=not args.no_noise,
        torch_threads=args.torch_threads,
        init=args.init,
        progress=not args.no_progress and os.isatty(2),
        reward=args.reward,
        eval_every=args.eval_every,
        eval_opponent=args.eval_opponent,
        eval_frames=args.eval_frames,
        curriculum=args.curriculum,
        league=args.league,
        time_limit=args.time_limit,
        warm_start=args.warm_start,
        ent_coef=args.ent_coef,
    )
    return report(train(config))


def report(result: TrainResult) -> int:
    """Print where a run's outputs are (both backends)."""
    print(
        f"model {result.model} ({result.wall_seconds:.0f} s, {result.episodes} episodes); "
        f"last reward mean {result.final_reward_mean:.3f}, win rate {result.final_win_rate:.3f}; "
        f"curve {result.curve}"
    )
    return 0
