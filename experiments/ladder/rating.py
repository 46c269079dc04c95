"""Ratings on the ladder's fixed scale (Elo points; the zoo's anchor at its stated rating, e.g.
``heuristic@1 = 1000``).

**The zoo's scale.** The zoo splits into groups by who scored against whom: two agents are in
one group when each can be reached from the other by a chain of agents that scored a point
(a win, or half for a draw) against the next. Between two groups every point went one way, so
the Bradley-Terry fit has no finite maximum across them: a distance there would be set by a
prior alone. So only the anchor's group is rated: the maximum-likelihood Bradley-Terry fit of
its agents (no prior), shifted so that the anchor has its rating. Its 95% intervals are those of
the difference to the anchor under the Laplace approximation of the fit's joint posterior (the
inverse of the Fisher information at the maximum, the anchor held), so two agents whose
head-to-head is clear are told apart by :func:`stronger`, the probability that one's strength
exceeds the other's under that joint posterior, even when both intervals are wide. An agent of
another group gets a one-sided 95% bound instead (:func:`bound`): for an agent that lost every
frame against the rated agents it met, ``≤ r`` with r the rating at which losing all of them
has probability 5%; ``≥ r`` for one that won every frame. A bound is stored as an
:class:`Interval` open on one side (``low = -inf`` for ``≤``, ``high = inf`` for ``≥``), its
estimate the bound itself.

**A candidate** is fitted alone against the rated agents' ratings held fixed (with the prior of
:data:`PRIOR` virtual points a side of every pair, its interval from the posterior of each
pair's score): its number does not move when other candidates are rated, nor with the order
they come in, and it means the same on every run against the same matrix. A candidate that won
or lost every frame against the rated agents gets a bound the same way as a zoo agent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr

from kinghill.experiments.tournaments.stats import (
    ELO_SCALE,
    TIE_BREAK,
    Z95,
    Interval,
    bradley_terry,
    score_matrix,
)

PRIOR = 0.5
"""A candidate's virtual points a side of every pair it played (one drawn frame)."""
BOUND_LEVEL = 0.05
"""A bound is the rating at which the agent's clean sweep (or whitewash) has this probability."""


@dataclass(frozen=True)
class ZooScale:
    """The zoo's ratings (see the module docstring).

    :param ratings: per agent, its rating with its 95% interval, or its bound.
    :param level: per agent, the number of groups above its own (0: the top group).
    :param rated: per agent, whether it is in the anchor's group (rated, not bounded).
    :param covariance: Elo² covariance of the rated agents' differences to the anchor (0 on
        the anchor's row and column, NaN on a bounded agent's).
    """

    ratings: tuple[Interval, ...]
    level: tuple[int, ...]
    rated: tuple[bool, ...]
    covariance: np.ndarray


def zoo_scale(
    wins: np.ndarray, draws: np.ndarray, anchor: int, anchor_rating: float = 0.0
) -> ZooScale:
    """The zoo's ratings from ``wins[i, j]`` (frames i won against j) and ``draws`` (see the
    module docstring), agent ``anchor`` at ``anchor_rating``. An anchor that won or lost every
    frame it played is alone in its group: it is the only rated agent, every other one a bound
    against it (anchor the scale on an agent with results on both sides to rate the others)."""
    wins, draws = np.asarray(wins, float), np.asarray(draws, float)
    points, games = score_matrix(wins, draws)
    group, level = groups(points)
    members = np.flatnonzero(group == group[anchor])
    sub = np.ix_(members, members)
    at = int(np.flatnonzero(members == anchor)[0])
    theta = bradley_terry(wins[sub], draws[sub], prior=0.0) if len(members) > 1 else np.zeros(1)
    theta = theta - theta[at] + anchor_rating
    n = len(wins)
    estimate = np.full(n, np.nan)
    estimate[members] = theta
    covariance = np.full((n, n), np.nan)
    covariance[sub] = laplace_covariance(games[sub], theta, at)
    ratings = []
    for i in range(n):
        if group[i] == group[anchor]:
            half = Z95 * math.sqrt(max(covariance[i, i], 0.0))
            e = float(estimate[i])
            ratings.append(Interval(e, e - half, e + half))
        else:
            won_all = level[i] < level[anchor]
            ratings.append(bound(won_all, games[i, members], theta))
    return ZooScale(
        tuple(ratings),
        tuple(int(x) for x in level),
        tuple(bool(group[i] == group[anchor]) for i in range(n)),
        covariance,
    )


