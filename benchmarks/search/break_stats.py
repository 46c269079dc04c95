"""The hand-made break against a net's learnt break, each played under the game's noise from
the rack: how often the breaker keeps the turn (a white potted, 4.6), how often the break is a
foul (4.3), the whites it pots, and its mean score for the breaker as the search scores a leaf.

    python3 benchmarks/search/break_stats.py [NET] [PLAYS]    # prints JSON

NET defaults to the shipped expert net (kinghill/agents/data/expert2.npz), PLAYS to 2000 (each
break's plays from seeds 0..).
"""

import json
import sys

import numpy as np

from kinghill.agents.builtins import data_path
from kinghill.agents.prior import PriorNet
from kinghill.agents.search import position_value
from kinghill.envs import Game, ShotAction
from kinghill.envs.planning.menu import break_action
from kinghill.physics import NoiseModel


def stats(action: ShotAction, plays: int) -> dict[str, float]:
    kept = fouls = whites = 0
    values = []
    for seed in range(plays):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed)
        turn = game.play(action)
        ruling = turn.ruling
        kept += game.frame.to_move == 0
        fouls += ruling is not None and ruling.is_foul
        whites += len(game.frame.credited[0])
        values.append(position_value(game.frame, game.state, 0))
    return {
        "keeps_the_turn": kept / plays,
        "fouls": fouls / plays,
        "whites_credited": whites / plays,
        "leaf_value": float(np.mean(values)),
    }


path = sys.argv[1] if len(sys.argv) > 1 else data_path("expert2.npz")
plays = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
learnt = PriorNet.load(path).break_shot
if learnt is None:
    sys.exit(f"{path} holds no learnt break")
print(
    json.dumps(
        {
            "plays": plays,
            "hand_made": stats(break_action(Game().state), plays),
            "learnt": stats(learnt.action(), plays) | {"parameters": learnt.parameters},
            "learnt_score_in_training": learnt.score,
        },
        indent=2,
    )
)
