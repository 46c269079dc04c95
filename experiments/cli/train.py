"""``kinghill train sb3``: PPO, SAC or MaskablePPO on Stable-Baselines3 against a built-in
agent, a saved policy, or by self-play / a league; ``kinghill train rllib``: PPO by self-play on
RLlib; ``kinghill train --resume DIR``: either, continued. Each backend's ``--help`` lists the
options both share and its own (``kinghill train --backend rllib``, the former spelling, is
still accepted with a note: :func:`former_spelling`).

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
    agent_specs,
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
    VECTORIZATIONS,
)
from kinghill.experiments.training.run import saved_config

BACKENDS = ("sb3", "rllib")
"""``kinghill train sb3``: Stable-Baselines3; ``kinghill train rllib``: RLlib."""
SB3_DEFAULTS = TrainConfig(out=Path("."))
RLLIB_DEFAULTS = RLlibConfig(out=Path("."))
RESUMABLE = ("steps", "iterations", "time_limit", "no_progress")
"""What ``--resume`` may change in the run it goes on with (``kinghill train --resume DIR``'s
own options, stored as ``resume_<name>``)."""
FLAGS = {
    "ray_address": "--ray",
    "batch_steps": "--iteration-steps",
    "minibatch_size": "--batch-size",
    "backend": "BACKEND",
}
"""The flags of the configuration fields whose flag is not ``--`` and the field's name."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill train`` with its two backends, ``kinghill train sb3`` and ``kinghill
    train rllib`` (each with the options both share and its own), and ``kinghill train
    --resume DIR``."""
    parser = subparsers.add_parser(
        "train",
        help="train PPO, SAC, MaskablePPO on Stable-Baselines3, or self-play on RLlib",
        description=(
            "kinghill train sb3: PPO, SAC or MaskablePPO on Stable-Baselines3 against an "
            "opponent, by self-play or against a league. kinghill train rllib: PPO by self-play "
            "on RLlib (the rllib extra). Ctrl-C keeps what was learnt; --resume DIR goes on "
            "from it. kinghill train BACKEND --help lists a backend's options."
        ),
        epilog="examples: kinghill train sb3 --algo ppo --opponent random --steps 20000 "
        "--out runs/ppo; kinghill train rllib --iterations 20 --envs 2 --out runs/rllib; "
        "kinghill train --resume runs/ppo --steps 40000",
    )
    parser.add_argument(
        "--resume", type=Path, metavar="DIR",
        help="go on with the run in DIR from its interrupted model (or last checkpoint), its "
        "settings kept; only the options below may change",
    )  # fmt: skip
    resume = parser.add_argument_group("with --resume")
    resume.add_argument(
        "--steps", dest="resume_steps", type=positive_int, metavar="N",
        help="sb3: learn until N environment steps in all",
    )  # fmt: skip
    resume.add_argument(
        "--iterations", dest="resume_iterations", type=positive_int, metavar="N",
        help="rllib: train until N iterations in all",
    )  # fmt: skip
    resume.add_argument(
        "--time-limit", dest="resume_time_limit", type=positive_float, metavar="MINUTES",
        help="stop this session after MINUTES of wall time",
    )  # fmt: skip
    resume.add_argument(
        "--no-progress", dest="resume_no_progress", action="store_true", help="no progress bar"
    )
    backends = parser.add_subparsers(dest="backend", title="backends", metavar="BACKEND")
    for backend, add, summary in (
        ("sb3", _add_sb3, "PPO, SAC or MaskablePPO on Stable-Baselines3 against an opponent"),
        ("rllib", _add_rllib, "PPO by self-play on RLlib (the rllib extra)"),
    ):
        command = backends.add_parser(backend, help=summary, description=summary)
        add(command)
        _add_shared(command, SB3_DEFAULTS if backend == "sb3" else RLLIB_DEFAULTS)
        command.set_defaults(
            command_prog=command.prog, command_flags=tuple(command._option_string_actions)
        )
    return parser


def _check_resume_options(rest: list[str]) -> None:
    """Refuse, naming it, an option ``--resume`` does not take (a resumed run keeps its
    settings): argparse would read its value as the backend (``BACKEND: invalid choice``)."""
    taken = {"--resume", *(f"--{name.replace('_', '-')}" for name in RESUMABLE), "-h", "--help"}
    for before, word in zip(["", *rest], rest, strict=False):
        flag = word.split("=", 1)[0]
        backend = word in BACKENDS and before != "--resume"  # not a folder named sb3
        if backend or (flag.startswith("--") and flag not in taken):
            raise UsageError(
                f"{flag}: --resume keeps the run's settings; only "
                f"{', '.join(sorted(taken - {'--resume', '-h', '--help'}))} may be given with it"
            )


def former_spelling(argv: list[str]) -> list[str]:
    """``kinghill train --backend B ...`` and ``kinghill train --algo ...`` (the backend once an
    option, sb3 by default) as ``kinghill train B ...``, with a one-line note; any other command
    line as it is."""
    if argv[:1] != ["train"] or any(word in argv[1:2] for word in (*BACKENDS, "-h", "--help")):
        return argv
    rest = argv[1:]
    if "--resume" in rest:
        _check_resume_options(rest)
        return argv
    if not rest:
        return argv
    backend = "sb3"
    for i, word in enumerate(rest):
        if word == "--backend" and i + 1 < len(rest):
            backend = rest[i + 1]
            rest = rest[:i] + rest[i + 2 :]
            break
        if word.startswith("--backend="):
            backend = word.split("=", 1)[1]
            rest = rest[:i] + rest[i + 1 :]
            break
    print(
        f"kinghill train: note: the backend is now a word: kinghill train {backend} ...",
        file=sys.stderr,
    )
    return ["train", backend, *rest]


def _add_shared(parser: argparse.ArgumentParser, d: TrainConfig | RLlibConfig) -> None:
    """The options both backends take (the fields their configurations share)."""
    parser.add_argument("--out", type=output_dir, required=True, metavar="DIR", help="run folder")
    parser.add_argument(
        "--envs", type=positive_int, default=d.envs, metavar="K",
        help=f"environments stepped at once (default: {d.envs})",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=seed, default=d.seed,
        help="seed of the learner, the environments and the opponent (default: 0)",
    )  # fmt: skip
    parser.add_argument(
        "--checkpoint-every", type=non_negative_int, default=d.checkpoint_every, metavar="N",
        help=f"steps (sb3) or iterations (rllib) between checkpoints, 0 for none (default: "
        f"{d.checkpoint_every})",
    )  # fmt: skip
    parser.add_argument("--net", type=int_list, default=d.net, help="hidden sizes (default: 64,64)")
    parser.add_argument(
        "--batch-size", type=positive_int,
        default=d.batch_size if isinstance(d, TrainConfig) else d.minibatch_size,
        help="minibatch size of each gradient step (default: 128)",
    )  # fmt: skip
    parser.add_argument(
        "--learning-rate", type=positive_float, default=d.learning_rate,
        help=f"the optimiser's step size (default: {d.learning_rate:g})",
    )  # fmt: skip
    parser.add_argument(
        "--ent-coef", type=entropy_coefficient, default=d.ent_coef,
        help="PPO entropy bonus (default 0)",
    )  # fmt: skip
    add_noise(parser)
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
        "--time-limit", type=positive_float, metavar="MINUTES",
        help="stop training after MINUTES of wall time (the model is saved as at the end)",
    )  # fmt: skip
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _add_sb3(parser: argparse.ArgumentParser) -> None:
    """``kinghill train sb3``'s own options."""
    d = SB3_DEFAULTS
    parser.add_argument(
        "--algo", choices=ALGORITHMS, default=d.algo, help="the learning algorithm (default: ppo)"
    )
    parser.add_argument(
        "--action", choices=ACTIONS,
        help="action wrapper (default: masked for maskable-ppo, else aim)",
    )  # fmt: skip
    parser.add_argument(
        "--opponent", type=opponent_name, default=d.opponent, metavar="NAME",
        help=f"an agent spec ({agent_specs()}), self (self-play) or league (--league agents "
        "and snapshots, sampled by PFSP) (default: random)",
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
        "--vectorization", choices=VECTORIZATIONS, default=d.vectorization,
        help="sb3: SubprocVecEnv (one worker process an env); gymnasium: gymnasium.make_vec "
        "async; in-process: DummyVecEnv; split: env 0 in the trainer's process, the others in "
        "workers; auto: sb3 with more cores than envs, split with as many, else in-process "
        "(default: auto)",
    )  # fmt: skip
    parser.add_argument(
        "--pool-size", type=positive_int, default=d.pool_size, help="self-play pool (default: 5)"
    )
    parser.add_argument(
        "--refresh", type=positive_int, default=d.refresh, metavar="STEPS",
        help=f"self-play: steps between snapshots (default: {d.refresh})",
    )  # fmt: skip
    parser.add_argument(
        "--n-steps", type=positive_int, default=d.n_steps, help="PPO rollout per env"
    )
    parser.add_argument(
        "--torch-threads", type=positive_int, default=d.torch_threads,
        help="learner threads (default: 1)",
    )  # fmt: skip
    parser.add_argument(
        "--init", type=checkpoint, metavar="ZIP", help="start from this saved model (same --algo)"
    )
    parser.add_argument(
        "--evaluation", choices=EVALUATIONS, default=d.evaluation,
        help="background: the evaluations play in a worker process on a snapshot while training "
        "goes on; inline: training waits for them; auto: background where the training leaves "
        "a core free (default: auto)",
    )  # fmt: skip
    parser.add_argument(
        "--warm-start", type=non_negative_int, default=0, metavar="FRAMES",
        help="maskable-ppo: first imitate the heuristic on FRAMES frames of its play (default 0)",
    )  # fmt: skip
    parser.add_argument(
        "--curriculum", choices=sorted(CURRICULA),
        help="start episodes from a built-in curriculum of practice positions",
    )  # fmt: skip


