"""What the self-play trainings (the leaf value, expert iteration, the position value) share:
frames played in parts or as tasks in local worker processes or on Ray, one Ray instance for a
whole run, the parts' arrays joined, and the curve of scores against ``search`` written as
``evaluations.csv`` and ``curve.png``."""

from __future__ import annotations

import csv
import json
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from kinghill.experiments.tournaments.ray_runner import import_ray
from kinghill.experiments.training.result import TrainResult

T = TypeVar("T")

EVALUATIONS = "evaluations.csv"
CURVE = "curve.png"
NET_FILE = "net.npz"
"""An iteration's net, in its folder ``iteration-K``."""
SCORE_FILE = "score.json"
"""An iteration's row of ``evaluations.csv`` (kept, so that a resumed run keeps it)."""
BEST_FILE = "best.npz"
"""The run's best net: the first iteration's of the best score."""


def run_tasks(
    task: Callable[[Any], T], todo: Sequence[Any], jobs: int, ray: str | None = None
) -> Iterator[T]:
    """``task`` of each of ``todo`` in ``jobs`` spawned worker processes (they leave Ctrl-C to
    this process), or as Ray tasks when ``ray`` names a cluster (Ray started already); the
    results as each is done."""
    if ray is not None:
        module = import_ray()
        pending = [module.remote(task).remote(item) for item in todo]
        while pending:
            done, pending = module.wait(pending, num_returns=1)
            yield module.get(done[0])
        return
    with get_context("spawn").Pool(
        min(jobs, len(todo)),
        initializer=signal.signal,
        initargs=(signal.SIGINT, signal.SIG_IGN),
    ) as pool:
        yield from pool.imap_unordered(task, todo)


def played_in_parts(
    play: Callable[[int, int, str], T], frames: int, seed: int, agent: str, jobs: int
) -> T:
    """``play(size, first, agent)`` (a dataclass of arrays) over ``frames`` frames from seed
    ``seed`` split into ``jobs`` parts of consecutive seeds, played in worker processes (they
    leave Ctrl-C to this process, which ends them: a worker the terminal's SIGINT reached would
    print its own traceback); the parts joined in order (:func:`concatenated`), so that they hold
    what one run of ``play`` would."""
    sizes = [frames // jobs + (i < frames % jobs) for i in range(min(jobs, frames))]
    starts = [seed + sum(sizes[:i]) for i in range(len(sizes))]
    if len(sizes) == 1:
        return play(frames, seed, agent)
    with get_context("spawn").Pool(
        len(sizes), initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)
    ) as pool:
        parts = pool.starmap(play, zip(sizes, starts, [agent] * len(sizes), strict=True))
    return concatenated(parts)


def concatenated(parts: Sequence[T]) -> T:
    """Dataclasses of arrays (all of one type) joined field by field, in order."""
    kind = type(parts[0])
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    return kind(*(np.concatenate([getattr(p, name) for p in parts]) for name in names))


def on_cluster(ray: str | None, run: Callable[[], T]) -> T:
    """``run()``; with ``ray`` (a cluster address, 'auto', or 'local' to start one here) one
    Ray instance serves it, started here unless one is connected already (and then left)."""
    if ray is None:
        return run()
    module = import_ray()
    started_here = not module.is_initialized()
    if started_here:
        module.init(address=None if ray == "local" else ray, log_to_driver=False)
    try:
        return run()
    finally:
        if started_here:
            module.shutdown()


def held_out_frames(frames: np.ndarray, share: float, seed: int = 0) -> np.ndarray:
    """Which positions are held out of a fit to measure it: those of a seeded ``share`` of the
    frames (whole frames, so that positions of one frame are not on both sides); ``frames``
    holds each position's frame seed."""
    ids = np.unique(frames)
    rng = np.random.default_rng(seed)
    kept = rng.choice(ids, size=max(1, round(share * len(ids))), replace=False)
    return np.isin(frames, kept)


def write_curve(
    out: Path, header: Sequence[str], rows: Sequence[Sequence[Any]], score: int, title: str
) -> None:
    """``evaluations.csv`` (``header`` and ``rows``) and ``curve.png``: column ``score`` of
    each row (its score against ``search``) against its first column (the iteration)."""
    with (out / EVALUATIONS).open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5, 3.2))
    axes.plot([r[0] for r in rows], [r[score] for r in rows], marker="o")
    axes.axhline(0.5, color="grey", linewidth=0.8)
    axes.set(xlabel="iteration", ylabel="score against search", ylim=(0, 1))
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(out / CURVE, dpi=100)
    plt.close(figure)


def iterate(
    out: Path,
    iterations: int,
    play: Callable[[int, Path, Path | None], int],
    fit: Callable[[int, Path, Path], None],
    evaluate: Callable[[Path, Path], list[float]],
    header: Sequence[str],
    title: str,
) -> list[list[float]]:
    """An iterated run's loop, resuming what ``out`` holds: in each iteration's folder,
    ``play(iteration, folder, last net)`` (self-play; None before the first net) returns how
    much the run learns from so far; ``fit(iteration, folder, net)`` writes the net unless it
    is there; ``evaluate(net, eval folder)`` gives its score against ``search`` (first) and
    more, unless the iteration's row is kept already. Each row is ``[iteration, learnt from,
    *evaluated, seconds]``; the best net is copied to :data:`BEST_FILE`, and the rows so far
    are written as ``evaluations.csv`` under ``header`` and drawn as ``curve.png``."""
    rows: list[list[float]] = []
    net: Path | None = None
    for iteration in range(1, iterations + 1):
        began = time.perf_counter()
        folder = out / f"iteration-{iteration}"
        folder.mkdir(exist_ok=True)
        learnt_from = play(iteration, folder, net)
        net = folder / NET_FILE
        scored = folder / SCORE_FILE
        if not net.exists():
            scored.unlink(missing_ok=True)
            fit(iteration, folder, net)
        if not scored.exists():
            evaluated = evaluate(net, folder / "eval")
            row = [iteration, learnt_from, *evaluated, time.perf_counter() - began]
            scored.write_text(json.dumps(row))
        rows.append(json.loads(scored.read_text()))
        if rows[-1][2] > max((r[2] for r in rows[:-1]), default=-1.0):
            shutil.copyfile(net, out / BEST_FILE)  # the first of the best, as reported
        write_curve(out, header, rows, 2, title)
    return rows


def iterated_result(
    out: Path, rows: Sequence[Sequence[float]], frames: int, seconds: float, **extra: Any
) -> TrainResult:
    """What an iterated run (:func:`iterate`'s ``rows``) leaves: its best net and curve,
    ``frames`` self-play frames, the last score against ``search``, the best iteration and
    its score, and ``extra``."""
    best = max(rows, key=lambda r: r[2])
    return TrainResult(
        model=out / BEST_FILE,
        curve=out / CURVE,
        wall_seconds=seconds,
        episodes=frames,  # self-play frames, as run.json says
        final_reward_mean=float("nan"),
        final_win_rate=float(rows[-1][2]),
        extra={
            **extra,
            "best_iteration": int(best[0]),
            "best_score_vs_search": float(best[2]),
        },
    )
