"""``kinghill train --backend rllib``: PPO by self-play on the two-player shot-menu AEC env
(:mod:`kinghill.envs.rl.masked_aec`) through RLlib's PettingZoo support, on a local Ray instance or
a cluster (the ``rllib`` extra).

Both seats play one shared policy (``policies="shared"``) or one policy each
(``policies="per-seat"``); the action mask is honoured by
:class:`~kinghill.agents.rllib_module.MaskedMenuModule`. Env runners (``envs``) sample frames,
on the cluster's nodes when ``ray_address`` names one; the learner runs here.

Outputs in ``DIR``, as the SB3 path lays them out: ``final/`` (the RLlib checkpoint; load it with
``rllib:DIR/final``) with ``final.json``, ``checkpoints/iter_NNNNNN/``, ``tb/progress.csv`` (one
row per iteration), ``evaluations.csv`` (when evaluating), ``learning_curve.png`` and
``run.json``. There is no ``monitor/``: episodes end on the env runners, perhaps on other
machines, and are counted there per iteration.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import socket
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.envs import RewardWeights
from kinghill.experiments.cli.app import CommandError, UsageError

ENV_NAME = "kinghill_masked_aec"
"""The name the env is registered under with Ray Tune's registry."""
POLICIES = ("shared", "per-seat")
"""One policy for both seats, or one per seat."""
SEATS = ("player_0", "player_1")
SAMPLE_TIMEOUT_S = 600.0
"""How long an iteration waits for its env runners' steps. RLlib's default (60 s) returned
empty iterations on the loaded 2-core machine; a runner that is stuck still ends the wait."""
WINDOW = 100
"""Frames over which the curve's means run (RLlib's default for the episode returns)."""
FINAL_DIR = "final"
CHECKPOINTS_DIR = "checkpoints"
PROGRESS_FILE = Path("tb") / "progress.csv"
PROGRESS_FIELDS = (
    "iteration",
    "env_steps",
    "episodes",
    "episode_len_mean",
    "return_mean",
    "won_player_0",
    "seconds",
)


@dataclass(frozen=True)
class RLlibConfig:
    """One RLlib training run.

    :param out: the run's folder (created).
    :param iterations: PPO iterations (each samples ``batch_steps`` env steps, then learns).
    :param envs: env runners (Ray actors, one CPU each).
    :param ray_address: the Ray cluster (``"auto"`` or ``"host:port"``); None starts a local
        instance for the run and stops it after.
    :param policies: ``"shared"`` (both seats one policy, self-play) or ``"per-seat"``.
    :param seed: seeds the learner, the env runners and the envs.
    :param batch_steps: env steps (decisions of both seats) sampled per iteration.
    :param minibatch_size: SGD minibatch.
    :param epochs: passes over each iteration's batch.
    :param net: hidden layer sizes of the policy and value networks.
    :param learning_rate: the optimiser's step size.
    :param ent_coef: PPO's entropy bonus.
    :param noise: execution noise on the shots.
    :param reward: the env's :class:`~kinghill.envs.RewardWeights` for both seats.
    :param checkpoint_every: iterations between checkpoints (0: none).
    :param eval_every: iterations between evaluations of the (first) policy against
        ``eval_opponent`` (0: none; else also before the first and after the last iteration).
    :param eval_opponent: the fixed opponent of the evaluations (an agent spec).
    :param eval_frames: frames per evaluation (even; seats alternate).
    :param time_limit: stop after this many minutes of wall time (the model is saved as at the
        end); None: run all ``iterations``.
    :param num_cpus: CPUs of a local instance (None: Ray counts them).
    :param progress: show a progress bar over the iterations.
    """

    out: Path
    iterations: int = 20
    envs: int = 2
    ray_address: str | None = None
    policies: str = "shared"
    seed: int = 0
    batch_steps: int = 1024
    minibatch_size: int = 128
    epochs: int = 4
    net: tuple[int, ...] = (64, 64)
    learning_rate: float = 3e-4
    ent_coef: float = 0.0
    noise: bool = True
    reward: RewardWeights = field(default_factory=RewardWeights)
    checkpoint_every: int = 10
    eval_every: int = 0
    eval_opponent: str = "heuristic"
    eval_frames: int = 40
    time_limit: float | None = None
    num_cpus: int | None = None
    progress: bool = False

    def __post_init__(self) -> None:
        if self.policies not in POLICIES:
            raise ValueError(f"policies must be one of {POLICIES}, got {self.policies!r}")
        if min(self.iterations, self.envs, self.batch_steps, self.minibatch_size, self.epochs) < 1:
            raise ValueError("iterations, envs, batch_steps, minibatch_size, epochs must be >= 1")
        if self.minibatch_size > self.batch_steps:
            raise ValueError(
                f"minibatch_size {self.minibatch_size} exceeds batch_steps {self.batch_steps}"
            )
        if not self.net or min(self.net) < 1:
            raise ValueError(f"net needs positive layer sizes, got {self.net}")
        if not (math.isfinite(self.ent_coef) and self.ent_coef >= 0):
            raise ValueError(f"ent_coef must be a finite number >= 0: {self.ent_coef}")
        if not (math.isfinite(self.learning_rate) and self.learning_rate > 0):
            raise ValueError(f"learning_rate must be positive: {self.learning_rate}")
        if self.checkpoint_every < 0 or self.eval_every < 0:
            raise ValueError("checkpoint_every and eval_every must be >= 0")
        if self.eval_frames < 2 or self.eval_frames % 2:
            raise ValueError("eval_frames must be an even number >= 2")
        if self.eval_every:
            from kinghill.agents import check_agent

            check_agent(self.eval_opponent)
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of minutes: {self.time_limit}")
        if self.num_cpus is not None and self.num_cpus < 1:
            raise ValueError(f"num_cpus must be >= 1: {self.num_cpus}")

    @property
    def module_ids(self) -> tuple[str, ...]:
        """The policies (RLModules) trained: ``("shared",)`` or the two seats."""
        return ("shared",) if self.policies == "shared" else SEATS


