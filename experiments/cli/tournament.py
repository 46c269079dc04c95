"""``kinghill tournament``: a round robin (:func:`~kinghill.experiments.evaluate`) or a knockout
(:func:`~kinghill.experiments.tournaments.knockout.run_knockout`, its options in
:mod:`.knockout`) from the command line, resumable with the same command; the libraries' errors
(naming parameters) reported against the options the user typed."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from concurrent.futures.process import BrokenProcessPool

from kinghill.experiments.cli import knockout as knockout_cli
from kinghill.experiments.cli.app import (
    CommandError,
    UsageError,
    agent_specs,
    display_name,
    even_count,
    output_dir,
    positive_int,
    seed,
)
from kinghill.experiments.cli.frame_options import (
    add_frame_options,
    agent_handicap,
    usage_error,
)
from kinghill.experiments.cli.signals import sigterm_as_interrupt
from kinghill.experiments.records.store import RECORDS_DIR
from kinghill.experiments.tournaments.agent_process import AgentStartError
from kinghill.experiments.tournaments.config import DEFAULT_FRAMES
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_log import FRAMES_FILE, FrameLog
from kinghill.experiments.tournaments.frames import FramePlayer
from kinghill.experiments.tournaments.options import MAX_REQUIRED
from kinghill.experiments.tournaments.report import fault_lines
from kinghill.experiments.tournaments.runners import (
    DEFAULT_PLAYER,
    FrameRunner,
    canonical_player,
    in_process,
    in_worker_processes,
    load_frame_player,
)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill tournament``."""
    parser = subparsers.add_parser(
        "tournament",
        help="round robin or knockout of agents: ratings or a bracket, a Markdown/JSON report "
        "and a plot",
        description=(
            "Round robin: every pair of agents plays N frames, seats swapped (each agent breaks "
            "in half of them), execution noise on. Knockout (--format knockout): single "
            "elimination in races to N frames, the clock of section 12 tightening from round 3. "
            "Frames are appended to DIR/frames.jsonl as they end; run the same command again to "
            "resume where it stopped. The report goes to DIR/report.md, DIR/report.html (a page "
            "that replays the frames kept with --record), DIR/report.json and DIR/ratings.png "
            "(a knockout: DIR/bracket.png)."
        ),
        epilog="examples: kinghill tournament --agents random heuristic --frames 20 --out runs/t1; "
        "kinghill tournament --format knockout --agents search heuristic random --race 3 "
        "--out runs/k1",
    )
    parser.add_argument(
        "--agents",
        nargs="+",
        default=["random", "heuristic", "search"],
        metavar="AGENT",
        help=f"agent specs: {agent_specs()}; NAME=SPEC names one NAME in the report (a round "
        "robin) (default: random heuristic search)",
    )
    parser.add_argument(
        "--frames",
        type=even_count,
        metavar="N",
        help=f"round robin: frames per pair, even (default: {DEFAULT_FRAMES})",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=0,
        help="tournament seed; frame seeds follow from it (default: 0)",
    )
    parser.add_argument(
        "--out",
        type=output_dir,
        default="runs/tournament",
        metavar="DIR",
        help="results and report; an existing DIR is resumed (default: runs/tournament)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=os.cpu_count() or 1,
        metavar="K",
        help="local worker processes; 1 plays in this process (default: all CPUs)",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the frames on Ray instead: a cluster address, 'auto', or 'local' to start "
        "one here (needs pip install 'kinghill[ray]')",
    )
    add_frame_options(parser)
    parser.add_argument(
        "--handicap",
        nargs="+",
        type=agent_handicap,
        default=[],
        metavar="NAME=WHITES",
        help="the whites an agent must pot (rule 5.3), whichever seat it has in a frame: NAME "
        f"as --agents names it (its spec, or the NAME of NAME=SPEC), WHITES 1-{MAX_REQUIRED}; "
        "an agent not named needs 3 (e.g. --handicap heuristic=2 search=4). Part of the "
        "tournament: a resume must give the same",
    )
    parser.add_argument(
        "--rating-samples",
        type=positive_int,
        default=1000,
        metavar="B",
        help="posterior draws for the rating intervals (default: 1000)",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="keep every decision of every frame (position, action, shot as played, events, "
        "ruling, time) in DIR/records/, for kinghill replay, kinghill export and the replays "
        "of DIR/report.html",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="play nothing: re-render the report from DIR/frames.jsonl",
    )
    parser.add_argument(
        "--player",
        type=canonical_player,
        default=DEFAULT_PLAYER,
        metavar="MODULE:FUNCTION",
        help=f"the function that plays one frame (default: {DEFAULT_PLAYER})",
    )
    knockout_cli.add_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run (or resume) the tournament, a round robin or a knockout, then print its summary."""
    try:
        if knockout_cli.is_knockout(args) and args.report_only:
            summary = knockout_cli.report_only(args.out)
        elif knockout_cli.is_knockout(args):
            if args.record and args.player != DEFAULT_PLAYER:
                raise UsageError("needs the built-in frame player (leave out --player)", "--record")
            config = knockout_cli.config_from_args(args)
            player, runner = _start(args)
            with sigterm_as_interrupt():
                summary = knockout_cli.play(config, args.out, player, runner, args.record)
        else:
            summary = _round_robin(args)
    except TournamentError as error:
        raise usage_error(error) from None
    except AgentStartError as error:  # not the arguments' fault: status 1, as a dead worker
        raise CommandError(
            f"{error}; the frames played are in {args.out / FRAMES_FILE}, run the same command "
            "again to resume"
        ) from None
    except BrokenProcessPool as error:
        raise CommandError(
            f"a worker process died ({error}); the frames played are in "
            f"{args.out / FRAMES_FILE}, run the same command again to resume"
        ) from None
    except KeyboardInterrupt:
        print(
            f"kinghill tournament: interrupted; the frames played are in {args.out / FRAMES_FILE}"
            ", run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(summary)
    return 0


def _round_robin(args: argparse.Namespace) -> str:
    """Run (or resume) the round robin through :func:`~kinghill.experiments.evaluate`, or with
    ``--report-only`` only redraw its report; return the summary to print."""
    from kinghill.agents import AgentSpecError
    from kinghill.experiments.tournaments.report import summary, write_report
    from kinghill.experiments.tournaments.round_robin import evaluate

    if args.report_only:
        log = FrameLog(args.out)
        config = log.load_config()
        records = sorted(log.read(config.schedule()).values(), key=lambda r: r.frame)
        return write_report(args.out, config, records, samples=args.rating_samples)
    custom = None if args.player == DEFAULT_PLAYER else load_frame_player(args.player)
    if args.record and custom is not None:
        raise UsageError("needs the built-in frame player (leave out --player)", "--record")
    agents = dict(map(display_name, args.agents))
    if len(agents) < len(args.agents):
        raise UsageError("give each agent its own name (NAME=SPEC)", "--agents")
    unrecorded = not args.record and any((args.out / RECORDS_DIR).glob("*.json.gz"))
    try:
        with sigterm_as_interrupt():
            report = evaluate(
                agents,
                DEFAULT_FRAMES if args.frames is None else args.frames,
                jobs=args.jobs,
                seed=args.seed,
                noise=args.noise,
                noise_scale=args.noise_scale,
                round=args.round,
                max_shots=args.max_shots,
                decision_cap=args.decision_cap,
                handicap=args.handicap,
                out=args.out,
                record=args.record,
                rating_samples=args.rating_samples,
                progress=None,
                runner=_runner(args),
                player=custom,
            )
    except AgentSpecError as error:
        raise UsageError(str(error), "--agents") from None
    for line in fault_lines(report.data):  # a failing agent is said, not only counted
        print(f"kinghill tournament: note: {line}", file=sys.stderr)
    if unrecorded:  # said once the run played (a refused run plays nothing)
        print(
            f"kinghill tournament: note: {args.out / RECORDS_DIR} holds the frames recorded "
            "before; the frames this run played are not recorded (add --record to keep them)",
            file=sys.stderr,
        )
    return summary(dict(report.data), args.out)


def _start(args: argparse.Namespace) -> tuple[FramePlayer, FrameRunner]:
    """The frame player and runner the command line asks for, its agents checked first."""
    player = load_frame_player(args.player)
    if args.player == DEFAULT_PLAYER:  # its agents come from the registry
        _check_agents(args.agents)
    return player, _runner(args)


def _check_agents(specs: Iterable[str]) -> None:
    """Fail before any frame is played when an agent spec cannot be built (each is built once
    here, so a missing module, bad arguments or a missing checkpoint are reported at once)."""
    from kinghill.agents import AgentSpecError, make_agent

    for spec in specs:
        try:
            make_agent(spec, 0)
        except (AgentSpecError, OSError) as error:
            raise UsageError(str(error), "--agents") from None


def _runner(args: argparse.Namespace) -> FrameRunner:
    """The frame runner the command line asks for."""
    if args.ray:
        from kinghill.experiments.tournaments.ray_runner import on_ray

        return on_ray(args.ray)
    return in_process if args.jobs <= 1 else in_worker_processes(args.jobs)
