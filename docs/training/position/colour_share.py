"""How many of ``search``'s shot decisions have a player who needs only the coloured ball, in
frames of ``search`` against itself (``variants:stakes`` spends more simulations there):

    python3 docs/training/position/colour_share.py [FRAMES]

100 frames (seeds 1000-1099): 1,723 shot decisions, the player to move on the colour in 0.44,
either player in 0.71.
"""

import sys

from kinghill.agents import make_agent
from kinghill.envs import Game
from kinghill.envs.rules import Decision
from kinghill.experiments.training.frames import decisions
from kinghill.physics import NoiseModel

FIRST = 1000

if __name__ == "__main__":
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    shots = mover = either = 0
    for seed in range(FIRST, FIRST + frames):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed, breaker=seed % 2)
        players = [make_agent("search", seed=2 * seed + seat) for seat in (0, 1)]
        for view, _ in decisions(game, players):
            if view.decision is not Decision.SHOT:
                continue
            mine = view.frame.whites_needed(view.player) == 0
            theirs = view.frame.whites_needed(1 - view.player) == 0
            shots, mover, either = shots + 1, mover + mine, either + (mine or theirs)
    print(
        f"{shots} shot decisions; mover on the colour {mover / shots:.2f}, "
        f"either {either / shots:.2f}"
    )
