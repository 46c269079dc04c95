"""Tournament statistics: Wilson intervals, Bradley-Terry ratings with posterior intervals, Elo.

Truncated frames (no winner, R-truncate) are draws and count as half a win for each player,
as in chess scoring, in win rates and in ratings alike. Ratings are on the Elo scale
(400 log10 of the Bradley-Terry strength), centred so that the field's mean rating is 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""

ELO_SCALE = 400.0 / np.log(10.0)
"""Elo points per unit of natural-log strength (400 log10)."""
TIE_BREAK = 1e-9
"""Virtual points a side in the interval replicas' fits: far too few to move a rating, enough
to keep the fit defined while an agent or a pair has not played yet."""


@dataclass(frozen=True)
class Interval:
    """A point estimate with the bounds of its confidence interval."""

    estimate: float
    low: float
    high: float


def wilson_interval(successes: float, trials: int, z: float = Z95) -> Interval:
    """Wilson score interval for a win rate; ``successes`` may hold half-points for draws (Python
    floats, whatever numbers it is given: a printed interval reads as numbers)."""
    if trials <= 0:
        return Interval(float("nan"), 0.0, 1.0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact at 0 of n and n of n
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Interval(float(p), float(low), float(high))


def score_matrix(wins: np.ndarray, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points ``S[i, j]`` of i against j (draws half) and frames ``N[i, j]`` between them."""
    points = wins + 0.5 * draws
    return points, points + points.swapaxes(-1, -2)


def bradley_terry(
    wins: np.ndarray,
    draws: np.ndarray,
    prior: float = 0.5,
    tol: float = 1e-10,
    max_iter: int = 500,
) -> np.ndarray:
    """Bradley-Terry ratings (Elo scale, mean 0): the maximum of the likelihood, found by
    Newton's method on the log-strengths (with step halving, so every step gains likelihood).

    ``wins[..., i, j]`` counts frames that i won against j, ``draws`` the truncated ones
    (symmetric); leading axes are independent tournaments fitted together (the interval replicas).
    ``prior`` adds that many virtual points to each side of every pair (0.5 = one virtual drawn
    frame), so that an agent that won or lost every frame still gets a finite rating. Newton
    converges in a few dozen steps even when one agent is thousands of Elo above another, where
    Hunter's MM iteration creeps.
    """
    points, games = score_matrix(np.asarray(wins, float), np.asarray(draws, float))
    n = points.shape[-1]
    off_diagonal = 1.0 - np.eye(n)
    points = points + prior * off_diagonal
    games = games + 2 * prior * off_diagonal
    if np.any(points.sum(axis=-1) <= 0):
        raise ValueError("an agent without any points has no finite rating; use prior > 0")
    theta = np.zeros(points.shape[:-1])
    diagonal = np.arange(n)
    likelihood = _log_likelihood(theta, points)
    for _ in range(max_iter):
        win = _expit(theta[..., :, None] - theta[..., None, :])
        gradient = (points - games * win).sum(axis=-1)
        weight = games * win * (1.0 - win)
        information = -weight  # minus the Hessian of the log-likelihood
        information[..., diagonal, diagonal] = weight.sum(axis=-1)
        step = np.zeros_like(theta)  # the last agent's strength is held (ratings are relative)
        reduced = np.linalg.solve(information[..., :-1, :-1], gradient[..., :-1, None])
        step[..., :-1] = reduced[..., 0]
        scale = np.ones(theta.shape[:-1] + (1,))
        for _ in range(60):
            trial = theta + scale * step
            gained = _log_likelihood(trial, points) >= likelihood - 1e-12 * np.abs(likelihood)
            if gained.all():
                break
            scale = np.where(gained[..., None], scale, scale / 2)
        change = np.max(np.abs(trial - theta))
        theta, likelihood = trial, _log_likelihood(trial, points)
        if change < tol:
            break
    return ELO_SCALE * (theta - theta.mean(axis=-1, keepdims=True))


def _expit(x: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow for large ``|x|``."""
    return np.exp(-np.logaddexp(0.0, -x))


def _log_likelihood(theta: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Sum over ordered pairs of i's points times log P(i beats j), per tournament."""
    log_win = -np.logaddexp(0.0, theta[..., None, :] - theta[..., :, None])
    return (points * log_win).sum(axis=(-2, -1))


def posterior_points(
    wins: np.ndarray, draws: np.ndarray, samples: int, seed: int = 0, prior: float = 0.5
) -> np.ndarray:
    """``samples`` replicas of the points matrix (axis 0): every pair's frames shared out by a
    draw of its score fraction from its posterior, Beta(points of i + prior, points of j +
    prior); rows of a pair that has not played stay 0. The replicas of
    :func:`rating_intervals`."""
    points, games = score_matrix(np.asarray(wins, float), np.asarray(draws, float))
    rows, columns = points.shape
    rng = np.random.default_rng(seed)
    replica_points = np.zeros((samples, rows, columns))
    for i in range(rows):
        for j in range(i + 1, columns):
            if games[i, j] == 0:
                continue
            share = rng.dirichlet([points[i, j] + prior, points[j, i] + prior], size=samples)
            replica_points[:, i, j] = games[i, j] * share[:, 0]
            replica_points[:, j, i] = games[i, j] * share[:, 1]
    return replica_points


def rating_intervals(
    wins: np.ndarray,
    draws: np.ndarray,
    samples: int = 1000,
    seed: int = 0,
    prior: float = 0.5,
) -> list[Interval]:
    """Bradley-Terry ratings with 95% intervals from the posterior of each pair's score.

    The estimate is :func:`bradley_terry` with ``prior`` virtual points a side. For the
    interval, each of ``samples`` replicas draws every pair's score fraction from its posterior
    under that same prior, Beta(points of i + prior, points of j + prior), and fits the ratings
    to those fractions (times the pair's frames, no further prior but :data:`TIE_BREAK`); the
    interval is the 2.5 and 97.5 percentiles (NaN for an agent without a frame). Unlike
    resampling the frames (a percentile bootstrap), this does not collapse when a pair's frames
    all went one way: a 20-0 pair keeps the doubt about how much stronger the winner is, most of
    it upward.
    """
    wins = np.asarray(wins, float)
    draws = np.asarray(draws, float)
    games = score_matrix(wins, draws)[1]
    replica_points = posterior_points(wins, draws, samples, seed, prior)
    estimate = bradley_terry(wins, draws, prior=prior)
    replicas = bradley_terry(replica_points, np.zeros_like(replica_points), prior=TIE_BREAK)
    low, high = np.percentile(replicas, [2.5, 97.5], axis=0)
    unplayed = games.sum(axis=-1) == 0
    low[unplayed] = high[unplayed] = np.nan  # nothing bounds an agent that has not played
    return [
        Interval(float(e), float(lo), float(hi))
        for e, lo, hi in zip(estimate, low, high, strict=True)
    ]


def sequential_elo(
    games: Iterable[tuple[int, int, float]], players: int, k: float = 16.0
) -> np.ndarray:
    """Classic Elo updated frame by frame from 0; ``games`` yields (i, j, score of i).

    Order-dependent, reported only for reference beside the Bradley-Terry fit.
    """
    rating = np.zeros(players)
    for i, j, score in games:
        expected = 1.0 / (1.0 + 10.0 ** ((rating[j] - rating[i]) / 400.0))
        rating[i] += k * (score - expected)
        rating[j] -= k * (score - expected)
    return rating
