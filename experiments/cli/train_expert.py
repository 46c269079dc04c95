"""``kinghill train-expert``: expert iteration for the search's prior
(:func:`kinghill.experiments.training.expert_iteration.train_expert`); the best net goes to
``OUT/best.npz`` for ``expert:PATH``; prints the run's result as JSON."""

from __future__ import annotations

import argparse

from kinghill.experiments.cli.app import DefaultsShown, even_count, non_negative_int, positive_int
from kinghill.experiments.cli.iterated import add_run_options, run_and_print


def _population(text: str) -> int:
    """A break population: 0 (no learnt break) or at least 2."""
    value = non_negative_int(text)
    if value == 1:
        raise argparse.ArgumentTypeError("0 (the hand-made break) or at least 2, got 1")
    return value


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill train-expert``."""
    parser = subparsers.add_parser(
        "train-expert",
        formatter_class=DefaultsShown,
        help="expert iteration: a prior net for the search, learnt from its own searches "
        "(expert:PATH)",
        description="Expert iteration: first a break is learnt for the rack (the "
        "cross-entropy method over where white 1 stands, the aim, speed and spin, scored "
        "under noise as the search scores a shot); then an expert search plays frames "
        "against itself; a small "
        "net learns which candidate shots the expert spent its simulations on; the next "
        "iteration's expert is the search guided by that net. Each iteration's net is played "
        "against search, the best kept in OUT/best.npz (expert:OUT/best.npz); OUT also holds "
        "the learnt break (break.npz), the self-play shards, every iteration's net and "
        "tournament, evaluations.csv, "
        "curve.png and run.json. Run the same command again to resume.",
        epilog="example: kinghill train-expert --iterations 2 --frames 40 --jobs 2 --out "
        "runs/expert; kinghill play expert:runs/expert/best.npz search",
    )
    parser.add_argument(
        "--iterations",
        type=positive_int,
        default=3,
        help="iterations of self-play and fit (raise it to go on with a run)",
    )
    parser.add_argument(
        "--frames", type=positive_int, default=200, help="self-play frames an iteration"
    )
    parser.add_argument(
        "--expert-budget",
        type=positive_int,
        default=600,
        help="the expert's simulations a decision",
    )
    parser.add_argument(
        "--expert-arms",
        type=non_negative_int,
        default=16,
        help="candidates the guided expert searches (iterations 2 on; 0: all)",
    )
    parser.add_argument(
        "--budget", type=positive_int, default=150, help="simulations a decision when evaluated"
    )
    parser.add_argument(
        "--arms", type=non_negative_int, default=8, help="candidates searched when evaluated"
    )
    parser.add_argument("--value", action="store_true", help="evaluate with the learnt leaf value")
    parser.add_argument(
        "--eval-frames", type=even_count, default=40, help="frames against search an iteration"
    )
    parser.add_argument("--hidden", type=positive_int, default=32, help="the net's hidden units")
    parser.add_argument("--epochs", type=positive_int, default=40, help="passes over the data")
    parser.add_argument(
        "--break-population",
        type=_population,
        default=4000,
        help="random breaks the learnt break's search starts from (0: the hand-made break)",
    )
    parser.add_argument(
        "--break-generations",
        type=non_negative_int,
        default=8,
        help="generations of the break's cross-entropy search",
    )
    parser.add_argument(
        "--candidates",
        choices=("narrow", "wide"),
        default="narrow",
        help="the candidate set of the expert and the agent (wide: 8 pots, 8 safeties at 3 speeds)",
    )
    add_run_options(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``kinghill train-expert`` and print its result."""
    from kinghill.experiments.training.expert_iteration import ExpertConfig, train_expert

    config = ExpertConfig(
        out=args.out,
        iterations=args.iterations,
        frames=args.frames,
        expert_budget=args.expert_budget,
        expert_arms=args.expert_arms,
        budget=args.budget,
        arms=args.arms,
        value=args.value,
        eval_frames=args.eval_frames,
        hidden=args.hidden,
        epochs=args.epochs,
        jobs=args.jobs,
        seed=args.seed,
        ray=args.ray,
        break_population=args.break_population,
        break_generations=args.break_generations,
        candidates=args.candidates,
    )
    return run_and_print(train_expert, config)