def require_rllib() -> None:
    """Raise :class:`UsageError` naming ``--backend`` when RLlib is not installed."""
    try:
        import ray.rllib  # noqa: F401
    except ImportError as error:
        raise UsageError(
            f"RLlib is not installed ({error}); pip install 'kinghill[rllib]'", "--backend"
        ) from None


SB3_ONLY = (
    "algo",
    "action",
    "league",
    "steps",
    "vectorization",
    "pool_size",
    "refresh",
    "n_steps",
    "init",
    "warm_start",
    "curriculum",
    "torch_threads",
)
"""``kinghill train`` arguments that only ``--backend sb3`` uses: a value other than the SB3
default with ``--backend rllib`` is an error (``--opponent`` may only be ``self``)."""


def config_from_args(args: argparse.Namespace) -> RLlibConfig:
    """The :class:`RLlibConfig` of ``kinghill train --backend rllib`` arguments.

    :raises UsageError: an argument of the SB3 path, or values that do not fit together.
    """
    from kinghill.experiments.training.train import TrainConfig

    sb3 = TrainConfig(out=args.out)
    for name in SB3_ONLY:
        default = None if name == "action" else getattr(sb3, name)  # --action's is per --algo
        if getattr(args, name) != default:
            option = "--" + name.replace("_", "-")
            raise UsageError("is for --backend sb3 (rllib trains PPO by self-play)", option)
    if args.opponent not in (None, "self"):
        raise UsageError("--backend rllib trains by self-play (--opponent self)", "--opponent")
    d = RLlibConfig(out=args.out)
    batch_steps = args.iteration_steps or d.batch_steps
    if args.batch_size > batch_steps:
        raise UsageError(
            f"a minibatch of {args.batch_size} is more than the {batch_steps} steps "
            "of an iteration (--iteration-steps)",
            "--batch-size",
        )
    return RLlibConfig(
        out=args.out,
        envs=args.envs,
        ray_address=None if args.ray in (None, "local") else args.ray,
        seed=args.seed,
        minibatch_size=args.batch_size,
        net=args.net,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        noise=not args.no_noise,
        reward=args.reward,
        eval_every=args.eval_every,
        eval_opponent=args.eval_opponent,
        eval_frames=args.eval_frames,
        time_limit=args.time_limit,
        progress=not args.no_progress and os.isatty(2),
        iterations=args.iterations or d.iterations,
        batch_steps=batch_steps,
        epochs=args.epochs or d.epochs,
        policies=args.policies or d.policies,
        checkpoint_every=(
            d.checkpoint_every if args.checkpoint_every is None else args.checkpoint_every
        ),
    )


# ---- the env and the algorithm -------------------------------------------------------------
def make_rllib_env(env_config: dict[str, Any]) -> Any:
    """The env of one env runner: the shot-menu AEC env in RLlib's ``PettingZooEnv``."""
    import torch
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from kinghill.envs.rl.masked_aec import masked_env

    torch.set_num_threads(1)  # an env runner's module is small; the cores run the physics
    return PettingZooEnv(
        masked_env(noise=env_config.get("noise", True), reward_weights=env_config.get("reward"))
    )


