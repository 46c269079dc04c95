"""Tournament statistics against hand-computed values: Wilson, Bradley-Terry, rating
intervals, Elo."""

import math
from dataclasses import astuple

import numpy as np
import pytest

from kinghill.experiments.tournaments.stats import (
    bradley_terry,
    rating_intervals,
    sequential_elo,
    wilson_interval,
)


def test_wilson_interval_eight_of_ten_matches_hand_computation() -> None:
    """8/10, z = 1.96: centre (0.8 + 0.19208)/1.38415, half 1.96/1.38415 * sqrt(0.016 + 0.0096)."""
    z = 1.959963984540054
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z / (1 + z * z / 10) * math.sqrt(0.8 * 0.2 / 10 + z * z / 400)
    interval = wilson_interval(8, 10)
    assert interval.estimate == 0.8
    assert interval.low == pytest.approx(centre - half) == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(centre + half) == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_all_wins_stays_below_one_and_counts_half_points() -> None:
    """A perfect score has upper bound 1 and a lower bound n/(n + z^2); draws count half."""
    z = 1.959963984540054
    perfect = wilson_interval(20, 20)
    assert perfect.high == 1.0
    assert perfect.low == pytest.approx(20 / (20 + z * z))
    assert wilson_interval(4.5, 10).estimate == 0.45
    assert math.isnan(wilson_interval(0, 0).estimate)
    counted = wilson_interval(np.float64(7.5), np.int64(10))  # a report's tallies are numpy's
    assert wilson_interval(0, 10).low == 0.0 and wilson_interval(10, 10).high == 1.0  # exact
    assert all(type(v) is float for v in astuple(counted)), repr(counted)


def test_bradley_terry_two_agents_is_log_odds_of_the_score() -> None:
    """Two agents, no prior: rating gap = 400 log10(wins/losses); draws add half to each."""
    wins = np.array([[0, 30], [10, 0]])
    draws = np.array([[0, 4], [4, 0]])
    ratings = bradley_terry(wins, draws, prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(32 / 12))
    assert ratings.sum() == pytest.approx(0.0)
    with_prior = bradley_terry(wins, draws, prior=0.5)
    assert with_prior[0] - with_prior[1] == pytest.approx(400 * math.log10(32.5 / 12.5))


def test_bradley_terry_recovers_consistent_strengths() -> None:
    """Strengths 4:2:1 with exactly proportional results give gaps of 400 log10 2 and 4."""
    wins = np.array([[0, 20, 40], [10, 0, 20], [10, 10, 0]])
    ratings = bradley_terry(wins, np.zeros((3, 3)), prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(2), abs=1e-6)
    assert ratings[0] - ratings[2] == pytest.approx(400 * math.log10(4), abs=1e-6)


def test_bradley_terry_satisfies_the_score_equations() -> None:
    """At the maximum likelihood each agent's expected points equal its points."""
    wins = np.array([[0, 7, 3], [5, 0, 9], [9, 2, 0]])
    ratings = bradley_terry(wins, np.zeros((3, 3)), prior=0.0)
    strength = 10 ** (ratings / 400)
    games = wins + wins.T
    expected = (games * strength[:, None] / (strength[:, None] + strength[None, :])).sum(axis=1)
    assert expected == pytest.approx(wins.sum(axis=1))


def test_bradley_terry_without_prior_rejects_a_pointless_agent() -> None:
    """An agent that lost every frame has no finite MLE rating; the prior makes it finite."""
    wins = np.array([[0, 10], [0, 0]])
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(wins, np.zeros((2, 2)), prior=0.0)
    assert np.isfinite(bradley_terry(wins, np.zeros((2, 2)))).all()


def test_rating_intervals_bracket_the_estimate_and_are_reproducible() -> None:
    """Percentile intervals contain the fit, narrow with more frames, repeat with the seed."""
    wins = np.array([[0, 60, 80], [40, 0, 60], [20, 40, 0]])
    draws = np.zeros((3, 3))
    small = rating_intervals(wins, draws, samples=400, seed=1)
    large = rating_intervals(wins * 10, draws, samples=400, seed=1)
    assert small == rating_intervals(wins, draws, samples=400, seed=1)
    for s, big in zip(small, large, strict=True):
        assert s.low < s.estimate < s.high
        assert big.high - big.low < (s.high - s.low) / 2
    assert [s.estimate for s in small] == pytest.approx(list(bradley_terry(wins, draws)), abs=1e-9)


