"""Tournament statistics: Wilson intervals, Bradley-Terry ratings with bootstrap intervals, Elo.

Truncated frames (no winner, R-truncate) are draws and count as half a win for each player,
as in chess scoring, in win rates and in ratings alike. Ratings are on the Elo scale
(400 log10 of the Bradley-Terry strength), centred so that the field's mean rating is 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""

ELO_SCALE = 400.0 / np.log(10.0)
"""Elo points per unit of natural-log strength (400 log10)."""


@dataclass(frozen=True)
class Interval:
    """A point estimate with the bounds of its confidence interval."""

    estimate: float
    low: float
    high: float


def wilson_interval(successes: float, trials: int, z: float = Z95) -> Interval:
    """Wilson score interval for a win rate; ``successes`` may hold half-points for draws."""
    if trials <= 0:
        return Interval(float("nan"), 0.0, 1.0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * np.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def score_matrix(wins: np.ndarray, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points ``S[i, j]`` of i against j (draws half) and frames ``N[i, j]`` between them."""
    points = wins + 0.5 * draws
    return points, points + points.swapaxes(-1, -2)


def bradley_terry(
    wins: np.ndarray,
    draws: np.ndarray,
    prior: float = 0.5,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> np.ndarray:
    """Bradley-Terry ratings (Elo scale, mean 0) fitted by Hunter's MM iteration.

    ``wins[..., i, j]`` counts frames that i won against j, ``draws`` the truncated ones
    (symmetric); leading axes are independent tournaments fitted together (the bootstrap).
    ``prior`` adds that many virtual points to each side of every pair (0.5 = one virtual drawn
    frame), so that an agent that won or lost every frame still gets a finite rating.
    """
    points, games = score_matrix(np.asarray(wins, float), np.asarray(draws, float))
    n = points.shape[-1]
    off_diagonal = 1.0 - np.eye(n)
    points = points + prior * off_diagonal
    games = games + 2 * prior * off_diagonal
    total = points.sum(axis=-1)
    if np.any(total <= 0):
        raise ValueError("an agent without any points has no finite rating; use prior > 0")
    log_strength = np.zeros(points.shape[:-1])
    for _ in range(max_iter):
        strength = np.exp(log_strength)
        pair_sum = strength[..., :, None] + strength[..., None, :]
        updated = np.log(total / (games / pair_sum).sum(axis=-1))
        updated -= updated.mean(axis=-1, keepdims=True)
        change = np.max(np.abs(updated - log_strength))
        log_strength = updated
        if change < tol:
            break
    return ELO_SCALE * log_strength


def bootstrap_ratings(
    wins: np.ndarray,
    draws: np.ndarray,
    samples: int = 1000,
    seed: int = 0,
    prior: float = 0.5,
) -> list[Interval]:
    """Bradley-Terry ratings with percentile 95% intervals from resampling frames.

    Frames are resampled with replacement within each pair, which keeps the round-robin
    design; a pair's resample is a multinomial draw over (i won, j won, drawn).
    """
    wins = np.asarray(wins, float)
    draws = np.asarray(draws, float)
    n = wins.shape[0]
    rng = np.random.default_rng(seed)
    boot_wins = np.zeros((samples, n, n))
    boot_draws = np.zeros((samples, n, n))
    for i in range(n):
        for j in range(i + 1, n):
            counts = np.array([wins[i, j], wins[j, i], draws[i, j]])
            frames = int(counts.sum())
            if frames == 0:
                continue
            drawn = rng.multinomial(frames, counts / frames, size=samples)
            boot_wins[:, i, j], boot_wins[:, j, i] = drawn[:, 0], drawn[:, 1]
            boot_draws[:, i, j] = boot_draws[:, j, i] = drawn[:, 2]
    estimate = bradley_terry(wins, draws, prior=prior)
    replicas = bradley_terry(boot_wins, boot_draws, prior=prior)
    low, high = np.percentile(replicas, [2.5, 97.5], axis=0)
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