def shared_policy(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Both seats play the shared policy."""
    return "shared"


def own_policy(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Each seat plays its own policy, named after the seat."""
    return str(agent_id)


def frame_outcome_callbacks() -> type:
    """RLlib callbacks that log the share of the last :data:`WINDOW` frames won by
    ``player_0``."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class FrameOutcomes(RLlibCallback):
        def on_episode_end(
            self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any
        ) -> None:
            won = episode.get_infos(-1).get("player_0", {}).get("won")
            if won is not None and metrics_logger is not None:
                metrics_logger.log_value("won_player_0", float(won), reduce="mean", window=WINDOW)

    return FrameOutcomes


def algorithm_config(config: RLlibConfig) -> Any:
    """The RLlib ``PPOConfig`` of a run (new API stack, one local learner)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from kinghill.agents.rllib_module import MaskedMenuModule

    model = {"fcnet_hiddens": list(config.net), "fcnet_activation": "tanh"}
    specs = {
        mid: RLModuleSpec(module_class=MaskedMenuModule, model_config=model)
        for mid in config.module_ids
    }
    mapping = shared_policy if config.policies == "shared" else own_policy
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"noise": config.noise, "reward": config.reward})
        .env_runners(
            num_env_runners=config.envs,
            num_envs_per_env_runner=1,
            sample_timeout_s=SAMPLE_TIMEOUT_S,
        )
        .learners(num_learners=0)
        .multi_agent(policies=set(config.module_ids), policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            train_batch_size_per_learner=config.batch_steps,
            minibatch_size=config.minibatch_size,
            num_epochs=config.epochs,
            lr=config.learning_rate,
            entropy_coeff=config.ent_coef,
        )
        .callbacks(frame_outcome_callbacks())
        .debugging(seed=config.seed)
    )


# ---- the run -------------------------------------------------------------------------------
def train_rllib(config: RLlibConfig) -> Any:
    """Train as ``config`` says and write the run folder (see the module docstring); returns
    :class:`~kinghill.experiments.training.train.TrainResult`. A Ray instance is started here when
    ``config.ray_address`` is None and none is running, and stopped after."""
    import ray
    import torch
    from ray.tune.registry import register_env

    from kinghill.experiments.training.train import TrainResult, jsonable

    torch.set_num_threads(1)  # the learner's small networks; the cores run the env runners
    out = Path(config.out)
    start = time.perf_counter()
    started_here = not ray.is_initialized()
    if started_here:
        connect(config)
    out.mkdir(parents=True, exist_ok=True)
    try:
        register_env(ENV_NAME, make_rllib_env)
        algo = algorithm_config(config).build_algo()
        try:
            rows = _iterate(algo, config, out, start)
            algo.save_to_path(str((out / FINAL_DIR).resolve()))
        finally:
            algo.stop()
    finally:
        if started_here:
            ray.shutdown()
    wall = time.perf_counter() - start
    meta = {"backend": "rllib", "agent": f"rllib:{out / FINAL_DIR}", "policies": config.policies}
    (out / "final.json").write_text(json.dumps(meta, indent=2) + "\n")
    curve = _draw(config, out, rows)
    last = rows[-1] if rows else {}
    result = TrainResult(
        model=out / FINAL_DIR,
        curve=curve,
        wall_seconds=wall,
        episodes=int(sum(r["episodes"] for r in rows)),
        final_reward_mean=float(last.get("return_mean", math.nan)),
        final_win_rate=float(last.get("won_player_0", math.nan)),
        extra={"iterations": len(rows), "env_steps": int(last.get("env_steps", 0))},
    )
    record = {"config": jsonable(asdict(config)), "result": jsonable(asdict(result))}
    (out / "run.json").write_text(json.dumps(record, indent=2) + "\n")
    return result


