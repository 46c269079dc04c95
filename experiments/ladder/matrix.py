"""The match matrix: every played pair's :class:`~.tally.PairRow` at one noise condition, as
committed beside the zoo (``matrix-1x.json``), and its win/draw arrays for the fits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from kinghill.envs.game.noise import NoiseScale
from kinghill.experiments.ladder.errors import LadderError
from kinghill.experiments.ladder.tally import PairRow
from kinghill.experiments.tournaments.frame_log import write_durably
from kinghill.experiments.tournaments.json_fields import from_json_object


@dataclass(frozen=True)
class Matrix:
    """The rows of the zoo's pairs at ``noise_scale`` (each pair once, in the zoo's order),
    played ``frames`` frames a pair from ``seed``, by agents whose content keys (the files and
    code that decide their play, :mod:`~kinghill.experiments.tournaments.agent_content`) were
    ``contents`` (id, key), for those that have one."""

    noise_scale: NoiseScale
    frames: int
    seed: int
    rows: tuple[PairRow, ...]
    contents: tuple[tuple[str, str], ...] = ()

    def save(self, path: Path) -> None:
        """Write the matrix as JSON (atomically)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        write_durably(path, json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> Matrix:
        """The matrix stored at ``path``.

        :raises LadderError: missing, or not a matrix (the message says why).
        """
        try:
            return from_json_object(cls, json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as error:
            raise LadderError(f"{path}: not a match matrix ({error})", "matrix") from None


def score_arrays(agents: Sequence[str], rows: Sequence[PairRow]) -> tuple[np.ndarray, np.ndarray]:
    """``wins[i, j]``: frames ``agents[i]`` won against ``agents[j]``; ``draws[i, j]`` (and
    ``[j, i]``): their truncated frames; pairs without a row stay 0."""
    index = {name: i for i, name in enumerate(agents)}
    wins = np.zeros((len(agents), len(agents)))
    draws = np.zeros_like(wins)
    for row in rows:
        i, j = (index[name] for name in row.agents)
        wins[i, j] += row.sides[0].wins
        wins[j, i] += row.sides[1].wins
        draws[i, j] += row.sides[0].draws
        draws[j, i] += row.sides[0].draws
    return wins, draws
