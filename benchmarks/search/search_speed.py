"""The search's time a decision, base against new code, interleaved on one machine (issue 35
item 3).

Each run is a fresh process of one interpreter (``--base-python``: one whose ``kinghill`` is the
base checkout, e.g. main's; ``--new-python``: this one's) that plays the search at its default
budget (or the searching agent ``--agent``, e.g. ``expert-refine``), seeded, on the first
``--positions`` of the search fixture's positions (``tests/search_fixture.py``: the menu fixture's
shot decisions and 10.4 choices) and reports the wall and CPU seconds a decision, and of them the
wall and CPU seconds in the inner loop (``SearchAgent._halve``: sample, simulate, judge, score; the
rest is the candidates and their aim's calibration), and a digest of the chosen actions. Runs go
base, new, new, base, ``--rounds`` times over, so that a change of load weighs on both alike; the
ratios are base / new (above 1: new is faster), and the digests must agree (the same decisions).

    python3 benchmarks/search/search_speed.py \\
        --base-python /work/wt/base8292/.venv/bin/python3 --new-python .venv/bin/python3 \\
        --rounds 3 --positions 200 --out benchmarks/search/search-speed.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[2] / "tests"


def measure(positions: int, spec: str = "search") -> dict[str, Any]:
    """One run in this process: the agent ``spec`` (a search: ``search``, ``expert-refine``, ...)
    on the first ``positions`` fixture positions, reseeded for each."""
    sys.path.insert(0, str(TESTS))
    from menu_fixture import _action_row
    from search_fixture import positions as fixture_positions

    from kinghill.agents import make_agent, search

    found = fixture_positions()[:positions]
    agent = make_agent(spec, 0)
    agent.act(found[0][1])  # kernels and nets loaded before the clock starts
    inner = [0.0, 0.0]
    halve = search.SearchAgent._halve

    def timed_halve(self: Any, *args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return halve(self, *args, **kwargs)
        finally:
            inner[0] += time.perf_counter() - start
            inner[1] += time.process_time() - cpu

    search.SearchAgent._halve = timed_halve  # type: ignore[method-assign]
    digest = hashlib.sha256()
    wall, cpu = time.perf_counter(), time.process_time()
    for seed, view in found:
        agent.reset(seed)
        row, call = _action_row(agent.act(view))
        digest.update(json.dumps([row, call]).encode())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(found)
    return {
        "kinghill": str(Path(search.__file__).resolve().parents[1]),
        "decisions": n,
        "s_per_decision": wall / n,
        "cpu_s_per_decision": cpu / n,
        "inner_s_per_decision": inner[0] / n,
        "inner_cpu_s_per_decision": inner[1] / n,
        "actions_sha256": digest.hexdigest(),
    }


def _run(python: str, positions: int, spec: str) -> dict[str, Any]:
    out = subprocess.run(
        [python, __file__, "--worker", "--positions", str(positions), "--agent", spec],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def compare(
    base: str, new: str, rounds: int, positions: int, spec: str = "search"
) -> dict[str, Any]:
    """Runs base, new, new, base ``rounds`` times; each side's runs and the base/new ratios of
    their means."""
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
    for _ in range(rounds):
        for side in ("base", "new", "new", "base"):
            runs[side].append(_run(base if side == "base" else new, positions, spec))
    keys = (
        "s_per_decision",
        "cpu_s_per_decision",
        "inner_s_per_decision",
        "inner_cpu_s_per_decision",
    )
    means = {side: {k: statistics.fmean(r[k] for r in runs[side]) for k in keys} for side in runs}
    digests = {r["actions_sha256"] for side in runs.values() for r in side}
    return {
        "agent": spec,
        "positions": positions,
        "rounds": rounds,
        "order": "base, new, new, base per round",
        "same_decisions": len(digests) == 1,
        "mean": means,
        "base_over_new": {k: means["base"][k] / means["new"][k] for k in keys},
        "inner_share": {side: means[side][keys[2]] / means[side][keys[0]] for side in runs},
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-python", help="interpreter whose kinghill is the base code")
    parser.add_argument("--new-python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--agent", default="search", help="the searching agent's spec")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.positions, args.agent)))
        return
    if args.base_python is None:
        parser.error("--base-python: the interpreter of the base code is needed")
    report = compare(args.base_python, args.new_python, args.rounds, args.positions, args.agent)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
