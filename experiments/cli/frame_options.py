"""The options every command that plays frames shares (``--round``, ``--noise``,
``--noise-scale``, ``--max-shots``, ``--decision-cap``), and the mapping of the tournaments
library's errors, which name parameters, to the options the user typed."""

from __future__ import annotations

import argparse

from kinghill.envs.game.noise import VARIABLE, NoiseScale, check_noise_scale
from kinghill.experiments.cli.app import UsageError, positive_float, positive_int
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.options import (
    DEFAULT_DECISION_CAP,
    MAX_REQUIRED,
    FrameOptions,
)

POSITIONALS = {"agent_a": "A", "agent_b": "B"}
"""Parameters that the command line takes as positionals, by their metavar."""


def noise_scale(text: str) -> NoiseScale:
    """``--noise-scale``'s value: a number >= 0, or ``variable``."""
    try:
        return check_noise_scale(text if text == VARIABLE else float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a number >= 0 (1 = the default noise) or {VARIABLE}, got {text!r}"
        ) from None


def whites(text: str) -> int | None:
    """The whites a player must pot (rule 5.3) as typed, 1 to :data:`MAX_REQUIRED`; None for
    anything else (the option's parser says what it wanted)."""
    text = text.strip()
    return int(text) if text.isdigit() and 1 <= int(text) <= MAX_REQUIRED else None


def agent_handicap(text: str) -> tuple[str, int]:
    """A tournament's ``--handicap`` value, ``NAME=WHITES``: an agent's name and the whites it
    must pot (the last ``=`` splits them: a spec may hold one)."""
    name, _, count = text.rpartition("=")
    required = whites(count)
    if not name or required is None:
        raise argparse.ArgumentTypeError(
            f"NAME=WHITES, an agent of --agents and the whites it must pot, 1-{MAX_REQUIRED}, "
            f"such as heuristic=2 (got {text!r})"
        )
    return name, required


def add_noise(parser: argparse.ArgumentParser) -> None:
    """The ``--noise/--no-noise`` and ``--noise-scale K`` options (also ``kinghill train``'s)."""
    parser.add_argument(
        "--noise",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="execution noise on the cue (default: on)",
    )
    add_noise_scale(parser)


def add_noise_scale(parser: argparse.ArgumentParser) -> None:
    """The ``--noise-scale K`` option (also ``kinghill ladder``'s)."""
    parser.add_argument(
        "--noise-scale",
        type=noise_scale,
        default=1.0,
        metavar="K",
        help="execution noise at K times its default sigmas (default: 1), or 'variable': a "
        "scale drawn for each shot, uniform in [0, 5]; a searching agent plans for the "
        "default noise unless its spec says otherwise ('search?noise_scale=5')",
    )


def add_frame_options(parser: argparse.ArgumentParser) -> None:
    """The ``--round``, ``--noise/--no-noise``, ``--noise-scale``, ``--max-shots`` and
    ``--decision-cap`` options (the fields of
    :class:`~kinghill.experiments.tournaments.options.FrameOptions`)."""
    parser.add_argument(
        "--round",
        type=positive_int,
        metavar="R",
        help="section 12 time control as in round R: no clock in rounds 1-2, 35 s per shot "
        "in round 3, 5 s less each later round, never under 20 s; a knockout's first round "
        "(default: no clock; a knockout: 1)",
    )
    add_noise(parser)
    parser.add_argument(
        "--max-shots",
        type=positive_int,
        default=200,
        metavar="S",
        help="shots after which a frame is truncated, a draw (default: 200)",
    )
    parser.add_argument(
        "--decision-cap",
        type=positive_float,
        default=DEFAULT_DECISION_CAP,
        metavar="SECONDS",
        help="cut off an untimed decision (no clock, or the 10.4 choice) after SECONDS: a "
        "shot not played, a foul; a choice not made, playing on (default: "
        f"{DEFAULT_DECISION_CAP:g}, the longest a clocked shot may take, 35 s + 15 s)",
    )


def frame_options(args: argparse.Namespace) -> FrameOptions:
    """The frame options given by :func:`add_frame_options`."""
    return FrameOptions(
        round=args.round,
        noise=args.noise,
        noise_scale=args.noise_scale,
        max_shots=args.max_shots,
        decision_cap=args.decision_cap,
    )


def flag(parameter: str) -> str:
    """The command-line argument of a library parameter: ``max_shots`` is ``--max-shots``."""
    return POSITIONALS.get(parameter, "--" + parameter.replace("_", "-"))


def usage_error(error: TournamentError) -> UsageError:
    """The usage error (exit status 2) that reports ``error`` against its argument."""
    return UsageError(error.message, None if error.parameter is None else flag(error.parameter))
