"""Where a search decision's time goes: cProfile over the search at its default budget on the
first ``--positions`` positions of the search fixture (``tests/search_fixture.py``; another
searching agent with ``--agent SPEC``), each named
part's cumulative seconds as a share of the decisions' (cProfile weighs Python calls more than
compiled ones, so the shares of the physics' and the planner's kernels are lower bounds).

    python3 benchmarks/search/profile_decision.py --positions 120 \\
        --out benchmarks/search/profile-decision.json

(with an interpreter whose ``kinghill`` is another checkout, the same for that code; the parts
it lacks read 0).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[2] / "tests"
PARTS = {
    "decision": ("agents/search.py", "act"),
    "inner loop (SearchAgent._halve)": ("agents/search.py", "_halve"),
    "  simulate_many (physics, kernel and wrapping; before simulate_batch)": (
        "/physics/",
        "simulate_many",
    ),
    "  simulate_batch (physics, kernel and wrapping)": ("/physics/", "simulate_batch"),
    "    play_batch (physics, the compiled loop)": ("/physics/", "play_batch"),
    "TableState construction (physics; all of it, in and out of the loop)": (
        "physics/state.py",
        "__post_init__",
    ),
    "  judge (referee)": ("envs/rules/referee.py", "judge"),
    "  apply (rules)": ("envs/rules/apply.py", "apply"),
    "  ruled_frame (rules: apply without the table)": ("envs/rules/apply.py", "ruled_frame"),
    "  leaf values (position_values)": ("agents/search.py", "position_values"),
    "calibration of the pots' aim (_heading_error, one pot and shot a call)": (
        "agents/search.py",
        "_heading_error",
    ),
    "  simulate with trajectory (physics)": ("physics/simulate.py", "simulate"),
    "calibration of the pots' aim (_aims, all the pots together)": ("agents/search.py", "_aims"),
    "  simulate_departures (physics, kernel and wrapping)": (
        "/physics/",
        "simulate_departures",
    ),
    "    play_departures (physics, the compiled loop)": ("/physics/", "play_departures"),
    "candidates": ("agents/search.py", "candidates"),
    "refinement of the chosen pot (SearchAgent._refined)": ("agents/search.py", "_refined"),
    "pot chances of the leaves (the compiled best_chances)": (
        "envs/planning/pot_kernel.py",
        "best_chances",
    ),
}
"""Each reported part: (a part of its module's path, its function name); the physics' batch by
package alone, as issue 37 moves its modules. Parts renamed since the base keep their old
names beside the new ones (a tree reads 0 for the names it lacks)."""


def profile(positions: int, spec: str = "search") -> dict[str, Any]:
    """The shares of the agent ``spec`` (a searching agent) on the fixture's positions."""
    sys.path.insert(0, str(TESTS))
    from search_fixture import positions as fixture_positions

    from kinghill.agents import make_agent

    found = fixture_positions()[:positions]
    agent = make_agent(spec, 0)
    agent.act(found[0][1])  # kernels and nets loaded first
    profiler = cProfile.Profile()
    profiler.enable()
    for seed, view in found:
        agent.reset(seed)
        agent.act(view)
    profiler.disable()
    stats: Any = pstats.Stats(profiler).stats  # {(file, line, name): (cc, nc, tt, ct, callers)}
    seconds = {
        part: sum(
            ct
            for (path, _, name), (_, _, _, ct, _) in stats.items()
            if module in path and name == function
        )
        for part, (module, function) in PARTS.items()
    }
    total = seconds["decision"]
    return {
        "agent": spec,
        "positions": len(found),
        "ms_per_decision_under_cprofile": 1000 * total / len(found),
        "share_of_decision": {part: round(s / total, 3) for part, s in seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--agent", default="search", help="the searching agent's spec")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = json.dumps(profile(args.positions, args.agent), indent=2)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