def test_sequential_elo_two_updates_by_hand() -> None:
    """K = 16 from 0: a win gives +8; losing the next game at expected 0.523 costs 16 * 0.523."""
    ratings = sequential_elo([(0, 1, 1.0), (0, 1, 0.0)], players=2)
    expected_second = 1 / (1 + 10 ** (-16 / 400))
    assert ratings[0] == pytest.approx(8 - 16 * expected_second)
    assert ratings[1] == pytest.approx(-ratings[0])


def test_a_twenty_nil_result_has_an_honest_interval() -> None:
    """20-0: the fit is 400 log10(20.5 / 0.5) / 2 = 322.6 a side; the posterior of the loser's
    share is Beta(0.5, 20.5), whose 97.5% quantile 0.1166 (scipy.stats.beta.ppf) bounds the
    winner's rating from below at 400 log10(0.8834 / 0.1166) / 2 = 175.9; upward it stays wide
    open (the 2.5% quantile, 2.4e-5, puts the top near 900)."""
    wins = np.array([[0, 20], [0, 0]])
    winner, loser = rating_intervals(wins, np.zeros((2, 2)), samples=4000, seed=3)
    assert winner.estimate == pytest.approx(200 * math.log10(41))
    assert winner.low == pytest.approx(175.9, abs=8)
    assert winner.high > winner.estimate + 300  # a 20-0 score cannot bound the gap above
    assert math.isfinite(winner.high)
    assert (loser.low, loser.high) == pytest.approx((-winner.high, -winner.low))


def test_rating_intervals_match_the_frame_bootstrap_on_balanced_results() -> None:
    """With no lopsided pair the posterior interval is about as wide as resampling frames:
    300-100 over 400 frames, sd of the log-odds sqrt(1/300 + 1/100) = 0.1155, so the 95%
    half-width of each rating (half the gap) is 1.96 * 0.1155 / 2 * 400 / ln 10 = 19.7."""
    wins = np.array([[0, 300], [100, 0]])
    winner, _ = rating_intervals(wins, np.zeros((2, 2)), samples=4000, seed=0)
    assert (winner.high - winner.low) / 2 == pytest.approx(19.7, rel=0.1)


def test_rating_intervals_of_a_tournament_still_in_play() -> None:
    """Only a and b have met: c has no interval (nothing bounds it), a and b have theirs."""
    wins = np.array([[0, 7, 0], [3, 0, 0], [0, 0, 0]])
    a, b, c = rating_intervals(wins, np.zeros((3, 3)), samples=200)
    assert a.low < a.estimate < a.high and b.low < b.estimate < b.high
    assert math.isnan(c.low) and math.isnan(c.high) and math.isfinite(c.estimate)


def test_bradley_terry_fits_a_strict_hierarchy_of_shutouts_quickly() -> None:
    """Eight agents, each beating every weaker one 20-0: finite, ordered, centred ratings; the
    replicas' fits (shares down to 1e-10) converge too. Newton takes a few dozen steps here
    where the MM iteration took minutes."""
    n = 8
    wins = np.triu(np.full((n, n), 20.0), k=1)
    ratings = bradley_terry(wins, np.zeros((n, n)))
    assert np.all(np.diff(ratings) < 0) and ratings.sum() == pytest.approx(0.0, abs=1e-9)
    tiny = np.triu(np.full((n, n), 20.0), k=1) + np.tril(np.full((n, n), 1e-10), k=-1)
    strengths = 10 ** (bradley_terry(tiny, np.zeros((n, n)), prior=0.0) / 400)
    expected = (tiny + tiny.T) * strengths[:, None] / (strengths[:, None] + strengths[None, :])
    np.fill_diagonal(expected, 0.0)
    assert expected.sum(axis=1) == pytest.approx(tiny.sum(axis=1), rel=1e-6)
