"""``kinghill train``: PPO, SAC or MaskablePPO on Stable-Baselines3 against a built-in agent, a
saved policy, or by self-play / a league, or PPO by self-play on RLlib (``--backend rllib``).

The arguments become a :class:`~kinghill.experiments.training.TrainConfig` or an
:class:`~kinghill.experiments.training.RLlibConfig` (:func:`config_from_args`) and run through
:func:`kinghill.experiments.training.train`; its errors, which name parameters, are reported
here as the flags they came from. Ctrl-C saves the model and ends with one line saying where,
and ``--resume DIR`` goes on from it.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from kinghill.envs import RewardWeights
from kinghill.envs.rl.curriculum import CURRICULA
from kinghill.envs.rl.wrappers import ACTIONS
from kinghill.experiments.cli.app import (
    CommandError,
    UsageError,
    agent_name,
    even_count,
    int_list,
    non_negative_int,
    output_dir,
    positive_float,
    positive_int,
    seed,
)
from kinghill.experiments.cli.frame_options import add_noise
from kinghill.experiments.training import (
    RLlibConfig,
    TrainConfig,
    TrainingError,
    TrainingInterrupted,
    TrainResult,
    train,
)
from kinghill.experiments.training.algorithms import SAVED_BY
from kinghill.experiments.training.config import (
    ALGORITHMS,
    EVALUATIONS,
    POLICIES,
    POOLED,
    SELF_PLAY,
    VECTORIZATIONS,
)
from kinghill.experiments.training.run import saved_config

BACKENDS = ("sb3", "rllib")
"""``--backend``: Stable-Baselines3, or RLlib."""
SB3_DEFAULTS = TrainConfig(out=Path("."))
RLLIB_DEFAULTS = RLlibConfig(out=Path("."))
RLLIB_ONLY = ("ray", "iterations", "iteration_steps", "epochs", "policies")
"""Arguments of ``--backend rllib`` alone (None unless given)."""
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
    "evaluation",
)
"""Arguments that only ``--backend sb3`` uses: a value other than the SB3 default with
``--backend rllib`` is an error (``--opponent`` may only be ``self``)."""
RESUMABLE = ("steps", "iterations", "time_limit", "no_progress")
"""What ``--resume`` may change in the run it goes on with."""
FLAGS = {
    "ray_address": "--ray",
    "batch_steps": "--iteration-steps",
    "minibatch_size": "--batch-size",
}
"""The flags of the configuration fields whose flag is not ``--`` and the field's name."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill train``."""
    d = SB3_DEFAULTS
    parser = subparsers.add_parser(
        "train",
        help="train PPO, SAC, MaskablePPO on Stable-Baselines3, or self-play on RLlib",
        description=(
            "PPO, SAC or MaskablePPO on Stable-Baselines3 (the aim-assisted, flat or masked "
            "env) against a built-in agent, a saved policy, by self-play against a pool of its "
            "own frozen snapshots or against a league. Writes DIR/final.zip, DIR/checkpoints/, "
            "DIR/tb/ (CSV; TensorBoard when installed), DIR/monitor/, DIR/learning_curve.png "
            "and DIR/run.json. With --backend rllib: PPO by self-play on RLlib (the rllib "
            "extra), env runners on a local Ray instance or a cluster (--ray); DIR/final/ is "
            "the RLlib checkpoint (agent rllib:DIR/final). Ctrl-C keeps what was learnt "
            "(DIR/interrupted.zip, or DIR/interrupted/ on RLlib); --resume DIR goes on from it."
        ),
        epilog="examples: kinghill train --algo ppo --opponent random --steps 20000 "
        "--out runs/ppo; kinghill train --backend rllib --iterations 20 --envs 2 --out "
        "runs/rllib; kinghill train --resume runs/ppo --steps 40000",
    )
    parser.add_argument("--out", type=output_dir, metavar="DIR", help="run folder (required "
                        "unless --resume)")  # fmt: skip
    parser.add_argument(
        "--resume", type=Path, metavar="DIR",
        help="go on with the run in DIR from its interrupted.zip (or last checkpoint), its "
        "settings kept; only --steps, --iterations, --time-limit and --no-progress may change",
    )  # fmt: skip
    parser.add_argument(
        "--backend", choices=BACKENDS, default="sb3",
        help="sb3: Stable-Baselines3 / sb3-contrib against an opponent (default); rllib: RLlib "
        "PPO by self-play on the two-seat shot-menu env (the rllib extra; see --ray)",
    )  # fmt: skip
    parser.add_argument(
        "--algo", choices=ALGORITHMS, default=d.algo, help="the learning algorithm (default: ppo)"
    )
    parser.add_argument(
        "--action", choices=ACTIONS,
        help="action wrapper (default: masked for maskable-ppo, else aim)",
    )  # fmt: skip
    parser.add_argument(
        "--opponent", type=opponent_name, metavar="NAME",
        help="an agent spec (random, heuristic, search, policy:PATH, mypkg.module:MyAgent, an "
        "entry point of kinghill.agents), self (self-play) or league (--league agents and "
        "snapshots, sampled by PFSP) (default: random)",
    )  # fmt: skip
    parser.add_argument(
        "--league", type=agent_list, default=d.league, metavar="A,B",
        help=f"the league's built-in agents besides the snapshots (default: {','.join(d.league)})",
    )  # fmt: skip
    parser.add_argument(
        "--steps", type=positive_int, default=d.steps,
        help=f"environment steps to learn for (default: {d.steps})",
    )  # fmt: skip
    parser.add_argument(
        "--envs", type=positive_int, default=d.envs, metavar="K",
        help="environments, stepped as --vectorization says (default: 2)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=seed, default=d.seed,
        help="seed of the learner, the environments and the opponent (default: 0)",
    )  # fmt: skip
    parser.add_argument(
        "--vectorization", choices=VECTORIZATIONS, default=d.vectorization,
        help="sb3: SubprocVecEnv (one worker process an env); gymnasium: gymnasium.make_vec "
        "async; in-process: DummyVecEnv, every env in the trainer's process; split: env 0 in "
        "the trainer's process, stepped while the others step in workers; auto: sb3 with more "
        "cores than envs, split with as many, else in-process (default: auto)",
    )  # fmt: skip
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
        "--batch-size", type=positive_int, default=d.batch_size,
        help=f"minibatch size of each gradient step (default: {d.batch_size})",
    )  # fmt: skip
    parser.add_argument(
        "--learning-rate", type=positive_float, default=d.learning_rate,
        help=f"the optimiser's step size (default: {d.learning_rate:g})",
    )  # fmt: skip
    parser.add_argument(
        "--torch-threads", type=positive_int, default=d.torch_threads,
        help="learner threads (default: 1)",
    )  # fmt: skip
    parser.add_argument(
        "--init", type=checkpoint, metavar="ZIP", help="start from this saved model (same --algo)"
    )
    add_noise(parser)
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
        "--eval-frames", type=even_count, default=d.eval_frames, metavar="N",
        help=f"frames per evaluation, seats alternating (default: {d.eval_frames})",
    )  # fmt: skip
    parser.add_argument(
        "--evaluation", choices=EVALUATIONS, default=d.evaluation,
        help="background: the evaluations play in a worker process on a snapshot while training "
        "goes on; inline: training waits for them; auto: background where the training leaves "
        "a core free (default: auto)",
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
        "--policies", choices=POLICIES, help="one policy for both seats (default) or one per seat"
    )  # fmt: skip
    parser.set_defaults(train_defaults=parser.parse_args([]))
    return parser


