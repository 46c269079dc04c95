"""Pictures that show the point: the shot's cue ball ringed, its call (pocket and route) drawn,
who shoots with what in the status strip, replay speed; and the call path's geometry."""

from __future__ import annotations

import math
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

from kinghill.envs import Action, ChoiceAction, FrameView, KingOfTheHillEnv, ShotAction
from kinghill.envs.drawing.render import CALL_LINE, CUE_RING, ShotMarks, TableRenderer, shot_line
from kinghill.envs.drawing.replay_video import ReplayShot, replay_frames
from kinghill.envs.planning.aim import pocket_target
from kinghill.envs.planning.call_path import bank_points, call_path
from kinghill.envs.rules import Call, Decision
from kinghill.experiments.cli.app import main
from kinghill.physics import Cushion, Pocket, Shot, TableSpec, TableState, Trajectory

SPEC = TableSpec()
RACK = TableState.rack(SPEC)


def _near(picture: np.ndarray, colour: tuple[int, int, int], tolerance: int = 40) -> np.ndarray:
    """A mask of the pixels within ``tolerance`` of ``colour`` on every channel."""
    return np.all(np.abs(picture.astype(int) - colour) <= tolerance, axis=-1)


def _around(renderer: TableRenderer, xy: tuple[float, float], radius_px: float) -> np.ndarray:
    """A mask of the pixels within ``radius_px`` of table point ``xy``."""
    column, row = renderer.to_pixel(xy)
    rows, columns = np.mgrid[: renderer.shape[0], : renderer.shape[1]]
    return (columns - column) ** 2 + (rows - row) ** 2 <= radius_px**2


def test_bank_points_reflect_like_a_ball_off_the_cushion() -> None:
    """One bank: on the line of centres of the cushion, angle in equal to angle out."""
    start, end = (1.0, 0.5), (2.5, 0.4)
    (bank,) = bank_points(start, [Cushion.LEFT_REAR], end, SPEC)
    assert bank[1] == pytest.approx(SPEC.width - SPEC.radius)
    slope_in = (bank[0] - start[0]) / (bank[1] - start[1])
    slope_out = (end[0] - bank[0]) / (bank[1] - end[1])
    assert slope_in == pytest.approx(slope_out)


def test_call_path_runs_cue_ball_banks_coloured_ball_pocket() -> None:
    positions = RACK.positions
    call = Call.abricol(1, Pocket.REAR_RIGHT, [Cushion.LEFT_FRONT], [Cushion.REAR])
    path = call_path(call, positions, SPEC)
    assert len(path) == 5  # cue ball, its bank, the coloured ball, its bank, the pocket
    assert path[0] == pytest.approx(tuple(positions[1]))
    assert path[1][1] == pytest.approx(SPEC.width - SPEC.radius)
    assert path[2] == pytest.approx(tuple(positions[0]))
    assert path[3][0] == pytest.approx(SPEC.length - SPEC.radius)
    assert path[4] == pytest.approx(pocket_target(Pocket.REAR_RIGHT, SPEC))
    combination = call_path(Call.combination(1, (2,), Pocket.REAR_LEFT), positions, SPEC)
    assert combination[1] == pytest.approx(tuple(positions[2]))


def test_marks_ring_the_cue_ball_and_draw_the_call() -> None:
    renderer = TableRenderer(SPEC, 800, 2)
    call = Call.double(1, Pocket.MIDDLE_LEFT, [Cushion.RIGHT_REAR])
    marks = ShotMarks.of(1, call, RACK.positions, SPEC)
    plain = renderer.draw_state(RACK)
    marked = renderer.draw_state(RACK, marks=marks)
    ball_px = SPEC.radius * renderer.scale
    ring = _around(renderer, RACK.xy(1), ball_px + 4) & ~_around(renderer, RACK.xy(1), ball_px)
    assert _near(marked, CUE_RING)[ring].mean() > 0.3
    assert not _near(plain, CUE_RING)[ring].any()
    for a, b in zip(marks.path, marks.path[1:], strict=False):  # the middle of every segment
        middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert _near(marked, CALL_LINE)[_around(renderer, middle, 2)].any(), middle
    pocket = pocket_target(Pocket.MIDDLE_LEFT, SPEC)
    assert _near(marked, CALL_LINE)[_around(renderer, pocket, 20)].sum() > 20
    assert not _near(plain, CALL_LINE).any()
    whites_only = renderer.draw_state(RACK, marks=ShotMarks.of(3, None, RACK.positions, SPEC))
    assert not _near(whites_only, CALL_LINE).any()
    assert _near(whites_only, CUE_RING)[_around(renderer, RACK.xy(3), ball_px + 4)].any()


