"""What a training run is: :class:`TrainConfig` (Stable-Baselines3) and :class:`RLlibConfig`
(RLlib self-play), checked when they are made, and :class:`TrainingError`, the one exception of
the training library, which names the *parameter* at fault (the command line maps it to a flag).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from kinghill.agents import AgentSpecError, check_agent
from kinghill.envs import RewardWeights
from kinghill.envs.game.noise import NoiseScale, check_noise_scale
from kinghill.envs.rl.curriculum import CURRICULA
from kinghill.envs.rl.wrappers import ACTIONS
from kinghill.envs.rules import is_whole

ALGORITHMS = ("ppo", "sac", "maskable-ppo")
"""PPO and SAC (Stable-Baselines3) on the ``Box`` actions; MaskablePPO (sb3-contrib) on the
masked discrete action."""
SELF_PLAY = "self"
"""The opponent that trains against the learner's own frozen snapshots."""
LEAGUE = "league"
"""The opponent that trains against a league: built-in agents and snapshots, by PFSP."""
POOLED = (SELF_PLAY, LEAGUE)
"""Opponents that keep a pool of the learner's snapshots."""
VECTORIZATIONS = ("auto", "sb3", "gymnasium", "in-process", "split")
"""How a run's envs are stepped (see ``TrainConfig.vectorization``)."""
EVALUATIONS = ("auto", "background", "inline")
"""Where a run's evaluations play (see ``TrainConfig.evaluation``)."""
POLICIES = ("shared", "per-seat")
"""RLlib: one policy for both seats, or one per seat."""
SEATS = ("player_0", "player_1")


