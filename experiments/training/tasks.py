"""What the iterated training runs (expert iteration, the position value's iterations) share:
their self-play played as tasks in local worker processes or on Ray, and their curve of scores
against ``search`` written as ``evaluations.csv`` and ``curve.png``."""

from __future__ import annotations

import csv
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

from kinghill.experiments.tournaments.ray_runner import import_ray

T = TypeVar("T")

EVALUATIONS = "evaluations.csv"
CURVE = "curve.png"


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
