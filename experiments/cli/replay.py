"""``kinghill replay``: a recorded frame as a GIF or MP4, its shots simulated again as played.

The record holds each shot after execution noise, so simulating it again (without noise) gives
the recorded event log and final position exactly; the trajectories are sampled for the replay.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kinghill.envs import Turn
from kinghill.envs.drawing.replay_video import FORMATS, ReplayShot, write_replay
from kinghill.experiments.cli.app import UsageError, output_file
from kinghill.experiments.cli.play import add_replay_arguments, replay_shot
from kinghill.experiments.records.store import FrameShots, RecordError, load_frame


def replay_shots(shots: FrameShots, trajectory_fps: float) -> list[ReplayShot]:
    """The replay of every shot played in the recorded frame, trajectories sampled at
    ``trajectory_fps`` (per simulated second)."""
    replayed = []
    for decision in shots.decisions:
        if decision.played is None:
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
        shot = replay_shot(turn, decision.view.frame, shots.agents)
        if shot is not None:
            replayed.append(shot)
    return replayed


def replay_frame(
    source: str | Path,
    out: str | Path,
    frame: int | None = None,
    fps: float = 25.0,
    speed: float = 1.0,
    width_px: int = 800,
) -> Path:
    """Write the replay of a recorded frame to ``out`` (``.gif`` or ``.mp4``).

    :param source: a record file, or a folder written with ``--record`` (see :func:`load_frame`).
    :param frame: which frame of the folder (optional when it holds one).
    :param fps: pictures per second of the replay.
    :param speed: playback speed (2: twice as fast).
    :raises RecordError: the record is missing or broken.
    :raises ValueError: an output format or a replay setting that cannot be written.
    """
    if Path(out).suffix.lower() not in FORMATS:
        raise ValueError(f"the replay must end in .gif or .mp4: {out}")
    if not (fps > 0 and speed > 0):
        raise ValueError("--fps and --speed must be positive")
    shots = load_frame(source, frame)
    replayed = replay_shots(shots, fps / speed)
    if not replayed:
        raise RecordError(f"frame {shots.frame} of {source} has no shot played to replay")
    return write_replay(out, replayed, shots.spec, fps=fps, width_px=width_px, speed=speed)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill replay``."""
    parser = subparsers.add_parser(
        "replay",
        help="a recorded frame (tournament --record, play --record) as a GIF or MP4",
        description=(
            "Render a frame recorded with --record: each shot is simulated again exactly as it "
            "was played (after execution noise), with the cue ball, the call and every ruling "
            "shown."
        ),
        epilog="example: kinghill replay runs/tournament --frame 7 --out frame7.gif",
    )
    parser.add_argument(
        "source", type=Path, metavar="DIR", help="a folder written with --record, or a record file"
    )
    parser.add_argument(
        "--frame",
        type=int,
        metavar="N",
        help="the frame's index in the tournament (default: the folder's only frame)",
    )
    parser.add_argument(
        "--out",
        type=output_file(*FORMATS),
        required=True,
        metavar="FILE",
        help="the replay, .gif or .mp4",
    )
    add_replay_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Write the replay and say where it is."""
    try:
        path = replay_frame(args.source, args.out, args.frame, args.fps, args.speed, args.width)
    except RecordError as error:
        raise UsageError(str(error), "DIR") from None
    except ValueError as error:  # a GIF asked for more pictures a second than it can show
        raise UsageError(str(error), "--out") from None
    print(f"replay: {path}")
    return 0
