"""``kinghill play``: two agents play one frame; a shot-by-shot commentary, and a replay (the
Python API: :func:`kinghill.experiments.tournaments.frame_player.play_watched`)."""

from __future__ import annotations

import argparse

from gymnasium.error import DependencyNotInstalled

from kinghill.agents.human import HUMAN, HumanSeat
from kinghill.envs import Decided, FrameView, ShotAction
from kinghill.envs.drawing.render import MIN_WIDTH_PX
from kinghill.envs.drawing.replay_video import (
    FORMATS,
    MAX_GIF_FPS,
    ReplayShot,
    check_replay_path,
    write_replay,
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
from kinghill.experiments.cli.frame_options import add_frame_options, frame_options, usage_error
from kinghill.experiments.records.replay import replay_shot
from kinghill.experiments.records.store import write_frame
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_player import play_watched

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
        "DIR/records/000000.json.gz, for kinghill replay and kinghill export",
    )
    add_frame_options(parser)
    add_replay_arguments(parser)
    return parser


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--width``, ``--fps`` and ``--speed`` options of a command that writes replays."""
    parser.add_argument(
        "--width",
        type=bounded_int(MIN_WIDTH_PX, MAX_WIDTH_PX),
        default=800,
        metavar="PX",
        help=f"replay width, {MIN_WIDTH_PX} to {MAX_WIDTH_PX} (default: 800; a human's window "
        "is at least 800)",
    )
    parser.add_argument(
        "--fps",
        type=positive_float,
        default=REPLAY_FPS,
        metavar="N",
        help=f"pictures per second of the replay and of a human's window (default: "
        f"{REPLAY_FPS:g}; at most 50 for a GIF)",
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
    if decided.fault is not None:
        return f"{who} gave no playable action ({decided.fault}): {turn.ruling}{seconds}"
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
    try:
        human = HumanSeat(names, None, args.width, args.fps, args.speed) if HUMAN in specs else None
    except DependencyNotInstalled as error:
        raise UsageError(str(error), "A" if specs[0] == HUMAN else "B") from None
    shots: list[ReplayShot] = []

    def watch(before: FrameView, decided: Decided, after: FrameView) -> None:
        print(describe(decided, names), flush=True)
        if human is not None:
            human.watch(decided.turn, before.frame, after.state)
        shot = replay_shot(decided.turn, before.frame, names) if args.out is not None else None
        if shot is not None:
            shots.append(shot)

    animated = args.out is not None or human is not None
    try:  # a closed window interrupts, as Ctrl-C does
        record = play_watched(
            *specs,
            args.seed,
            frame_options(args),
            here={} if human is None else {HUMAN: human},  # a person at the window: never cut off
            watch=watch,
            trajectory_fps=args.fps / args.speed if animated else None,
        )
    except TournamentError as error:
        raise usage_error(error) from None
    if human is not None:
        human.close()
    print(record.result)
    if args.record is not None:
        print(f"record: {write_frame(args.record, record)}")
    if args.out is not None:
        if not shots:
            raise CommandError("no shot was played, no replay written", "--out-file")
        path = write_replay(
            args.out, shots, record.spec, fps=args.fps, width_px=args.width, speed=args.speed
        )
        print(f"replay: {path}")
    return 0
