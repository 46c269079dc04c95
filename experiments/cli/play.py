"""``kinghill play``: two agents play one frame; a shot-by-shot commentary, and a replay (the
Python API: :func:`kinghill.experiments.tournaments.frame_player.play_watched`)."""

from __future__ import annotations

import argparse

from gymnasium.error import DependencyNotInstalled

from kinghill.agents.human import HUMAN, HumanSeat, NoDisplay
from kinghill.envs import Decided, FrameView, ShotAction
from kinghill.envs.drawing.render import MIN_WIDTH_PX
from kinghill.envs.drawing.replay_video import (
    FORMATS,
    MAX_GIF_FPS,
    check_replay_path,
)
from kinghill.experiments.cli.app import (
    CommandError,
    UsageError,
    agent_specs,
    bounded_int,
    display_name,
    named_agent,
    out_file_option,
    output_dir,
    positive_float,
    seed,
)
from kinghill.experiments.cli.frame_options import (
    add_frame_options,
    frame_options,
    usage_error,
    whites,
)
from kinghill.experiments.cli.signals import sigterm_as_interrupt
from kinghill.experiments.records.replay import write_frame_replay
from kinghill.experiments.records.store import (
    RecordError,
    check_not_tournament,
    record_path,
    write_new_frame,
)
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_player import FrameStopped, play_watched
from kinghill.experiments.tournaments.options import MAX_REQUIRED

REPLAY_FPS = 25.0
"""Default frames per second of replays (GIF delays are whole 1/100 s, so 25 keeps them exact)."""
MAX_WIDTH_PX = 3840
"""The widest replay ``--width`` allows (wider pictures only cost memory and time)."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill play``."""
    parser = subparsers.add_parser(
        "play",
        help="two agents play one frame: commentary of every ruling, and a GIF/MP4 replay",
        description=(
            "Agent A (player 0) breaks against agent B (player 1). One line per decision: the "
            "shot and its call, the referee's ruling, the decision time. With --out-file, the "
            "frame's shots are written as a replay (.gif, or .mp4 with imageio-ffmpeg). A seat "
            "named human opens a window: click a ball for the cue ball, aim with the mouse, set "
            "speed (up/down, wheel) and tip (WASD, or the tip widget), pick the call from the "
            "menu, Enter to shoot; every shot is animated at --fps and --speed."
        ),
        epilog="examples: kinghill play heuristic search --seed 3 --out-file frame.gif; "
        "kinghill play human search",
    )
    parser.add_argument(
        "agent_a",
        metavar="A",
        type=seat_name,
        help="the breaker: human (you, in a pygame window), or an agent spec: "
        f"{agent_specs()}; NAME=SPEC shows it as NAME",
    )
    parser.add_argument(
        "agent_b",
        metavar="B",
        type=seat_name,
        help="the opponent: human, or an agent spec (NAME=SPEC as for A)",
    )
    parser.add_argument("--seed", type=seed, default=0, help="frame seed (default: 0)")
    out_file_option(parser, *FORMATS, help="the replay, .gif or .mp4")
    parser.add_argument(
        "--record",
        type=output_dir,
        metavar="DIR",
        help="keep every decision (position, action, shot as played, events, ruling, time) in "
        "DIR/records/NNNNNN.json.gz, the next free number (no record is replaced; not a "
        "tournament's folder), for kinghill replay and kinghill export",
    )
    parser.add_argument(
        "--handicap",
        type=handicap,
        default=(3, 3),
        metavar="A,B",
        help="the whites A and B must pot before the coloured ball, 1-7 each (rule 5.3; "
        "default: 3,3), e.g. 2,3 gives A a head start",
    )
    add_frame_options(parser)
    add_replay_arguments(parser)
    return parser


def handicap(text: str) -> tuple[int, int]:
    """``--handicap``'s value: two whole numbers 1-7, ``A,B`` (rule 5.3)."""
    parts = [whites(part) for part in text.split(",")]
    if len(parts) != 2 or parts[0] is None or parts[1] is None:
        raise argparse.ArgumentTypeError(
            f"the whites A and B must pot, two whole numbers 1-{MAX_REQUIRED} such as 2,3 "
            f"(got {text!r})"
        )
    return parts[0], parts[1]


