"""The ladder as a self-contained HTML page (:mod:`kinghill.experiments.htmlreport`): the ratings
with their intervals, the standings, the score matrix as a heat map and the cycles."""

from __future__ import annotations

from dataclasses import astuple
from pathlib import Path

from kinghill.experiments.htmlreport import (
    HeatMap,
    IntervalRow,
    Intervals,
    Part,
    Table,
    Text,
    write_page,
)
from kinghill.experiments.ladder.report import (
    STANDINGS_COLUMNS,
    cycles_text,
    ranked,
    rate_text,
    standings_rows,
)
from kinghill.experiments.ladder.standings import LadderResult
from kinghill.experiments.ladder.zoo import condition_name


def write_ladder_page(result: LadderResult, path: Path) -> Path:
    """Write the page of ``result`` to ``path`` (agent names shown as text, never run)."""
    everyone = ranked([*result.zoo, *result.candidates])
    labels = [s.id for s in everyone]
    values = [[_value(s.win_rates.get(col)) for col in labels] for s in everyone]
    cells = [[rate_text(s.win_rates.get(col)) for col in labels] for s in everyone]
    condition = condition_name(result.noise_scale)
    candidates = ", ".join(s.id for s in result.candidates) or "none"
    parts: list[Part] = [
        Text(
            f"Noise: {condition}. Candidates: {candidates}. Ratings are Elo points on the zoo's "
            "fixed scale; a candidate is fitted against the zoo's ratings held fixed. An agent "
            "that lost (won) every frame against the rated ones has a bound: its point is the "
            "bound (see the standings' ≤ and ≥)."
        ),
        Intervals(
            "Ratings",
            [IntervalRow(s.id, *astuple(s.rating)) for s in everyone],  # bounds as arrows
            "Elo, 95% interval",
        ),
        Table("Standings", STANDINGS_COLUMNS, standings_rows(everyone)),
        HeatMap("Scores, row against column (draws half)", labels, values, cells),
        Text(cycles_text(result.cycles).replace("\n\n", " ").replace("\n- ", "; ")),
    ]
    return write_page(path, f"Ladder at {condition} noise", parts)


def _value(rate: object) -> float | None:
    return getattr(rate, "estimate", None)
