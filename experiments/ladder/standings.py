"""The ladder's standings: each agent's rating on the fixed scale, rank, Nash averaging, win
rates and statistics, from the zoo's matrix and the candidates' rows (:mod:`.play` plays them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kinghill.envs.game.noise import NoiseScale
from kinghill.experiments.ladder.agent_stats import AgentStats, agent_stats
from kinghill.experiments.ladder.matrix import Matrix, score_arrays
from kinghill.experiments.ladder.rating import anchored_ratings, rating_against
from kinghill.experiments.ladder.tally import PairRow, merged
from kinghill.experiments.ladder.transitivity import cycles, nash_average
from kinghill.experiments.ladder.zoo import Zoo
from kinghill.experiments.tournaments.stats import Interval, wilson_interval


@dataclass(frozen=True)
class Standing:
    """One agent on the ladder: its rating (Elo, the anchor at 0) with its 95% interval, its
    rank (1 = best) among the zoo and itself, its Nash weight and skill (:mod:`.transitivity`),
    its win rate against each zoo agent (draws half) and how it plays."""

    id: str
    rating: Interval
    rank: int
    nash_mass: float
    nash_skill: float
    win_rates: dict[str, Interval]
    stats: AgentStats


@dataclass(frozen=True)
class LadderResult:
    """The zoo's standings and the candidates', at one noise condition, and the cycles found
    in the matrix (the candidates' rows included)."""

    noise_scale: NoiseScale
    zoo: tuple[Standing, ...]
    candidates: tuple[Standing, ...]
    cycles: tuple[tuple[str, ...], ...]


def standings(
    zoo: Zoo,
    matrix: Matrix,
    candidate_rows: Sequence[PairRow],
    candidates: Sequence[str],
    samples: int = 1000,
) -> LadderResult:
    """The ladder from the zoo's matrix and the candidates' rows against the zoo: ratings,
    win rates and statistics of a zoo agent from the zoo's rows alone (they do not move with
    the candidates); the Nash averaging and the cycles over the whole matrix."""
    names = [*zoo.ids, *candidates]
    rows = [*matrix.rows, *candidate_rows]
    wins, draws = score_arrays(names, rows)
    size = len(zoo.ids)
    zoo_wins, zoo_draws = wins[:size, :size], draws[:size, :size]
    ratings = anchored_ratings(
        zoo_wins, zoo_draws, zoo.ids.index(zoo.anchor), samples, seed=matrix.seed
    )
    field = np.array([r.estimate for r in ratings])
    for k, _ in enumerate(candidates):
        c = size + k
        ratings.append(
            rating_against(
                wins[c, :size], wins[:size, c], draws[c, :size], field, samples, seed=matrix.seed
            )
        )
    nash = nash_average(wins, draws)

    def standing(i: int) -> Standing:
        name = names[i]
        rating = ratings[i]
        rank = 1 + int(np.sum(field > rating.estimate))
        rates = {}
        for j in range(size):
            games = wins[i, j] + wins[j, i] + draws[i, j]
            if j != i and games:
                rates[names[j]] = wilson_interval(wins[i, j] + 0.5 * draws[i, j], int(games))
        own = candidate_rows if i >= size else matrix.rows  # a zoo agent's: the zoo's alone
        sides = merged(row.side(name) for row in own if name in row.agents)
        return Standing(name, rating, rank, nash.mass[i], nash.skill[i], rates, agent_stats(sides))

    return LadderResult(
        matrix.noise_scale,
        tuple(standing(i) for i in range(size)),
        tuple(standing(size + k) for k in range(len(candidates))),
        tuple(cycles(names, wins, draws)),
    )
