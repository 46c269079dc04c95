"""The learning curve of a run: episode reward and frames won along the environment steps,
read from SB3's ``Monitor`` logs (or given by RLlib's iterations) and drawn with the evaluation
win rates of ``evaluations.csv``."""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CURVE_FILE = "learning_curve.png"


@dataclass(frozen=True)
class Curve:
    """Episode statistics along training, from the ``Monitor`` logs of every env."""

    steps: np.ndarray
    reward_mean: np.ndarray
    win_rate: np.ndarray

    @property
    def episodes(self) -> int:
        return len(self.steps)

    @property
    def last_reward_mean(self) -> float:
        return float(self.reward_mean[-1]) if self.episodes else math.nan

    @property
    def last_win_rate(self) -> float:
        return float(self.win_rate[-1]) if self.episodes else math.nan


def load_curve(monitor_dir: Path, window: int = 200) -> Curve:
    """Episodes of all envs, and of every session of a resumed run, in the order they ended:
    cumulative steps, and the reward mean and win rate over the last ``window`` episodes
    (fewer at the start)."""
    rows = sorted(
        (row for path in sorted(Path(monitor_dir).glob("*.monitor.csv")) for row in _rows(path)),
        key=lambda row: row["ended"],
    )

    def column(key: str) -> np.ndarray:
        return np.array([float(row.get(key) or 0.0) for row in rows])

    return Curve(
        steps=np.cumsum(column("l")),
        reward_mean=_running_mean(column("r"), window),
        win_rate=_running_mean(column("won"), window),
    )


def _rows(path: Path) -> list[dict[str, float]]:
    """The episodes of one ``Monitor`` file (a JSON comment line with the file's start time,
    then CSV with a header), each with ``ended``: its end in seconds since the epoch."""
    with path.open(newline="") as f:
        start = float(json.loads(f.readline().lstrip("#")).get("t_start", 0.0))
        return [
            {**{k: float(v or 0.0) for k, v in row.items()}, "ended": start + float(row["t"])}
            for row in csv.DictReader(f)
        ]


def _running_mean(values: np.ndarray, window: int) -> np.ndarray:
    sums = np.cumsum(np.insert(values, 0, 0.0))
    ends = np.arange(1, len(values) + 1)
    starts = np.maximum(ends - window, 0)
    return (sums[ends] - sums[starts]) / (ends - starts)


def plot_learning_curve(
    monitor_dir: Path,
    path: Path,
    title: str = "",
    window: int = 200,
    evaluations: Path | None = None,
    eval_label: str = "evaluation",
) -> Curve:
    """Draw episode reward mean and win rate against steps into ``path``, with the evaluation
    win rates of ``evaluations`` (``evaluations.csv``, with their intervals) when it exists;
    return the curve."""
    curve = load_curve(monitor_dir, window)
    draw_learning_curve(
        curve,
        path,
        title,
        evaluations,
        eval_label,
        reward_label=f"episode reward (mean of last {window})",
        win_label="frames won (same window)",
    )
    return curve


def draw_learning_curve(
    curve: Curve,
    path: Path,
    title: str = "",
    evaluations: Path | None = None,
    eval_label: str = "evaluation",
    reward_label: str = "episode reward",
    win_label: str = "frames won",
) -> None:
    """Draw ``curve`` (reward on the left axis, win rate on the right) and the evaluations of
    ``evaluations`` with their intervals into ``path``; both training backends use it."""
    import matplotlib

    from kinghill.experiments.training.win_rate import load_evaluations

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, reward_axis = plt.subplots(figsize=(7, 4), dpi=120)
    reward_axis.plot(curve.steps, curve.reward_mean, color="tab:blue")
    reward_axis.set_xlabel("environment steps")
    reward_axis.set_ylabel(reward_label, color="tab:blue")
    win_axis = reward_axis.twinx()
    win_axis.plot(curve.steps, curve.win_rate, color="tab:green")
    win_axis.set_ylabel(win_label, color="tab:green")
    win_axis.set_ylim(0, 1)
    rows = load_evaluations(evaluations) if evaluations is not None else []
    if rows:
        x = [r["steps"] for r in rows]
        y = [r["win_rate"] for r in rows]
        err = [[r["win_rate"] - r["low"] for r in rows], [r["high"] - r["win_rate"] for r in rows]]
        win_axis.errorbar(x, y, yerr=err, color="tab:red", marker="o", ms=3, label=eval_label)
        win_axis.legend(loc="lower right", fontsize=7)
    reward_axis.set_title(title, fontsize=9)
    reward_axis.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
