"""A break learnt for the rack: every searching agent's opening (``search``, ``search-value``,
``expert``; ``?learned_break=false`` gives the hand-made break back).

Every frame starts from the same pyramid, so the break is one decision from one position: what a
search would find there can be found once, offline, with far more simulations than a decision
allows, and kept (:mod:`kinghill.experiments.training.break_learning` learns it by the
cross-entropy method under execution noise). The hand-made break
(:func:`~kinghill.envs.planning.menu.break_action`) almost never pots a white and hands the
table over; the reference run's learnt one keeps the turn in about two breaks of three
(``benchmarks/search/break-stats.json``). That break ships with the package
(:func:`package_break`, ``agents/data/learned_break.npz``, the parameters of
the shipped expert net's break, ``agents/data/expert2.npz``, exactly); a prior net's file may
carry its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path

import numpy as np

from kinghill.envs import ShotAction
from kinghill.envs.planning.menu import break_action
from kinghill.physics import BREAK_BALL, MAX_SPEED, MISCUE_LIMIT, Shot, TableState

N_PARAMETERS = 6
"""A break's parameters: where white 1 stands in the house (x, y), the aim, the cue speed, the
tip's side and height offsets (see :meth:`LearnedBreak.of`)."""
MIN_SPEED = 0.8
"""The slowest break the search considers (m/s)."""
ARRAYS = ("break_parameters", "break_rack", "break_score")
"""The arrays of an ``.npz`` file that hold a :class:`LearnedBreak` (a net's file, or the
break's own in a training run)."""
RACK_TOLERANCE = 1e-6
"""How far (m) a ball may stand from the learnt rack's spot for the break still to fit it."""
PACKAGE_BREAK = "data/learned_break.npz"
"""Where the shipped break lies inside the ``kinghill.agents`` package."""


def parameter_bounds(state: TableState) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of each of the :data:`N_PARAMETERS` on ``state``'s table:
    white 1 inside the house and on the table, any aim, a speed from :data:`MIN_SPEED` to the
    fastest shot, the tip's offsets within the miscue limit's square."""
    spec = state.spec
    r = spec.radius
    low = np.array([r, r, -math.pi, MIN_SPEED, -MISCUE_LIMIT, -MISCUE_LIMIT])
    high = np.array(
        [spec.house_line_x - r, spec.width - r, math.pi, MAX_SPEED, MISCUE_LIMIT, MISCUE_LIMIT]
    )
    return low, high


@dataclass(frozen=True)
class LearnedBreak:
    """A break for one rack: its parameters (``x, y, phi, speed, a, b``, valid: see :meth:`of`),
    the rack's ball positions it was learnt on, and the mean score it was learnt to (the search's
    leaf value for the breaker, -1 to 1)."""

    parameters: tuple[float, ...]
    rack: np.ndarray
    score: float

    @classmethod
    def of(cls, parameters: np.ndarray, state: TableState, score: float) -> LearnedBreak:
        """The break with ``parameters`` on ``state``'s rack, made playable: white 1 kept in the
        house, the speed in range, the tip pulled inside the miscue limit along its direction."""
        low, high = parameter_bounds(state)
        x, y, phi, speed, a, b = np.clip(np.asarray(parameters, float), low, high).tolist()
        tip = math.hypot(a, b)
        if tip > MISCUE_LIMIT:
            a, b = a * MISCUE_LIMIT / tip, b * MISCUE_LIMIT / tip
        phi = math.remainder(phi, 2 * math.pi)
        return cls((x, y, phi, speed, a, b), state.positions.copy(), float(score))

    def fits(self, state: TableState) -> bool:
        """Whether ``state`` is the rack this break was learnt on (every ball on its spot)."""
        return bool(
            state.on_table.all()
            and state.positions.shape == self.rack.shape
            and np.abs(state.positions - self.rack).max() <= RACK_TOLERANCE
        )

    def action(self) -> ShotAction:
        """The break as played: white 1 placed in the house and struck."""
        x, y, phi, speed, a, b = self.parameters
        return ShotAction(Shot(BREAK_BALL, phi, speed, a, b), None, (x, y))

    def arrays(self) -> dict[str, np.ndarray]:
        """The break as the arrays :data:`ARRAYS` names, to save in an ``.npz`` file."""
        values = (np.array(self.parameters), self.rack, np.array(self.score))
        return dict(zip(ARRAYS, values, strict=True))

    @classmethod
    def read(cls, path: str | Path) -> LearnedBreak | None:
        """The break held in the ``.npz`` file at ``path`` (exactly, in float64), or None when it
        holds none.

        :raises ValueError: its arrays are not a break's.
        """
        with np.load(path) as data:
            if not all(k in data.files for k in ARRAYS):
                return None
            parameters, rack, score = (np.asarray(data[k], float) for k in ARRAYS)
        if parameters.shape != (N_PARAMETERS,) or rack.ndim != 2 or rack.shape[1] != 2:
            raise ValueError(
                f"{path}: its break's arrays have shapes {parameters.shape} and {rack.shape}, "
                f"not ({N_PARAMETERS},) and (balls, 2)"
            )
        return cls(tuple(parameters.tolist()), rack, float(score))


@cache
def package_break() -> LearnedBreak:
    """The break shipped with kinghill (:data:`PACKAGE_BREAK`), learnt for the default table's
    rack: read once, with :mod:`importlib.resources` so that an installed wheel has it too."""
    with as_file(files("kinghill.agents").joinpath(PACKAGE_BREAK)) as path:
        found = LearnedBreak.read(path)
    if found is None:
        raise RuntimeError(f"kinghill.agents/{PACKAGE_BREAK} holds no break: a broken install")
    return found


def opening(state: TableState, learnt: LearnedBreak | None) -> ShotAction:
    """The break to play on ``state``: ``learnt`` when it was learnt for this rack, else the
    hand-made :func:`~kinghill.envs.planning.menu.break_action` (another table's or another
    start's rack, or no learnt break)."""
    if learnt is not None and learnt.fits(state):
        return learnt.action()
    return break_action(state)
