"""``kinghill train-value``: a leaf value for the search, learnt from frames of self-play
(:func:`kinghill.experiments.training.train_value`), saved as ``.npz`` for
``search-value:PATH``; prints the held-out report as JSON."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from kinghill.experiments.cli.app import (
    DefaultsShown,
    UsageError,
    agent_name,
    bounded_int,
    existing_file,
    out_file_option,
    positive_int,
    seed,
)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill train-value``."""
    parser = subparsers.add_parser(
        "train-value",
        formatter_class=DefaultsShown,
        help="learn a leaf value for the search from self-play frames (search-value:PATH)",
        description="A leaf value for the search, learnt from frames of self-play: a small net "
        "fitted to the frames' results at every shot's position, saved as .npz for "
        "search-value:PATH; its held-out log loss and ranking (AUC) against the search's "
        "hand-made score are printed. Ctrl-C stops it with nothing written.",
        epilog="example: kinghill train-value --frames 200 --jobs 2 --out-file runs/value.npz; "
        "kinghill play search-value:runs/value.npz heuristic",
    )
    parser.add_argument(
        "--frames",
        type=bounded_int(2, 10**9),
        default=2000,
        help="self-play frames (at least 2: a share of them is held out to measure the fit)",
    )
    parser.add_argument("--agent", type=agent_name, default="heuristic", help="who plays them")
    parser.add_argument("--hidden", type=positive_int, default=16, help="hidden units")
    parser.add_argument("--seed", type=seed, default=0, help="first frame seed; the fit's seed")
    parser.add_argument("--jobs", type=positive_int, default=1, help="self-play processes")
    parser.add_argument(
        "--init", type=existing_file, help="fine-tune this net (.npz) instead of a fresh one"
    )
    out_file_option(parser, ".npz", help="the net (.npz)", required=True)
    parser.set_defaults(
        interrupted="nothing was written (the net is saved at the end); run it again"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``kinghill train-value`` and print its report."""
    from kinghill.agents.value import ValueNet
    from kinghill.experiments.training import train_value

    try:
        init = None if args.init is None else ValueNet.load(args.init)
    except ValueError as error:
        raise UsageError(str(error), "--init") from None
    report = train_value(
        args.frames, Path(args.out), args.seed, args.agent, args.hidden, args.jobs, init
    )
    print(json.dumps(asdict(report), indent=2))
    return 0
