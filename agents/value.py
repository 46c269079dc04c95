"""A learned position value: a small network that estimates, from a few features of the frame
and the table, how likely the player to move is to win the frame.

It is trained on frames of self-play (:mod:`kinghill.experiments.training.value_training`) and
replaces
the search's hand-made :func:`~kinghill.agents.search.position_value` at its leaves
(``search-value:PATH``). Inference is plain numpy (two small layers), so a leaf costs about what
the hand-made score costs: one enumeration of the pots for each player's target.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kinghill.agents.search import (
    CLOCK_MARGIN,
    DEFAULT_BUDGET,
    FOUL_VALUE,
    SearchAgent,
    leaf_search,
)
from kinghill.envs.planning import pots
from kinghill.envs.rules import Decision, Frame, choose
from kinghill.physics import COLOURED, WHITES, TableState

TOP_CHANCES = 3
"""How many of the mover's best pot chances are features."""
FEATURES = (
    *(f"mover_needs_{k}" for k in range(4)),
    *(f"other_needs_{k}" for k in range(4)),
    "colour_on",
    "whites_on",
    *(f"mover_chance_{k}" for k in range(TOP_CHANCES)),
    "mover_pots",
    "other_chance",
    "other_pots",
)
"""The features, from the point of view of the player to move (see :func:`value_features`)."""
N_FEATURES = len(FEATURES)


def _chances(state: TableState, frame: Frame, player: int) -> list[float]:
    """The pot chances of ``player``'s straight pots at their own target, best first."""
    whites = [b for b in WHITES if state.on_table[b]]
    targets = whites if frame.whites_needed(player) else [COLOURED]
    return [c.chance for c in pots(state, whites, targets)]


def value_features(frame: Frame, state: TableState) -> np.ndarray:
    """The features of a position with a shot to play, for the player to move
    (``frame.to_move``): whites each player still needs (one-hot 0-3), balls on the table, the
    mover's best straight pot chances at its target and how many pots it has (/10), and the same
    for the other player's target as if it were to shoot. Fouls are left out: in self-play a
    foul standing went with winning more often, not less (the heuristic's fouls come in
    positions it is winning), and a net would learn to foul; a foul is valued through the 10.4
    choice it gives instead (:class:`LearnedValue`)."""
    mover = frame.to_move
    other = 1 - mover
    row = np.zeros(N_FEATURES, np.float32)
    row[min(frame.whites_needed(mover), 3)] = 1.0
    row[4 + min(frame.whites_needed(other), 3)] = 1.0
    row[8] = bool(state.on_table[COLOURED])
    row[9] = sum(bool(state.on_table[b]) for b in WHITES) / len(WHITES)
    mine = _chances(state, frame, mover)
    row[10 : 10 + len(mine[:TOP_CHANCES])] = mine[:TOP_CHANCES]
    row[10 + TOP_CHANCES] = min(len(mine), 10) / 10
    same = (frame.whites_needed(mover) > 0) == (frame.whites_needed(other) > 0)
    theirs = mine if same else _chances(state, frame, other)
    row[11 + TOP_CHANCES] = theirs[0] if theirs else 0.0
    row[12 + TOP_CHANCES] = min(len(theirs), 10) / 10
    return row


