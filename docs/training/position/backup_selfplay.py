"""Self-play positions with two targets: the frame's result and the search's own backed-up
value (at each shot decision, the mean leaf value of the arm the search kept, its best arm of
the last halving round, as a chance (v + 1) / 2 for the mover); then a position net fitted to a
mix of them (docs/training.md's ablations):

    python3 docs/training/position/backup_selfplay.py FRAMES OUT.npz NET.npz \
        [--agent SPEC] [--first SEED] [--mix W] [--refit] [--start NET --rate R --epochs E]

``net-backup.npz``: 3,000 frames of ``search`` from seed 500,000, ``--mix 1`` (the backed-up
value alone). The net: layers (64, 32), 20 epochs; the frames are played in shards of 25 in two
processes, and ``OUT.npz`` keeps the positions, their results and their backed-up values.
"""

import argparse
from multiprocessing import get_context

import numpy as np

from kinghill.agents import SearchAgent, make_agent
from kinghill.agents.position_value import PositionNet, position_features
from kinghill.envs import Game
from kinghill.envs.rules import Decision
from kinghill.experiments.training.frames import decisions
from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.position_training import fit
from kinghill.experiments.training.tasks import concatenated, held_out_frames
from kinghill.experiments.training.value_training import HELD_OUT, log_loss
from kinghill.physics import N_BALLS, NoiseModel, TableSpec

SHARD = 25


def backed_up(agent: SearchAgent) -> float | None:
    """The mean of the arm the search kept at its last shot (the most simulated, the best)."""
    arms = agent.last_arms
    if not arms:
        return None
    top = max(arm.count for arm in arms)
    return max(arm.mean for arm in arms if arm.count == top)


def play(task: tuple[int, str]) -> tuple[SelfPlay, np.ndarray]:
    """Frames ``first`` to ``first + SHARD - 1`` of ``agent`` against itself (``task``: the
    two): the positions with the frame's result for the mover, and each one's backed-up
    chance."""
    first, agent = task
    rows: list[tuple[np.ndarray, np.ndarray, tuple[int, int], tuple[int, int], float, int]] = []
    results: list[float] = []
    for seed in range(first, first + SHARD):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed, breaker=seed % 2)
        players = [make_agent(agent, seed=2 * seed + seat) for seat in (0, 1)]
        movers = []
        for view, _ in decisions(game, players):
            value = backed_up(players[view.player]) if view.decision is Decision.SHOT else None
            if value is None:
                continue
            me, frame = view.player, view.frame
            needed = (frame.whites_needed(me), frame.whites_needed(1 - me))
            fouls = (frame.fouls[me], frame.fouls[1 - me])
            rows.append((view.state.positions, view.state.on_table, needed, fouls, value, seed))
            movers.append(me)
        winner = game.frame.winner
        results += [0.5 if winner is None else float(winner == me) for me in movers]
    positions = SelfPlay(
        np.array([r[0] for r in rows], np.float32).reshape(-1, N_BALLS, 2),
        np.array([r[1] for r in rows], bool).reshape(-1, N_BALLS),
        np.array([r[2] for r in rows], np.int8).reshape(-1, 2),
        np.array([r[3] for r in rows], np.int8).reshape(-1, 2),
        np.array(results, np.float32),
        np.array([r[5] for r in rows], np.int64),
    )
    return positions, (np.array([r[4] for r in rows], np.float32) + 1) / 2


def main() -> None:
    """Play, save the positions and both targets, fit and save the net (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("frames", type=int, help="frames of self-play (a multiple of 25)")
    parser.add_argument("out", help="where the positions and both targets are saved (.npz)")
    parser.add_argument("net", help="where the fitted position net is saved (.npz)")
    parser.add_argument("--agent", default="search", help="the agent playing itself")
    parser.add_argument("--first", type=int, default=500_000, help="the first frame's seed")
    parser.add_argument(
        "--mix", type=float, default=1.0, help="the backed-up value's weight in the target"
    )
    parser.add_argument("--refit", action="store_true", help="fit to OUT's positions, no play")
    parser.add_argument("--start", help="go on from this position net's weights")
    parser.add_argument("--rate", type=float, default=2e-3, help="the fit's learning rate")
    parser.add_argument("--epochs", type=int, default=20, help="passes over the positions")
    args = parser.parse_args()
    if args.refit:
        data, backed = SelfPlay.load(args.out), np.load(args.out)["backed"]
    else:
        tasks = [(s, args.agent) for s in range(args.first, args.first + args.frames, SHARD)]
        with get_context("spawn").Pool(2) as pool:
            parts = pool.map(play, tasks)
        data = concatenated([p for p, _ in parts])
        backed = np.concatenate([b for _, b in parts])
        np.savez_compressed(args.out, backed=backed, **vars(data))
    targets = args.mix * backed + (1 - args.mix) * data.results
    features = position_features(data.positions, TableSpec())
    test = held_out_frames(data.frames, HELD_OUT)
    start = PositionNet.load(args.start) if args.start else None
    net = fit(features[~test], targets[~test], (64, 32), args.epochs, rate=args.rate, initial=start)
    error = 2 * net.win_chances(features[test]) - 2 * targets[test]
    print(f"{len(data)} positions; held-out mean squared error {np.mean(error**2):.4f}", end="; ")
    for name, chosen in (("fitted", net), ("start", start)):
        if chosen is not None:
            loss = log_loss(chosen.win_chances(features[test]), data.results[test])
            print(f"{name}: held-out log loss against the results {loss:.4f}", end="; ")
    print()
    net.save(args.net)


if __name__ == "__main__":
    main()
