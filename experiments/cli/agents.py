"""``kinghill agents``: the agent specs, ``NAME[:ARG][?KEY=VALUE,...]``: every built-in with what
its ``:ARG`` means, each option's type, range, default and meaning, the shipped models each
plays by name, and the extras they need (:func:`kinghill.agents.registry.describe`); then the
graded opponents, each with the spec it plays as and its measured rating
(:func:`kinghill.experiments.serve.levels.levels`)."""

from __future__ import annotations

import argparse
from typing import Any

from kinghill.agents.registry import describe
from kinghill.experiments.serve.levels import levels


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "agents",
        help="list the built-in agents, the shipped models, every spec option and the graded "
        "opponents with their ratings",
        description=__doc__,
    )
    return parser


def graded_opponents() -> str:
    """The graded opponents as ``kinghill agents`` lists them: one line each, weakest first,
    its name, the spec it plays as and its rating [95% interval] on the ladder's scale."""
    scale, found = levels()
    width = max(len(level.name) for level in found)
    spec_width = max(len(level.spec) for level in found)
    lines = [
        "Graded opponents, weakest first (kinghill play human NAME; kinghill serve lists them):",
        f"NAME, the spec it plays as, its rating [95% interval] ({scale})",
    ]
    lines += [
        f"{level.name:<{width}}  {level.spec:<{spec_width}}  {level.shown()}" for level in found
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    print(describe())
    print()
    print(graded_opponents())
    return 0
