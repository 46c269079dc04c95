"""``kinghill ladder``: rate agents against the frozen zoo on a fixed scale, or (re)build the
zoo's matrix and its page (the Python API: :mod:`kinghill.experiments.ladder`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from kinghill.experiments.cli.app import (
    CommandError,
    UsageError,
    agent_name,
    existing_file,
    output_dir,
    output_file,
    positive_int,
)
from kinghill.experiments.cli.frame_options import add_noise_scale, flag
from kinghill.experiments.tournaments.agent_process import AgentStartError
from kinghill.experiments.tournaments.errors import TournamentError

if TYPE_CHECKING:
    from kinghill.experiments.tournaments.runners import FrameRunner

ARGUMENTS = {"candidates": "AGENT"}
"""The ladder's parameters that the command line names otherwise than ``--parameter``."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill ladder``."""
    parser = subparsers.add_parser(
        "ladder",
        help="rate agents against the frozen agent zoo on a fixed scale",
        description=(
            "Play each AGENT against every agent of the zoo on the zoo's frames (played once, "
            "cached), and report its rating on the zoo's fixed scale (Elo, the shipped zoo's "
            "anchor heuristic@1 at 1000) with its interval, its rank, its win rate against "
            "each zoo agent and how it plays. --build-zoo plays the zoo's own matrix into the "
            "files beside the zoo; --page rewrites the zoo's page from them."
        ),
        epilog="examples: kinghill ladder policy:runs/ppo/final.zip; "
        "kinghill ladder --build-zoo --noise-scale 5 --jobs 8 --page; "
        "kinghill ladder policy:runs/ppo/final.zip --noise-scale variable --ray auto",
    )
    parser.add_argument("agents", nargs="*", type=agent_name, metavar="AGENT", help="agent specs")
    parser.add_argument(
        "--zoo",
        type=existing_file,
        metavar="FILE",
        help="the zoo's definition (default: the zoo shipped in the package)",
    )
    add_noise_scale(parser)
    parser.add_argument(
        "--build-zoo",
        action="store_true",
        help="play the zoo's matrix at --noise-scale (pairs already cached are not played "
        "again) and write it beside the zoo file",
    )
    parser.add_argument(
        "--page", action="store_true", help="rewrite the zoo's page and plot from its matrices"
    )
    parser.add_argument(
        "--cache",
        type=output_dir,
        metavar="DIR",
        help="where the pairs' frame logs are kept (default: ~/.cache/kinghill/ladder)",
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default: 1)"
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the pairs' frames on Ray instead, as kinghill tournament --ray does: a "
        "cluster address, 'auto', or 'local' to start one here (needs pip install "
        "'kinghill[ray]')",
    )
    parser.add_argument(
        "--rating-samples",
        type=positive_int,
        default=1000,
        metavar="N",
        help="posterior draws for the rating intervals (default: 1000)",
    )
    parser.add_argument(
        "--json", type=output_file(".json"), metavar="FILE", help="also write the result as JSON"
    )
    parser.add_argument(
        "--html",
        type=output_file(".html"),
        metavar="FILE",
        help="also write the result as a self-contained HTML page (ratings, standings, the "
        "score matrix as a heat map)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Build the zoo, write its page, or rate the agents, as asked."""
    from kinghill.experiments.ladder.play import DEFAULT_CACHE
    from kinghill.experiments.ladder.zoo import ZOO_FILE
    from kinghill.experiments.tournaments.runners import in_process, in_worker_processes

    if not (args.agents or args.build_zoo or args.page):
        raise UsageError("give agents to rate, --build-zoo or --page", "AGENT")
    zoo = args.zoo or ZOO_FILE
    cache = args.cache or DEFAULT_CACHE
    runner = in_process if args.jobs <= 1 else in_worker_processes(args.jobs)
    session: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    try:
        if args.ray:
            from kinghill.experiments.tournaments.ray_runner import connected, on_ray

            runner, session = on_ray(args.ray), connected(args.ray)
        with session:
            _run(args, zoo, cache, runner)
    except TournamentError as error:
        parameter = error.parameter
        argument = None if parameter is None else ARGUMENTS.get(parameter, flag(parameter))
        raise UsageError(error.message, argument) from None
    except AgentStartError as error:  # not the arguments' fault: status 1
        raise CommandError(
            f"{error}; the frames played are kept in {Path(cache)}, run the same command again "
            "to go on"
        ) from None
    except KeyboardInterrupt:
        print(
            f"kinghill ladder: interrupted; the frames played are kept in {Path(cache)}, run "
            "the same command again to go on",
            file=sys.stderr,
        )
        return 130
    return 0


def _run(args: argparse.Namespace, zoo: Path, cache: Path, runner: FrameRunner) -> None:
    """What :func:`run` does once the frame runner is chosen."""
    from kinghill.experiments.ladder.html import write_ladder_page
    from kinghill.experiments.ladder.play import build_zoo, ladder
    from kinghill.experiments.ladder.report import ladder_markdown
    from kinghill.experiments.ladder.zoo import condition_name
    from kinghill.experiments.ladder.zoo_page import write_zoo_page

    if args.build_zoo:
        matrix = build_zoo(zoo, args.noise_scale, cache, runner, progress=None)
        print(
            f"zoo matrix at {condition_name(matrix.noise_scale)} noise: "
            f"{len(matrix.rows)} pairs of {matrix.frames} frames"
        )
    if args.page:
        print(f"zoo page: {write_zoo_page(zoo)}")
    if args.agents:
        result = ladder(
            args.agents,
            zoo,
            args.noise_scale,
            cache,
            runner,
            samples=args.rating_samples,
            progress=None,
        )
        for _, reason in result.skipped:
            print(f"kinghill ladder: not played: {reason}", file=sys.stderr)
        print(ladder_markdown(result))
        if args.json is not None:
            args.json.write_text(json.dumps(asdict(result), indent=1) + "\n", encoding="utf-8")
        if args.html is not None:
            print(f"page: {write_ladder_page(result, args.html)}")
