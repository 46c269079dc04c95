"""The learning curve from ``Monitor`` logs."""

from pathlib import Path

import numpy as np

from kinghill.experiments.training.curve import load_curve, plot_learning_curve


def _monitor(path: Path, rows: list[tuple[float, int, float, float]]) -> None:
    lines = ['#{"t_start": 0.0, "env_id": "x"}', "r,l,t,won"]
    lines += [f"{r},{n},{t},{won}" for r, n, t, won in rows]
    path.write_text("\n".join(lines) + "\n")


def test_train_curve_merges_envs_in_time_order(tmp_path: Path) -> None:
    _monitor(tmp_path / "0.monitor.csv", [(1.0, 2, 1.0, 1.0), (-1.0, 3, 3.0, 0.0)])
    _monitor(tmp_path / "1.monitor.csv", [(0.5, 4, 2.0, 1.0)])
    curve = load_curve(tmp_path, window=2)
    np.testing.assert_allclose(curve.steps, [2, 6, 9])
    np.testing.assert_allclose(curve.reward_mean, [1.0, 0.75, -0.25])
    np.testing.assert_allclose(curve.win_rate, [1.0, 1.0, 0.5])
    png = plot_learning_curve(tmp_path, tmp_path / "c.png", window=2)
    assert png.episodes == 3
    assert (tmp_path / "c.png").read_bytes().startswith(b"\x89PNG")
