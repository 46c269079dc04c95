"""RLlib self-play: PPO on the two-player shot-menu AEC env
(:mod:`kinghill.envs.rl.masked_aec`) through RLlib's PettingZoo support, on a local Ray instance
or a cluster (the ``rllib`` extra).

Both seats play one shared policy (``policies="shared"``) or one policy each
(``policies="per-seat"``); the action mask is honoured by
:class:`~kinghill.agents.rllib_module.MaskedMenuModule`. Env runners (``envs``) sample frames,
on the cluster's nodes when ``ray_address`` names one; the learner runs here.

Outputs in ``DIR``, as the SB3 path lays them out: ``final/`` (the RLlib checkpoint; load it with
``rllib:DIR/final``; ``interrupted/`` after Ctrl-C) with ``final.json``,
``checkpoints/iter_NNNNNN/``, ``tb/progress.csv`` (one row per iteration), ``evaluations.csv``
(when evaluating), ``learning_curve.png`` and ``run.json``. There is no ``monitor/``: episodes
end on the env runners, perhaps on other machines, and are counted there per iteration. A run
that was interrupted goes on from its newest checkpoint (``resume=True``), its iterations and
progress rows carried on.
"""

from __future__ import annotations

import csv
import json
import math
import shutil
import socket
import time
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.experiments.training.config import (
    SEATS,
    ConfigError,
    RLlibConfig,
    TrainingError,
    TrainingInterrupted,
)
from kinghill.experiments.training.curve import CURVE_FILE, Curve, draw_learning_curve
from kinghill.experiments.training.result import TrainResult, session_of, write_run
from kinghill.experiments.training.win_rate import EVALUATIONS_FILE

ENV_NAME = "kinghill_masked_aec"
"""The name the env is registered under with Ray Tune's registry."""
SAMPLE_TIMEOUT_S = 600.0
"""How long an iteration waits for its env runners' steps. RLlib's default (60 s) returned
empty iterations on the loaded 2-core machine; a runner that is stuck still ends the wait."""
WINDOW = 100
"""Frames over which the curve's means run (RLlib's default for the episode returns)."""
FINAL_DIR = "final"
INTERRUPTED_DIR = "interrupted"
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


def require_rllib() -> None:
    """Raise :class:`ConfigError` (``backend``) when RLlib is not installed."""
    try:
        import ray.rllib  # noqa: F401
    except ImportError as error:
        raise ConfigError(
            f"RLlib is not installed ({error}); pip install 'kinghill[rllib]'", "backend"
        ) from None


# ---- the env and the algorithm -------------------------------------------------------------
def make_rllib_env(env_config: dict[str, Any]) -> Any:
    """The env of one env runner: the shot-menu AEC env in RLlib's ``PettingZooEnv``."""
    import torch
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from kinghill.envs.rl.masked_aec import masked_env

    torch.set_num_threads(1)  # an env runner's module is small; the cores run the physics
    return PettingZooEnv(
        masked_env(
            noise=env_config.get("noise", True),
            noise_scale=env_config.get("noise_scale", 1.0),
            reward_weights=env_config.get("reward"),
        )
    )