def connect(config: RLlibConfig) -> None:
    """Start a local Ray instance, or join the cluster at ``config.ray_address``.

    :raises UsageError: (``--ray``) the cluster cannot be reached.
    :raises CommandError: a local instance cannot start.
    """
    import ray

    if config.ray_address not in (None, "auto"):
        reachable(config.ray_address)
    try:
        ray.init(
            address=config.ray_address,
            num_cpus=config.num_cpus if config.ray_address is None else None,
            include_dashboard=False,
            log_to_driver=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as error:
        if config.ray_address is None:
            raise CommandError(f"cannot start a local Ray instance: {error}") from None
        raise UsageError(
            f"cannot reach the Ray cluster at {config.ray_address!r}: {error}", "--ray"
        ) from None


def reachable(address: str, timeout: float = 5.0) -> None:
    """Check that ``HOST:PORT`` (``ray://`` allowed) accepts a connection, since Ray itself
    retries an unreachable address for minutes.

    :raises UsageError: (``--ray``) not ``HOST:PORT``, or nothing answers there.
    """
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise UsageError(f"{address!r} is not auto, local or HOST:PORT", "--ray")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise UsageError(f"no Ray cluster answers at {address}: {error}", "--ray") from None


def _iterate(algo: Any, config: RLlibConfig, out: Path, start: float) -> list[dict[str, float]]:
    """The training loop: iterations, checkpoints, evaluations, the progress rows."""
    from tqdm import tqdm

    rows: list[dict[str, float]] = []
    deadline = None if config.time_limit is None else start + 60 * config.time_limit
    evaluate_now = config.eval_every > 0
    if evaluate_now:
        _evaluate(algo, config, out, 0)
    bar = tqdm(total=config.iterations, unit="it", disable=not config.progress)
    try:
        for k in range(1, config.iterations + 1):
            row = progress_row(k, algo.train(), time.perf_counter() - start)
            rows.append(row)
            _write_progress(out / PROGRESS_FILE, row)
            bar.update(1)
            bar.set_postfix(steps=int(row["env_steps"]), ret=f"{row['return_mean']:.2f}")
            if config.checkpoint_every and k % config.checkpoint_every == 0:
                algo.save_to_path(str((out / CHECKPOINTS_DIR / f"iter_{k:06d}").resolve()))
            out_of_time = deadline is not None and time.perf_counter() > deadline
            last = k == config.iterations or out_of_time
            if evaluate_now and (k % config.eval_every == 0 or last):
                _evaluate(algo, config, out, int(row["env_steps"]))
            if out_of_time:
                break
    finally:
        bar.close()
    return rows


def progress_row(iteration: int, result: dict[str, Any], seconds: float) -> dict[str, float]:
    """One row of ``tb/progress.csv`` from an iteration's RLlib result: lifetime env steps,
    episodes and their mean length this iteration, the mean return per seat, and the share of
    frames ``player_0`` won (NaN when no episode ended)."""
    runners = result.get("env_runners", {})
    returns = runners.get("agent_episode_returns_mean", {})
    seat_returns = [float(returns[s]) for s in SEATS if s in returns]
    return {
        "iteration": iteration,
        "env_steps": float(runners.get("num_env_steps_sampled_lifetime", 0)),
        "episodes": float(runners.get("num_episodes", 0)),
        "episode_len_mean": float(runners.get("episode_len_mean", math.nan)),
        "return_mean": float(np.mean(seat_returns)) if seat_returns else math.nan,
        "won_player_0": float(runners.get("won_player_0", math.nan)),
        "seconds": seconds,
    }


def _write_progress(path: Path, row: dict[str, float]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, PROGRESS_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def _evaluate(algo: Any, config: RLlibConfig, out: Path, steps: int) -> None:
    """Evaluate the first policy's deterministic play against the fixed opponent; append the
    row to ``evaluations.csv``."""
    from kinghill.agents.rllib_agent import RLlibAgent
    from kinghill.experiments.training.evaluation import EVALUATIONS_FILE, evaluate, write_row

    module = algo.get_module(config.module_ids[0])
    module.eval()
    result = evaluate(
        RLlibAgent.of_module(module), config.eval_opponent, config.eval_frames, 10_000, config.noise
    )
    module.train()
    write_row(out / EVALUATIONS_FILE, steps, result)


def _draw(config: RLlibConfig, out: Path, rows: list[dict[str, float]]) -> Path:
    """``learning_curve.png`` from the progress rows and the evaluations, by the SB3 path's
    plotting code."""
    from kinghill.experiments.training.evaluation import EVALUATIONS_FILE
    from kinghill.experiments.training.train import CURVE_FILE, Curve, draw_learning_curve

    curve = Curve(
        steps=np.array([r["env_steps"] for r in rows]),
        reward_mean=np.array([r["return_mean"] for r in rows]),
        win_rate=np.array([r["won_player_0"] for r in rows]),
    )
    path = out / CURVE_FILE
    draw_learning_curve(
        curve,
        path,
        title=f"RLlib PPO self-play ({config.policies} policy), {config.envs} env runner(s), "
        f"seed {config.seed}",
        evaluations=out / EVALUATIONS_FILE,
        eval_label=f"eval vs {config.eval_opponent} ({config.eval_frames} frames)",
        reward_label=f"episode reward per seat (mean of last {WINDOW})",
        win_label=f"frames won by player_0 (last {WINDOW})",
    )
    return path