def test_shot_line_says_who_shoots_which_ball_and_the_call() -> None:
    call = Call.double(3, Pocket.MIDDLE_LEFT, [Cushion.REAR])
    line = shot_line(1, 3, call, "search")
    assert line.startswith("P1 (search) shoots cue ball 3, calls 3 > 0 [REAR] => MIDDLE_LEFT")
    assert "double" in line
    assert "whites only" in shot_line(0, 5, None)


def _rolling(duration: float) -> Trajectory:
    times = np.arange(0.0, duration + 1e-9, 1 / 60)
    positions = np.repeat(RACK.positions[None], len(times), axis=0)
    positions[:, 1, 0] = 0.4 + 1.0 * times
    return Trajectory(times, positions, np.ones((len(times), 8), dtype=bool))


def test_replay_speed_scales_the_pictures_of_motion() -> None:
    renderer = TableRenderer(SPEC, 400, 1)
    shot = ReplayShot(_rolling(2.0), "ruling", marks=ShotMarks(1))
    counts = {
        speed: len(list(replay_frames([shot], renderer, fps=10, speed=speed)))
        for speed in (0.5, 1.0, 2.0)
    }
    assert counts == {0.5: 41 + 1, 1.0: 21 + 1, 2.0: 11 + 1}
    with pytest.raises(ValueError, match="speed"):
        list(replay_frames([shot], renderer, speed=0))


def test_play_replay_shows_the_cue_ball_and_the_fps_speed_options(tmp_path: Path) -> None:
    """``kinghill play --fps --speed``: every picture of a shot rings its cue ball."""
    out = tmp_path / "frame.gif"
    args = ["play", "heuristic", "heuristic", "--seed", "1", "--max-shots", "2", "--no-noise"]
    assert (
        main([*args, "--out-file", str(out), "--fps", "10", "--speed", "4", "--width", "400"]) == 0
    )
    pictures = iio.imread(out, index=None)
    slow = tmp_path / "slow.gif"
    assert (
        main([*args, "--out-file", str(slow), "--fps", "10", "--speed", "1", "--width", "400"]) == 0
    )
    assert len(iio.imread(slow, index=None)) > 2.5 * len(pictures)
    ringed = [_near(p, CUE_RING, 30).sum() for p in pictures]
    # the shots' pictures (the break's cue ball, then the next shot's), then the result's, which
    # shows the final table with no cue ball marked
    shots = next((i for i, n in enumerate(ringed) if n <= 5), len(ringed))
    assert shots >= len(ringed) - 3 and min(ringed[:shots]) > 5, ringed
    assert math.isclose(iio.immeta(out, index=0)["duration"], 100, abs_tol=10)


def _calling(view: FrameView) -> Action:
    """An opponent that breaks, plays on after fouls, and otherwise calls a plain pot."""
    if view.decision is Decision.BREAK:
        return ShotAction(Shot(1, 0.0, 7.0))
    if view.decision is Decision.CHOICE:
        return ChoiceAction(True)
    cue = next(b for b in view.state.balls_on_table() if b != 0)
    return ShotAction(Shot(cue, 0.3, 2.0), Call.plain(cue, Pocket.REAR_LEFT))


def test_env_render_shows_the_last_shot_its_cue_ball_call_and_line() -> None:
    env = KingOfTheHillEnv(opponent=_calling, render_mode="rgb_array", breaker="opponent")
    seed = 0
    while env.reset(seed=seed) and env.game.frame.decision is not Decision.SHOT:
        seed += 1  # a break that fouled leaves the learner the 10.4 choice
    cue = next(b for b in env.game.state.balls_on_table() if b != 0)
    env.step(ShotAction(Shot(cue, 0.3, 2.0), Call.plain(cue, Pocket.REAR_LEFT)))
    picture = env.render()
    assert picture is not None and not env.game.is_over
    assert _near(picture, CALL_LINE, 30).sum() > 100  # the called route and pocket
    assert _near(picture, CUE_RING, 30).sum() > 5
    shot = env._display.overlay(env.game)[1]
    assert "shoots cue ball" in shot and "REAR_LEFT" in shot


def test_ball_numbers_are_bold_and_dark_at_800_px() -> None:
    """At 800 px a ball is 14 px across: its number must be dark and thick enough to read
    (thin antialiased digits came out grey, under 6% of the ball dark)."""
    renderer = TableRenderer(SPEC, 800)
    picture = renderer.draw_state(RACK)
    ball_px = SPEC.radius * renderer.scale
    for ball in range(1, 8):
        disc = _around(renderer, RACK.xy(ball), 0.9 * ball_px)
        dark = picture[disc].astype(int).mean(-1) < 110
        assert dark.mean() > 0.12, (ball, dark.mean())