def shared_policy(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Both seats play the shared policy."""
    return "shared"


def own_policy(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Each seat plays its own policy, named after the seat."""
    return str(agent_id)


def won_share_callbacks() -> type:
    """RLlib callbacks that log the share of frames won by ``player_0``: RLlib reduces it once
    an iteration, so a row of ``tb/progress.csv`` holds that iteration's frames (at most
    :data:`WINDOW`), not a window over iterations."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class WonShare(RLlibCallback):
        def on_episode_end(
            self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any
        ) -> None:
            won = episode.get_infos(-1).get("player_0", {}).get("won")
            if won is not None and metrics_logger is not None:
                metrics_logger.log_value("won_player_0", float(won), reduce="mean", window=WINDOW)

    return WonShare


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
        .environment(
            ENV_NAME,
            env_config={
                "noise": config.noise,
                "noise_scale": config.noise_scale,
                "reward": config.reward,
            },
        )
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
        .callbacks(won_share_callbacks())
        .debugging(seed=config.seed)
    )


# ---- the run -------------------------------------------------------------------------------
def train_rllib(config: RLlibConfig, resume: bool = False) -> TrainResult:
    """Train as ``config`` says and write the run folder (see the module docstring). A Ray
    instance is started here when ``config.ray_address`` is None and none is running, and
    stopped after.

    :param resume: go on with the run in ``config.out`` from its newest checkpoint (see
        :func:`resume_point`) up to ``config.iterations`` in all.
    :raises TrainingInterrupted: Ctrl-C; the algorithm was saved in ``interrupted/`` first
        (or, if that failed, the last checkpoint is what is kept).
    """
    require_rllib()
    import ray
    import torch
    from ray.tune.registry import register_env

    torch.set_num_threads(1)  # the learner's small networks; the cores run the env runners
    out = Path(config.out)
    start_from = resume_point(out) if resume else None
    session = session_of(out) if resume else 0
    done = read_progress(out / PROGRESS_FILE) if resume else []
    if len(done) >= config.iterations:
        raise ConfigError(f"the run has trained {len(done)} iterations already; ask for more",
                          "iterations")  # fmt: skip
    start = time.perf_counter()
    started_here = not ray.is_initialized()
    if started_here:
        connect(config)
    out.mkdir(parents=True, exist_ok=True)
    write_run(out, config, None, session + 1)
    try:
        register_env(ENV_NAME, make_rllib_env)
        algo = algorithm_config(config).build_algo()
        try:
            if start_from is not None:
                algo.restore_from_path(str(start_from.resolve()))
            rows = _iterate(algo, config, out, start, done)
            algo.save_to_path(str((out / FINAL_DIR).resolve()))
            shutil.rmtree(out / INTERRUPTED_DIR, ignore_errors=True)  # the run went on past it
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
        extra={"iterations": len(rows), "env_steps": int(last.get("env_steps", 0))}
        | (
            {"time_limit_stop": [len(rows), config.iterations, "iterations"]}
            if config.time_limit is not None and len(rows) < config.iterations
            else {}
        ),
    )
    write_run(out, config, result, session + 1)
    return result


def resume_point(out: Path) -> Path:
    """The newest checkpoint of a run: ``interrupted/``, its last ``checkpoints/iter_*`` or
    ``final/``.

    :raises ConfigError: (``out``) the folder holds none.
    """
    saved = [out / INTERRUPTED_DIR, out / FINAL_DIR, *(out / CHECKPOINTS_DIR).glob("iter_*")]
    found = [path for path in saved if path.is_dir()]
    if not found:
        raise ConfigError(f"{out} holds no RLlib checkpoint to go on from", "out")
    return max(found, key=lambda path: path.stat().st_mtime)


def connect(config: RLlibConfig) -> None:
    """Start a local Ray instance, or join the cluster at ``config.ray_address``.

    :raises ConfigError: (``ray_address``) the cluster cannot be reached.
    :raises TrainingError: a local instance cannot start.
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
            raise TrainingError(f"cannot start a local Ray instance: {error}") from None
        raise ConfigError(
            f"cannot reach the Ray cluster at {config.ray_address!r}: {error}", "ray_address"
        ) from None


def reachable(address: str, timeout: float = 5.0) -> None:
    """Check that ``HOST:PORT`` (``ray://`` allowed) accepts a connection, since Ray itself
    retries an unreachable address for minutes.

    :raises ConfigError: (``ray_address``) not ``HOST:PORT``, or nothing answers there.
    """
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise ConfigError(f"{address!r} is not auto, local or HOST:PORT", "ray_address")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        raise ConfigError(f"no Ray cluster answers at {address}: {error}", "ray_address") from None


def _iterate(
    algo: Any, config: RLlibConfig, out: Path, start: float, done: list[dict[str, float]]
) -> list[dict[str, float]]:
    """The training loop after the iterations ``done`` (a resumed run's): iterations,
    checkpoints, evaluations, the progress rows (all of them, returned). Ctrl-C saves the
    algorithm in ``interrupted/`` and raises :class:`TrainingInterrupted`."""
    from tqdm import tqdm

    rows = list(done)
    deadline = None if config.time_limit is None else start + 60 * config.time_limit
    evaluate_now = config.eval_every > 0
    bar = tqdm(total=config.iterations, initial=len(rows), unit="it", disable=not config.progress)
    try:
        if evaluate_now and not rows:
            _evaluate(algo, config, out, 0)
        for k in range(len(rows) + 1, config.iterations + 1):
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
    except KeyboardInterrupt:
        steps = int(rows[-1]["env_steps"]) if rows else 0
        raise TrainingInterrupted(out, _keep(algo, out), steps) from None
    finally:
        bar.close()
    return rows


def _keep(algo: Any, out: Path) -> Path:
    """Save an interrupted run's algorithm in ``interrupted/``; when that fails (the terminal's
    Ctrl-C may have ended the env runners too), the newest checkpoint is what is kept."""
    try:
        algo.save_to_path(str((out / INTERRUPTED_DIR).resolve()))
    except Exception:  # noqa: BLE001 - whatever RLlib raises, the older checkpoint stays
        return resume_point(out)
    return out / INTERRUPTED_DIR


def read_progress(path: Path) -> list[dict[str, float]]:
    """The rows of ``tb/progress.csv`` (numbers as floats); none when there is no file."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


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
    from kinghill.experiments.training.win_rate import evaluate_policy_win_rate, write_row

    module = algo.get_module(config.module_ids[0])
    module.eval()
    result = evaluate_policy_win_rate(
        RLlibAgent.of_module(module),
        config.eval_opponent,
        config.eval_frames,
        10_000,
        config.noise,
        config.noise_scale,
    )
    module.train()
    write_row(out / EVALUATIONS_FILE, steps, result)


def _draw(config: RLlibConfig, out: Path, rows: list[dict[str, float]]) -> Path:
    """``learning_curve.png`` from the progress rows and the evaluations, by the SB3 path's
    plotting code."""
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
        win_label="frames won by player_0 (each iteration's)",
    )
    return path
