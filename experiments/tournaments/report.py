"""Tournament report: ``report.json`` (all numbers), ``report.md`` (tables), ``ratings.png``,
``report.html`` (the tables, a heat map of the win rates and the recorded frames replayed).

Truncated frames are draws worth half a point to each agent (see ``stats``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kinghill.experiments.htmlreport import (
    HTML_FILE,
    HeatMap,
    IntervalRow,
    Intervals,
    Part,
    Table,
    Text,
    write_page,
)
from kinghill.experiments.tournaments.frames import SEAT_FIELDS, seat_totals
from kinghill.experiments.tournaments.stats import (
    Interval,
    rating_intervals,
    sequential_elo,
    wilson_interval,
)

if TYPE_CHECKING:
    from kinghill.experiments.tournaments.config import TournamentConfig
    from kinghill.experiments.tournaments.frames import FrameOutcome


@dataclass(frozen=True)
class Pairing:
    """One agent's results against another: frames won, lost and drawn (truncated), and its
    score (draws half) with a Wilson 95% interval."""

    wins: int
    losses: int
    draws: int
    win_rate: Interval


@dataclass(frozen=True)
class AgentStats:
    """One agent's numbers over all its frames (README: what the report's numbers mean).

    :param rating: Bradley-Terry rating on the Elo scale with its 95% interval (None before any
        frame was played).
    :param counts: per-seat counts summed over its frames (:data:`SEAT_COUNTS`: fouls, visits,
        whites potted, colour attempts and pots, time fouls, errors).
    """

    name: str
    frames: int
    points: float
    score: Interval
    rating: Interval | None
    sequential_elo: float
    shots_per_frame: float | None
    fouls_per_frame: float | None
    legal_pots_per_visit: float | None
    colour_pot_success: Interval | None
    seconds_per_decision: float | None
    counts: Mapping[str, float]


@dataclass(frozen=True)
class Report:
    """A tournament's results as Python objects; ``data`` is the same as ``report.json``.

    ``agents`` keeps the tournament's order; :meth:`ranking` sorts by rating, :meth:`win_matrix`
    gives the scores as an array.
    ``win_rates[a][b]`` is ``a`` against ``b``. ``frames`` holds every frame's record.
    """

    agents: Mapping[str, AgentStats]
    win_rates: Mapping[str, Mapping[str, Pairing]]
    frames_played: int
    frames_scheduled: int
    truncated_frames: int
    breaker_wins: Interval | None
    wall_time_per_frame: float | None
    frames: tuple[FrameOutcome, ...]
    data: Mapping[str, Any]

    @classmethod
    def of(cls, data: dict[str, Any], frames: Sequence[FrameOutcome] = ()) -> Report:
        """The typed form of a report built by :func:`build_report` (or read from
        ``report.json``), with the frames it was built from."""
        agents = {
            name: AgentStats(
                name=name,
                frames=a["frames"],
                points=a["points"],
                score=_from_interval(a["score"]),
                rating=_maybe_interval(a["bradley_terry_elo"]),
                sequential_elo=a["sequential_elo"],
                shots_per_frame=a["shots_per_frame"],
                fouls_per_frame=a["fouls_per_frame"],
                legal_pots_per_visit=a["legal_pots_per_visit"],
                colour_pot_success=_maybe_interval(a["colour_pot_success"]),
                seconds_per_decision=a.get("seconds_per_decision"),
                counts={key: a[key] for key in SEAT_COUNTS},
            )
            for name, a in data["agents"].items()
        }
        win_rates = {
            row: {
                col: Pairing(p["wins"], p["losses"], p["draws"], _from_interval(p["win_rate"]))
                for col, p in cols.items()
            }
            for row, cols in data["win_rates"].items()
        }
        return cls(
            agents=agents,
            win_rates=win_rates,
            frames_played=data["frames_played"],
            frames_scheduled=data["frames_scheduled"],
            truncated_frames=data["truncated_frames"],
            breaker_wins=_maybe_interval(data["breaker_wins"]),
            wall_time_per_frame=data["wall_time_per_frame"],
            frames=tuple(frames),
            data=data,
        )

    def ranking(self) -> list[AgentStats]:
        """The agents, best rated first (unrated ones last, in the tournament's order)."""
        rated = [a for a in self.agents.values() if a.rating is not None]
        rated.sort(key=lambda a: -a.rating.estimate)  # type: ignore[union-attr]
        return rated + [a for a in self.agents.values() if a.rating is None]

    def win_matrix(self) -> np.ndarray:
        """``[i, j]``: agent i's score against agent j (draws half), agents in tournament
        order; NaN on the diagonal and for pairs that have not played."""
        names = list(self.agents)
        matrix = np.full((len(names), len(names)), np.nan)
        for i, row in enumerate(names):
            for j, col in enumerate(names):
                if i != j and (row in self.win_rates and col in self.win_rates[row]):
                    matrix[i, j] = self.win_rates[row][col].win_rate.estimate
        return matrix

    def markdown(self) -> str:
        """The report as ``report.md`` holds it."""
        return render_markdown(dict(self.data))


def _from_interval(value: dict[str, Any]) -> Interval:
    estimate = math.nan if value["estimate"] is None else value["estimate"]
    return Interval(estimate, value["low"], value["high"])


def _maybe_interval(value: dict[str, float] | None) -> Interval | None:
    return None if value is None else _from_interval(value)


SEAT_COUNTS = tuple(f for f in SEAT_FIELDS if f not in ("extensions", "decisions", "thinking"))
"""Per-seat counts of a frame record summed per agent and reported as they are (fouls, visits,
whites potted, colour attempts and pots, time fouls, errors)."""


def _interval(value: Interval) -> dict[str, Any]:
    """An interval as the JSON holds it: no estimate (``null``) of no frames, not a bare NaN,
    which strict JSON parsers refuse."""
    estimate = None if math.isnan(value.estimate) else value.estimate
    return {"estimate": estimate, "low": value.low, "high": value.high}


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def tally(agents: Sequence[str], records: Sequence[FrameOutcome]) -> tuple[np.ndarray, np.ndarray]:
    """``wins[i, j]``: frames agent i won against j; ``draws[i, j]``: truncated frames."""
    index = {name: i for i, name in enumerate(agents)}
    wins = np.zeros((len(agents), len(agents)))
    draws = np.zeros_like(wins)
    for record in records:
        seats = [index[name] for name in record.agents]
        if record.winner is None:
            draws[seats[0], seats[1]] += 1
            draws[seats[1], seats[0]] += 1
        else:
            wins[seats[record.winner], seats[1 - record.winner]] += 1
    return wins, draws


def build_report(
    config: TournamentConfig, records: Sequence[FrameOutcome], samples: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """All the report's numbers as a JSON-ready dict."""
    agents = list(config.agents)
    wins, draws = tally(agents, records)
    points = wins + 0.5 * draws
    games = points + points.T
    matrix = {
        a: {
            b: {
                "wins": int(wins[i, j]),
                "losses": int(wins[j, i]),
                "draws": int(draws[i, j]),
                "win_rate": _interval(wilson_interval(points[i, j], int(games[i, j]))),
            }
            for j, b in enumerate(agents)
            if i != j
        }
        for i, a in enumerate(agents)
    }
    ratings = rating_intervals(wins, draws, samples=samples, seed=seed) if records else []
    index = {name: i for i, name in enumerate(agents)}
    elo = sequential_elo(
        (
            (
                index[r.agents[0]],
                index[r.agents[1]],
                0.5 if r.winner is None else float(r.winner == 0),
            )
            for r in records
        ),
        len(agents),
    )
    per_agent: dict[str, dict[str, Any]] = {}
    totals = seat_totals(records, agents)
    for i, name in enumerate(agents):
        seats = [(r, r.agents.index(name)) for r in records if name in r.agents]
        sums = {key: totals[key][i] for key in SEAT_COUNTS}
        frames = len(seats)
        per_agent[name] = {
            "frames": frames,
            "points": float(points[i].sum()),
            "score": _interval(wilson_interval(points[i].sum(), frames)),
            "bradley_terry_elo": _interval(ratings[i]) if ratings and frames else None,
            "sequential_elo": float(elo[i]),
            "shots_per_frame": _ratio(sum(r.shots for r, _ in seats), frames),
            "fouls_per_frame": _ratio(sums["fouls"], frames),
            "legal_pots_per_visit": _ratio(sums["whites_potted"], sums["visits"]),
            "colour_pot_success": (
                _interval(wilson_interval(sums["colour_pots"], int(sums["colour_attempts"])))
                if sums["colour_attempts"]
                else None
            ),
            "seconds_per_decision": _ratio(totals["thinking"][i], totals["decisions"][i]),
            **{key: sums[key] for key in SEAT_COUNTS},
            "first_fault": next(  # why its first failed decision failed, in frame order
                (
                    r.first_faults[s]
                    for r, s in sorted(seats, key=lambda x: x[0].frame)
                    if r.first_faults[s]
                ),
                None,
            ),
        }
    decided = [r for r in records if r.winner is not None]
    return {
        "config": config.to_dict(),
        "frames_played": len(records),
        "frames_scheduled": len(config.schedule()),
        "draws": "truncated frames count half a point to each agent",
        "ratings": "Bradley-Terry (maximum likelihood, one virtual draw per pair), Elo scale, "
        "mean 0; "
        "95% intervals from the posterior of each pair's score under that prior "
        f"(Beta(points + 1/2, points against + 1/2), refitted; {samples} draws)",
        "breaker_wins": _interval(
            wilson_interval(sum(r.winner == 0 for r in decided), len(decided))
        )
        if decided
        else None,  # every frame truncated: no breaker won or lost
        "truncated_frames": len(records) - len(decided),
        "wall_time_per_frame": _ratio(sum(r.wall_time for r in records), len(records)),
        "agents": per_agent,
        "win_rates": matrix,
    }


def format_number(value: Any, digits: int = 2) -> str:
    """A report's number with ``digits`` decimals, or a dash for none."""
    return "–" if value is None else f"{value:.{digits}f}"


def format_interval(value: dict[str, float] | None, digits: int = 2) -> str:
    """A report's interval as ``estimate [low, high]``, or a dash for none (no frames)."""
    if value is None or value["estimate"] is None:
        return "–"
    low, high = format_number(value["low"], digits), format_number(value["high"], digits)
    return f"{format_number(value['estimate'], digits)} [{low}, {high}]"


RATING_COLUMNS = (
    "agent",
    "Bradley-Terry Elo [95%]",
    "sequential Elo",
    "score [Wilson 95%]",
    "frames",
)
PLAY_COLUMNS = (
    "agent",
    "shots/frame (both players)",
    "fouls/frame",
    "legal pots/visit",
    "colour pots [Wilson 95%]",
    "colour attempts",
    "s/decision",
    "time fouls",
    "errors",
)


def ranked_names(report: dict[str, Any]) -> list[str]:
    """The report's agents, best Bradley-Terry rating first (unrated ones as if rated 0)."""
    agents = report["agents"]
    return sorted(
        agents, key=lambda n: -(agents[n]["bradley_terry_elo"] or {"estimate": 0})["estimate"]
    )


def settings_lines(report: dict[str, Any]) -> list[str]:
    """The report's first lines: who played under which settings, how many frames, the breaker's
    share."""
    config = report["config"]
    options = config["options"]
    clock = f"round {options['round']}" if options["round"] is not None else "off"
    steps = [*(config.get("earlier") or []), config["frames"]]
    raised = (  # each raise draws its own frames: a fresh run of the last number plays others
        f"; raised from {', then '.join(map(str, steps[:-1]))}: these frames come from "
        f"--frames {', then '.join(map(str, steps))}"
        if len(steps) > 1
        else ""
    )
    return [
        f"Agents: {', '.join(report['agents'])}. Frames per pair: {config['frames']} "
        f"(seats swapped{raised}). Seed: {config['seed']}. Noise: {_noise_text(options)}. "
        f"Time control: {clock}. Shot limit: {options['max_shots']}."
        + handicap_text(options.get("handicap", []), config["agents"]),
        f"Frames played: {report['frames_played']} of {report['frames_scheduled']}; "
        f"truncated (draws, half a point each): {report['truncated_frames']}. "
        f"Breaker (seat 0) wins: {format_interval(report['breaker_wins'])}.",
    ]


def handicap_text(handicap: Sequence[Sequence[Any]], agents: Sequence[str]) -> str:
    """How a report names the handicap of ``agents`` (5.3): ``" Handicap (5.3): a needs 2
    whites, b 4, the others 3."``, or nothing when there is none."""
    if not handicap:
        return ""
    (first, whites), *rest = handicap
    named = [f"{first} needs {whites} white{'' if whites == 1 else 's'}"]
    named += [f"{name} {count}" for name, count in rest]
    others = ", the others 3" if len(handicap) < len(agents) else ""
    return f" Handicap (5.3): {', '.join(named)}{others}."


def rating_rows(report: dict[str, Any]) -> list[list[str]]:
    """The ratings table (:data:`RATING_COLUMNS`), best rated first."""
    agents = report["agents"]
    return [
        [
            name,
            format_interval(agents[name]["bradley_terry_elo"], 0),
            format_number(agents[name]["sequential_elo"], 0),
            format_interval(agents[name]["score"]),
            str(agents[name]["frames"]),
        ]
        for name in ranked_names(report)
    ]


def win_rate_cells(report: dict[str, Any]) -> list[list[str]]:
    """``[i][j]``: agent i's score against agent j with its Wilson interval (empty on the
    diagonal), agents in the tournament's order."""
    names = list(report["agents"])
    return [
        [
            "" if col == row else format_interval(report["win_rates"][row][col]["win_rate"])
            for col in names
        ]
        for row in names
    ]


def play_rows(report: dict[str, Any]) -> list[list[str]]:
    """The per-agent play table (:data:`PLAY_COLUMNS`), in the tournament's order."""
    return [
        [
            name,
            format_number(a["shots_per_frame"], 1),
            format_number(a["fouls_per_frame"]),
            format_number(a["legal_pots_per_visit"]),
            format_interval(a["colour_pot_success"]),
            str(a["colour_attempts"]),
            format_number(a.get("seconds_per_decision"), 3),
            str(a["time_fouls"]),
            str(a["errors"]),
        ]
        for name, a in report["agents"].items()
    ]


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A Markdown table's lines."""
    return [
        "|" + "|".join(f" {c} " if c else " " for c in columns) + "|",
        "|---" * len(columns) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def ratings_lines(report: dict[str, Any]) -> list[str]:
    """The report's ratings: how they were fitted, then the table (:data:`RATING_COLUMNS`)."""
    return [report["ratings"] + ".", "", *markdown_table(RATING_COLUMNS, rating_rows(report))]


def render_markdown(report: dict[str, Any]) -> str:
    """The report as Markdown tables."""
    names = list(report["agents"])
    matrix = [
        [f"**{name}**", *cells] for name, cells in zip(names, win_rate_cells(report), strict=True)
    ]
    lines = [
        "# Tournament report",
        "",
        *settings_lines(report),
        "",
        "## Ratings",
        "",
        *ratings_lines(report),
        "",
        "## Win rates (row against column, Wilson 95%)",
        "",
        *markdown_table(["", *names], matrix),
        "",
        "## Play",
        "",
        *markdown_table(PLAY_COLUMNS, play_rows(report)),
    ]
    faults = fault_lines(report)
    if faults:
        lines += ["", *faults]
    return "\n".join(lines) + "\n"


def fault_lines(report: Mapping[str, Any]) -> list[str]:
    """A line for each agent whose decisions failed (each charged by the rules: a shot not
    played, 12.4; a 10.4 choice not made, played on), with why its first failed: the reasons
    behind the play table's errors (a report of a log from before they were kept: none)."""
    return [
        f"{name}: {data['errors']} failed decision{'' if data['errors'] == 1 else 's'} "
        f"(errors), each charged by the rules; the first: {data.get('first_fault') or '–'}."
        for name, data in report["agents"].items()
        if data["errors"]
    ]


def round_robin_parts(report: dict[str, Any]) -> list[Part]:
    """A round robin's page: settings, ratings (chart and table), win rates, play."""
    agents = report["agents"]
    rated = [
        IntervalRow(name, r["estimate"], r["low"], r["high"])
        for name in ranked_names(report)
        if (r := agents[name]["bradley_terry_elo"]) is not None
    ]
    names = list(agents)
    values = [
        [None if a == b else report["win_rates"][a][b]["win_rate"]["estimate"] for b in names]
        for a in names
    ]
    return [
        *(Text(line) for line in settings_lines(report)),
        Intervals("Ratings", rated, "Bradley-Terry rating (Elo scale), 95% interval"),
        Table("Rating table", RATING_COLUMNS, rating_rows(report), note=report["ratings"] + "."),
        HeatMap(
            "Win rates (row against column, Wilson 95%)",
            names,
            values,
            win_rate_cells(report),
            note="Each cell: the row agent's score against the column agent (draws half).",
        ),
        Table("Play", PLAY_COLUMNS, play_rows(report)),
        *(Text(line) for line in fault_lines(report)),
    ]


def plot_ratings(report: dict[str, Any], path: Path) -> None:
    """Bradley-Terry ratings with their 95% intervals, best at the top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rated = [
        (n, a["bradley_terry_elo"]) for n, a in report["agents"].items() if a["bradley_terry_elo"]
    ]
    rated.sort(key=lambda item: item[1]["estimate"])
    figure, axes = plt.subplots(figsize=(6, 1 + 0.5 * max(len(rated), 1)))
    estimates = np.array([r["estimate"] for _, r in rated])
    errors = np.array(
        [
            [r["estimate"] - r["low"] for _, r in rated],
            [r["high"] - r["estimate"] for _, r in rated],
        ]
    )
    axes.errorbar(estimates, range(len(rated)), xerr=errors.reshape(2, -1), fmt="o", capsize=4)
    axes.set_yticks(range(len(rated)), [n for n, _ in rated])
    axes.axvline(0.0, color="grey", linewidth=0.5)
    axes.set_xlabel("Bradley-Terry rating (Elo scale), 95% interval")
    axes.set_title(f"{report['frames_played']} frames")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def write_report(
    out: Path, config: TournamentConfig, records: Sequence[FrameOutcome], samples: int = 1000
) -> str:
    """Write ``report.json``, ``report.md`` and ``ratings.png`` in ``out``; return a summary."""
    return save_report(out, build_report(config, records, samples=samples, seed=config.seed))


def save_report(out: Path, report: dict[str, Any]) -> str:
    """Write a report built by :func:`build_report` to ``out`` (``report.json``, ``report.md``,
    ``ratings.png``, ``report.html`` with the frames recorded in ``out``); return its ratings
    table and where the files are."""
    (out / "report.json").write_text(json.dumps(report, indent=2, allow_nan=False) + "\n")
    (out / "report.md").write_text(render_markdown(report))
    plot_ratings(report, out / "ratings.png")
    write_page(out / HTML_FILE, "Tournament report", round_robin_parts(report), records=out)
    return summary(report, out)


def summary(report: dict[str, Any], out: Path) -> str:
    """For the terminal: the report's ratings (as ``report.md`` gives them) and where its files
    are."""
    files = ", ".join(
        str(out / name) for name in ("report.md", HTML_FILE, "report.json", "ratings.png")
    )
    return "\n".join(ratings_lines(report)) + f"\n\nReport: {files}"


def _noise_text(options: dict[str, Any]) -> str:
    """How the report names the noise: on, off, or on at its scale (an old report has none)."""
    if not options["noise"]:
        return "off"
    scale = options.get("noise_scale", 1.0)
    if scale == 1.0:
        return "on"
    return "on, variable scale" if scale == "variable" else f"on, {scale:g}x"
