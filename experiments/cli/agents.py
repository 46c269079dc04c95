"""``kinghill agents``: the agent specs, ``NAME[:ARG][?KEY=VALUE,...]``: every built-in with what
its ``:ARG`` means, each option's type, range, default and meaning, the shipped models each
plays by name, and the extras they need (:func:`kinghill.agents.registry.describe`)."""

from __future__ import annotations

import argparse
from typing import Any

from kinghill.agents.registry import describe


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "agents",
        help="list the built-in agents, the shipped models and every spec option",
        description=__doc__,
    )
    return parser


def run(args: argparse.Namespace) -> int:
    print(describe())
    return 0
