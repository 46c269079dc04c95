"""Curricula of start positions: a wrapper that starts each episode from a practice position
(through ``reset(options=...)``, :mod:`kinghill.envs.game.start`) or a full frame, the mix shifting
toward full frames as training goes on.

The built-in ``practice`` curriculum (``kinghill train sb3 --curriculum practice``):

| stage | the position | learner needs | share of episodes: first 20% / next 30% / rest of the run |
|---|---|---|---|
| colour | the coloured ball and 1-2 whites scattered, a called pot of the colour on (estimated chance >= 0.3) | the colour only | 50% / 20% / 5% |
| whites | the coloured ball and 3-6 whites scattered | 1-2 whites, then the colour | 30% / 30% / 15% |
| frame | the rack and the break (a full frame) | 3 whites, then the colour | 20% / 50% / 80% |

The whites off the table are credited to the learner first (up to 3 in the colour stage, 2 in
the whites stage), the rest to the opponent. Progress is counted per env: its own steps against
its share of the run's steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

from kinghill.envs.planning.candidates import pots
from kinghill.physics import COLOURED, WHITES, TableSpec, TableState

PositionMaker = Callable[[np.random.Generator, TableSpec], "dict[str, Any] | None"]
"""Draws ``reset`` options for one episode (None: a full frame from the rack)."""
COLOUR_CHANCE = 0.3
"""The colour stage's position has a called pot of the colour at least this likely."""
MARGIN = 0.005
"""Scattered balls keep this far from the cushions (m)."""


@dataclass(frozen=True)
class Phase:
    """Until ``until`` (a fraction of the run), episodes start from the stages in ``weights``."""

    until: float
    weights: tuple[float, ...]


@dataclass(frozen=True)
class CurriculumSpec:
    """Stages (each a position maker) and the phases that mix them."""

    stages: tuple[tuple[str, PositionMaker], ...]
    phases: tuple[Phase, ...]

    def weights(self, progress: float) -> tuple[float, ...]:
        """The stage mix at ``progress`` (0 at the start of the run, 1 at its end)."""
        return next((p.weights for p in self.phases if progress < p.until), self.phases[-1].weights)


def scatter(rng: np.random.Generator, spec: TableSpec, balls: list[int]) -> dict[int, tuple]:
    """``balls`` at uniformly drawn free places on the cloth."""
    r = spec.radius + MARGIN
    state = TableState.of(spec, {})
    for ball in balls:
        while True:
            xy = (float(rng.uniform(r, spec.length - r)), float(rng.uniform(r, spec.width - r)))
            if state.is_free(xy):
                state = state.place(ball, xy)
                break
    return {b: state.xy(b) for b in balls}


def _whites(rng: np.random.Generator, n: int) -> list[int]:
    return [int(b) for b in rng.choice(WHITES, size=n, replace=False)]


def colour_position(rng: np.random.Generator, spec: TableSpec) -> dict[str, Any]:
    """The learner needs only the colour, and a called pot of it is on."""
    while True:
        whites = _whites(rng, int(rng.integers(1, 3)))
        balls = scatter(rng, spec, [COLOURED, *whites])
        found = pots(TableState.of(spec, balls), whites, [COLOURED], doubles=True)
        if found and found[0].chance >= COLOUR_CHANCE:
            break
    off = len(WHITES) - len(whites)
    return {"balls": balls, "credited": (3, off - 3), "required": (3, 3)}


def whites_position(rng: np.random.Generator, spec: TableSpec) -> dict[str, Any]:
    """The learner needs one or two more whites, then the colour."""
    n = int(rng.integers(3, 7))
    balls = scatter(rng, spec, [COLOURED, *_whites(rng, n)])
    off = len(WHITES) - n
    mine = min(2, off)
    return {"balls": balls, "credited": (mine, off - mine), "required": (3, 3)}


def full_frame(rng: np.random.Generator, spec: TableSpec) -> None:
    """A full frame from the rack."""
    return None


PRACTICE = CurriculumSpec(
    stages=(("colour", colour_position), ("whites", whites_position), ("frame", full_frame)),
    phases=(
        Phase(0.2, (0.5, 0.3, 0.2)),
        Phase(0.5, (0.2, 0.3, 0.5)),
        Phase(1.0, (0.05, 0.15, 0.8)),
    ),
)
CURRICULA = {"practice": PRACTICE}
"""The built-in curricula by name."""


class Curriculum(gym.Wrapper[Any, Any, Any, Any]):
    """Starts each episode of the wrapped env from a stage of ``spec``, drawn by the mix at the
    env's progress (its steps over ``steps``), named in ``info["stage"]``. Options passed to
    ``reset`` win over it (``info["stage"]`` is then ``""``).

    :param env: a King of the Hill env (any wrapper of it).
    :param spec: the curriculum, e.g. :data:`PRACTICE`.
    :param steps: the steps this env will take over the run (progress 1 there).
    """

    def __init__(self, env: gym.Env[Any, Any], spec: CurriculumSpec, steps: int) -> None:
        super().__init__(env)
        self.curriculum = spec
        self.steps = max(1, steps)
        self.done = 0
        self.stage = ""
        self._rng = np.random.default_rng()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.stage = ""  # a start of the caller's own is no stage
        if not options:
            weights = np.array(self.curriculum.weights(self.done / self.steps))
            k = int(self._rng.choice(len(weights), p=weights / weights.sum()))
            self.stage, make = self.curriculum.stages[k]
            table = self.env.unwrapped.game.spec  # type: ignore[attr-defined]
            options = make(self._rng, table)
        obs, info = self.env.reset(seed=seed, options=options)
        info["stage"] = self.stage
        return obs, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        self.done += 1
        return self.env.step(action)
