"""What the RL envs show of a frame, kept once for the Gymnasium env and the AEC env: the strip
under the table (the score, the last shot with its cue ball and call, the last ruling), the last
shot's marks on the table, and the shots of the frame for a replay (GIF or MP4)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kinghill.envs.drawing.render import (
    RenderOutput,
    ShotMarks,
    TableRenderer,
    scoreboard,
    shot_line,
)
from kinghill.envs.drawing.replay_video import ReplayShot, write_replay
from kinghill.envs.game.actions import ShotAction
from kinghill.envs.game.loop import Game, Turn
from kinghill.envs.rules import Frame


@dataclass(frozen=True)
class _LastShot:
    """The last shot played, as a picture marks it: who played it, the action, the balls as it
    began."""

    player: int
    action: ShotAction
    start: np.ndarray


def score_line(frame: Frame) -> str:
    """The strip's first line: each player's whites and fouls, who is to move and to do what."""
    return scoreboard(
        frame.credit_counts, frame.required, frame.fouls, frame.to_move, frame.decision.value
    )


class TableDisplay:
    """The pictures of one env's frame: :meth:`record` each turn as it is played, :meth:`draw`
    the table when the env renders, :meth:`save_replay` the shots kept.

    A played shot shows its line (``P0 shoots cue ball 3, calls ...``), its marks and
    ``P0: <ruling>``; a decision that played no shot (a 10.4 choice, a time foul) shows the
    turn as one line and no marks. The marks and the shot's line are made only when a picture
    needs them: a learning run that never renders never builds them.

    :param mode: the env's ``render_mode`` (:class:`RenderOutput`).
    :param fps: the env's ``render_fps``: the window's pace and the replays'.
    """

    def __init__(self, mode: str | None, fps: float) -> None:
        self.fps = fps
        self._output = RenderOutput(mode, fps)
        self._renderer: TableRenderer | None = None
        self._last_shot: _LastShot | None = None
        self._ruling = ""
        self._shots: list[ReplayShot] = []

    @property
    def is_open(self) -> bool:
        """Whether a window (``human`` mode) is on screen."""
        return self._output.is_open

    def clear(self) -> None:
        """Forget the frame's turns and shots (a new frame)."""
        self._last_shot = None
        self._ruling = ""
        self._shots = []

    def record(self, turn: Turn, before: np.ndarray, game: Game) -> None:
        """Keep what pictures and replays show of ``turn``, just played in ``game``; ``before``:
        the balls as it began. A shot whose trajectory the game recorded joins the replay."""
        action = turn.action
        if not isinstance(action, ShotAction) or turn.result is None or turn.ruling is None:
            self._last_shot = None
            self._ruling = str(turn)
            return
        trajectory = turn.result.trajectory
        start = before if trajectory is None else trajectory.positions[0]  # a break placed
        self._last_shot = _LastShot(turn.player, action, start)
        self._ruling = f"P{turn.player}: {turn.ruling.text}"
        if trajectory is not None:
            line, marks = self._shot_drawn(game)
            overlay = (score_line(game.frame), line)
            self._shots.append(ReplayShot(trajectory, self._ruling, overlay, marks))

    def overlay(self, game: Game) -> tuple[str, str, str]:
        """The strip's lines: the score, the last shot (empty when the last turn played none),
        the last ruling."""
        return (score_line(game.frame), self._shot_drawn(game)[0], self._ruling)

    def draw(self, game: Game) -> np.ndarray | None:
        """The table as it stands with the strip and the last shot's marks: the picture, or
        None in ``human`` mode once it is in the window."""
        if self._renderer is None:
            self._renderer = TableRenderer(game.spec)
        line, marks = self._shot_drawn(game)
        strip = (score_line(game.frame), line, self._ruling)
        return self._output.put(self._renderer.draw_state(game.state, strip, marks))

    def save_replay(self, path: str | Path, game: Game, fps: float | None = None) -> Path:
        """Write the shots kept as a GIF or MP4 at ``fps`` (default :attr:`fps`)."""
        if not self._shots:
            raise ValueError("no shots recorded: make the env with record_replay=True and play")
        return write_replay(path, self._shots, game.spec, fps=fps or self.fps)

    def close(self) -> None:
        """Close the window, if one is open."""
        self._output.close()

    def _shot_drawn(self, game: Game) -> tuple[str, ShotMarks | None]:
        """The last shot's line and marks (its cue ball and call), or none."""
        last = self._last_shot
        if last is None:
            return "", None
        shot, call = last.action.shot, last.action.call
        marks = ShotMarks.of(shot.cue_ball, call, last.start, game.spec)
        return shot_line(last.player, shot.cue_ball, call), marks
