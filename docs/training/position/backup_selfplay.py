"""Search self-play positions whose target is the search's own backed-up value rather than the
frame's result: at each shot decision, the mean leaf value of the arm the search kept (its best
arm of the last halving round), as a chance (v + 1) / 2 for the mover; then a position net fitted
to those targets (``net-backup.npz`` of docs/training.md's ablations):

    python3 docs/training/position/backup_selfplay.py FRAMES OUT.npz NET.npz

3,000 frames from seed 500,000 in two processes; the net: layers (64, 32), 20 epochs.
"""

import sys
from multiprocessing import get_context

import numpy as np

from kinghill.agents import SearchAgent, make_agent
from kinghill.agents.position_value import position_features
from kinghill.envs import Game
from kinghill.envs.rules import Decision
from kinghill.experiments.training.frames import decisions
from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.position_training import fit
from kinghill.experiments.training.tasks import concatenated, held_out_frames
from kinghill.experiments.training.value_training import HELD_OUT
from kinghill.physics import N_BALLS, NoiseModel, TableSpec

FIRST = 500_000
SHARD = 25


def backed_up(agent: SearchAgent) -> float | None:
    """The mean of the arm the search kept at its last shot (the most simulated, the best)."""
    arms = agent.last_arms
    if not arms:
        return None
    top = max(arm.count for arm in arms)
    return max(arm.mean for arm in arms if arm.count == top)


def play(first: int) -> SelfPlay:
    """Frames ``first`` to ``first + SHARD - 1`` of ``search`` against itself."""
    rows: list[tuple[np.ndarray, np.ndarray, tuple[int, int], tuple[int, int], float, int]] = []
    for seed in range(first, first + SHARD):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed, breaker=seed % 2)
        players = [make_agent("search", seed=2 * seed + seat) for seat in (0, 1)]
        for view, _ in decisions(game, players):
            value = backed_up(players[view.player]) if view.decision is Decision.SHOT else None
            if value is None:
                continue
            me, frame = view.player, view.frame
            needed = (frame.whites_needed(me), frame.whites_needed(1 - me))
            fouls = (frame.fouls[me], frame.fouls[1 - me])
            rows.append((view.state.positions, view.state.on_table, needed, fouls, value, seed))
    return SelfPlay(
        np.array([r[0] for r in rows], np.float32).reshape(-1, N_BALLS, 2),
        np.array([r[1] for r in rows], bool).reshape(-1, N_BALLS),
        np.array([r[2] for r in rows], np.int8).reshape(-1, 2),
        np.array([r[3] for r in rows], np.int8).reshape(-1, 2),
        (np.array([r[4] for r in rows], np.float32) + 1) / 2,
        np.array([r[5] for r in rows], np.int64),
    )


if __name__ == "__main__":
    frames, out, net_out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    with get_context("spawn").Pool(2) as pool:
        data = concatenated(pool.map(play, range(FIRST, FIRST + frames, SHARD)))
    data.save(out)
    features = position_features(data.positions, TableSpec())
    test = held_out_frames(data.frames, HELD_OUT)
    net = fit(features[~test], data.results[~test], (64, 32), 20)
    error = 2 * net.win_chances(features[test]) - 2 * data.results[test]
    print(f"{len(data)} positions; held-out mean squared error {np.mean(error**2):.4f}")
    net.save(net_out)
