"""A pair's row of the matrix: what its frames produced, per side, summed so that rows are small
enough to commit and can be merged per agent (:mod:`.agent_stats`) without the frames.

Each decision's time goes into a histogram of :data:`TIME_BINS` logarithmic bins (ten a decade
from 0.1 ms to 100 s), so that percentiles of an agent's decision time can be read over all its
pairs; a percentile is the upper edge of its bin (within 26%).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from kinghill.experiments.ladder.errors import LadderError
from kinghill.experiments.tournaments.frames import FrameOutcome

TIME_BINS = 60
"""Bins of the decision-time histogram: bin k holds times up to 10**(k/10 - 4) seconds."""


def time_bin(seconds: float) -> int:
    """The histogram bin of a decision of ``seconds`` (the first holds everything under
    0.1 ms, the last everything over 100 s)."""
    if seconds <= 1e-4:
        return 0
    return min(TIME_BINS - 1, max(0, math.ceil(10 * (math.log10(seconds) + 4) - 1e-9)))


def bin_edge(k: int) -> float:
    """The upper edge of bin ``k``, seconds."""
    return 10 ** (k / 10 - 4)


@dataclass(frozen=True)
class SideTally:
    """One agent's totals over the frames of a pair.

    ``breaks``: frames it broke; ``break_runs``: of those, frames it won without the opponent
    having a visit; ``shots``: the frames' lengths in shots (both players'); ``legal_pots``:
    whites credited and legal colour pots; ``times``: the decision-time histogram.
    """

    frames: int = 0
    wins: int = 0
    draws: int = 0
    breaks: int = 0
    break_runs: int = 0
    shots: int = 0
    visits: int = 0
    legal_pots: int = 0
    colour_attempts: int = 0
    colour_pots: int = 0
    fouls: int = 0
    errors: int = 0
    decisions: int = 0
    thinking: float = 0.0
    times: tuple[int, ...] = (0,) * TIME_BINS

    def __add__(self, other: SideTally) -> SideTally:
        values: dict[str, Any] = {}
        for field in fields(self):
            mine, theirs = getattr(self, field.name), getattr(other, field.name)
            values[field.name] = (
                tuple(x + y for x, y in zip(mine, theirs, strict=True))
                if isinstance(mine, tuple)
                else mine + theirs
            )
        return SideTally(**values)


@dataclass(frozen=True)
class PairRow:
    """The row of the pair ``agents`` (the first broke the even frames): frames played and each
    side's :class:`SideTally` (``sides[0]`` is ``agents[0]``'s)."""

    agents: tuple[str, str]
    frames: int
    sides: tuple[SideTally, SideTally]

    def side(self, agent: str) -> SideTally:
        """``agent``'s side of the pair."""
        return self.sides[self.agents.index(agent)]


def tally_pair(agents: tuple[str, str], records: Sequence[FrameOutcome]) -> PairRow:
    """The row of the pair ``agents`` from its frames (each played by both, in either seat).

    :raises LadderError: a frame of other agents.
    """
    sides = [SideTally(), SideTally()]
    for record in records:
        if set(record.agents) != set(agents):
            raise LadderError(f"frame {record.frame} is not between {agents}", "records")
        for seat, name in enumerate(record.agents):
            sides[agents.index(name)] += _seat_tally(record, seat)
    return PairRow(agents, len(records), (sides[0], sides[1]))


def _seat_tally(record: FrameOutcome, seat: int) -> SideTally:
    """What the frame ``record`` gives the agent in ``seat``."""
    other = 1 - seat
    won = record.winner == seat
    times = [0] * TIME_BINS
    for seconds in record.decision_seconds[seat]:
        times[time_bin(seconds)] += 1
    return SideTally(
        frames=1,
        wins=int(won),
        draws=int(record.winner is None),
        breaks=int(seat == 0),
        break_runs=int(seat == 0 and won and record.visits[other] == 0),
        shots=record.shots,
        visits=record.visits[seat],
        legal_pots=record.whites_potted[seat] + record.colour_pots[seat],
        colour_attempts=record.colour_attempts[seat],
        colour_pots=record.colour_pots[seat],
        fouls=record.fouls[seat],
        errors=record.errors[seat],
        decisions=record.decisions[seat],
        thinking=record.thinking[seat],
        times=tuple(times),
    )


def merged(sides: Iterable[SideTally]) -> SideTally:
    """The totals of ``sides`` (an agent's over its pairs)."""
    total = SideTally()
    for side in sides:
        total += side
    return total
