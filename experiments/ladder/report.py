"""The ladder as Markdown: the standings (rating, rank, Nash averaging, how each agent plays),
each candidate's win rates against the zoo, and the cycles of the matrix."""

from __future__ import annotations

import math
from collections.abc import Sequence

from kinghill.experiments.ladder.standings import LadderResult, Standing
from kinghill.experiments.ladder.zoo import condition_name
from kinghill.experiments.tournaments.stats import Interval

STANDINGS_COLUMNS = (
    "rank", "agent", "rating [95%]", "Nash weight", "Nash skill", "break-and-run", "pots/visit",
    "colour calls", "fouls/frame", "shots/frame (both players)", "s/decision", "p95 s", "frames",
)  # fmt: skip


def _number(value: float, digits: int = 2) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def _seconds(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3g}"


def rating_text(rating: Interval) -> str:
    """A rating with its 95% interval, ``1000 [978, 1022]``, or its bound, ``≤ 271``; the
    anchor, set and not measured, ``1000 (anchor)``."""
    if rating.low == rating.estimate == rating.high:
        return f"{rating.estimate:.0f} (anchor)"
    if math.isinf(rating.low):
        return f"≤ {rating.high:.0f}"
    if math.isinf(rating.high):
        return f"≥ {rating.low:.0f}"
    return f"{rating.estimate:.0f} [{rating.low:.0f}, {rating.high:.0f}]"


def drawn(rating: Interval) -> Interval:
    """A rating as a chart draws it: a bound's open side closed at the bound (a point)."""
    low = rating.estimate if math.isinf(rating.low) else rating.low
    high = rating.estimate if math.isinf(rating.high) else rating.high
    return Interval(rating.estimate, low, high)


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """``standings`` best first: by rank, then by rating."""
    return sorted(standings, key=lambda s: (s.rank, -s.rating.estimate))


def standings_rows(standings: Sequence[Standing]) -> list[list[str]]:
    """The standings' cells (:data:`STANDINGS_COLUMNS`), best rated first."""
    rows = []
    for s in ranked(standings):
        st = s.stats
        rows.append(
            [
                str(s.rank),
                s.id,
                rating_text(s.rating),
                f"{s.nash_mass:.2f}",
                f"{s.nash_skill:.2f}",
                _number(st.break_and_run),
                _number(st.pots_per_visit),
                _number(st.colour_success),
                _number(st.fouls_per_frame),
                _number(st.shots_per_frame, 1),
                _seconds(st.decision_mean),
                _seconds(st.decision_p95),
                str(st.frames),
            ]  # fmt: skip
        )
    return rows


def standings_table(standings: Sequence[Standing], candidates: frozenset[str] = frozenset()) -> str:
    """One row per agent, best first; candidates in bold."""
    lines = ["| " + " | ".join(STANDINGS_COLUMNS) + " |", "|---" * len(STANDINGS_COLUMNS) + "|"]
    for row in standings_rows(standings):
        if row[1] in candidates:
            row[1] = f"**{row[1]}**"
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def rate_text(rate: Interval | None) -> str:
    """A score with its Wilson interval, or nothing when the pair did not play."""
    return "" if rate is None else f"{rate.estimate:.2f} [{rate.low:.2f}, {rate.high:.2f}]"


def win_rate_table(rows: Sequence[Standing], columns: Sequence[str]) -> str:
    """Each row agent's score (draws half) against each column agent, Wilson 95%."""
    lines = ["| | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for row in rows:
        cells = [rate_text(row.win_rates.get(column)) for column in columns]
        lines.append(f"| **{row.id}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def stronger_table(rows: Sequence[Standing]) -> str:
    """The probability that each row agent is stronger than each column agent (see
    :func:`~kinghill.experiments.ladder.rating.stronger`), best first."""
    order = [s.id for s in ranked(rows)]
    lines = ["| | " + " | ".join(order) + " |", "|---" * (len(order) + 1) + "|"]
    for row in ranked(rows):
        cells = ["" if column == row.id else f"{row.stronger[column]:.2f}" for column in order]
        lines.append(f"| **{row.id}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def cycles_text(cycles: Sequence[tuple[str, ...]]) -> str:
    """The cycles found, one a line, or that there are none."""
    if not cycles:
        return "No cycles: every three agents are ordered (the matrix is transitive in threes)."
    lines = [f"{len(cycles)} cycle(s) of three (each beats the next):", ""]
    lines += [f"- {' > '.join((*cycle, cycle[0]))}" for cycle in cycles]
    return "\n".join(lines)


ONLY_THE_ANCHOR = (
    "**Only the anchor is rated**: every other zoo agent won or lost every frame against it, so "
    "their ratings are bounds and the ranks say little. Anchor the zoo on an agent that both won "
    'and lost frames (`"anchor"` and `"anchor_rating"` in its zoo.json).'
)
"""The note of a zoo whose anchor stands alone (:func:`only_the_anchor`)."""


def only_the_anchor(result: LadderResult) -> bool:
    """Whether the zoo's anchor is its only rated agent (the others all bounds: an anchor that
    won or lost every frame, as ``random@1``, the default anchor, does against most zoos)."""
    rated = [s for s in result.zoo if math.isfinite(s.rating.low) and math.isfinite(s.rating.high)]
    return len(result.zoo) > 1 and len(rated) <= 1


def ladder_markdown(result: LadderResult) -> str:
    """The candidates' standings among the zoo's, their win rates and the cycles."""
    candidates = frozenset(s.id for s in result.candidates)
    zoo_ids = [s.id for s in result.zoo]
    parts = [
        f"# Ladder at {condition_name(result.noise_scale)} noise",
        "",
        "Ratings: Elo points on the zoo's fixed scale; a candidate is fitted against the zoo's "
        "ratings held fixed (`≤`/`≥`: a bound, for an agent that lost or won every frame against "
        "them). Rank: place among the zoo and the candidate.",
        "",
        standings_table([*result.zoo, *result.candidates], candidates),
        "",
        *([ONLY_THE_ANCHOR, ""] if only_the_anchor(result) else []),
        *(f"Not played: {reason}" for _, reason in result.skipped),
        *([""] if result.skipped else []),
        "## Win rates against the zoo",
        "",
        win_rate_table(result.candidates, zoo_ids),
        "",
        "## Cycles",
        "",
        cycles_text(result.cycles),
        "",
    ]
    return "\n".join(parts)