# ---- type= validators of this command ------------------------------------------------------
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


# ---- arguments to a configuration ----------------------------------------------------------
def option(name: str) -> str:
    """The flag of an argument or configuration field: ``batch_steps`` -> ``--iteration-steps``."""
    return FLAGS.get(name, "--" + name.replace("_", "-"))


def config_from_args(args: argparse.Namespace) -> TrainConfig | RLlibConfig:
    """The configuration of ``kinghill train`` arguments, for either backend: the fields both
    have, then the backend's own.

    :raises UsageError: an argument of the other backend, or arguments that do not fit
        together; a :class:`~kinghill.experiments.training.ConfigError` from the
        configuration's own checks, naming a field, for values it cannot train.
    """
    rllib = args.backend == "rllib"
    for name in SB3_ONLY if rllib else RLLIB_ONLY:
        default = getattr(args.train_defaults, name)
        if getattr(args, name) != default:
            if rllib:
                raise UsageError(
                    "is for --backend sb3 (rllib trains PPO by self-play)", option(name)
                )
            raise UsageError("is for --backend rllib", option(name))
    common: dict[str, Any] = {
        "out": args.out,
        "envs": args.envs,
        "seed": args.seed,
        "net": args.net,
        "learning_rate": args.learning_rate,
        "ent_coef": args.ent_coef,
        "noise": args.noise,
        "noise_scale": args.noise_scale,
        "reward": args.reward,
        "eval_every": args.eval_every,
        "eval_opponent": args.eval_opponent,
        "eval_frames": args.eval_frames,
        "time_limit": args.time_limit,
        "progress": not args.no_progress and os.isatty(2),
    }
    if args.checkpoint_every is not None:
        common["checkpoint_every"] = args.checkpoint_every
    if rllib:
        if args.opponent not in (None, SELF_PLAY):
            raise UsageError("--backend rllib trains by self-play (--opponent self)", "--opponent")
        return RLlibConfig(
            **common,
            ray_address=None if args.ray in (None, "local") else args.ray,
            minibatch_size=args.batch_size,
            iterations=args.iterations or RLLIB_DEFAULTS.iterations,
            batch_steps=args.iteration_steps or RLLIB_DEFAULTS.batch_steps,
            epochs=args.epochs or RLLIB_DEFAULTS.epochs,
            policies=args.policies or RLLIB_DEFAULTS.policies,
        )
    action = args.action or ("masked" if args.algo == "maskable-ppo" else "aim")
    if args.init is not None:
        _check_init(args.init, args.algo)
    return TrainConfig(
        **common,
        algo=args.algo,
        action=action,
        opponent=args.opponent or SB3_DEFAULTS.opponent,
        steps=args.steps,
        vectorization=args.vectorization,
        evaluation=args.evaluation,
        pool_size=args.pool_size,
        refresh=args.refresh,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        torch_threads=args.torch_threads,
        init=args.init,
        curriculum=args.curriculum,
        league=args.league,
        warm_start=args.warm_start,
    )


