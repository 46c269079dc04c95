"""The graded opponents' specs and ratings on the ladder's scale
(kinghill/experiments/serve/levels.json, package data): the zoo's own agents (casual =
heuristic@1, club = search-30@1, strong = search-120@2, master = expert-position@1) read from
the zoo's committed matrix, the beginner from its ladder run, committed beside this script:

    kinghill ladder kinghill.agents.graded:beginner --cache DIR --jobs 2 \
        --json docs/serve/ladder-beginner.json
    python3 docs/serve/levels.py          # writes experiments/serve/levels.json
    python3 docs/serve/levels.py DIR      # and the beginner's rows against the zoo from DIR's
                                          # frames: docs/serve/matrix-levels-1x.json

(noise 1x, the zoo's 200 frames against each of its agents).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from kinghill.experiments.ladder.matrix import Matrix
from kinghill.experiments.ladder.play import play_pairs
from kinghill.experiments.ladder.zoo import load_zoo
from kinghill.experiments.ladder.zoo_page import zoo_results

HERE = Path(__file__).resolve().parent
ZOO_IDS = {
    "casual": "heuristic@1",
    "club": "search-30@1",
    "strong": "search-120@2",
    "master": "expert-position@1",
}
RUNS = {"beginner": "ladder-beginner.json"}
PLAYS_AS = {
    "beginner": "kinghill.agents.graded:beginner",
    "casual": "heuristic",
    "club": "search:30?learned_break=false",
    "strong": "search",
    "master": "expert-position",
}
"""The agent spec each level plays as (tests/test_serve_levels.py plays both and compares)."""
SPECS = {name: PLAYS_AS[name] for name in RUNS}
LEVELS_JSON = HERE.parents[1] / "experiments" / "serve" / "levels.json"
ORDER = ("beginner", "casual", "club", "strong", "master")


def _entry(name: str, standing: Any, source: str) -> dict[str, Any]:
    rating = standing["rating"] if isinstance(standing, dict) else standing.rating.__dict__
    return {
        "spec": PLAYS_AS[name],
        "rating": round(float(rating["estimate"]), 1),
        "low": round(float(rating["low"]), 1),
        "high": round(float(rating["high"]), 1),
        "source": source,
    }


def levels() -> dict[str, Any]:
    """Every level's spec and rating with where the rating comes from."""
    found: dict[str, Any] = {}
    one_x = next(r for r in zoo_results() if float(r.noise_scale) == 1.0)
    zoo = {s.id: s for s in one_x.zoo}
    for name, zoo_id in ZOO_IDS.items():
        found[name] = _entry(name, zoo[zoo_id], f"experiments/ladder/zoo/matrix-1x.json ({zoo_id})")
    for name, file in RUNS.items():
        result = json.loads((HERE / file).read_text())
        (standing,) = result["candidates"]
        found[name] = _entry(name, standing, f"docs/serve/{file}")
    zoo = load_zoo()
    scale = f"Elo, {zoo.anchor} at {zoo.anchor_rating:g}, noise 1x"
    return {"scale": scale, "levels": {n: found[n] for n in ORDER}}


def matrix(cache: Path) -> Matrix:
    """The rated levels' rows against the zoo (frames won, each side's totals), read from the
    ladder's frame logs under ``cache`` (every frame there already: none is played)."""
    zoo = load_zoo()
    specs = {agent.id: agent.spec for agent in zoo.agents} | {s: s for s in SPECS.values()}
    pairs = [(id, spec) for spec in SPECS.values() for id in zoo.ids]
    rows = play_pairs(zoo, pairs, specs, 1.0, cache, progress=False)
    return Matrix(1.0, zoo.frames, zoo.seed, tuple(rows))


if __name__ == "__main__":
    LEVELS_JSON.write_text(json.dumps(levels(), indent=1) + "\n")
    print(f"wrote {LEVELS_JSON}")
    if len(sys.argv) > 1:
        matrix(Path(sys.argv[1])).save(HERE / "matrix-levels-1x.json")
        print(f"wrote {HERE / 'matrix-levels-1x.json'}")
