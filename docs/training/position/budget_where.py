"""Where more simulations pay: would a decision's budget spent where it changes the choice beat
the same budget spread evenly? On the quicker measure's positions (``decision_quality.py``) a
cheap and a dear setting of the refined search decide each position, both choices are scored
alike (the same deviations, the leaves by the position net), and each position's gain of the
dear over the cheap is set beside what the cheap search saw (its halving's arms):

    python3 docs/training/position/budget_where.py --frames 200 --jobs 2 \
        --out docs/training/position/budget-where.json

For each statistic the positions are split in quarters; the bound is what spending the budget
in proportion to a quarter's gain would buy over spreading it evenly, as a share of the dear
setting's gain (each position's gain taken to grow with the log of its budget).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from decision_quality import FIRST, NET, positions, shot_values

from kinghill.agents import make_agent
from kinghill.agents.position_value import PositionNet, PositionValue
from kinghill.agents.search import Arm

CHEAP = f"variants:refine?value={NET}&arms=12&budget=60&refine_budget=72"
"""The strongest learned player at ``search``'s time (docs/training.md)."""
DEAR = f"variants:refine?value={NET}&budget=240&refine_budget=216"
"""The same search with about 2.7 times its time (0.61 against ``search``)."""


def spread(arms: list[Arm]) -> float:
    """How far apart the halving's arms scored: the spread of their means."""
    means = [a.mean for a in arms if a.count]
    return float(np.std(means)) if means else 0.0


def gap(arms: list[Arm]) -> float:
    """The lead of the best of the last round's arms over the next (1 with one arm)."""
    if len(arms) < 2:
        return 1.0
    counts = sorted((a.count for a in arms), reverse=True)
    last = sorted((a.mean for a in arms if a.count >= counts[1]), reverse=True)
    return last[0] - last[1]


def best(arms: list[Arm]) -> float:
    """The mean of the arm the halving sampled most: the value it expects."""
    return max(arms, key=lambda a: a.count).mean if arms else 0.0


STATISTICS: dict[str, Callable[[list[Arm]], float]] = {
    "spread": spread,
    "gap": gap,
    "best": best,
    "arms": len,
}
"""What the cheap search saw that a budget could be set by."""


def _rows(frames: range) -> list[dict[str, float]]:
    """Each position of ``frames``: both choices' values, the cheap search's statistics, whites
    needed, and both agents' CPU seconds."""
    leaf = PositionValue(PositionNet.load(NET))
    cheap, dear = make_agent(CHEAP, seed=0), make_agent(DEAR, seed=0)
    rows = []
    for shot, seed in positions(frames):
        chosen, seconds = [], []
        for agent in (cheap, dear):
            agent.reset(seed)
            start = time.process_time()
            chosen.append(agent.act(shot.view))
            seconds.append(time.process_time() - start)
        values = shot_values(shot.view, chosen, 300, seed, leaf)
        row = {name: float(f(cheap.last_arms)) for name, f in STATISTICS.items()}
        row |= {"cheap": values[0], "dear": values[1], "cheap_s": seconds[0]}
        row |= {"dear_s": seconds[1], "needed": shot.view.frame.whites_needed(shot.view.player)}
        rows.append(row)
    return rows


def bound(gains: np.ndarray, groups: np.ndarray, ratio: float) -> float:
    """What budgets in proportion to each group's mean gain buy over an even spread, as a share
    of the gain of ``ratio`` times the budget everywhere: a gain growing as w log(budget) is
    best served by budgets in proportion to w, worth sum w log(w / mean w) more (a group that
    loses is given almost none)."""
    masks = [groups == g for g in np.unique(groups)]
    weights = np.array([max(gains[m].mean(), 1e-9) for m in masks])
    sizes = np.array([m.sum() for m in masks])
    mean = float((weights * sizes).sum() / sizes.sum())
    return float((sizes * weights * np.log(weights / mean)).sum() / (gains.sum() * math.log(ratio)))


def _se(x: np.ndarray) -> float | None:
    """The standard error of the mean of ``x`` (None for fewer than two)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else None


def quarters(rows: list[dict[str, float]], gains: np.ndarray, ratio: float) -> dict[str, Any]:
    """For each statistic (and the whites needed): its quarters' ranges, positions, gains with
    standard errors, and the :func:`bound` of a budget set by them."""
    found = {}
    for name in [*STATISTICS, "needed"]:
        x = np.array([r[name] for r in rows])
        groups = np.digitize(x, np.unique(np.quantile(x, [0.25, 0.5, 0.75])))
        masks = [groups == g for g in np.unique(groups)]
        found[name] = {
            "correlation": float(np.corrcoef(x, gains)[0, 1]) if x.std() > 0 else 0.0,
            "quarters": [
                {
                    "from": float(x[m].min()),
                    "to": float(x[m].max()),
                    "positions": int(m.sum()),
                    "gain": float(gains[m].mean()),
                    "se": _se(gains[m]),
                }
                for m in masks
            ],
            "bound": bound(gains, groups, ratio),
        }
    return found


def measure(frames: int, jobs: int) -> dict[str, Any]:
    """The record: the dear setting's gain over the cheap one on the shot positions of
    ``frames`` frames (``jobs`` processes), its time ratio, and :func:`quarters`."""
    shares = [range(FIRST + j, FIRST + frames, jobs) for j in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        rows = [row for part in pool.map(_rows, shares) for row in part]
    gains = np.array([r["dear"] - r["cheap"] for r in rows])
    ratio = sum(r["dear_s"] for r in rows) / sum(r["cheap_s"] for r in rows)
    return {
        "cheap": CHEAP,
        "dear": DEAR,
        "positions": len(rows),
        "gain": float(gains.mean()),
        "gain_se": _se(gains),
        "time_ratio": ratio,
        "statistics": quarters(rows, gains, ratio),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--frames", type=int, default=200, help="frames of positions, from the measure's first"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--out", type=Path, help="write the record (JSON) here too")
    args = parser.parse_args()
    record = measure(args.frames, args.jobs)
    record["command"] = (
        f"python3 docs/training/position/budget_where.py --frames {args.frames} --jobs {args.jobs}"
    )
    text = json.dumps(record, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
