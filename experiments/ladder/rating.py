"""Ratings on the ladder's fixed scale (Elo points; the zoo's anchor at 0).

The zoo's ratings are the maximum-likelihood Bradley-Terry fit over the whole zoo matrix
(:func:`~kinghill.experiments.tournaments.stats.bradley_terry`), shifted so that the anchor is
0. A candidate is then fitted alone against those ratings held fixed: its number does not move
when other candidates are rated, nor with the order they come in, and it means the same on
every run against the same matrix. Intervals (95%) come from the posterior of every pair's
score, as for tournaments (:func:`~kinghill.experiments.tournaments.stats.posterior_points`).
"""

from __future__ import annotations

import numpy as np

from kinghill.experiments.tournaments.stats import (
    ELO_SCALE,
    TIE_BREAK,
    Interval,
    bradley_terry,
    posterior_points,
)

PRIOR = 0.5
"""Virtual points a side of every pair (one drawn frame), so that a clean sweep stays finite."""


def anchored_ratings(
    wins: np.ndarray,
    draws: np.ndarray,
    anchor: int,
    samples: int = 1000,
    seed: int = 0,
    prior: float = PRIOR,
) -> list[Interval]:
    """The Bradley-Terry ratings of ``wins``/``draws`` (as in :func:`bradley_terry`) with agent
    ``anchor`` at 0, each with its 95% interval relative to the anchor (the anchor's is 0)."""
    estimate = bradley_terry(wins, draws, prior=prior)
    estimate = estimate - estimate[anchor]
    replicas = bradley_terry(
        posterior_points(wins, draws, samples, seed, prior),
        np.zeros((samples, *np.shape(wins))),
        prior=TIE_BREAK,
    )
    replicas = replicas - replicas[:, anchor : anchor + 1]
    low, high = np.percentile(replicas, [2.5, 97.5], axis=0)
    return [
        Interval(float(e), float(lo), float(hi))
        for e, lo, hi in zip(estimate, low, high, strict=True)
    ]


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
    pair played, and its 95% interval from the posterior of each pair's score."""
    wins, losses, draws = (np.asarray(x, float) for x in (wins, losses, draws))
    points, against = wins + 0.5 * draws, losses + 0.5 * draws
    played = (points + against) > 0
    estimate = _fit_one(
        np.where(played, points + prior, 0.0), np.where(played, against + prior, 0.0), field
    )
    rng = np.random.default_rng(seed)
    games = points + against
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
