"""Evaluation during training: the learner's deterministic policy plays a fixed opponent over the
same seeded frames each time (seats swapped, execution noise on), its win rate is logged and
drawn on the learning curve, and the best model so far is kept.

:func:`evaluate_policy_win_rate` plays the frames; :class:`WinRateEval` is the SB3 callback
that calls it every ``every`` steps, writes ``DIR/evaluations.csv`` and ``DIR/best_model.zip``
and logs ``eval/win_rate`` to the run's logger (TensorBoard, CSV). In the background it plays
them in a worker process (:func:`evaluate_checkpoint`) on a saved snapshot of the model, so
that a core the training leaves free evaluates while the learner goes on. (Rating agents
against each other by a round robin is :func:`kinghill.experiments.evaluate`.)
"""

from __future__ import annotations

import csv
import multiprocessing
import os
import tempfile
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from kinghill.agents import make_agent
from kinghill.agents.policy import load_model
from kinghill.envs import Agent, Game
from kinghill.envs.game.noise import NoiseScale, scaled
from kinghill.envs.rl.wrappers import FrozenPolicy
from kinghill.experiments.tournaments.frame_player import InProcessSeat, play_out, seeds
from kinghill.experiments.tournaments.stats import wilson_interval
from kinghill.experiments.training.environments import in_worker_process
from kinghill.physics import NoiseModel

EVALUATIONS_FILE = "evaluations.csv"
BEST_MODEL_FILE = "best_model.zip"
EVAL_FIELDS = ("steps", "frames", "wins", "win_rate", "low", "high", "seconds")


@dataclass(frozen=True)
class EvalResult:
    """Frames won by the learner out of ``frames``, with the Wilson 95% interval."""

    frames: int
    wins: float
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.frames

    @property
    def interval(self) -> tuple[float, float]:
        found = wilson_interval(self.wins, self.frames)
        return (found.low, found.high)