class TrainingError(Exception):
    """A training run that cannot start or go on.

    :param message: what is wrong, in terms of the configuration.
    :param parameter: the configuration field at fault (``"minibatch_size"``), or None when
        the cause is not the configuration (a Ray instance that cannot start).
    :param related: other fields the message is about (that the two do not fit together).
    """

    def __init__(
        self, message: str, parameter: str | None = None, related: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.parameter = parameter
        self.related = related

    def __str__(self) -> str:
        return self.message if self.parameter is None else f"{self.parameter}: {self.message}"


class ConfigError(TrainingError, ValueError):
    """A configuration that cannot be trained; raised when it is made, before any work."""

    def __init__(self, message: str, parameter: str, related: tuple[str, ...] = ()) -> None:
        super().__init__(message, parameter, related)


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C ended a run; what it had learnt was saved first.

    :param run: the run's folder, from which :func:`~kinghill.experiments.training.train`
        goes on with ``resume=True``.
    :param kept: the model saved at the interruption.
    :param steps: the environment steps learnt so far.
    """

    def __init__(self, run: Path, kept: Path, steps: int) -> None:
        super().__init__(f"interrupted at {steps} steps; the model is kept in {kept}")
        self.run = run
        self.kept = kept
        self.steps = steps


def _agent(spec: str, parameter: str) -> None:
    try:
        check_agent(spec)
    except AgentSpecError as error:
        raise ConfigError(str(error), parameter) from None


def at_least(config: object, low: int, *names: str) -> None:
    """Each of ``config``'s fields ``names`` a whole number of at least ``low``, else a
    :class:`ConfigError` naming it (a string, a fraction or True is no count)."""
    for name in names:
        check_count(getattr(config, name), low, name)


def check_count(value: object, low: int, name: str) -> None:
    """``value`` a whole number of at least ``low``, else a :class:`ConfigError` on ``name``."""
    if not is_whole(value) or value < low:  # type: ignore[operator]
        raise ConfigError(f"must be a whole number of at least {low} (got {value!r})", name)


def check_eval_frames(frames: object) -> None:
    """Evaluation frames even and at least 2, so that both seats play equally."""
    if not is_whole(frames) or frames < 2 or frames % 2:  # type: ignore[operator]
        raise ConfigError(
            f"must be even, so that both seats play equally (got {frames!r})", "eval_frames"
        )


def _check_common(config: TrainConfig | RLlibConfig) -> None:
    """The checks of the fields both backends have."""
    whole = all(isinstance(n, int) and not isinstance(n, bool) for n in config.net)
    if not config.net or not whole or min(config.net) < 1:
        raise ConfigError(f"needs positive layer sizes (got {config.net})", "net")
    if not (math.isfinite(config.learning_rate) and config.learning_rate > 0):
        raise ConfigError(f"must be a finite number above 0 (got {config.learning_rate})",
                          "learning_rate")  # fmt: skip
    if not (math.isfinite(config.ent_coef) and config.ent_coef >= 0):
        raise ConfigError(f"must be a finite number >= 0 (got {config.ent_coef})", "ent_coef")
    at_least(config, 0, "checkpoint_every", "eval_every", "seed")
    check_eval_frames(config.eval_frames)
    if config.eval_every:
        _agent(config.eval_opponent, "eval_opponent")
    if config.time_limit is not None and not config.time_limit > 0:
        raise ConfigError(f"must be a positive number of minutes (got {config.time_limit})",
                          "time_limit")  # fmt: skip
    try:
        check_noise_scale(config.noise_scale)
    except ValueError:
        raise ConfigError(
            f"must be a number >= 0 or 'variable' (got {config.noise_scale!r})", "noise_scale"
        ) from None


@dataclass(frozen=True)
class TrainConfig:
    """One Stable-Baselines3 training run.

    :param out: the run's folder (created).
    :param algo: "ppo", "sac" or "maskable-ppo".
    :param action: the SB3 action wrapper, "aim" (aim-assisted) or "flat" (PPO, SAC), or
        "masked" (:mod:`kinghill.envs.rl.masked`; MaskablePPO, and only it).
    :param opponent: an agent spec (``random``, ``policy:PATH``, ``mypkg.module:MyAgent``, ...;
        see :mod:`kinghill.agents.registry`), "self" (self-play) or "league".
    :param steps: total environment steps (learner decisions) over all envs.
    :param envs: environments (in worker processes or not: ``vectorization``).
    :param seed: seeds the model and the environments (env k gets ``seed + k``).
    :param vectorization: "sb3" (``SubprocVecEnv``), "gymnasium" (``gymnasium.make_vec``),
        "in-process" (``DummyVecEnv``: every env in the trainer's process, no pipes), "split"
        (env 0 in the trainer's process, stepped while the others step in workers:
        :class:`~kinghill.experiments.training.split_vec.SplitVecEnv`) or "auto": "sb3" where
        the machine has a core for each env and one for the trainer, "split" where it has one
        for each env, else "in-process" (the same run step for step in every mode; which is
        fastest where: ``benchmarks/training/results.md``).
    :param checkpoint_every: steps between checkpoints (0: none).
    :param pool_size: self-play: how many of the latest snapshots the opponents draw from.
    :param refresh: self-play: steps between snapshots added to the pool.
    :param net: hidden layer sizes of the policy and value networks.
    :param n_steps: PPO rollout length per env.
    :param batch_size: minibatch size.
    :param learning_rate: the optimiser's step size.
    :param noise: execution noise on the shots (both players).
    :param noise_scale: its condition, a multiple of the default sigmas or ``"variable"``
        (:mod:`kinghill.envs.game.noise`), in training and in the evaluations alike.
    :param torch_threads: threads of the learner's torch (small networks train fastest on one,
        and the env workers need the other cores).
    :param init: start from this saved model (same algo and action) instead of a fresh one,
        e.g. to go on against a stronger opponent; its hyperparameters are kept.
    :param progress: show SB3's progress bar.
    :param reward: the env's :class:`~kinghill.envs.RewardWeights`.
    :param eval_every: steps between evaluations against ``eval_opponent`` (0: none); see
        :mod:`kinghill.experiments.training.win_rate`.
    :param eval_opponent: the fixed opponent of the evaluations (an agent spec).
    :param eval_frames: frames per evaluation (even; seats alternate).
    :param evaluation: "background" (the evaluations play in a worker process while training
        goes on, on a snapshot of the model), "inline" (training waits for them) or "auto":
        "background" where the training leaves a core free.
    :param curriculum: a built-in curriculum of start positions (``"practice"``, see
        :mod:`kinghill.envs.rl.curriculum`) or None for full frames only.
    :param league: the built-in agents of the league (``opponent="league"``), besides the
        learner's snapshots; see :mod:`kinghill.experiments.training.league`.
    :param time_limit: stop training after this many minutes of wall time (the model is saved
        and evaluated as at the end of ``steps``); None: run all ``steps``.
    :param warm_start: maskable-ppo: imitate the heuristic on this many frames of heuristic
        play before learning (:mod:`kinghill.experiments.training.warm_start`); 0: none.
    :param ent_coef: PPO / MaskablePPO entropy bonus (keeps exploring after a warm start).
    """

    out: Path
    algo: str = "ppo"
    action: str = "aim"
    opponent: str = "random"
    steps: int = 20_000
    envs: int = 2
    seed: int = 0
    vectorization: str = "auto"
    checkpoint_every: int = 5_000
    pool_size: int = 5
    refresh: int = 5_000
    net: tuple[int, ...] = (64, 64)
    n_steps: int = 256
    batch_size: int = 128
    learning_rate: float = 3e-4
    noise: bool = True
    noise_scale: NoiseScale = 1.0
    torch_threads: int = 1
    init: Path | None = None
    progress: bool = True
    reward: RewardWeights = field(default_factory=RewardWeights)
    eval_every: int = 0
    eval_opponent: str = "heuristic"
    eval_frames: int = 40
    evaluation: str = "auto"
    curriculum: str | None = None
    league: tuple[str, ...] = ("heuristic",)
    time_limit: float | None = None
    warm_start: int = 0
    ent_coef: float = 0.0

    def __post_init__(self) -> None:
        if self.algo not in ALGORITHMS:
            raise ConfigError(f"must be one of {ALGORITHMS} (got {self.algo!r})", "algo")
        if self.action not in ACTIONS:
            raise ConfigError(f"must be one of {ACTIONS} (got {self.action!r})", "action")
        if (self.algo == "maskable-ppo") != (self.action == "masked"):
            raise ConfigError(
                f"maskable-ppo trains the masked action, and only it (got {self.algo} with "
                f"{self.action}; {', '.join(a for a in ALGORITHMS if a != 'maskable-ppo')} "
                "train aim or flat)",
                "action",
            )
        if self.vectorization not in VECTORIZATIONS:
            raise ConfigError(f"must be one of {VECTORIZATIONS}", "vectorization")
        if self.vectorization == "gymnasium" and self.action == "masked":
            raise ConfigError(
                "gymnasium steps the aim and flat actions; the masked action's envs are SB3's "
                "(leave it auto, or give sb3)",
                "vectorization",
            )
        if self.evaluation not in EVALUATIONS:
            raise ConfigError(f"must be one of {EVALUATIONS}", "evaluation")
        at_least(self, 1, "steps", "envs", "pool_size", "refresh", "n_steps", "batch_size")
        at_least(self, 1, "torch_threads")
        _check_common(self)
        if self.warm_start < 0:
            raise ConfigError(f"frames of imitation, >= 0 (got {self.warm_start})", "warm_start")
        if self.warm_start and self.algo != "maskable-ppo":
            raise ConfigError("imitates the heuristic into maskable-ppo's masked action alone; "
                              "leave it 0 for another algorithm", "warm_start")  # fmt: skip
        if self.curriculum is not None and self.curriculum not in CURRICULA:
            raise ConfigError(
                f"must be one of {sorted(CURRICULA)} (got {self.curriculum!r})", "curriculum"
            )
        if self.opponent == LEAGUE:
            for member in self.league:
                _agent(member, "league")
        elif self.opponent != SELF_PLAY:
            _agent(self.opponent, "opponent")


@dataclass(frozen=True)
class RLlibConfig:
    """One RLlib training run: PPO by self-play on the two-seat shot-menu env.

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
    :param noise_scale: its condition, a multiple of the default sigmas or ``"variable"``
        (:mod:`kinghill.envs.game.noise`), in training and in the evaluations alike.
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
    noise_scale: NoiseScale = 1.0
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
            raise ConfigError(f"must be one of {POLICIES} (got {self.policies!r})", "policies")
        at_least(self, 1, "iterations", "envs", "batch_steps", "minibatch_size", "epochs")
        if self.minibatch_size > self.batch_steps:
            raise ConfigError(
                f"a minibatch of {self.minibatch_size} is more than the {self.batch_steps} steps "
                "of an iteration",
                "minibatch_size",
                related=("batch_steps",),
            )
        _check_common(self)
        if self.num_cpus is not None and self.num_cpus < 1:
            raise ConfigError(f"must be at least 1 (got {self.num_cpus})", "num_cpus")

    @property
    def module_ids(self) -> tuple[str, ...]:
        """The policies (RLModules) trained: ``("shared",)`` or the two seats."""
        return ("shared",) if self.policies == "shared" else SEATS
