"""``kinghill bench-env``: the environments' steps per second against raw ``simulate``
(:func:`kinghill.experiments.bench.env.benchmark`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kinghill.experiments.bench.env import __doc__ as DESCRIPTION
from kinghill.experiments.bench.env import benchmark
from kinghill.experiments.cli.app import out_file_option, positive_int, seed


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench-env",
        help="benchmark the environment's overhead over raw physics, and vector-env speed",
        description=DESCRIPTION,
        epilog="example: kinghill bench-env --steps 300 --vector-steps 100 --report runs/env.json",
    )
    parser.add_argument(
        "--steps", type=positive_int, default=2_000, help="env steps timed (default 2000)"
    )
    parser.add_argument(
        "--vector-steps",
        type=positive_int,
        default=500,
        help="steps per vector-env run (default 500)",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the env and its actions (default: 0)"
    )
    out_file_option(
        parser, ".json", help="also write the numbers to this JSON file", flag="--report"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    result = benchmark(args.steps, args.vector_steps, args.seed)
    print(f"env steps/s          {result['env_steps_per_s']:8.1f}  ({result['env_steps']} steps)")
    print(f"shots/s inside env   {result['env_shots_per_s']:8.1f}  ({result['shots']} shots)")
    print(f"simulate inside env  {result['simulate_shots_per_s_inside_env']:8.1f}  shots/s")
    print(f"raw simulate shots/s {result['raw_shots_per_s']:8.1f}  (the same shots, replayed)")
    print(f"env overhead         {100 * result['overhead']:8.1f} %  (env time / simulate time - 1)")
    print(f"  against the replay {100 * result['overhead_vs_raw_replay']:8.1f} %")
    print(
        f"masked env steps/s   {result['masked_steps_per_s']:8.1f}  "
        f"({100 * result['masked_vs_plain']:.0f} % of the plain env's)"
    )
    print(
        f"  shot menus         {result['masked_menu_ms_per_step']:8.2f} ms a step "
        f"({100 * result['masked_menu_share']:.0f} % of its time; simulate "
        f"{100 * result['masked_simulate_share']:.0f} %, plain env's simulate "
        f"{100 * result['plain_simulate_share']:.0f} %)"
    )
    for name in ("plain", "masked"):
        split = result[name]
        print(
            f"{name:6s} env a step   {split['ms_per_step']:8.3f} ms = simulate "
            f"{split['simulate_ms_per_step']:.3f} + env overhead "
            f"{split['overhead_ms_per_step']:.3f} ms "
            f"({split['steps_per_s_without_simulate']:.0f} steps/s with a free simulate)"
        )
    for workers, rate in result["vector_steps_per_s"].items():
        print(f"make_vec, {workers} worker(s) {rate:8.1f} steps/s")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    from kinghill.experiments.cli.app import main

    raise SystemExit(main(["bench-env", *sys.argv[1:]]))
