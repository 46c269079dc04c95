"""``kinghill train-position``: the position value's training
(:func:`kinghill.experiments.training.position_iteration.train_position`); the best net goes to
``OUT/best.npz`` for ``search-position:PATH``; prints the run's result as JSON."""

from __future__ import annotations

import argparse

from kinghill.experiments.cli.app import DefaultsShown, even_count, positive_int
from kinghill.experiments.cli.iterated import add_run_options, run_and_print


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill train-position``."""
    parser = subparsers.add_parser(
        "train-position",
        formatter_class=DefaultsShown,
        help="learn a value of the whole position from self-play for the search "
        "(search-position:PATH)",
        description="The search's leaves scored by a net of the whole position: every "
        "ball's place, the whites each player needs, the fouls and the pot chances. Each "
        "iteration plays frames of self-play (the first with search, then with the search "
        "and the last iteration's net), fits the net to the results of every position so far "
        "(its held-out AUC against the hand-made score in iteration-K/fit.json), and plays "
        "search-position with it against search at the same budget; the best net is kept in "
        "OUT/best.npz (search-position:OUT/best.npz). OUT also holds the self-play shards, "
        "every iteration's net and tournament, evaluations.csv, curve.png and run.json. Run "
        "the same command again to resume.",
        epilog="example: kinghill train-position --iterations 2 --frames 400 --eval-frames 40 "
        "--jobs 2 --out runs/position; kinghill play search-position:runs/position/best.npz "
        "search",
    )
    parser.add_argument(
        "--iterations",
        type=positive_int,
        default=3,
        help="iterations of self-play, fit and evaluation (raise it to go on with a run)",
    )
    parser.add_argument(
        "--frames", type=positive_int, default=8000, help="self-play frames an iteration"
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        default=120,
        help="the searches' simulations a decision, in self-play and evaluated",
    )
    parser.add_argument(
        "--eval-frames", type=even_count, default=200, help="frames against search an iteration"
    )
    parser.add_argument(
        "--hidden",
        type=positive_int,
        nargs=2,
        default=(64, 32),
        metavar=("H1", "H2"),
        help="the net's two hidden layers",
    )
    parser.add_argument("--epochs", type=positive_int, default=10, help="passes over the data")
    add_run_options(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``kinghill train-position`` and print its result."""
    from kinghill.experiments.training.position_iteration import PositionConfig, train_position

    config = PositionConfig(
        out=args.out,
        iterations=args.iterations,
        frames=args.frames,
        budget=args.budget,
        eval_frames=args.eval_frames,
        hidden=tuple(args.hidden),
        epochs=args.epochs,
        jobs=args.jobs,
        seed=args.seed,
        ray=args.ray,
    )
    return run_and_print(train_position, config)
