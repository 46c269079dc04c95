"""A learned value of the whole position (``search-position:PATH``): how likely the player to
move is to win the frame, from every ball's place as well as the score.

The hand-made :func:`~kinghill.agents.search.position_value` sees the whites credited, the fouls
and one number of the table (the best pot chance of whoever shoots next). This net sees the
table itself: the coloured ball's place and the whites' (in a canonical order and quarter of the
table, as the table's pockets are symmetric), which balls are on it, the whites each player still
needs, the fouls standing, and the best pot chance of each player at its own target. It is
trained on the results of many frames of self-play (:mod:`kinghill.experiments.training.
position_training`) and scores the search's leaves, all of a batch in one pass of numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kinghill.agents.search import CLOCK_MARGIN, DEFAULT_BUDGET, SearchAgent, leaf_search
from kinghill.agents.value import read_net_file
from kinghill.envs.planning.candidates import best_chances_at
from kinghill.envs.rules import Decision, Frame
from kinghill.physics import COLOURED, N_BALLS, WHITES, TableSpec, TableState
from kinghill.physics.jit import njit

NEEDS = 4
"""Whites still needed are one-hot 0 to 3 (a handicap's more count as 3)."""
FEATURES = (
    *(f"mover_needs_{k}" for k in range(NEEDS)),
    *(f"other_needs_{k}" for k in range(NEEDS)),
    "mover_fouls",
    "other_fouls",
    "mover_chance",
    "other_chance",
    "whites_on",
    "colour_x",
    "colour_y",
    *(f"white_{k}_{c}" for k in range(len(WHITES)) for c in ("x", "y", "on")),
)
"""The features of a position, for the player to move (see :func:`position_features`)."""
N_FEATURES = len(FEATURES)
LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")
"""The arrays of the net (two ReLU hidden layers, one output), as its ``.npz`` file names them."""
MAX_VALUE = 0.95
"""A leaf's value is kept within this of a frame won or lost, below the result itself."""
_WHITE = np.isin(np.arange(N_BALLS), WHITES)


@dataclass(frozen=True)
class Positions:
    """Positions as arrays, each for its player to move: ball places (n x 8 x 2, m, NaN off the
    table), which balls are on the table (n x 8), the whites still needed and the fouls standing
    for (mover, other) (n x 2 each)."""

    places: np.ndarray
    on_table: np.ndarray
    needed: np.ndarray
    fouls: np.ndarray


def chances(positions: Positions, spec: TableSpec) -> np.ndarray:
    """Each position's best straight pot chance for the mover and for the other player, each at
    its own target (the whites while it needs whites, else the coloured ball), n x 2."""
    cues = positions.on_table & _WHITE
    whites = positions.needed > 0
    found = np.zeros((len(positions.needed), 2))
    for side, rows in ((0, slice(None)), (1, whites[:, 0] != whites[:, 1])):
        targets = np.where(whites[rows, side, None], cues[rows], False)
        targets[:, COLOURED] = ~whites[rows, side] & positions.on_table[rows, COLOURED]
        found[rows, side] = best_chances_at(
            positions.places[rows], positions.on_table[rows], cues[rows], targets, spec
        )
    same = whites[:, 0] == whites[:, 1]
    found[same, 1] = found[same, 0]  # one target for both players: the same chance
    return found


def position_features(positions: Positions, spec: TableSpec) -> np.ndarray:
    """One row of :data:`FEATURES` per position: whites needed (one-hot), fouls, the pot
    chances (:func:`chances`), the share of whites on the table, then the balls' places as
    shares of the table's length and width, turned into the quarter of the table where the
    coloured ball's place is nearer the front cushion and the left (mirror images of a position
    are worth the same), the whites in order along the length (whites level in length in ball
    order, so that the rows are the same on every machine) and those off the table last."""
    return _feature_rows(
        np.ascontiguousarray(positions.places, np.float64),
        np.ascontiguousarray(positions.on_table, np.bool_),
        np.ascontiguousarray(positions.needed, np.int64),
        np.ascontiguousarray(positions.fouls, np.float64),
        chances(positions, spec),
        spec.length,
        spec.width,
    )


@njit
def _feature_rows(
    places: np.ndarray,
    on_table: np.ndarray,
    needed: np.ndarray,
    fouls: np.ndarray,
    pot_chances: np.ndarray,
    length: float,
    width: float,
) -> np.ndarray:
    """:func:`position_features`' rows from its parts, compiled: a search's batch of leaves is a
    few dozen rows, where numpy's calls would cost more than their arithmetic. Shares are
    float64 until stored; the whites are ordered by a stable insertion sort (``np.argsort``'s
    order of equal keys differs with the CPU's vector instructions)."""
    n_whites = N_BALLS - 1
    rows = np.zeros((places.shape[0], N_FEATURES), np.float32)
    shares = np.empty((N_BALLS, 2))
    order = np.empty(n_whites, np.int64)
    keys = np.empty(n_whites)
    for k in range(places.shape[0]):
        rows[k, min(needed[k, 0], NEEDS - 1)] = 1.0
        rows[k, NEEDS + min(needed[k, 1], NEEDS - 1)] = 1.0
        for side in range(2):
            rows[k, 2 * NEEDS + side] = fouls[k, side]
            rows[k, 2 * NEEDS + 2 + side] = pot_chances[k, side]
        whites_on = 0
        for ball in range(1, N_BALLS):
            whites_on += on_table[k, ball]
        rows[k, 2 * NEEDS + 4] = whites_on / n_whites
        for ball in range(N_BALLS):
            for axis, size in ((0, length), (1, width)):
                share = places[k, ball, axis] / size
                shares[ball, axis] = 0.0 if np.isnan(share) else share
        for axis in range(2):
            if shares[COLOURED, axis] > 0.5:  # the mirror image nearer the front and the left
                for ball in range(N_BALLS):
                    if on_table[k, ball]:
                        shares[ball, axis] = 1.0 - shares[ball, axis]
        rows[k, 2 * NEEDS + 5] = shares[COLOURED, 0]
        rows[k, 2 * NEEDS + 6] = shares[COLOURED, 1]
        for i in range(n_whites):  # insertion sort along the length, off the table last
            key = shares[i + 1, 0] if on_table[k, i + 1] else np.inf
            m = i
            while m > 0 and keys[m - 1] > key:
                keys[m], order[m] = keys[m - 1], order[m - 1]
                m -= 1
            keys[m], order[m] = key, i + 1
        for i in range(n_whites):
            ball = order[i]
            column = 2 * NEEDS + 7 + 3 * i
            rows[k, column] = shares[ball, 0]
            rows[k, column + 1] = shares[ball, 1]
            rows[k, column + 2] = on_table[k, ball]
    return rows


@dataclass(frozen=True)
class PositionNet:
    """Two ReLU hidden layers and the logit of the mover's chance to win; numpy weights
    (``w1``: features x h1, ``w2``: h1 x h2, ``w3``: h2 x 1)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray

    def __post_init__(self) -> None:
        shapes = [getattr(self, k).shape for k in LAYERS]
        h1, h2 = self.w1.shape[-1], self.w2.shape[-1]
        expected = [(N_FEATURES, h1), (h1,), (h1, h2), (h2,), (h2, 1), (1,)]
        if shapes != expected:
            raise ValueError(
                f"position net: weights of shapes {shapes} do not fit {N_FEATURES} features "
                "and two hidden layers"
            )

    def win_chances(self, features: np.ndarray) -> np.ndarray:
        """The estimated chance that the player to move wins, one per row of ``features``."""
        hidden = np.maximum(features @ self.w1 + self.b1, 0.0)
        hidden = np.maximum(hidden @ self.w2 + self.b2, 0.0)
        logits = (hidden @ self.w3 + self.b3)[:, 0]
        return 1.0 / (1.0 + np.exp(-logits))

    def save(self, path: str | Path) -> None:
        """Write the weights (and the feature names they expect) to an ``.npz`` file."""
        np.savez(path, features=np.array(FEATURES), **{k: getattr(self, k) for k in LAYERS})

    @classmethod
    def load(cls, path: str | Path) -> PositionNet:
        """The net saved at ``path``.

        :raises FileNotFoundError: nothing is there.
        :raises ValueError: the file is not a position net for these features.
        """
        weights = read_net_file(path, FEATURES, "position net", "PositionNet.save")
        missing = [k for k in LAYERS if k not in weights]
        if missing:
            raise ValueError(f"{path} is not a position net: no {', '.join(missing)}")
        return cls(*(weights[k] for k in LAYERS))


_NONE = Positions(np.zeros((0, N_BALLS, 2)), np.zeros((0, N_BALLS), bool), *[np.zeros((0, 2))] * 2)
"""No positions: what :class:`PositionValue` asks for to load the features' kernel."""


@dataclass(frozen=True)
class PositionValue:
    """A leaf score for the search from a :class:`PositionNet`: a result counts fully (1 won,
    -1 lost, 0 drawn), else the net's chance that the player to move wins, as 2p - 1 from
    ``me``'s side, kept within :data:`MAX_VALUE`. After a foul the 10.4 choice is the
    opponent's, who takes the better of its two options (R-foul-choice): playing on, or handing
    the shot back to the player who fouled. Scores a batch of leaves in one pass
    (:meth:`many`)."""

    net: PositionNet

    def __post_init__(self) -> None:
        """Loads (or compiles, once per installation) the features' kernel before any search."""
        position_features(_NONE, TableSpec())

    def __call__(self, frame: Frame, state: TableState, me: int) -> float:
        return self.many([(frame, state)], me)[0]

    def many(self, leaves: Sequence[tuple[Frame, TableState]], me: int) -> list[float]:
        """The score for ``me`` of each ``(frame, state)`` of ``leaves``, in order."""
        rows: list[tuple[TableState, Frame, int]] = []
        for frame, state in leaves:
            if frame.result is not None:
                continue
            rows.append((state, frame, frame.to_move))
            if frame.decision is Decision.CHOICE:
                rows.append((state, frame, 1 - frame.to_move))  # handed back to the fouler
        values = iter(self._mover_values(rows).tolist())
        scores = []
        for frame, _ in leaves:
            if frame.result is not None:
                winner = frame.result.winner
                scores.append(0.0 if winner is None else (1.0 if winner == me else -1.0))
                continue
            value = next(values)
            if frame.decision is Decision.CHOICE:
                value = max(value, -next(values))
            value = value if frame.to_move == me else -value
            scores.append(min(max(value, -MAX_VALUE), MAX_VALUE))
        return scores

    def _mover_values(self, rows: Sequence[tuple[TableState, Frame, int]]) -> np.ndarray:
        """2p - 1 for the mover of each ``(state, frame, mover)``."""
        if not rows:
            return np.zeros(0)
        positions = Positions(
            np.array([state.positions for state, _, _ in rows]),
            np.array([state.on_table for state, _, _ in rows]),
            np.array([(f.whites_needed(m), f.whites_needed(1 - m)) for _, f, m in rows]),
            np.array([(f.fouls[m], f.fouls[1 - m]) for _, f, m in rows]),
        )
        features = position_features(positions, rows[0][0].spec)
        return 2.0 * self.net.win_chances(features) - 1.0


def position_search(
    path: str | Path,
    seed: int | None = None,
    budget: int = DEFAULT_BUDGET,
    time_budget: float | None = None,
    margin: float = CLOCK_MARGIN,
    learned_break: bool = True,
    noise_scale: float = 1.0,
) -> SearchAgent:
    """The search (:class:`SearchAgent`, same candidates, budget, clock, learnt break and noise)
    scoring its leaves with the position net saved at ``path``: ``search-position:PATH``."""
    leaf = PositionValue(PositionNet.load(path))
    return leaf_search(leaf, seed, budget, time_budget, margin, learned_break, noise_scale)
