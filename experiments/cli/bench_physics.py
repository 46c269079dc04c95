"""``kinghill bench-physics``: the physics engine's speed on fixed seeded suites and the peer suite
(:func:`kinghill.experiments.bench.physics.benchmark`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kinghill.experiments.bench.physics import DEFAULT_SUITE, benchmark, check_suite
from kinghill.experiments.bench.physics import __doc__ as DESCRIPTION
from kinghill.experiments.cli.app import (
    UsageError,
    existing_file,
    out_file_option,
    positive_int,
    seed,
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench-physics",
        help="benchmark the physics engine (shots/s, breaks/s, first call, reference mode)",
        description=DESCRIPTION,
        epilog="example: kinghill bench-physics --shots 200 --breaks 50 --reference-shots 2 "
        "--no-cold-compile --report runs/physics.json",
    )
    parser.add_argument(
        "--shots", type=positive_int, default=1000, help="random shots (default 1000)"
    )
    parser.add_argument(
        "--breaks", type=positive_int, default=200, help="timed breaks (default 200)"
    )
    parser.add_argument(
        "--reference-shots",
        type=positive_int,
        default=20,
        help="random shots also run in the 1/5000 s reference mode (default 20; ~1 s each)",
    )
    parser.add_argument(
        "--seed", type=seed, default=2024, help="seed of the random suite (default: 2024)"
    )
    parser.add_argument(
        "--suite",
        type=existing_file,
        help="peer suite JSON (default: the one shipped in the package, benchmarks/peer/suite.json "
        "of the repository, skipped if an install lacks it)",
    )
    out_file_option(
        parser, ".json", help="also write the figures to this JSON file", flag="--report"
    )
    parser.add_argument(
        "--cold-compile",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time a compile of the kernels from scratch in a fresh process with an empty "
        "cache (what an installation pays once; tens of seconds; default: on)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    suite = args.suite or DEFAULT_SUITE  # one named must be there; the default may not
    try:
        check_suite(suite)
    except ValueError as error:
        raise UsageError(str(error), "--suite") from None
    r = benchmark(
        args.shots, args.breaks, args.reference_shots, args.seed, suite, args.cold_compile
    )

    def line(name: str, s: dict) -> None:
        print(
            f"{name:<22} {s['shots_per_s']:9.1f} shots/s  {s['steps_per_shot']:7.1f} steps/shot"
            f"  {s['events_per_shot']:6.1f} events/shot  {s['us_per_step']:6.1f} us/step"
        )

    print(f"first call (fresh process, import + 1 shot): {r['first_call_s']:.3f} s")
    if "compile_s" in r:
        print(f"cold compile of the kernels (once per installation): {r['compile_s']:.1f} s")
    line("break", r["break"])
    line(f"random ({r['random']['shots']})", r["random"])
    ref = r["reference"]
    line(f"reference 1/5000 s ({ref['shots']})", ref)
    print(
        f"  engine / reference speed: {ref['speed_ratio']:.2f}x; final positions differ by "
        f"max {1e3 * ref['max_position_diff_m']:.3f} mm, median "
        f"{1e3 * ref['median_position_diff_m']:.3f} mm; "
        f"{ref['shots_pocketed_differently']} shot(s) pocketed differently"
    )
    if "peer" in r:
        p = r["peer"]
        line("peer suite break", p["break"])
        line(f"peer suite random ({p['random']['shots']})", p["random"])
        line("  the same, one batch", p["random_batch"])
        if p["pooltool_random_per_s"]:
            print(
                f"  pooltool 0.6 on this suite (its README's machine): "
                f"{p['pooltool_random_per_s']} random shots/s, {p['pooltool_break_per_s']} "
                f"breaks/s -> ratio {p['random']['shots_per_s'] / p['pooltool_random_per_s']:.1f}x"
                f" / {p['break']['shots_per_s'] / p['pooltool_break_per_s']:.1f}x"
            )
    else:
        print(f"peer suite not found at {suite}: skipped")
    if args.out:
        args.out.write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    from kinghill.experiments.cli.app import main

    raise SystemExit(main(["bench-physics", *sys.argv[1:]]))
