"""What the RL envs show of a frame (kinghill.envs.rl.table_display), kept once for both: the strip
under the table, the last shot's marks, the replay's shots."""

from pathlib import Path

import numpy as np
import pytest

from kinghill.envs import ChoiceAction, ShotAction
from kinghill.envs.game.loop import Game
from kinghill.envs.rl.table_display import TableDisplay, score_line
from kinghill.physics import BREAK_BALL, Shot

MISS = ShotAction(Shot(BREAK_BALL, np.pi, 0.3), place=(0.4, 0.9))
"""A break away from the rack: a miss, R-fouls(a)."""


def _played(display: TableDisplay, game: Game, action: ShotAction | ChoiceAction) -> None:
    before = game.state.positions
    display.record(game.play(action), before, game)


def test_a_shot_then_a_choice_then_a_new_frame() -> None:
    """A shot shows its line and ruling; the 10.4 choice after it (R-foul-choice) shows the
    choice and no shot; a new frame shows nothing but the score."""
    game = Game(trajectory_fps=30)
    game.reset(seed=1, breaker=0)
    display = TableDisplay(None, 30)
    _played(display, game, MISS)
    score, shot, ruling = display.overlay(game)
    assert score == score_line(game.frame) and "P1 (choice)" in score
    assert shot == "P0 shoots cue ball 1, whites only (no call)"
    assert ruling.startswith("P0: foul R-fouls(a)")
    _played(display, game, ChoiceAction(play_on=True))
    assert display.overlay(game)[1:] == ("", "player 1 chooses to play on (10.4)")
    picture = display.draw(game)
    assert picture is not None and picture.ndim == 3
    display.clear()
    assert display.overlay(game)[1:] == ("", "")
    with pytest.raises(ValueError, match="no shots recorded"):
        display.save_replay("never.gif", game)


def test_the_replay_keeps_each_shot_with_a_trajectory(tmp_path: Path) -> None:
    game = Game(trajectory_fps=30)
    game.reset(seed=1, breaker=0)
    display = TableDisplay(None, 30)
    _played(display, game, MISS)
    _played(display, game, ChoiceAction(play_on=False))  # handed back: player 0 again
    _played(display, game, ShotAction(Shot(BREAK_BALL, 0.0, 6.0)))
    path = display.save_replay(tmp_path / "frame.gif", game)
    assert path.stat().st_size > 0
