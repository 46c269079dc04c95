"""Print kinghill's and pooltool's figures on the peer suite side by side.

``python3 benchmarks/peer/compare.py kinghill.json pooltool.json`` (the two files
``benchmarks/peer/run.sh`` writes: ``kinghill bench-physics --out`` and ``bench_pooltool.py``'s
output). Standard library only; ``docs/tables.py`` builds the README's speed table with
:func:`speed_rows`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def speed_rows(kinghill: dict, pooltool: dict) -> list[tuple[str, float, float, float]]:
    """(suite, kinghill shots/s, pooltool shots/s, ratio) for the random shots and the break."""
    peer = kinghill["peer"]
    pairs = [
        (
            f"random shots ({peer['random']['shots']})",
            peer["random"]["shots_per_s"],
            pooltool["random"]["shots_per_s_median"],
        ),
        ("the opening break", peer["break"]["shots_per_s"], pooltool["break"]["shots_per_s"]),
    ]
    return [(name, k, p, k / p) for name, k, p in pairs]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: compare.py KINGHILL_JSON POOLTOOL_JSON", file=sys.stderr)
        return 2
    kinghill, pooltool = (json.loads(Path(path).read_text()) for path in argv)
    print(f"{'peer suite':<22} {'kinghill':>12} {'pooltool 0.6':>14} {'ratio':>8}")
    for name, k, p, ratio in speed_rows(kinghill, pooltool):
        print(f"{name:<22} {k:>8.1f} /s {p:>10.1f} /s {ratio:>7.1f}x")
    print(f"kinghill first call (fresh process, import + 1 shot): {kinghill['first_call_s']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
