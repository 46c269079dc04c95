"""Beyond one number: how an agent plays, from its totals over its pairs (:mod:`.tally`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kinghill.experiments.ladder.tally import SideTally, bin_edge

NAN = float("nan")


@dataclass(frozen=True)
class AgentStats:
    """Per agent: ``break_and_run`` the share of the frames it broke that it won without the
    opponent having a visit; ``pots_per_visit`` legal pots (whites credited and colours) a
    visit; ``colour_success`` the share of colour calls potted; ``fouls_per_frame``;
    ``shots_per_frame`` the length of its frames (both players' shots); ``decision_mean`` and
    ``decision_p95`` seconds a decision (the 95th percentile to its histogram bin, NaN for
    frames logged before decision times were kept)."""

    frames: int
    break_and_run: float
    pots_per_visit: float
    colour_success: float
    fouls_per_frame: float
    shots_per_frame: float
    decision_mean: float
    decision_p95: float


def agent_stats(side: SideTally) -> AgentStats:
    """The statistics of an agent's totals ``side``."""
    return AgentStats(
        frames=side.frames,
        break_and_run=_ratio(side.break_runs, side.breaks),
        pots_per_visit=_ratio(side.legal_pots, side.visits),
        colour_success=_ratio(side.colour_pots, side.colour_attempts),
        fouls_per_frame=_ratio(side.fouls, side.frames),
        shots_per_frame=_ratio(side.shots, side.frames),
        decision_mean=_ratio(side.thinking, side.decisions),
        decision_p95=percentile(side.times, 0.95),
    )


def percentile(histogram: tuple[int, ...], q: float) -> float:
    """The ``q`` quantile of a decision-time histogram: the upper edge of the bin it falls in
    (NaN for an empty histogram)."""
    total = sum(histogram)
    if total == 0:
        return NAN
    wanted = math.ceil(q * total)
    seen = 0
    for k, count in enumerate(histogram):
        seen += count
        if seen >= wanted:
            return bin_edge(k)
    return bin_edge(len(histogram) - 1)


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else NAN
