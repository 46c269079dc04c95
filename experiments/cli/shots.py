"""``kinghill shots``: the canonical shots (stun, draw, follow, throw, side off a cushion, a rail
pot) drawn as PNG trajectory plots (:func:`kinghill.experiments.figures.shots.write_shots`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kinghill.experiments.cli.app import output_dir, positive_float
from kinghill.experiments.figures.shots import write_shots


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "shots",
        help="draw the canonical shots as PNG trajectory plots",
        description=__doc__,
        epilog="example: kinghill shots --out runs/shots",
    )
    parser.add_argument("--out", type=output_dir, required=True, help="folder for the PNG files")
    parser.add_argument(
        "--fps", type=positive_float, default=240.0, help="trajectory sampling rate"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    for path in write_shots(args.out, args.fps):
        print(path)
    return 0


if __name__ == "__main__":
    from kinghill.experiments.cli.app import main

    raise SystemExit(main(["shots", *sys.argv[1:]]))
