"""The ``kinghill`` command line: one subcommand per module of ``kinghill.experiments``.

Each subcommand module exposes ``add_parser(subparsers)`` and ``run(args) -> int``. A module that
is not there is left out, so the other subcommands keep working; one that fails to import is
left out too, and the help says why.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from importlib.metadata import version

SUBCOMMAND_MODULES = (
    "kinghill.experiments.play",
    "kinghill.experiments.train",
    "kinghill.experiments.tournament",
    "kinghill.experiments.bench_physics",
    "kinghill.experiments.bench_env",
    "kinghill.experiments.plot_shots",
)
"""Modules that each mount one subcommand, in the order the help lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand whose module imports."""
    parser = argparse.ArgumentParser(
        prog="kinghill",
        description="King of the Hill (Russian pyramid) billiards: play, train and rate agents.",
    )
    parser.add_argument("--version", action="version", version=f"kinghill {version('kinghill')}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    missing = []
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:  # not written or not installed: simply not offered
                continue
            missing.append(f"{name.rsplit('.', 1)[-1]} ({error})")
            continue
        except Exception as error:  # a broken module must not take the other commands down
            missing.append(f"{name.rsplit('.', 1)[-1]} ({type(error).__name__}: {error})")
            continue
        module.add_parser(subparsers).set_defaults(run=module.run)
    if missing:
        parser.epilog = "unavailable: " + "; ".join(missing)
    parser.epilog = " ".join(
        filter(None, [parser.epilog, "Run 'kinghill COMMAND --help' for a command's options."])
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen subcommand; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
