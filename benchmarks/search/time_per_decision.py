"""The search agent's CPU time per decision at its default budget on 24 fixed positions (three
seeded frames of the heuristic against itself, 8 decisions each). Run it on two commits one after
the other to compare engines: ``python3 benchmarks/search/time_per_decision.py``; prints JSON."""

import json
import time

from kinghill.agents.heuristic import HeuristicAgent
from kinghill.agents.search import SearchAgent
from kinghill.envs.game.loop import Game
from kinghill.physics import NoiseModel

views = []
for seed in (3, 4, 5):
    g = Game(noise=NoiseModel())
    g.reset(seed=seed)
    agents = [HeuristicAgent(), HeuristicAgent()]
    while not g.is_over and len(views) < 8 * (seed - 2):
        v = g.view()
        views.append(v)
        g.play(agents[g.to_move].act(v))
a = SearchAgent(seed=2)
a.act(views[1])
t = time.process_time()
w = time.perf_counter()
for v in views:
    a.act(v)
print(
    json.dumps(
        {
            "decisions": len(views),
            "cpu_s_per_decision": (time.process_time() - t) / len(views),
            "wall": (time.perf_counter() - w) / len(views),
        }
    )
)
