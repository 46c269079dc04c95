"""What the iterated training commands (``train-expert``, ``train-position``) share: the
workers, seed, Ray and run-folder options, and the run's result printed as JSON (a run folder
that holds another run refused in one line)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import asdict
from typing import TypeVar

from kinghill.experiments.cli.app import output_dir, positive_int, seed
from kinghill.experiments.cli.train import as_command_error
from kinghill.experiments.training import TrainingError, TrainResult
from kinghill.experiments.training.result import jsonable

C = TypeVar("C")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--seed``, ``--ray`` and ``--out``, and what Ctrl-C keeps."""
    parser.add_argument("--jobs", type=positive_int, default=1, help="worker processes")
    parser.add_argument("--seed", type=seed, default=0, help="first frame seed; the fit's seed")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the self-play and the evaluations on Ray instead: a cluster address, "
        "'auto', or 'local' to start one here (needs pip install 'kinghill[ray]')",
    )
    parser.add_argument("--out", type=output_dir, required=True, help="the run's folder")
    parser.set_defaults(
        interrupted="finished shards, nets and evaluations are kept: the same command resumes"
    )


def run_and_print(train: Callable[[C], TrainResult], config: C) -> int:
    """Run ``train(config)`` and print its result as JSON; a run that cannot start or go on is
    the command's one-line error (naming the flag at fault)."""
    try:
        result = train(config)
    except TrainingError as error:
        raise as_command_error(error) from None
    print(json.dumps(jsonable(asdict(result)), indent=2))
    return 0
