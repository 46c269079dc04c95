"""Replays: a frame's played shots as a GIF or MP4, from a frame being played or from its record
(each recorded shot simulated again exactly as it was played, after execution noise, so the
recorded event log and final position come back exactly; the trajectories are sampled for the
replay). A ruling without a shot (a foul such as 12.4's) is shown on the table as it stands, and
every replay ends on the frame's result."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kinghill.envs import ShotAction, Turn
from kinghill.envs.drawing.render import ShotMarks, shot_line
from kinghill.envs.drawing.replay_video import FORMATS, ReplayShot, write_replay
from kinghill.envs.rules import Frame, FrameResult
from kinghill.experiments.records.store import FrameShots, load_frame
from kinghill.physics import TableState, Trajectory


def scoreboard(frame: Frame, names: tuple[str, str]) -> str:
    """The state of the frame in one line, for the replay's overlay."""
    return " | ".join(
        f"P{p} {names[p]}: {len(frame.credited[p])}/{frame.required[p]} whites, "
        f"{frame.fouls[p]} foul{'s' if frame.fouls[p] != 1 else ''}"
        for p in (0, 1)
    )


def replay_shot(
    turn: Turn, before: Frame, table: TableState, names: tuple[str, str]
) -> ReplayShot | None:
    """The replay of a decision ruled on (None for a 10.4 choice): a played shot's motion with
    the scoreboard before it, who shoots with which cue ball and call, and the ruling at the
    end; a ruling without a shot (a foul such as 12.4's), ``table`` held with the ruling."""
    result, action = turn.result, turn.action
    if turn.ruling is None:
        return None
    if result is None or not isinstance(action, ShotAction):
        return still(table, str(turn.ruling), (scoreboard(before, names),))
    cue, call = action.shot.cue_ball, action.call
    overlay = (scoreboard(before, names), shot_line(turn.player, cue, call, names[turn.player]))
    start = result.trajectory.positions[0] if result.trajectory is not None else None
    marks = None if start is None else ShotMarks.of(cue, call, start, result.final.spec)
    return ReplayShot.from_result(result, str(turn.ruling), overlay, marks)


def still(table: TableState, caption: str, overlay: tuple[str, ...] = ()) -> ReplayShot:
    """``table`` held, nothing moving, with ``caption`` under the ``overlay`` lines."""
    trajectory = Trajectory(np.zeros(1), table.positions[None].copy(), table.on_table[None].copy())
    return ReplayShot(trajectory, caption, overlay)


def ending(final: TableState, result: FrameResult | None, names: tuple[str, str]) -> ReplayShot:
    """The last picture of a replay: the table at the end with the frame's result (who won,
    by which rule), or a line saying that the frame was stopped before its end."""
    if result is None:
        return still(final, "the frame was stopped before its end")
    text = str(result)
    if result.winner is not None:
        who = f"player {result.winner}"
        text = text.replace(who, f"{who} ({names[result.winner]})", 1)
    return still(final, text)


def replay_shots(shots: FrameShots, trajectory_fps: float) -> list[ReplayShot]:
    """The replay of the recorded frame: every decision ruled on (see :func:`replay_shot`),
    trajectories sampled at ``trajectory_fps`` (per simulated second), then its
    :func:`ending`."""
    replayed = []
    for decision in shots.decisions:
        if decision.played is None:
            turn = Turn(decision.player, decision.decision, decision.action, decision.ruling, None)
            shot = replay_shot(turn, decision.view.frame, decision.view.state, shots.agents)
            replayed.extend([] if shot is None else [shot])
            continue
        result = decision.resimulate(trajectory_fps)
        turn = Turn(
            decision.player,
            decision.decision,
            decision.action,
            decision.ruling,
            result,
            decision.seconds,
        )
        shot = replay_shot(turn, decision.view.frame, result.final, shots.agents)
        if shot is not None:
            replayed.append(shot)
    return [*replayed, ending(shots.final, shots.result, shots.agents)]


def replay(
    source: str | Path,
    out: str | Path,
    frame: int | None = None,
    fps: float = 25.0,
    speed: float = 1.0,
    width_px: int = 800,
) -> Path:
    """Write the replay of a recorded frame to ``out`` (``.gif`` or ``.mp4``).

    :param source: a record file, or a folder of records (a tournament's or a played frame's,
        see :func:`load_frame`).
    :param frame: which frame of the folder (optional when it holds one).
    :param fps: pictures per second of the replay.
    :param speed: playback speed (2: twice as fast).
    :raises RecordError: the record is missing or broken.
    :raises ValueError: an output format or a replay setting that cannot be written.
    """
    if Path(out).suffix.lower() not in FORMATS:
        raise ValueError(f"the replay must end in .gif or .mp4: {out}")
    if not (fps > 0 and speed > 0):
        raise ValueError(f"fps and speed must be positive (got {fps:g}, {speed:g})")
    return write_frame_replay(load_frame(source, frame), out, fps, speed, width_px)


def write_frame_replay(
    shots: FrameShots, out: str | Path, fps: float = 25.0, speed: float = 1.0, width_px: int = 800
) -> Path:
    """Write the replay of the frame ``shots`` (a record, read or just played) to ``out``
    (``.gif`` or ``.mp4``): every decision ruled on, then the result (see
    :func:`replay_shots`)."""
    replayed = replay_shots(shots, fps / speed)
    return write_replay(out, replayed, shots.spec, fps=fps, width_px=width_px, speed=speed)
