"""The training speed of finished ``kinghill train`` runs, one markdown row per run folder:
steps trained (the last row of ``evaluations.csv``), the whole command's wall time
(``run.json``: warm start, evaluations and all), steps/s over it, and SB3's own steps/s over
the learning phase (``time/fps`` of the last rollout in ``tb/progress.csv``).

    python3 benchmarks/training/summary.py runs/ref5 runs/ref8
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path


def row(run: Path) -> str:
    """The run's figures as a markdown table row."""
    with (run / "evaluations.csv").open() as f:
        evaluations = list(csv.DictReader(f))
    with (run / "tb" / "progress.csv").open() as f:
        rollouts = [r for r in csv.DictReader(f) if r.get("time/fps")]
    wall = json.loads((run / "run.json").read_text())["result"]["wall_seconds"]
    steps = int(evaluations[-1]["steps"])
    fps = int(rollouts[-1]["time/fps"])
    learning = float(rollouts[-1]["time/time_elapsed"])
    rates = ", ".join(f"{float(r['win_rate']):.2f}" for r in evaluations)
    return (
        f"| {run} | {steps:,} | {wall:.0f} s | {steps / wall:.0f} | {fps} ({learning:.0f} s) "
        f"| {rates} |"
    )


def main(runs: list[str]) -> None:
    print("| run | steps | wall | steps/s, whole command | steps/s, learning (its time) "
          "| evaluations against the heuristic |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for run in runs:
        print(row(Path(run)))


if __name__ == "__main__":
    main(sys.argv[1:])
