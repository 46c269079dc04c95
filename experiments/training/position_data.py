"""Positions of self-play on the full table, for the position value (``kinghill train-position``).

Frames of an agent against itself (``search`` by default; execution noise on) are played; at
every shot decision after the break the whole position is kept as it stands (every ball's place
and whether it is on the table, the whites each player still needs, the fouls standing), from the
point of view of the player to move, with the frame's result for that player (1 won, 0 lost,
0.5 drawn). Features are computed from these later (:mod:`kinghill.agents.position_value`), so a
new feature needs no new frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from kinghill.agents import make_agent
from kinghill.agents.position_value import Positions
from kinghill.envs import Game
from kinghill.envs.rules import Decision
from kinghill.experiments.training.frames import decisions
from kinghill.experiments.training.tasks import concatenated, in_parts
from kinghill.physics import N_BALLS, NoiseModel


@dataclass(frozen=True)
class SelfPlay:
    """Shot decisions of self-play: ball places (n x 8 x 2, NaN off the table), which balls are
    on the table, whites needed and fouls standing for (mover, other), the mover's result and the
    seed of the frame each came from."""

    places: np.ndarray
    on_table: np.ndarray
    needed: np.ndarray
    fouls: np.ndarray
    results: np.ndarray
    frames: np.ndarray

    @property
    def positions(self) -> Positions:
        """The positions alone, as the position net reads them."""
        return Positions(self.places, self.on_table, self.needed, self.fouls)

    def save(self, path: str | Path) -> None:
        """Write the arrays to an ``.npz`` file."""
        np.savez_compressed(path, **{f.name: getattr(self, f.name) for f in fields(self)})

    @classmethod
    def load(cls, path: str | Path) -> SelfPlay:
        """The positions saved at ``path``."""
        with np.load(path) as data:
            return cls(*(data[f.name] for f in fields(cls)))

    def __len__(self) -> int:
        return len(self.results)


def self_play(frames: int, seed: int = 0, agent: str = "search") -> SelfPlay:
    """Play ``frames`` frames of ``agent`` against itself (seeds ``seed``, ``seed + 1``, ...;
    seat ``s % 2`` breaks frame ``s``) and keep every shot decision's position. Each frame
    depends on its seed alone, so frames played in pieces give the same positions."""
    places, on_table, needed, fouls, results, frame_ids = [], [], [], [], [], []
    for k in range(frames):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed + k, breaker=(seed + k) % 2)
        players = [make_agent(agent, seed=2 * (seed + k) + seat) for seat in (0, 1)]
        movers = []
        for view, _ in decisions(game, players):
            if view.decision is not Decision.SHOT:
                continue
            me, frame = view.player, view.frame
            places.append(view.state.positions)
            on_table.append(view.state.on_table)
            needed.append((frame.whites_needed(me), frame.whites_needed(1 - me)))
            fouls.append((frame.fouls[me], frame.fouls[1 - me]))
            movers.append(me)
        winner = game.frame.winner
        results += [0.5 if winner is None else float(winner == m) for m in movers]
        frame_ids += [seed + k] * len(movers)
    return SelfPlay(
        np.array(places, np.float32).reshape(-1, N_BALLS, 2),
        np.array(on_table, bool).reshape(-1, N_BALLS),
        np.array(needed, np.int8).reshape(-1, 2),
        np.array(fouls, np.int8).reshape(-1, 2),
        np.array(results, np.float32),
        np.array(frame_ids, np.int64),
    )


def joined(parts: Sequence[SelfPlay]) -> SelfPlay:
    """The positions of several runs of :func:`self_play`, in order."""
    return concatenated(parts)


def parallel_self_play(
    frames: int, seed: int = 0, agent: str = "search", jobs: int = 1
) -> SelfPlay:
    """:func:`self_play` with the frames split into ``jobs`` runs of consecutive seeds in worker
    processes; the same positions as one run."""
    return joined(in_parts(self_play, frames, seed, agent, jobs))
