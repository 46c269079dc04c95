"""How many of ``search``'s shot decisions have a player who needs only the coloured ball, in
frames of ``search`` against itself (``variants:stakes`` spends more simulations there):

    python3 docs/training/position/colour_share.py [FRAMES]

100 frames (seeds 1000-1099): 1,723 shot decisions, the player to move on the colour in 0.44,
either player in 0.71.
"""

import sys

from kinghill.experiments.training.frames import self_play_shots

FIRST = 1000

if __name__ == "__main__":
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    shots = mover = either = 0
    for shot in self_play_shots(frames, FIRST, "search"):
        frame, me = shot.view.frame, shot.view.player
        mine, theirs = frame.whites_needed(me) == 0, frame.whites_needed(1 - me) == 0
        shots, mover, either = shots + 1, mover + mine, either + (mine or theirs)
    print(
        f"{shots} shot decisions; mover on the colour {mover / shots:.2f}, "
        f"either {either / shots:.2f}"
    )
