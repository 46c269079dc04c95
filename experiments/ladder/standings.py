"""The ladder's standings: each agent's rating on the fixed scale, rank, Nash averaging, win
rates and statistics, from the zoo's matrix and the candidates' rows (:mod:`.play` plays them)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from kinghill.envs.game.noise import NoiseScale
from kinghill.experiments.ladder.agent_stats import AgentStats, agent_stats
from kinghill.experiments.ladder.matrix import Matrix, score_arrays
from kinghill.experiments.ladder.rating import rating_against, stronger, zoo_scale
from kinghill.experiments.ladder.tally import PairRow, merged
from kinghill.experiments.ladder.transitivity import cycles, nash_average
from kinghill.experiments.ladder.zoo import Zoo
from kinghill.experiments.tournaments.stats import Interval, score_matrix, wilson_interval


@dataclass(frozen=True)
class Standing:
    """One agent on the ladder: its rating (Elo, on the zoo's scale) with its 95% interval, or
    its one-sided bound (:mod:`.rating`: ``low`` is -inf for ``≤``, ``high`` inf for ``≥``), its
    rank (1 = best) among the zoo and itself, its Nash weight and skill (:mod:`.transitivity`),
    its win rate against each zoo agent (draws half), the probability that it is stronger than
    each other zoo agent (zoo agents only: :func:`~.rating.stronger`) and how it plays."""

    id: str
    rating: Interval
    rank: int
    nash_mass: float
    nash_skill: float
    win_rates: dict[str, Interval]
    stats: AgentStats
    stronger: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class LadderResult:
    """The zoo's standings and the candidates', at one noise condition, the cycles found in
    the matrix (the candidates' rows included), and the zoo agents the candidates did not
    play because they cannot be built here, each with why (``skipped``)."""

    noise_scale: NoiseScale
    zoo: tuple[Standing, ...]
    candidates: tuple[Standing, ...]
    cycles: tuple[tuple[str, ...], ...]
    skipped: tuple[tuple[str, str], ...] = ()


def standings(
    zoo: Zoo,
    matrix: Matrix,
    candidate_rows: Sequence[PairRow],
    candidates: Sequence[str],
    samples: int = 1000,
) -> LadderResult:
    """The ladder from the zoo's matrix and the candidates' rows against the zoo: ratings,
    win rates and statistics of a zoo agent from the zoo's rows alone (they do not move with
    the candidates); a candidate rated against the zoo's rated agents held fixed; the Nash
    averaging and the cycles over the whole matrix.

    Rank: a zoo agent's by its group (:func:`~.rating.groups`: every agent of a group above
    another ranks above it), then by rating; a candidate's is 1 + the zoo agents above it: a
    rated one above its rating (all of them when it lost every frame against them, none when it
    won every one), one of a group above the rated one unless the candidate won every frame
    against it, one of a group below only when the candidate scored nothing against it.
    """
    names = [*zoo.ids, *candidates]
    rows = [*matrix.rows, *candidate_rows]
    wins, draws = score_arrays(names, rows)
    points = score_matrix(wins, draws)[0]
    size = len(zoo.ids)
    anchor = zoo.ids.index(zoo.anchor)
    scale = zoo_scale(wins[:size, :size], draws[:size, :size], anchor, zoo.anchor_rating)
    ratings = list(scale.ratings)
    rated = np.flatnonzero(scale.rated)
    fixed = np.array([ratings[j].estimate for j in rated])
    for k, _ in enumerate(candidates):
        c = size + k
        ratings.append(
            rating_against(
                wins[c, rated], wins[rated, c], draws[c, rated], fixed, samples, seed=matrix.seed
            )
        )
    nash = nash_average(wins, draws)
    chance = stronger(scale)
    level = scale.level
    top = level[anchor]

    def above(j: int, i: int) -> bool:
        """Does zoo agent j rank above agent i?"""
        if i < size:
            return (level[j], -ratings[j].estimate) < (level[i], -ratings[i].estimate)
        if level[j] < top:
            return points[j, i] > 0
        if level[j] > top:
            return points[i, j] == 0
        if math.isinf(ratings[i].low) or math.isinf(ratings[i].high):  # a bound
            return math.isinf(ratings[i].low)
        return ratings[j].estimate > ratings[i].estimate

    def standing(i: int) -> Standing:
        name = names[i]
        rating = ratings[i]
        rank = 1 + sum(bool(above(j, i)) for j in range(size) if j != i)
        rates = {}
        for j in range(size):
            games = wins[i, j] + wins[j, i] + draws[i, j]
            if j != i and games:
                rates[names[j]] = wilson_interval(wins[i, j] + 0.5 * draws[i, j], int(games))
        beats = {names[j]: float(chance[i, j]) for j in range(size) if i < size and j != i}
        own = candidate_rows if i >= size else matrix.rows  # a zoo agent's: the zoo's alone
        sides = merged(row.side(name) for row in own if name in row.agents)
        return Standing(
            name, rating, rank, nash.mass[i], nash.skill[i], rates, agent_stats(sides), beats
        )

    return LadderResult(
        matrix.noise_scale,
        tuple(standing(i) for i in range(size)),
        tuple(standing(size + k) for k in range(len(candidates))),
        tuple(cycles(names, wins, draws)),
    )
