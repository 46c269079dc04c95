"""Positions of self-play on the full table, for the position value (``kinghill train-position``).

Frames of an agent against itself (``search`` by default; execution noise on) are played; at
every shot decision after the break the whole position is kept as it stands (every ball's place
and whether it is on the table, the whites each player still needs, the fouls standing), from the
point of view of the player to move, with the frame's result for that player (1 won, 0 lost,
0.5 drawn). Features are computed from these later (:mod:`kinghill.agents.position_value`), so a
new feature needs no new frames.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from kinghill.agents.position_value import Positions
from kinghill.experiments.training.frames import self_play_shots
from kinghill.physics import N_BALLS


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
    """Play ``frames`` frames of ``agent`` against itself (:func:`~kinghill.experiments.training.
    frames.self_play_shots`) and keep every shot decision's position. Frames played in pieces
    (:func:`~kinghill.experiments.training.tasks.played_in_parts`) give the same positions."""
    places, on_table, needed, fouls, results, frame_ids = [], [], [], [], [], []
    for shot in self_play_shots(frames, seed, agent):
        view, me = shot.view, shot.view.player
        places.append(view.state.positions)
        on_table.append(view.state.on_table)
        needed.append((view.frame.whites_needed(me), view.frame.whites_needed(1 - me)))
        fouls.append((view.frame.fouls[me], view.frame.fouls[1 - me]))
        results.append(shot.result)
        frame_ids.append(shot.frame)
    return SelfPlay(
        np.array(places, np.float32).reshape(-1, N_BALLS, 2),
        np.array(on_table, bool).reshape(-1, N_BALLS),
        np.array(needed, np.int8).reshape(-1, 2),
        np.array(fouls, np.int8).reshape(-1, 2),
        np.array(results, np.float32),
        np.array(frame_ids, np.int64),
    )
