"""The position value's training (``kinghill train-position``): self-play, a net of the whole
position fitted to its results, and the search with that net played against ``search``;
iterated, each iteration's self-play played by the search with the net before it.

Iteration 1's frames are ``search`` against itself (the learnt break, noise on); iteration k's
are ``search-position`` with iteration k - 1's net. At every shot decision the whole position is
kept with the frame's result for the player to move (:mod:`.position_data`); the net
(:class:`~kinghill.agents.position_value.PositionNet`) is fitted to the positions of every
iteration so far and reported against the hand-made score on held-out frames
(:mod:`.position_training`); then ``search-position:NET`` plays ``search`` (``eval_frames``
frames, seats swapped, the two at the same budget) and the best net is kept.

Everything lands in ``out``: ``iteration-K/shard-S.npz`` (self-play, :data:`SHARD_FRAMES` frames
from seed S each), ``iteration-K/net.npz``, ``iteration-K/fit.json``, ``iteration-K/eval/`` (its
tournament), ``evaluations.csv``, ``curve.png``, ``best.npz`` and ``run.json``. A run stopped and
started again with the same command continues: finished shards, nets and evaluations are kept.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm import tqdm

from kinghill.agents.search import DEFAULT_BUDGET
from kinghill.envs.planning import warm_up
from kinghill.envs.rules import is_whole
from kinghill.experiments.tournaments import evaluate
from kinghill.experiments.tournaments.ray_runner import on_ray
from kinghill.experiments.training.config import ConfigError, at_least, check_eval_frames
from kinghill.experiments.training.position_data import SelfPlay, self_play
from kinghill.experiments.training.position_training import fit_and_report
from kinghill.experiments.training.result import (
    TrainResult,
    begin_run,
    write_run,
)
from kinghill.experiments.training.tasks import (
    concatenated,
    iterate,
    iterated_result,
    on_cluster,
    run_tasks,
)
from kinghill.physics import TableSpec

SHARD_FRAMES = 50
"""Self-play frames a shard holds (a worker's task; what a resumed run may lose)."""
FIT_FILE = "fit.json"
HEADER = [
    "iteration",
    "positions",
    "score_vs_search",
    "low",
    "high",
    "seconds_per_decision",
    "search_seconds_per_decision",
    "seconds",
]
"""The columns of ``evaluations.csv``: the iteration, the positions learnt from so far, its
score against ``search`` with the Wilson 95% interval, the two agents' mean seconds a decision
in that tournament, and the iteration's seconds."""


@dataclass(frozen=True)
class PositionConfig:
    """A run of the position value's training (see the module docstring)."""

    out: Path
    iterations: int = 3
    frames: int = 8000
    """Self-play frames an iteration."""
    budget: int = DEFAULT_BUDGET
    """Noisy simulations a decision of the searches, in self-play and evaluated."""
    eval_frames: int = 200
    hidden: tuple[int, int] = (64, 32)
    epochs: int = 10
    jobs: int = 1
    seed: int = 0
    ray: str | None = None
    """A Ray cluster address ('auto', 'local' to start one here): self-play shards and the
    evaluations' frames run there instead of in local workers."""

    def __post_init__(self) -> None:
        at_least(self, 1, "iterations", "frames", "budget", "epochs", "jobs")
        at_least(self, 0, "seed")
        check_eval_frames(self.eval_frames)
        if len(self.hidden) != 2 or not all(is_whole(n) and n >= 1 for n in self.hidden):
            raise ConfigError(f"two positive layer sizes (got {self.hidden!r})", "hidden")


def _player(net: Path | None, budget: int) -> str:
    """The self-play agent's spec: ``search``, or the search with ``net`` at its leaves."""
    return f"search?budget={budget}" if net is None else f"search-position:{net}?budget={budget}"


def _shard(arguments: tuple[str, int, int, Path]) -> Path:
    """Play one shard into its file (a worker's or a Ray task; the kernels loaded first)."""
    agent, first, frames, path = arguments
    warm_up()
    self_play(frames, first, agent).save(path)
    return path


def _shards(config: PositionConfig, folder: Path, agent: str, first: int) -> list[SelfPlay]:
    """The iteration's self-play: shards of :data:`SHARD_FRAMES` consecutive frame seeds from
    ``first``, played in ``config.jobs`` workers unless their files are there already."""
    starts = range(first, first + config.frames, SHARD_FRAMES)
    paths = [folder / f"shard-{start}.npz" for start in starts]
    todo = [
        (agent, start, min(SHARD_FRAMES, first + config.frames - start), path)
        for start, path in zip(starts, paths, strict=True)
        if not path.exists()
    ]
    if todo:
        bar = tqdm(  # on a terminal only, as a tournament's
            total=len(todo), desc=f"{folder.name} self-play", unit="shard", disable=None
        )
        for _ in run_tasks(_shard, todo, config.jobs, config.ray):
            bar.update()
        bar.close()
    return [SelfPlay.load(path) for path in paths]


def _evaluated(config: PositionConfig, net: Path, folder: Path) -> list[float]:
    """``search-position`` with ``net`` against ``search`` at the same budget: its score, the
    interval, and the two agents' seconds a decision (a tournament in ``folder``, resumed if
    it is there)."""
    report = evaluate(
        {"position": _player(net, config.budget), "search": _player(None, config.budget)},
        config.eval_frames,
        jobs=config.jobs,
        seed=config.seed + 1_000_003,
        out=folder,
        rating_samples=100,
        runner=None if config.ray is None else on_ray(config.ray),
    )
    score = report.win_rates["position"]["search"].win_rate
    times = [report.agents[name].seconds_per_decision for name in ("position", "search")]
    return [score.estimate, score.low, score.high, *(float(t or 0.0) for t in times)]


def train_position(config: PositionConfig) -> TrainResult:
    """Run the position value's training as ``config`` says (resuming what ``config.out``
    holds) and return where the best net is, with the evaluation curve. With ``config.ray``,
    one Ray instance serves the whole run (started here for 'local' or an address not yet
    connected)."""
    return on_cluster(config.ray, lambda: _train_position(config))


def _train_position(config: PositionConfig) -> TrainResult:
    out = Path(config.out)
    sessions = begin_run(out, config)
    start = time.perf_counter()
    warm_up()
    data: list[SelfPlay] = []

    def play(iteration: int, folder: Path, net: Path | None) -> int:
        first = config.seed + (iteration - 1) * config.frames
        data.extend(_shards(config, folder, _player(net, config.budget), first))
        return sum(len(d) for d in data)

    def fit(iteration: int, folder: Path, net: Path) -> None:
        fitted, report = fit_and_report(
            concatenated(data),
            TableSpec(),
            config.seed + iteration,
            hidden=config.hidden,
            epochs=config.epochs,
        )
        (folder / FIT_FILE).write_text(json.dumps(asdict(report), indent=2) + "\n")
        fitted.save(net)

    def evaluated(net: Path, folder: Path) -> list[float]:
        return _evaluated(config, net, folder)

    rows = iterate(
        out, config.iterations, play, fit, evaluated, HEADER, "search-position against search"
    )
    result = iterated_result(
        out,
        rows,
        config.frames * config.iterations,
        time.perf_counter() - start,
        positions=sum(len(d) for d in data),
    )
    write_run(out, config, result, sessions)
    return result
