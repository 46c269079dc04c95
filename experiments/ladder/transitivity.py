"""Is the matrix transitive? Its cycles (A beats B beats C beats A), and the Nash averaging of
Balduzzi et al. (2018, "Re-evaluating evaluation") beside the Bradley-Terry order.

The game is the antisymmetric log-odds matrix ``A[i, j] = log(points of i / points of j)``
(with the prior's virtual points; 0 for a pair not played): choosing an agent against an
opponent's choice, each player wins ``A``. Its Nash equilibrium (a linear programme,
:func:`scipy.optimize.linprog`) puts weight only on agents that no mixture beats; the
Nash-averaged skill of agent i is ``(A p)[i]``, its log-odds against the equilibrium mixture
``p``: 0 for agents in the equilibrium's support, negative for the others. In a transitive
matrix the support is the single best agent; in a cycle it spreads over the cycle.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from kinghill.experiments.tournaments.stats import score_matrix


@dataclass(frozen=True)
class NashAverage:
    """The equilibrium's weight on each agent and each agent's skill against it (log-odds)."""

    mass: tuple[float, ...]
    skill: tuple[float, ...]


def log_odds(wins: np.ndarray, draws: np.ndarray, prior: float = 0.5) -> np.ndarray:
    """``A[i, j] = log((points of i against j + prior) / (points of j against i + prior))``;
    0 on the diagonal and for pairs that have not played."""
    points, games = score_matrix(np.asarray(wins, float), np.asarray(draws, float))
    odds = np.log((points + prior) / (points.T + prior))
    return np.where(games > 0, odds, 0.0)


def cycles(names: Sequence[str], wins: np.ndarray, draws: np.ndarray) -> list[tuple[str, ...]]:
    """Every three agents each of whom scored more than half against the next, ``(a, b, c)``
    for a beats b beats c beats a (each cycle once, from its first agent in ``names``)."""
    points = score_matrix(np.asarray(wins, float), np.asarray(draws, float))[0]
    beats = points > points.T
    found: list[tuple[str, ...]] = []
    for i, j, k in itertools.combinations(range(len(names)), 3):
        for a, b, c in ((i, j, k), (i, k, j)):
            if beats[a, b] and beats[b, c] and beats[c, a]:
                found.append((names[a], names[b], names[c]))
    return found


def nash_average(wins: np.ndarray, draws: np.ndarray, prior: float = 0.5) -> NashAverage:
    """A Nash equilibrium of the log-odds game (see the module docstring) and the skills.

    The game is symmetric and zero-sum, so its value is 0; the equilibrium is the mixture
    ``p`` (``p >= 0``, summing to 1) that maximises the least log-odds ``v`` it gets against
    any single agent, ``A.T p >= v``. Where several equilibria exist the solver returns one.
    """
    game = log_odds(wins, draws, prior)
    n = len(game)
    # variables: p (n), v; minimise -v subject to v - (A.T p)_j <= 0, sum p = 1
    objective = np.zeros(n + 1)
    objective[-1] = -1.0
    upper = np.hstack([-game.T, np.ones((n, 1))])
    equal = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    solution = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(n),
        A_eq=equal,
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if not solution.success:
        raise ArithmeticError(f"the Nash equilibrium's linear programme failed: {solution.message}")
    mass = np.clip(solution.x[:n], 0.0, None)
    mass = mass / mass.sum()
    skill = game @ mass
    return NashAverage(tuple(float(m) for m in mass), tuple(float(s) for s in skill))