def _add_rllib(parser: argparse.ArgumentParser) -> None:
    """``kinghill train rllib``'s own options."""
    d = RLLIB_DEFAULTS
    parser.add_argument(
        "--ray", metavar="ADDRESS",
        help="the Ray cluster for the env runners: auto, HOST:PORT, or local (default: local, "
        "a Ray instance started and stopped by the run)",
    )  # fmt: skip
    parser.add_argument(
        "--iterations", type=positive_int, default=d.iterations, metavar="N",
        help=f"PPO iterations (default: {d.iterations})",
    )  # fmt: skip
    parser.add_argument(
        "--iteration-steps", type=positive_int, default=d.batch_steps, metavar="STEPS",
        help=f"env steps (both seats) sampled per iteration (default: {d.batch_steps})",
    )  # fmt: skip
    parser.add_argument(
        "--epochs", type=positive_int, default=d.epochs,
        help=f"SGD passes over each iteration's steps (default: {d.epochs})",
    )  # fmt: skip
    parser.add_argument(
        "--policies", choices=POLICIES, default=d.policies,
        help="one policy for both seats (default) or one per seat",
    )  # fmt: skip


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
    """The configuration of ``kinghill train sb3|rllib`` arguments: the fields both backends
    have, then the backend's own.

    :raises UsageError: arguments that do not fit together; a
        :class:`~kinghill.experiments.training.ConfigError` from the configuration's own checks,
        naming a field, for values it cannot train.
    """
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
        "checkpoint_every": args.checkpoint_every,
        "eval_every": args.eval_every,
        "eval_opponent": args.eval_opponent,
        "eval_frames": args.eval_frames,
        "time_limit": args.time_limit,
        "progress": not args.no_progress and os.isatty(2),
    }
    if args.backend == "rllib":
        return RLlibConfig(
            **common,
            ray_address=None if args.ray in (None, "local") else args.ray,
            minibatch_size=args.batch_size,
            iterations=args.iterations,
            batch_steps=args.iteration_steps,
            epochs=args.epochs,
            policies=args.policies,
        )
    action = args.action or ("masked" if args.algo == "maskable-ppo" else "aim")
    if args.init is not None:
        _check_init(args.init, args.algo, action)
    return TrainConfig(
        **common,
        algo=args.algo,
        action=action,
        opponent=args.opponent,
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


def _check_init(init: Path, algo: str, action: str) -> None:
    """``--init`` must have been saved by the ``--algo`` it is trained with, for the
    ``--action`` it is trained with (SB3 refuses another action space with a traceback)."""
    from kinghill.agents.policy import algorithm_of, load_model
    from kinghill.envs.rl.wrappers import action_of

    saved_by = algorithm_of(init)
    saved_algo = None if saved_by is None else SAVED_BY[saved_by]
    if saved_algo is not None and saved_algo != algo:
        raise UsageError(f"{init} was saved by {saved_by}; train it with --algo {saved_algo}",
                         "--init")  # fmt: skip
    try:
        trained = action_of(load_model(init).action_space)
    except (OSError, ValueError) as error:
        raise UsageError(str(error), "--init") from None
    if trained is None:
        raise UsageError(f"{init}'s actions are none of kinghill's (aim, flat, masked)", "--init")
    if trained != action:
        raise UsageError(f"{init} was trained with the {trained} action; train it with "
                         f"--action {trained}", "--init")  # fmt: skip


def resumed_config(args: argparse.Namespace) -> TrainConfig | RLlibConfig:
    """The configuration of ``--resume DIR``: the run's own, with the new ``--steps`` or
    ``--iterations`` when given; ``--time-limit`` and ``--no-progress`` are this session's
    alone (a limit an earlier session was given does not cut this one short)."""
    saved = saved_config(args.resume)
    changes: dict[str, Any] = {
        "progress": not args.resume_no_progress and os.isatty(2),
        "time_limit": args.resume_time_limit,
    }
    if isinstance(saved, RLlibConfig):
        if args.resume_steps is not None:
            raise UsageError("is for sb3 runs; this run is on RLlib (--iterations)", "--steps")
        if args.resume_iterations is not None:
            changes["iterations"] = args.resume_iterations
    else:
        if args.resume_iterations is not None:
            raise UsageError("is for rllib runs; this run is on Stable-Baselines3 (--steps)",
                             "--iterations")  # fmt: skip
        if args.resume_steps is not None:
            changes["steps"] = args.resume_steps
    return replace(saved, **changes)


# ---- the command ---------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    """Run ``kinghill train`` and print where the outputs are; Ctrl-C ends with one line
    saying what was kept and how to go on (exit status 130)."""
    resuming = args.resume is not None
    if resuming == (args.backend is not None):
        raise UsageError("give a backend (kinghill train sb3|rllib ... --out DIR), or --resume "
                         "DIR to go on with a run", "BACKEND")  # fmt: skip
    given = [f"--{n.replace('_', '-')}" for n in RESUMABLE if getattr(args, f"resume_{n}")]
    if given and not resuming:
        raise UsageError("only with --resume (a backend's own option comes after it)", given[0])
    try:
        config = resumed_config(args) if resuming else config_from_args(args)
        return report(train(config, resume=resuming))
    except TrainingInterrupted as stop:
        print(
            f"{args.command_prog}: interrupted at {stop.steps} steps; what was learnt is kept in "
            f"{stop.kept}; go on with: kinghill train --resume {stop.run}",
            file=sys.stderr,
        )
        return 130
    except TrainingError as error:
        raise as_command_error(error, resuming=resuming) from None


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
    short = result.extra.get("time_limit_stop")
    if short:  # [learnt, asked, "steps" or "iterations"]
        print(
            f"stopped at the time limit after {short[0]} of {short[1]} {short[2]}; go on with: "
            f"kinghill train --resume {result.model.parent}"
        )
    return 0
