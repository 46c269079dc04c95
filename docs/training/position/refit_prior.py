"""A prior refitted to the decisions of several expert-iteration runs' first iterations (their
shards, in the order given), as ``kinghill train-expert`` fits one run's:

    python3 docs/training/position/refit_prior.py OUT.npz RUN [RUN ...]

``distilled-1920x2.npz`` of docs/training.md: the runs ``runs/distill1920`` (frames 0-1999) and
``runs/distill1920b`` (frames 2000-3999) of ``search?budget=1920``, the commands in
docs/training.md; 32 hidden units, 40 epochs, seed 1 (what the first run's own fit used).
"""

import sys
from pathlib import Path

from kinghill.experiments.training.expert_iteration import Decisions, fit_prior
from kinghill.experiments.training.tasks import concatenated

HIDDEN, EPOCHS, SEED = 32, 40, 1


def shards(run: Path) -> list[Path]:
    """The first iteration's shards of ``run``, by their first frame."""
    return sorted(
        (run / "iteration-1").glob("shard-*.npz"), key=lambda p: int(p.stem.split("-")[1])
    )


if __name__ == "__main__":
    out, runs = sys.argv[1], [Path(r) for r in sys.argv[2:]]
    data = concatenated([Decisions.load(p) for run in runs for p in shards(run)])
    fit_prior(data, HIDDEN, EPOCHS, SEED).save(out)
    print(f"{len(data.results)} decisions of {len(runs)} runs: {out}")
