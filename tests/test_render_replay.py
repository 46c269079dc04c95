"""Replays: trajectories resampled to the replay's rate, GIF and MP4 written and read back."""

from __future__ import annotations

import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest
from gymnasium.error import DependencyNotInstalled

from kinghill.envs.drawing.render import COLOURED_FILL, TableRenderer
from kinghill.envs.drawing.replay_video import ReplayShot, replay_frames, resample, write_replay
from kinghill.physics import TableSpec, TableState, Trajectory

SPEC = TableSpec()


def _rolling_shot(duration: float = 1.0, pocket_at: float | None = None) -> Trajectory:
    """White 1 runs from the house toward the rear at 2 m/s, sampled at 60 Hz; white 2 may drop."""
    times = np.arange(0.0, duration + 1e-9, 1 / 60)
    positions = np.repeat(TableState.rack(SPEC).positions[None], len(times), axis=0)
    positions[:, 1, 0] = 0.4 + 2.0 * times
    on_table = np.ones((len(times), 8), dtype=bool)
    if pocket_at is not None:
        gone = times >= pocket_at
        on_table[gone, 2] = False
        positions[gone, 2] = np.nan
    return Trajectory(times, positions, on_table)


def _shot(caption: str = "P0: white 2 credited", **kwargs: float) -> ReplayShot:
    return ReplayShot(_rolling_shot(**kwargs), caption, ("P0 whites 0/8 fouls 0 | to move: P0",))


def test_resample_gives_one_frame_per_tick_interpolated() -> None:
    positions, on_table = resample(_rolling_shot(duration=1.0), fps=25)
    assert positions.shape == (26, 8, 2) and on_table.shape == (26, 8)
    np.testing.assert_allclose(positions[:, 1, 0], 0.4 + 2.0 * np.arange(26) / 25, atol=1e-9)


def test_resample_keeps_a_ball_until_the_sample_that_pockets_it() -> None:
    trajectory = _rolling_shot(duration=1.0, pocket_at=0.5)
    positions, on_table = resample(trajectory, fps=24)
    times = np.arange(25) / 24
    np.testing.assert_array_equal(on_table[:, 2], times < 0.5 - 1e-9)
    assert np.isfinite(positions[on_table]).all()


def test_frames_hold_the_final_position_with_the_ruling() -> None:
    renderer = TableRenderer(SPEC, 400, overlay_lines=2)
    frames = list(replay_frames([_shot(duration=0.5)], renderer, fps=20, hold_s=1.5))
    assert [ticks for _, ticks in frames] == [1] * 11 + [30]
    last_motion, hold = frames[-2][0], frames[-1][0]
    caption_rows = np.flatnonzero(np.any(last_motion != hold, axis=(1, 2)))
    assert caption_rows.min() > renderer.to_pixel((0.0, 0.0))[1]  # only the caption differs


def test_gif_is_written_and_read_back_frame_for_frame(tmp_path: Path) -> None:
    shots = [_shot(duration=1.0), _shot("P1: foul 7.1", duration=0.5, pocket_at=0.2)]
    path = write_replay(tmp_path / "frame.gif", shots, SPEC, fps=20, hold_s=1.0, width_px=400)
    frames = iio.imread(path, index=None)
    # per shot: one picture per motion tick, then one held picture (GIF holds by its delay)
    assert frames.shape == (21 + 1 + 11 + 1, *TableRenderer(SPEC, 400, 2).shape)
    delays = [iio.immeta(path, index=i)["duration"] for i in range(len(frames))]
    assert delays[21] == delays[-1] == 1000
    assert sum(delays) == pytest.approx(1000 * (21 + 20 + 11 + 20) / 20, abs=10)


def test_gif_pictures_match_the_rendered_ones(tmp_path: Path) -> None:
    """The GIF's fixed palette keeps the table and the coloured ball's colours (no dithering)."""
    shot = _shot(duration=0.2)
    path = write_replay(tmp_path / "shot.gif", [shot], SPEC, fps=10)
    renderer = TableRenderer(SPEC, 800, 2)
    rendered = renderer.draw(
        shot.trajectory.positions[0], shot.trajectory.on_table[0], shot.overlay
    )
    first = iio.imread(path, index=0)
    assert np.abs(first.astype(int) - rendered).mean() < 2
    column, row = np.round(renderer.to_pixel(TableState.rack(SPEC).xy(0))).astype(int)
    patch = first[row - 3 : row + 4, column - 3 : column + 4].reshape(-1, 3).astype(int)
    assert np.abs(np.median(patch, axis=0) - COLOURED_FILL).max() < 30


def test_mp4_is_written_with_every_tick(tmp_path: Path) -> None:
    ffmpeg = pytest.importorskip("imageio_ffmpeg")
    path = write_replay(tmp_path / "shot.mp4", [_shot(duration=1.0)], SPEC, fps=20, hold_s=0.5)
    frames, seconds = ffmpeg.count_frames_and_secs(str(path))
    assert frames == 21 + 10 and seconds == pytest.approx(31 / 20, abs=0.06)


def test_mp4_without_imageio_ffmpeg_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(DependencyNotInstalled, match=r"kinghill\[video\]"):
        write_replay(tmp_path / "shot.mp4", [_shot()], SPEC)
    assert not (tmp_path / "shot.mp4").exists()


def test_unknown_suffix_and_empty_replays_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must end in"):
        write_replay(tmp_path / "shot.avi", [_shot()], SPEC)
    with pytest.raises(ValueError, match="no shots"):
        write_replay(tmp_path / "shot.gif", [], SPEC)
    with pytest.raises(ValueError, match="fps <= 50"):
        write_replay(tmp_path / "shot.gif", [_shot()], SPEC, fps=60)


def test_a_trajectory_of_the_wrong_shape_is_refused() -> None:
    trajectory = _rolling_shot()
    short = Trajectory(trajectory.times, trajectory.positions[:-1], trajectory.on_table)
    with pytest.raises(ValueError, match="positions must be"):
        ReplayShot(short, "ruling")


def test_a_result_without_trajectory_is_refused() -> None:
    from kinghill.physics import Shot, ShotResult

    state = TableState.rack(SPEC)
    result = ShotResult(Shot(cue_ball=1, phi=0.0, speed=1.0), state, (), 0.0, 0)
    with pytest.raises(ValueError, match="trajectory=True"):
        ReplayShot.from_result(result, "ruling")
