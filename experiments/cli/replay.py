"""``kinghill replay``: a recorded frame as a GIF or MP4, its shots simulated again as played
(the Python API: :func:`kinghill.experiments.records.replay.replay`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from kinghill.envs.drawing.replay_video import FORMATS
from kinghill.experiments.cli.app import UsageError, out_file_option
from kinghill.experiments.cli.play import add_replay_arguments
from kinghill.experiments.records.replay import replay
from kinghill.experiments.records.store import RecordError


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
        epilog="example: kinghill tournament --agents random heuristic --frames 4 --record --out "
        "runs/r1; kinghill replay runs/r1 --frame 1 --out-file frame1.gif",
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
    out_file_option(parser, *FORMATS, help="the replay, .gif or .mp4", required=True)
    add_replay_arguments(parser, window=False)
    return parser


def run(args: argparse.Namespace) -> int:
    """Write the replay and say where it is."""
    try:
        path = replay(args.source, args.out, args.frame, args.fps, args.speed, args.width)
    except RecordError as error:
        raise UsageError(str(error), "DIR") from None
    except ValueError as error:  # a GIF asked for more pictures a second than it can show
        raise UsageError(str(error), "--out-file") from None
    print(f"replay: {path}")
    return 0
