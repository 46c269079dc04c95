"""Rate an agent on a fixed scale against a zoo: here a tiny zoo of two agents, six frames a
pair, anchored on the heuristic at 1000 as the shipped zoo is (an anchor that wins and loses
frames: one that lost every frame, as the random agent, would leave the others bounds), built
first (``build_zoo``), then a candidate laddered against it (``ladder``). The shipped zoo is
package data (``kinghill.experiments.ladder.zoo.ZOO_FILE``); ``kinghill ladder AGENT`` rates
against it.

python3 examples/ladder.py
"""

import json
from pathlib import Path

from kinghill.experiments.ladder import build_zoo, ladder
from kinghill.experiments.ladder.report import ladder_markdown

if __name__ == "__main__":  # frames are played in agent processes: the guard is required
    folder = Path("runs/examples/ladder")
    folder.mkdir(parents=True, exist_ok=True)
    zoo = folder / "zoo.json"
    agents = [
        {"id": "heuristic@1", "spec": "heuristic"},
        {"id": "search-8@1", "spec": "search:8?learned_break=false"},
    ]
    setup = {"frames": 6, "max_shots": 30, "anchor": "heuristic@1", "anchor_rating": 1000}
    zoo.write_text(json.dumps({**setup, "agents": agents}))
    build_zoo(zoo, cache=folder / "cache")  # the zoo's matrix, matrix-1x.json beside it
    result = ladder(["search:4"], zoo, cache=folder / "cache")  # played once, cached
    print(ladder_markdown(result))
    candidate = result.candidates[0]
    print(candidate.id, round(candidate.rating.estimate), "rank", candidate.rank)