def _check_init(init: Path, algo: str) -> None:
    """``--init`` must have been saved by the ``--algo`` it is trained with."""
    from kinghill.agents.policy import algorithm_of

    saved_by = algorithm_of(init)
    saved_algo = None if saved_by is None else SAVED_BY[saved_by]
    if saved_algo is not None and saved_algo != algo:
        raise UsageError(f"{init} was saved by {saved_by}; train it with --algo {saved_algo}",
                         "--init")  # fmt: skip


def resumed_config(args: argparse.Namespace) -> TrainConfig | RLlibConfig:
    """The configuration of ``--resume DIR``: the run's own, with the new ``--steps``,
    ``--iterations``, ``--time-limit`` or ``--no-progress`` when given."""
    given = [
        name
        for name, default in vars(args.train_defaults).items()
        if name not in (*RESUMABLE, "resume", "train_defaults") and getattr(args, name) != default
    ]
    if given:
        raise UsageError(
            "goes on with the run's own settings; only --steps, --iterations, --time-limit and "
            "--no-progress may change",
            option(given[0]),
        )
    saved = saved_config(args.resume)
    changes: dict[str, Any] = {"progress": not args.no_progress and os.isatty(2)}
    if args.time_limit is not None:
        changes["time_limit"] = args.time_limit
    if isinstance(saved, RLlibConfig):
        if args.steps != SB3_DEFAULTS.steps:
            raise UsageError("is for --backend sb3; this run is on RLlib (--iterations)", "--steps")
        if args.iterations is not None:
            changes["iterations"] = args.iterations
    else:
        if args.iterations is not None:
            raise UsageError("is for --backend rllib; this run is on Stable-Baselines3",
                             "--iterations")  # fmt: skip
        if args.steps != SB3_DEFAULTS.steps:
            changes["steps"] = args.steps
    return replace(saved, **changes)


# ---- the command ---------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    """Run ``kinghill train`` and print where the outputs are; Ctrl-C ends with one line
    saying what was kept and how to go on (exit status 130)."""
    if (args.out is None) == (args.resume is None):
        raise UsageError("give the run folder (--out DIR), or --resume DIR to go on with one",
                         "--out")  # fmt: skip
    try:
        config = resumed_config(args) if args.resume else config_from_args(args)
        return report(train(config, resume=args.resume is not None))
    except TrainingInterrupted as stop:
        print(
            f"{args.command_prog}: interrupted at {stop.steps} steps; what was learnt is kept in "
            f"{stop.kept}; go on with: kinghill train --resume {stop.run}",
            file=sys.stderr,
        )
        return 130
    except TrainingError as error:
        raise as_command_error(error, resuming=args.resume is not None) from None


def as_command_error(error: TrainingError, resuming: bool = False) -> CommandError:
    """A training library's error as the command's: a field at fault as its flag (exit 2),
    other failures as exit 1."""
    if error.parameter is None:
        return CommandError(error.message)
    related = ", ".join(option(name) for name in error.related)
    message = f"{error.message} ({related})" if related else error.message
    flag = "--resume" if resuming and error.parameter == "out" else option(error.parameter)
    return UsageError(message, flag)


def report(result: TrainResult) -> int:
    """Print where a run's outputs are (both backends), and how its last training episodes
    went: those episodes' rate, learning on and against the training opponent, not an
    evaluation (``--eval-every``)."""
    print(
        f"model {result.model} ({result.wall_seconds:.0f} s, {result.episodes} episodes); "
        f"last training episodes: reward mean {result.final_reward_mean:.3f}, win rate "
        f"{result.final_win_rate:.3f} (against the training opponent, not an evaluation); "
        f"curve {result.curve}"
    )
    return 0
