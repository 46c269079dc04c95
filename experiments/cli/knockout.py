"""``kinghill tournament --format knockout``: its options, and the command's steps from parsed
arguments to a played (or resumed) bracket and its report (:mod:`.tournament` mounts them).
The Python API is :func:`~kinghill.experiments.tournaments.knockout.run_knockout`."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from kinghill.experiments.cli.app import (
    UsageError,
    deprecated,
    display_name,
    existing_file,
    positive_int,
)
from kinghill.experiments.cli.frame_options import frame_options
from kinghill.experiments.tournaments.bracket_report import write_knockout_report
from kinghill.experiments.tournaments.config import ROUND_ROBIN
from kinghill.experiments.tournaments.frame_log import CONFIG_FILE, FrameLog
from kinghill.experiments.tournaments.frames import FramePlayer
from kinghill.experiments.tournaments.knockout import (
    FORMAT,
    KnockoutConfig,
    knockout_state,
    run_knockout,
    seeds_from_ratings,
)
from kinghill.experiments.tournaments.runners import FrameRunner

DEFAULT_RACE = 2
KNOCKOUT_ONLY = ("race", "clock", "ratings")
"""Options that only a knockout takes (their ``argparse`` destinations)."""


class Clock(argparse.Action):
    """``--clock`` (on, the default; ``--no-clock`` turns it off); ``--clock on`` and
    ``--clock off``, the former spelling, still accepted with a note."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        if values is not None:
            new = "--clock" if values == "on" else "--no-clock"
            print(f"{parser.prog}: note: --clock {values} is now {new}", file=sys.stderr)
        setattr(namespace, self.dest, values != "off")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--format``, ``--race``, ``--clock/--no-clock`` and ``--ratings`` options (a
    knockout's first round is ``--round``, as a round robin's round)."""
    group = parser.add_argument_group(
        "knockout",
        "single elimination in matches; the clock of section 12 follows the rounds",
    )
    group.add_argument(
        "--format",
        choices=(ROUND_ROBIN, FORMAT),
        default=ROUND_ROBIN,
        help="round-robin (every pair, --frames frames) or knockout (single elimination, "
        "matches of --race frames; byes for the top seeds when the field is not a power of "
        "two; report with DIR/bracket.png) (default: round-robin)",
    )
    group.add_argument(
        "--race",
        type=positive_int,
        metavar="N",
        help=f"knockout matches are a race to N frames, the break alternating (default: "
        f"{DEFAULT_RACE})",
    )
    group.add_argument(
        "--clock",
        action=Clock,
        nargs="?",
        choices=("on", "off"),
        metavar="on|off",
        help="knockout time control: rounds 1-2 untimed, then 35 s a shot, 5 s less each "
        "round, never under 20 s, one 15 s extension a frame (12.2-12.7); --round R numbers "
        "the bracket's first round, e.g. 3 after two rounds of group play (default: on, from "
        "round 1; on|off is the former spelling of --clock/--no-clock)",
    )
    group.add_argument(
        "--no-clock",
        dest="clock",
        action="store_false",
        default=None,
        help="knockout: every round untimed (12.1)",
    )
    deprecated(group, "--first-round", "--round", "round", type=positive_int, metavar="R")
    group.add_argument(
        "--ratings",
        type=existing_file,
        metavar="REPORT",
        help="seed the knockout by the Bradley-Terry ratings in an earlier round robin's "
        "report.json (default: seed by the order of --agents)",
    )


def is_knockout(args: argparse.Namespace) -> bool:
    """Whether the command runs a knockout: ``--format knockout``, or ``--report-only`` on a
    directory that holds one. Knockout options without a knockout are an error."""
    if args.report_only and (args.out / CONFIG_FILE).exists():
        return FrameLog(args.out).stored_config().get("format") == FORMAT
    if args.format == FORMAT:
        if args.frames is not None:
            raise UsageError("is for round robins; knockout matches use --race", "--frames")
        return True
    given = [
        "--no-clock" if name == "clock" and value is False else f"--{name.replace('_', '-')}"
        for name, value in ((n, getattr(args, n)) for n in KNOCKOUT_ONLY)
        if value is not None
    ]
    if given:
        raise UsageError("only with --format knockout", given[0])
    return False


def config_from_args(args: argparse.Namespace) -> KnockoutConfig:
    """The knockout the command line asks for (the ratings file read for the seeding)."""
    agents = tuple(args.agents)
    named = [agent for agent in agents if display_name(agent)[0] != agent]
    if named:
        raise UsageError(f"{named[0]}: NAME=SPEC names are for round robins", "--agents")
    if args.ratings is not None:
        agents = seeds_from_ratings(agents, args.ratings)
    return KnockoutConfig(
        agents,
        race=DEFAULT_RACE if args.race is None else args.race,
        seed=args.seed,
        clock=args.clock is not False,
        first_round=1 if args.round is None else args.round,
        # its rounds set the clock; the handicap follows each entrant (rule 5.3)
        options=replace(frame_options(args), round=None, handicap=tuple(args.handicap)),
        seeding="order" if args.ratings is None else f"ratings in {args.ratings}",
    )


def play(
    config: KnockoutConfig,
    out: Path,
    player: FramePlayer,
    runner: FrameRunner,
    record: bool = False,
) -> str:
    """Play or resume the knockout in ``out`` (with ``record``, keeping the shot records),
    write its report and return the summary."""
    state = run_knockout(config, out, player, runner, record=record)
    return write_knockout_report(out, config, state)


def report_only(out: Path) -> str:
    """Write the report of the knockout recorded in ``out`` (finished or not), playing
    nothing; return the summary."""
    log = FrameLog(out)
    try:
        config = KnockoutConfig.from_dict(log.stored_config())
    except ValueError as error:
        raise log.not_a_config(error) from None
    return write_knockout_report(out, config, knockout_state(config, log.records()))
