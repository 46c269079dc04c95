"""A league for ``kinghill train sb3 --opponent league``: the built-in agents named by ``--league``
and the learner's frozen snapshots (``DIR/pool/``, one every ``--refresh`` steps, the latest
``--pool-size`` kept in play), sampled by how often the learner loses to them.

Prioritised fictitious self-play (PFSP, as in AlphaStar): each episode the opponent is member
``i`` with probability proportional to ``(1 - w_i) ** POWER + FLOOR``, where ``w_i`` is the
learner's win rate against it over its last ``WINDOW`` frames, with one win and one loss as a
prior (so a new member starts at 0.5). Opponents the learner already beats are drawn rarely, the
ones it loses to often, and none is ever dropped entirely. Each env worker keeps its own counts
from the frames it plays (:class:`LeagueFeedback` reports each result); no state is shared
between workers other than the snapshot folder.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from kinghill.agents import make_agent
from kinghill.envs import Action, FrameView
from kinghill.experiments.training.selfplay import load_snapshot, snapshots

POWER = 2.0
"""PFSP's "hard" weighting exponent: larger favours the opponents the learner loses to."""
FLOOR = 0.02
"""Added to every member's weight so that none is ever left out."""
WINDOW = 100
"""Frames per member that its win rate is counted over."""


def pfsp_weights(win_rates: list[float], power: float = POWER, floor: float = FLOOR) -> np.ndarray:
    """Sampling probabilities for members the learner wins ``win_rates`` of its frames against."""
    rates = np.clip(np.asarray(win_rates, dtype=np.float64), 0.0, 1.0)
    weights = (1.0 - rates) ** power + floor
    return weights / weights.sum()


class League:
    """An opponent that plays, each episode, one league member drawn by :func:`pfsp_weights`.

    :param folder: the snapshot pool folder (may be empty or missing at first).
    :param algo: the snapshots' algorithm ("ppo", "sac", "maskable-ppo").
    :param action: the action they were trained with ("aim", "flat", "masked").
    :param agents: the built-in members, as registry agent specs (e.g. ``["heuristic"]``).
    :param size: how many of the latest snapshots are members.
    """

    def __init__(
        self, folder: Path | str, algo: str, action: str, agents: list[str], size: int = 5
    ) -> None:
        self.folder = Path(folder)
        self.algo = algo
        self.action = action
        self.size = size
        self._agents = {name: make_agent(name) for name in agents}
        self._loaded: dict[str, Any] = {}
        self.results: dict[str, deque[float]] = {}
        self._rng = np.random.default_rng()
        self.current: str | None = None

    def members(self) -> list[str]:
        """The built-in agents' names, then the snapshots in play (their file paths)."""
        pool = [str(p) for p in snapshots(self.folder)[-self.size :]]
        return list(self._agents) + pool

    def win_rate(self, member: str) -> float:
        """The learner's recent win rate against ``member`` (0.5 before any frame)."""
        found = self.results.get(member, ())
        return (sum(found) + 1.0) / (len(found) + 2.0)

    def reset(self, seed: int | None = None) -> None:
        """Draw this episode's opponent (called by the env on reset)."""
        self._rng = np.random.default_rng(seed)
        members = self.members()
        self._loaded = {m: p for m, p in self._loaded.items() if m in members}
        weights = pfsp_weights([self.win_rate(m) for m in members])
        self.current = members[int(self._rng.choice(len(members), p=weights))]
        agent = self._agents.get(self.current)
        reset = getattr(agent, "reset", None)
        if callable(reset):
            reset(int(self._rng.integers(2**31)))

    def record(self, learner_score: float) -> None:
        """The learner's score (1 won, 0 lost, 0.5 truncated) in the frame just played."""
        if self.current is not None:
            found = self.results.setdefault(self.current, deque(maxlen=WINDOW))
            found.append(learner_score)

    def act(self, view: FrameView) -> Action:
        if self.current is None:
            self.reset()
        assert self.current is not None
        if self.current in self._agents:
            return self._agents[self.current].act(view)
        if self.current not in self._loaded:
            self._loaded[self.current] = load_snapshot(
                Path(self.current), self.algo, self.action, deterministic=False
            )
        return self._loaded[self.current].act(view)


class LeagueFeedback(gym.Wrapper[Any, Any, Any, Any]):
    """Tells the env's :class:`League` opponent how each frame ended."""

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            league = self.env.unwrapped.opponent  # type: ignore[attr-defined]
            winner = info["frame"].winner
            league.record(0.5 if winner is None else float(winner == 0))
        return obs, reward, terminated, truncated, info
