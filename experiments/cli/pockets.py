"""``kinghill pockets``: the pockets drawn with their dimensions, and what they accept.

Writes ``pockets.png`` (a corner and a middle pocket from the table's geometry, dimensions on
it), ``acceptance.png`` (per approach, which lateral offsets drop at 0.5-6 m/s) and
``acceptance.md`` (the same as a table of dropping windows), and prints the table.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kinghill.experiments.cli.app import output_dir
from kinghill.experiments.figures.acceptance import SPEEDS, charts, window_table
from kinghill.experiments.figures.pocket_figures import draw_charts, draw_pockets
from kinghill.physics import TableSpec


def write_pockets(
    out: Path, spec: TableSpec | None = None, speeds: Sequence[float] = SPEEDS
) -> str:
    """Write the drawing, the charts and the table of ``spec``'s pockets (at ``speeds``, m/s)
    to ``out``; returns the table (markdown)."""
    spec = spec or TableSpec()
    out.mkdir(parents=True, exist_ok=True)
    found = charts(spec, speeds)
    draw_pockets(spec, out / "pockets.png")
    draw_charts(found, out / "acceptance.png")
    table = window_table(found)
    (out / "acceptance.md").write_text(table + "\n")
    return table


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "pockets",
        help="draw the pockets and chart what they accept",
        description=__doc__,
        epilog="example: kinghill pockets --out runs/pockets",
    )
    parser.add_argument(
        "--out",
        type=output_dir,
        required=True,
        metavar="DIR",
        help="folder for the PNG and MD files",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    print(write_pockets(args.out))
    return 0


if __name__ == "__main__":
    from kinghill.experiments.cli.app import main

    raise SystemExit(main(["pockets", *sys.argv[1:]]))