def add_replay_arguments(parser: argparse.ArgumentParser, window: bool = True) -> None:
    """The ``--width``, ``--fps`` and ``--speed`` options of a command that writes replays
    (``window``: and shows a human's window, as ``kinghill play`` does)."""
    parser.add_argument(
        "--width",
        type=bounded_int(MIN_WIDTH_PX, MAX_WIDTH_PX),
        default=800,
        metavar="PX",
        help=f"replay width, {MIN_WIDTH_PX} to {MAX_WIDTH_PX} (default: 800"
        + ("; a human's window is at least 800)" if window else ")"),
    )
    parser.add_argument(
        "--fps",
        type=positive_float,
        default=REPLAY_FPS,
        metavar="N",
        help="pictures per second of the replay"
        + (" and of a human's window" if window else "")
        + f" (default: {REPLAY_FPS:g}; at most 50 for a GIF)",
    )
    parser.add_argument(
        "--speed",
        type=positive_float,
        default=1.0,
        metavar="X",
        help="playback speed: 2 plays the shots twice as fast, 0.5 in slow motion (default: 1)",
    )


def seat_name(text: str) -> str:
    """``human``, or an agent spec checked as :func:`named_agent` checks it (``NAME=SPEC``
    gives the commentary and the replay a short name)."""
    return text if text == HUMAN else named_agent(text)


def describe(decided: Decided, names: tuple[str, str]) -> str:
    """One commentary line: who decided, what they played, the ruling and the time taken."""
    turn = decided.turn
    who = f"player {turn.player} ({names[turn.player]})"
    seconds = "" if turn.seconds is None else f" [{turn.seconds:.2f} s]"
    if decided.fault is not None:  # a shot's ruling, or the 10.4 choice made in its place
        outcome = turn if turn.ruling is None else turn.ruling
        return f"{who} gave no playable action ({decided.fault}): {outcome}{seconds}"
    if turn.ruling is None:
        return f"{turn}{seconds}"
    played = ""
    if isinstance(turn.action, ShotAction):
        shot = turn.action.shot
        call = "whites only" if turn.action.call is None else f"calls {turn.action.call}"
        played = f"cue ball {shot.cue_ball} at {shot.speed:.2f} m/s, {call}: "
    return f"{who}: {played}{turn.ruling}{seconds}"


def run(args: argparse.Namespace) -> int:
    """Play the frame, print the commentary, write the replay and the record."""
    (name_a, spec_a), (name_b, spec_b) = display_name(args.agent_a), display_name(args.agent_b)
    names, specs = (name_a, name_b), (spec_a, spec_b)
    if args.out is not None:
        try:
            check_replay_path(args.out)
        except DependencyNotInstalled as error:
            raise UsageError(str(error), "--out-file") from None
        if args.out.suffix.lower() == ".gif" and args.fps > MAX_GIF_FPS:
            raise UsageError(
                f"a GIF shows at most {MAX_GIF_FPS:g} pictures a second (got {args.fps:g}); "
                "lower it or write an .mp4",
                "--fps",
            )
    if args.record is not None:
        try:
            check_not_tournament(args.record)
        except RecordError as error:
            raise UsageError(str(error), "--record") from None
    try:
        human = HumanSeat(names, None, args.width, args.fps, args.speed) if HUMAN in specs else None
    except DependencyNotInstalled as error:
        raise UsageError(str(error), "A" if specs[0] == HUMAN else "B") from None
    except NoDisplay as error:
        raise CommandError(str(error)) from None

    def watch(before: FrameView, decided: Decided, after: FrameView) -> None:
        print(describe(decided, names), flush=True)
        if human is not None:
            human.watch(decided.turn, before.frame, after.state)

    stopped: FrameStopped | None = None
    try:  # Ctrl-C, SIGTERM or a closed window stops the frame, the decisions played kept
        with sigterm_as_interrupt():
            record = play_watched(
                *specs,
                args.seed,
                frame_options(args),
                here={} if human is None else {HUMAN: human},  # a person: never cut off
                watch=watch,
                trajectory_fps=None if human is None else args.fps / args.speed,
                required=args.handicap,
            )
    except TournamentError as error:
        raise usage_error(error) from None
    except FrameStopped as stop:
        record, stopped = stop.shots, stop
    finally:
        if human is not None:
            human.close()
    if stopped is None:  # a stop is said once, on stderr, with what was kept (main)
        print(record.result)
    if args.record is not None:
        try:
            written = write_new_frame(args.record, record)
        except RecordError as error:  # the folder became a tournament's while the frame played
            raise UsageError(str(error), "--record") from None
        path = record_path(args.record, written.frame)
        print(f"record: {path} (kinghill replay {args.record} --frame {written.frame})")
    if args.out is not None:  # from the record: what a stop cut short is left out of both
        path = write_frame_replay(record, args.out, args.fps, args.speed, args.width)
        print(f"replay: {path}")
    if stopped is not None:
        kept = " and ".join(n for n, a in (("record", args.record), ("replay", args.out)) if a)
        args.interrupted = f"{stopped}" + (f", kept in the {kept}" if kept else "")
        raise KeyboardInterrupt from stopped
    return 0
