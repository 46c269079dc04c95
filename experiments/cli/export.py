"""``kinghill export``: recorded frames as (observation, action, outcome) arrays in an ``.npz``."""

from __future__ import annotations

import argparse
from pathlib import Path

from kinghill.experiments.cli.app import UsageError, out_file_option
from kinghill.experiments.records.dataset import export_dataset
from kinghill.experiments.records.store import RecordError


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill export``."""
    parser = subparsers.add_parser(
        "export",
        help="recorded frames as observation/action/outcome arrays (.npz) for imitation learning",
        description=(
            "Every decision recorded with --record under the DIRs, one row each: the mover's "
            "flattened observation, the action chosen (one array per key of the action space), "
            "the shot as played, and the outcome (foul, whites credited, colour potted, the "
            "frame's result for the mover). Every array is listed in the manual's page Records and "
            "data sets (docs/guide/records.md) and in "
            "kinghill.experiments.records.dataset.DATASET_DOC."
        ),
        epilog="example: kinghill export runs/r1 --out-file data/r1.npz (runs/r1: the recorded "
        "tournament of the replay example)",
    )
    parser.add_argument(
        "sources", type=Path, nargs="+", metavar="DIR", help="folders written with --record"
    )
    out_file_option(parser, ".npz", help="the data set, .npz", required=True)
    return parser


def run(args: argparse.Namespace) -> int:
    """Export the data set and say what it holds."""
    try:
        summary = export_dataset(args.sources, args.out)
    except RecordError as error:
        raise UsageError(str(error), "DIR") from None
    left_out = f"; {summary.left_out} decisions without a playable action left out"
    print(
        f"{summary.path}: {summary.rows} decisions from {summary.frames} frames"
        + (left_out if summary.left_out else "")
    )
    return 0