@dataclass(frozen=True)
class ValueNet:
    """A two-layer tanh network giving the logit of the mover's chance to win; weights as numpy
    arrays (``w1``: features x hidden, ``w2``: hidden x 1)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def __post_init__(self) -> None:
        check_layers(self.w1, self.b1, self.w2, self.b2, N_FEATURES, "value net")

    def win_chance(self, features: np.ndarray) -> float:
        """The estimated chance that the player to move wins."""
        hidden = np.tanh(features @ self.w1 + self.b1)
        logit = float((hidden @ self.w2 + self.b2)[0])
        return 1.0 / (1.0 + np.exp(-logit))

    def save(self, path: str | Path) -> None:
        """Write the weights (and the feature names they expect) to an ``.npz`` file."""
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, features=np.array(FEATURES))

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """The net saved at ``path``.

        :raises FileNotFoundError: nothing is there.
        :raises ValueError: the file is not a value net for these features.
        """
        weights = read_net_file(path, FEATURES, "value net", "ValueNet.save")
        return cls(*(weights[k] for k in LAYERS))


LAYERS = ("w1", "b1", "w2", "b2")
"""The arrays of a net with one tanh hidden layer, as its ``.npz`` file names them."""


def check_layers(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, n_features: int, what: str
) -> None:
    """Raise ``ValueError`` unless the arrays are a one-hidden-layer net over ``n_features``
    features with one output (``what`` names the net in the message)."""
    hidden = w1.shape[1] if w1.ndim == 2 else -1
    shapes = [w1.shape, b1.shape, w2.shape, b2.shape]
    if w1.shape[0] != n_features or shapes[1:] != [(hidden,), (hidden, 1), (1,)]:
        raise ValueError(
            f"{what}: weights of shapes {shapes} do not fit {n_features} features and one "
            "hidden layer"
        )


def read_net_file(
    path: str | Path, features: tuple[str, ...], what: str, saver: str
) -> dict[str, np.ndarray]:
    """The arrays (as float32) of the ``.npz`` file ``path`` written by ``saver`` for a net over
    ``features``.

    :raises FileNotFoundError: nothing is there.
    :raises ValueError: the file is not such a net, or its features are not these.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no {what} at {path}")
    if not zipfile.is_zipfile(path):  # np.load would try it as a pickle and say so
        raise ValueError(f"{path} is not a {what} saved by {saver}: not a .npz file")
    try:
        with np.load(path) as data:
            names = tuple(str(n) for n in data["features"])
            weights = {  # the features' names are text; a file may name a second net's too
                k: np.asarray(data[k], np.float32) for k in data.files if not k.endswith("features")
            }
        missing = [k for k in LAYERS if k not in weights]
        if missing:
            raise KeyError(f"no {', '.join(missing)}")
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"{path} is not a {what} saved by {saver}: {error}") from None
    if names != features:
        raise ValueError(f"{path}: its features {names} are not this version's {features}")
    return weights


@dataclass(frozen=True)
class LearnedValue:
    """A leaf score for the search: a result counts fully (1 won, -1 lost, 0 drawn), else the
    net's chance that the player to move wins, as 2p - 1 from ``me``'s side, less
    ``foul_cost`` per foul standing against ``me`` (more per foul than the other player's).
    After a foul the 10.4 choice is the opponent's, who takes the better of its two options
    (R-foul-choice): playing on, or handing the shot back to the player who fouled.

    ``foul_cost`` (default the hand-made score's ``FOUL_VALUE``) prices the one thing self-play
    cannot teach the net: that a second foul loses the frame (10.5); the search fouls too
    rarely for its frames to show it. The score is kept within +-0.95, below a frame won.
    """

    net: ValueNet
    foul_cost: float = FOUL_VALUE

    def __call__(self, frame: Frame, state: TableState, me: int) -> float:
        if frame.result is not None:
            winner = frame.result.winner
            return 0.0 if winner is None else (1.0 if winner == me else -1.0)
        if frame.decision is Decision.CHOICE:
            on = self._for_mover(choose(frame, play_on=True), state)
            back = -self._for_mover(choose(frame, play_on=False), state)
            value = max(on, back)
        else:
            value = self._for_mover(frame, state)
        value = value if frame.to_move == me else -value
        value -= self.foul_cost * (frame.fouls[me] - frame.fouls[1 - me])
        return float(np.clip(value, -0.95, 0.95))

    def _for_mover(self, frame: Frame, state: TableState) -> float:
        """2p - 1 for the player to move in ``frame`` (who has a shot to play)."""
        return 2.0 * self.net.win_chance(value_features(frame, state)) - 1.0


def value_search(
    path: str | Path,
    seed: int | None = None,
    budget: int = DEFAULT_BUDGET,
    time_budget: float | None = None,
    margin: float = CLOCK_MARGIN,
    foul_cost: float = FOUL_VALUE,
    learned_break: bool = True,
    noise_scale: float = 1.0,
) -> SearchAgent:
    """The search (:class:`SearchAgent`, same candidates, budget, clock, learnt break and noise)
    scoring its leaves with the value net saved at ``path`` instead of the hand-made score:
    ``search-value:PATH`` (``?foul_cost=X`` as :class:`LearnedValue`, ``?learned_break=false``
    for the hand-made break)."""
    leaf = LearnedValue(ValueNet.load(path), foul_cost)
    return leaf_search(leaf, seed, budget, time_budget, margin, learned_break, noise_scale)
