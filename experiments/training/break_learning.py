"""The break learnt by the cross-entropy method (``kinghill train-expert``'s first stage).

The rack is always the same, so the break is one decision from one position. Candidate breaks
(where white 1 stands in the house, the aim at a ball of the pyramid, speed, side and height of
the tip: :class:`~kinghill.agents.learned_break.LearnedBreak`) are played under the game's
execution noise and scored as the search scores a simulated shot
(:func:`~kinghill.agents.search.position_value` of the position left, for the breaker, after
the referee's ruling). A random population is scored on a few samples; each generation the
best (the elite) are kept and perturbed with Gaussian noise scaled to the elite's spread, and
scored on more; the elite of the last generation is scored on many samples and the best kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from kinghill.agents.learned_break import N_PARAMETERS, LearnedBreak, parameter_bounds
from kinghill.agents.search import outcome_values
from kinghill.envs import FrameView, Game, ShotAction
from kinghill.physics import BREAK_BALL, NoiseModel

CHILDREN = 25
"""Perturbed copies of each elite break a generation scores."""
FIRST_SAMPLES = 16
"""Noisy simulations that score a break of the random population."""
SAMPLES = 48
"""Noisy simulations that score a break of a generation."""
FINAL_SAMPLES = 1000
"""Noisy simulations that score each of the last elite, to pick the break kept."""
FINALISTS = 20
"""How many of the last elite are scored on :data:`FINAL_SAMPLES`."""
STEP = 0.5
"""A child's perturbation, as a multiple of the elite's spread in each parameter."""
MIN_STEP = np.array([0.005, 0.005, 0.001, 0.05, 0.01, 0.01])
"""The smallest spread a perturbation keeps (m, m, rad, m/s, R, R): the search never stops."""
AIM_SPREAD = 0.03
"""A random break aims this far (rad) either side of the centre of a ball of the pyramid."""


@dataclass(frozen=True)
class BreakSearch:
    """How much search the learnt break gets: a random ``population`` first, then
    ``generations`` of the elite (a hundredth of the population, at least 2) perturbed; seeded."""

    population: int = 4000
    generations: int = 8
    seed: int = 0

    def __post_init__(self) -> None:
        if self.population < 2 or self.generations < 0:
            raise ValueError(
                f"BreakSearch: population >= 2 and generations >= 0, got {self.population} "
                f"and {self.generations}"
            )

    @property
    def elite(self) -> int:
        return max(2, self.population // 100)


def learn_break(search: BreakSearch | None = None, progress: bool = True) -> LearnedBreak:
    """The best break the cross-entropy search finds on the standard rack under the default
    noise (the module docstring); bit-identical for the same ``search``."""
    search = search or BreakSearch()
    rng = np.random.default_rng(search.seed)
    scorer = _Scorer(rng)
    low, high = parameter_bounds(scorer.game.state)
    population = [_random_break(scorer.game, rng) for _ in range(search.population)]
    bar = tqdm(total=search.generations + 2, desc="break", unit="stage", disable=not progress)
    elite = scorer.best(population, FIRST_SAMPLES, search.elite)
    bar.update()
    for _ in range(search.generations):
        spread = np.maximum(np.std(elite, axis=0), MIN_STEP)
        children = [
            np.clip(parent + rng.normal(0.0, 1.0, N_PARAMETERS) * spread * STEP, low, high)
            for parent in elite
            for _ in range(CHILDREN)
        ]
        elite = scorer.best([*elite, *children], SAMPLES, search.elite)
        bar.update()
    finalists = elite[:FINALISTS]
    scores = [scorer.score(p, FINAL_SAMPLES) for p in finalists]
    bar.update()
    bar.close()
    best = int(np.argmax(scores))
    return LearnedBreak.of(finalists[best], scorer.game.state, scores[best])


def break_score(game: Game, action: ShotAction, rng: np.random.Generator, samples: int) -> float:
    """The mean score for the breaker (the search's leaf value) of ``samples`` noisy plays of
    the break ``action`` on ``game``'s table (before its break), each played and ruled by
    :func:`~kinghill.envs.game.play_noisy` (white 1 placed where ``action`` puts it)."""
    view = FrameView(game.state, game.frame, game.frame.to_move)
    return float(np.mean(outcome_values(view, action, rng, samples, NoiseModel())))


class _Scorer:
    """Scores break parameters on a fresh game's rack with noise drawn from one generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.game = Game()
        self.rng = rng

    def score(self, parameters: np.ndarray, samples: int) -> float:
        shot = LearnedBreak.of(parameters, self.game.state, 0.0)
        return break_score(self.game, shot.action(), self.rng, samples)

    def best(self, candidates: list[np.ndarray], samples: int, keep: int) -> list[np.ndarray]:
        """The ``keep`` best of ``candidates`` on ``samples`` simulations each, best first."""
        scores = [self.score(p, samples) for p in candidates]
        order = np.argsort(scores, kind="stable")[::-1][:keep]
        return [candidates[k] for k in order]


def _random_break(game: Game, rng: np.random.Generator) -> np.ndarray:
    """White 1 anywhere in the house, aimed near the centre of a random ball of the pyramid,
    at a random speed and tip offset."""
    state = game.state
    low, high = parameter_bounds(state)
    x, y = rng.uniform(low[:2], high[:2])
    balls = [b for b in np.flatnonzero(state.on_table).tolist() if b != BREAK_BALL]
    bx, by = state.xy(int(rng.choice(balls)))
    phi = math.atan2(by - y, bx - x) + rng.uniform(-AIM_SPREAD, AIM_SPREAD)
    speed = rng.uniform(low[3], high[3])
    a, b = rng.uniform(-0.7 * high[4], 0.7 * high[4], 2)
    return np.array([x, y, phi, speed, a, b])