def evaluate_policy_win_rate(
    learner: Agent,
    opponent: str,
    frames: int,
    seed: int = 0,
    noise: bool = True,
    noise_scale: NoiseScale = 1.0,
) -> EvalResult:
    """Play ``frames`` frames of ``learner`` against the registry agent ``opponent``: frame k
    uses seed ``seed + k // 2`` and seats alternate (the learner breaks in the even frames), so
    every call plays the same frames, with noise at ``noise_scale`` when ``noise`` is on. A
    truncated frame counts half a win."""
    start = time.perf_counter()
    wins = 0.0
    for k in range(frames):
        game_seed, _, opponent_seed = seeds(seed + k // 2)
        seat = k % 2
        agents: list[Agent] = [learner, make_agent(opponent, opponent_seed)]
        if seat == 1:
            agents.reverse()
        game = Game(noise=scaled(NoiseModel(), noise_scale) if noise else None)
        game.reset(seed=game_seed, breaker=0)
        for _ in play_out(game, [InProcessSeat(agent) for agent in agents]):
            pass
        winner = game.frame.winner
        wins += 0.5 if winner is None else float(winner == seat)
    return EvalResult(frames, wins, time.perf_counter() - start)


def evaluate_checkpoint(
    path: Path,
    action: str,
    opponent: str,
    frames: int,
    seed: int,
    noise: bool,
    noise_scale: NoiseScale,
) -> EvalResult:
    """:func:`evaluate_policy_win_rate` of the deterministic policy of the model saved at
    ``path`` (what a background evaluation runs in its worker process)."""
    policy = FrozenPolicy(load_model(path), action, deterministic=True)
    return evaluate_policy_win_rate(policy, opponent, frames, seed, noise, noise_scale)


class WinRateEval(BaseCallback):
    """At the start, every ``every`` environment steps and at the end of training,
    :func:`evaluate_policy_win_rate` the model's deterministic policy against ``opponent``; log
    ``eval/win_rate``, append a row to ``DIR/evaluations.csv`` and save ``DIR/best_model.zip``
    when the win rate is the best yet.

    :param out: the run folder.
    :param action: the action wrapper the model acts through ("masked", "aim" or "flat").
    :param opponent: a registry agent name (e.g. "heuristic").
    :param frames: frames per evaluation (even: both seats equally).
    :param every: environment steps between evaluations (over all envs).
    :param seed: the evaluation frames' base seed (the same frames each time).
    :param noise: execution noise in the evaluation frames; ``noise_scale`` its condition.
    :param background: play the evaluations in a worker process on a snapshot of the model
        (saved in a hidden folder of ``out`` until its result is in) while training goes on;
        the results are the same frames and win rates as inline, recorded in order as they
        arrive, and the last ones are waited for at the end of training.
    """

    def __init__(
        self,
        out: Path | str,
        action: str,
        opponent: str,
        frames: int,
        every: int,
        seed: int = 10_000,
        noise: bool = True,
        noise_scale: NoiseScale = 1.0,
        background: bool = False,
    ) -> None:
        super().__init__()
        self.out = Path(out)
        self.action = action
        self.opponent = opponent
        self.frames = frames
        self.every = every
        self.seed = seed
        self.noise = noise
        self.noise_scale = noise_scale
        self.background = background
        rows = load_evaluations(self.out / EVALUATIONS_FILE)  # a resumed run's best so far
        self.best = max((row["win_rate"] for row in rows), default=-1.0)
        self._logged = {int(row["steps"]) for row in rows}  # steps evaluated in earlier sessions
        self._next = every
        self._asked: int | None = None  # the steps of the latest evaluation asked for
        self.results: list[tuple[int, EvalResult]] = []
        self._pool: ProcessPoolExecutor | None = None
        self._snapshots: tempfile.TemporaryDirectory[str] | None = None
        self._pending: deque[tuple[int, Path, Future[EvalResult]]] = deque()

    def _on_training_start(self) -> None:
        if self.background:
            self._pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=in_worker_process
            )
            self._snapshots = tempfile.TemporaryDirectory(prefix=".evaluating-", dir=self.out)
        self._next = self.num_timesteps + self.every
        if self.num_timesteps not in self._logged:  # a resume starts where the last row ended
            self._evaluate()  # where learning starts from (a warm start shows here)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            self._evaluate()
        self._collect(wait=False)
        return True

    def _on_training_end(self) -> None:
        if self._asked != self.num_timesteps:
            self._evaluate()
        self._collect(wait=True)
        self.abandon()

    def abandon(self) -> None:
        """Stop the background worker and remove its snapshots (the end of training, or an
        interruption: evaluations still playing are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._snapshots is not None:
            self._snapshots.cleanup()
            self._snapshots = None
        self._pending.clear()

    def _evaluate(self) -> None:
        steps = self._asked = self.num_timesteps
        if self._pool is None or self._snapshots is None:
            policy = FrozenPolicy(self.model, self.action, deterministic=True)
            result = evaluate_policy_win_rate(
                policy, self.opponent, self.frames, self.seed, self.noise, self.noise_scale
            )
            self._record(steps, result, None)
            return
        snapshot = Path(self._snapshots.name) / f"{steps}.zip"
        self.model.save(snapshot)
        job = self._pool.submit(
            evaluate_checkpoint,
            snapshot,
            self.action,
            self.opponent,
            self.frames,
            self.seed,
            self.noise,
            self.noise_scale,
        )
        self._pending.append((steps, snapshot, job))

    def _collect(self, wait: bool) -> None:
        """Record the background evaluations that are done, in the order they were asked for
        (all of them with ``wait``)."""
        while self._pending and (wait or self._pending[0][2].done()):
            steps, snapshot, job = self._pending.popleft()
            self._record(steps, job.result(), snapshot)

    def _record(self, steps: int, result: EvalResult, snapshot: Path | None) -> None:
        """Log and write one evaluation; keep its model as the best one if it is."""
        self.results.append((steps, result))
        self.logger.record("eval/win_rate", result.win_rate)
        self.logger.record("eval/seconds", result.seconds)
        self.logger.dump(steps)
        write_row(self.out / EVALUATIONS_FILE, steps, result)
        if result.win_rate > self.best:
            self.best = result.win_rate
            if snapshot is None:
                self.model.save(self.out / BEST_MODEL_FILE)
            else:
                os.replace(snapshot, self.out / BEST_MODEL_FILE)
        elif snapshot is not None:
            snapshot.unlink()


def write_row(path: Path, steps: int, result: EvalResult) -> None:
    """Append one evaluation to ``path`` (CSV with a header)."""
    new = not path.exists()
    low, high = result.interval
    with path.open("a", newline="") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(EVAL_FIELDS)
        writer.writerow(
            [steps, result.frames, result.wins, result.win_rate, low, high, result.seconds]
        )


def load_evaluations(path: Path) -> list[dict[str, Any]]:
    """The rows of an ``evaluations.csv`` (numbers as floats); none when there is no file."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
