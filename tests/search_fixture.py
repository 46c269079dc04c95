"""The recorded decisions of the search in ``tests/data/search_fixture.npz`` (issue 35 item 3): what
:class:`~kinghill.agents.search.SearchAgent` chose, seeded, on a few hundred positions, and what
its simulations found (every arm's total score and count), recorded before its inner loop
(sample, simulate, judge, score) was made cheaper, so that the faster code can be held to the
same decisions (``tests/test_search_fixture.py``).

The positions are ``tests/data/menu_fixture.npz``'s shot decisions and 10.4 choices (frames of
heuristic and random players, other whites required, balls hanging in mouths). Each is searched
by the plain search at its default budget (seed: the position's index), and every
:data:`VARIANT_EVERY`-th by the variants that score their leaves otherwise: one shot deeper
(``lookahead``), by the shipped learnt value (``search-value``), and guided by the shipped
prior (``expert``), at
:data:`VARIANT_BUDGET`.

Recorded on commit 670960e (the search's shot decisions as on main 8292ba3) with
``python tests/search_fixture.py``; regenerate only when the search is meant to decide
differently (new candidates, a new score), from a commit whose search is known to be right.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from menu_fixture import _action_row
from menu_fixture import load as load_views

from kinghill.agents import make_agent
from kinghill.agents.search import DEFAULT_BUDGET, SearchAgent
from kinghill.envs import FrameView
from kinghill.envs.rules import Decision

PATH = Path(__file__).parent / "data" / "search_fixture.npz"
VARIANT_EVERY = 6
VARIANT_BUDGET = 40
AGENTS: dict[str, Callable[[int], Any]] = {
    "search": lambda seed: SearchAgent(seed, DEFAULT_BUDGET),
    "lookahead": lambda seed: SearchAgent(seed, VARIANT_BUDGET, lookahead=True),
    "search-value": lambda seed: make_agent(f"search-value?budget={VARIANT_BUDGET}", seed),
    "expert": lambda seed: make_agent(f"expert?budget={VARIANT_BUDGET}", seed),
}
"""The searches recorded, by name, each built for a position's seed."""


def positions() -> list[tuple[int, FrameView]]:
    """The searched positions with their seeds (their index among the menu fixture's views):
    every shot decision and 10.4 choice."""
    _, views, _ = load_views()
    return [(i, v) for i, v in enumerate(views) if v.decision in (Decision.SHOT, Decision.CHOICE)]


def cases() -> list[tuple[str, int, FrameView]]:
    """Every (search, seed, position) recorded, in a fixed order."""
    found = positions()
    out = [("search", seed, view) for seed, view in found]
    for name in AGENTS:
        if name != "search":
            out += [(name, seed, view) for seed, view in found[::VARIANT_EVERY]]
    return out


def record(chosen: list[tuple[str, int, FrameView]]) -> dict[str, np.ndarray]:
    """What each search chose on its position, and the arms of its last search (for a 10.4
    choice, the second of its two): every arm's total score and simulation count."""
    actions, calls, totals, counts, owner = [], [], [], [], []
    for k, (name, seed, view) in enumerate(chosen):
        agent = AGENTS[name](seed)
        row, call = _action_row(agent.act(view))
        actions.append(row)
        calls.append(call)
        for arm in agent.last_arms:
            totals.append(arm.total)
            counts.append(arm.count)
            owner.append(k)
    return {
        "actions": np.array(actions),
        "calls": np.array(calls, dtype=str),
        "arm_total": np.array(totals),
        "arm_count": np.array(counts, np.int32),
        "arm_owner": np.array(owner, np.int32),
    }


def load(path: Path = PATH) -> dict[str, np.ndarray]:
    """The recorded arrays (see :func:`record`) and ``agents``/``seeds``, the cases' names and
    seeds."""
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def main(path: Path = PATH) -> dict[str, Any]:
    """Record the fixture afresh with the code as it is now."""
    chosen = cases()
    arrays = {
        "agents": np.array([name for name, _, _ in chosen], dtype=str),
        "seeds": np.array([seed for _, seed, _ in chosen], np.int32),
        **record(chosen),
    }
    np.savez_compressed(path, **arrays)
    names = [name for name, _, _ in chosen]
    return {
        "cases": len(chosen),
        "by_agent": {n: names.count(n) for n in AGENTS},
        "arms": len(arrays["arm_total"]),
        "bytes": path.stat().st_size,
    }


if __name__ == "__main__":
    print(main())
