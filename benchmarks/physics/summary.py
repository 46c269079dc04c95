"""Summarise a before_after.sh run: per figure, each tree's median over its turns and the ratio
new / base of the medians, and the same ratio within each round of four turns (base, new, new,
base), whose median is the figure to quote on a shared machine.

    python3 benchmarks/physics/summary.py OUT_DIR > OUT_DIR/summary.md
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

FIGURES = {
    "break, shots/s": ("break", "shots_per_s"),
    "random (1000), shots/s": ("random", "shots_per_s"),
    "reference (5), shots/s": ("reference", "shots_per_s"),
    "peer break, shots/s": ("peer", "break", "shots_per_s"),
    "peer random (500), shots/s": ("peer", "random", "shots_per_s"),
    "peer random, one batch, shots/s": ("peer", "random_batch", "shots_per_s"),
    "first call, s (lower is better)": ("first_call_s",),
}


def value(run: dict, path: tuple[str, ...]) -> float:
    """The figure at ``path`` in one run's JSON."""
    for key in path:
        run = run[key]
    return float(run)  # type: ignore[arg-type]


def main(folder: Path) -> None:
    """Print the summary table of the runs in ``folder`` as Markdown."""
    runs: dict[int, tuple[str, dict]] = {}
    for file in folder.glob("*.json"):
        commit, turn = file.stem.rsplit("-", 1)
        runs[int(turn)] = (commit, json.loads(file.read_text()))
    turns = sorted(runs)
    base, new = runs[turns[0]][0], runs[turns[1]][0]
    rounds = [turns[k : k + 4] for k in range(0, len(turns) - 3, 4)]
    print(f"{len(rounds)} rounds of base {base}, new {new}, new, base\n")
    print(f"| figure | {base} median | {new} median | new / base | per round | median |")
    print("|---|---|---|---|---|---|")
    for name, path in FIGURES.items():
        of = {c: [value(r, path) for t, (cc, r) in runs.items() if cc == c] for c in (base, new)}
        mb, mn = statistics.median(of[base]), statistics.median(of[new])
        paired = []
        for quad in rounds:
            b = [value(runs[t][1], path) for t in quad if runs[t][0] == base]
            n = [value(runs[t][1], path) for t in quad if runs[t][0] == new]
            paired.append(statistics.fmean(n) / statistics.fmean(b))
        per = ", ".join(f"{r:.2f}" for r in paired)
        print(
            f"| {name} | {mb:.4g} | {mn:.4g} | {mn / mb:.2f} | {per} | "
            f"{statistics.median(paired):.2f} |"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