def groups(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The groups of the module docstring (the strongly connected components of "scored a point
    against") as a group number per agent, and each agent's level: how many groups are above
    its own (a group is above another when it scored against it and not the other way)."""
    n = len(points)
    reach = (np.asarray(points) > 0) | np.eye(n, dtype=bool)
    for _ in range(max(1, math.ceil(math.log2(max(n, 2))))):
        reach = reach | ((reach.astype(int) @ reach.astype(int)) > 0)
    same = reach & reach.T
    group = np.array([int(np.flatnonzero(same[i])[0]) for i in range(n)])
    above = reach.T & ~same  # above[i, j]: j reaches i but not back: j's group is above i's
    level = np.array([len(set(group[above[i]])) for i in range(n)])
    return group, level


def laplace_covariance(games: np.ndarray, theta: np.ndarray, anchor: int) -> np.ndarray:
    """The Elo² covariance of ``theta - theta[anchor]`` under the Laplace approximation of the
    Bradley-Terry posterior: the inverse of the Fisher information ``sum_j n_ij p_ij (1 - p_ij)``
    (and ``-n_ij p_ij (1 - p_ij)`` off the diagonal) at the ratings ``theta`` (Elo), the
    anchor's row and column taken out (it is held) and put back as zeros."""
    x = np.asarray(theta, float) / ELO_SCALE
    win = 1.0 / (1.0 + np.exp(-(x[:, None] - x[None, :])))
    weight = np.asarray(games, float) * win * (1.0 - win)
    np.fill_diagonal(weight, 0.0)
    information = np.diag(weight.sum(axis=1)) - weight
    keep = [i for i in range(len(x)) if i != anchor]
    covariance = np.zeros_like(information)
    covariance[np.ix_(keep, keep)] = np.linalg.inv(information[np.ix_(keep, keep)])
    return covariance * ELO_SCALE**2


def bound(won_all: bool, frames: np.ndarray, field: np.ndarray) -> Interval:
    """The one-sided 95% bound of an agent that won (``won_all``) or lost every one of its
    ``frames[j]`` against agents rated ``field[j]`` (Elo): the rating at which that result has
    probability :data:`BOUND_LEVEL`, as ``Interval(r, r, inf)`` (``≥ r``) or
    ``Interval(r, -inf, r)`` (``≤ r``); NaN when it met none of them."""
    frames, field = np.asarray(frames, float), np.asarray(field, float)
    if frames.sum() <= 0:
        return Interval(math.nan, math.nan, math.nan)
    sign = 1.0 if won_all else -1.0

    def excess(r: float) -> float:  # log P(the sweep) - log(level), increasing in sign * r
        diff = sign * (r - field) / ELO_SCALE
        return float(-(frames * np.logaddexp(0.0, -diff)).sum() - math.log(BOUND_LEVEL))

    span = 1000.0
    low, high = field.min() - span, field.max() + span
    while excess(low) * excess(high) > 0:
        span *= 2
        low, high = field.min() - span, field.max() + span
    r = float(brentq(excess, low, high, xtol=1e-9))
    return Interval(r, r, math.inf) if won_all else Interval(r, -math.inf, r)


def stronger(scale: ZooScale) -> np.ndarray:
    """``P[i, j]``: the probability that agent i is stronger than agent j. Between rated
    agents, under the Laplace approximation of the joint posterior (the normal law of their
    difference, its variance ``C_ii + C_jj - 2 C_ij``); between agents of different groups 1 or
    0 (the upper group scored every point against the lower); 0.5 on the diagonal."""
    n = len(scale.ratings)
    result = np.full((n, n), 0.5)
    estimate = np.array([r.estimate for r in scale.ratings])
    c = scale.covariance
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            if scale.rated[i] and scale.rated[j]:
                sd = math.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0))
                diff = estimate[i] - estimate[j]
                result[i, j] = float(ndtr(diff / sd)) if sd > 0 else 0.5 + 0.5 * np.sign(diff)
            elif scale.level[i] != scale.level[j]:
                result[i, j] = float(scale.level[i] < scale.level[j])
    return result


def rating_against(
    wins: np.ndarray,
    losses: np.ndarray,
    draws: np.ndarray,
    field: np.ndarray,
    samples: int = 1000,
    seed: int = 0,
    prior: float = PRIOR,
) -> Interval:
    """The rating of one player from its results against a field whose ratings are fixed:
    ``wins[j]``, ``losses[j]``, ``draws[j]`` its frames against the player rated ``field[j]``
    (Elo points). The maximum of the likelihood, with ``prior`` virtual points a side of every
    pair played, and its 95% interval from the posterior of each pair's score; for a player
    that won or lost every frame, its :func:`bound` instead."""
    wins, losses, draws = (np.asarray(x, float) for x in (wins, losses, draws))
    points, against = wins + 0.5 * draws, losses + 0.5 * draws
    games = points + against
    if games.sum() > 0 and (points.sum() == 0 or against.sum() == 0):
        return bound(against.sum() == 0, games, field)
    played = games > 0
    estimate = _fit_one(
        np.where(played, points + prior, 0.0), np.where(played, against + prior, 0.0), field
    )
    rng = np.random.default_rng(seed)
    share = np.zeros((samples, len(field)))
    for j in np.flatnonzero(played):
        share[:, j] = rng.beta(points[j] + prior, against[j] + prior, size=samples)
    replicas = _fit_one(
        games * share + TIE_BREAK * played, games * (1 - share) + TIE_BREAK * played, field
    )
    low, high = np.percentile(replicas, [2.5, 97.5])
    return Interval(float(estimate), float(low), float(high))


def _fit_one(
    points: np.ndarray, against: np.ndarray, field: np.ndarray, tol: float = 1e-10
) -> np.ndarray:
    """The maximum-likelihood rating (Elo) of a player with ``points[..., j]`` won and
    ``against[..., j]`` lost against opponents rated ``field[j]``: Newton's method on the
    log-strength, a concave one-dimensional problem, with steps capped at 2 (natural-log units)
    so that it cannot overshoot."""
    theta_field = np.asarray(field, float) / ELO_SCALE
    games = points + against
    if np.any(points.sum(axis=-1) <= 0) or np.any(against.sum(axis=-1) <= 0):
        raise ValueError("a player that won or lost everything has no finite rating; use prior")
    theta = np.zeros(points.shape[:-1])
    for _ in range(200):
        win = np.exp(-np.logaddexp(0.0, -(theta[..., None] - theta_field)))
        gradient = (points - games * win).sum(axis=-1)
        information = (games * win * (1 - win)).sum(axis=-1)
        step = np.clip(gradient / information, -2.0, 2.0)
        theta = theta + step
        if np.max(np.abs(step)) < tol:
            break
    return ELO_SCALE * theta
