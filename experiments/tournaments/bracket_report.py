"""Knockout report: ``report.json`` (for scripts), ``report.md`` (who met whom, scores, time fouls
and extensions, thinking time by round, the champion), ``bracket.png`` (the bracket drawn) and
``report.html`` (the tables and the recorded frames replayed).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kinghill.experiments.htmlreport import HTML_FILE, Part, Picture, Table, Text, write_page
from kinghill.experiments.tournaments.bracket import Slot
from kinghill.experiments.tournaments.knockout import KnockoutConfig, KnockoutState
from kinghill.experiments.tournaments.report import handicap_text, markdown_table

MATCH_FIELDS = (
    "wins",
    "draws",
    "frames",
    "decided_by",
    "fouls",
    "time_fouls",
    "extensions",
    "decisions",
    "thinking",
)
"""The match score's numbers kept in the JSON report."""


def build_knockout_report(config: KnockoutConfig, state: KnockoutState) -> dict[str, Any]:
    """All the report's numbers as a JSON-ready dict."""
    rounds = []
    for number, slots in enumerate(state.rounds, start=1):
        rounds.append(
            {
                "round": number,
                "tournament_round": config.tournament_round(number),
                "clock": config.clock_limit(number),
                "matches": [_match(slot) for slot in slots],
            }
        )
    return {
        "format": "knockout",
        "config": config.to_dict(),
        "champion": state.champion,
        "complete": state.champion is not None,
        "rounds": rounds,
        "thinking": _thinking_by_round(rounds),
    }


def _match(slot: Slot) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "index": slot.index,
        "agents": list(slot.agents),
        "bye": slot.bye,
        "winner": slot.winner,
    }
    if slot.score is not None:
        for key in MATCH_FIELDS:
            value = getattr(slot.score, key)
            entry[key] = list(value) if isinstance(value, tuple) else value
    return entry


def _thinking_by_round(rounds: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per round and agent: frames won and lost, seconds per decision, time fouls, extensions."""
    rows = []
    for entry in rounds:
        for match in entry["matches"]:
            if match["bye"] or "frames" not in match:
                continue
            for side, agent in enumerate(match["agents"]):
                decisions = match["decisions"][side]
                rows.append(
                    {
                        "round": entry["round"],
                        "tournament_round": entry["tournament_round"],
                        "clock": entry["clock"],
                        "agent": agent,
                        "opponent": match["agents"][1 - side],
                        "frames_won": match["wins"][side],
                        "frames_lost": match["wins"][1 - side],
                        "frames_drawn": match["draws"],
                        "decisions": decisions,
                        "seconds_per_decision": (
                            match["thinking"][side] / decisions if decisions else None
                        ),
                        "time_fouls": match["time_fouls"][side],
                        "extensions": match["extensions"][side],
                    }
                )
    return rows


def _clock_text(clock: float | None) -> str:
    return "untimed" if clock is None else f"{clock:g} s a shot"


ROUND_COLUMNS = (
    "match",
    "higher seed",
    "score",
    "lower seed",
    "winner",
    "frames",
    "fouls",
    "time fouls",
    "extensions",
)
THINKING_COLUMNS = (
    "round",
    "clock",
    "agent",
    "opponent",
    "frames won–lost",
    "decisions",
    "s/decision",
    "time fouls",
    "extensions",
)


def knockout_settings(report: dict[str, Any]) -> str:
    """The report's first line: entrants by seed, the matches, seed, noise, shot limit, clock,
    handicap."""
    config = report["config"]
    options = config["options"]
    entrants = ", ".join(f"{n}. {name}" for n, name in enumerate(config["agents"], start=1))
    clock = (
        f"section 12 by round, the bracket's round 1 being round {config['first_round']}"
        if config["clock"]
        else "off (12.1)"
    )
    return (
        f"Entrants by seed: {entrants} (seeding: {config['seeding']}). "
        f"Matches: race to {config['race']}, break alternating. Seed: {config['seed']}. "
        f"Noise: {'on' if options['noise'] else 'off'}. Shot limit: {options['max_shots']}. "
        f"Time control: {clock}." + handicap_text(options.get("handicap", []), config["agents"])
    )


def round_title(entry: dict[str, Any]) -> str:
    """A round's heading: its number, the tournament round and the clock."""
    return (
        f"Round {entry['round']} (tournament round {entry['tournament_round']}, "
        f"{_clock_text(entry['clock'])})"
    )


def round_rows(entry: dict[str, Any]) -> list[list[str]]:
    """A round's table (:data:`ROUND_COLUMNS`): one row a match, byes and matches to play too."""
    rows = []
    for match in entry["matches"]:
        a, b = (name or "–" for name in match["agents"])
        number = str(match["index"] + 1)
        if match["bye"]:
            rows.append([number, a, "bye", "–", a, "–", "–", "–", "–"])
        elif "frames" not in match:
            rows.append([number, a, "to play", b, "–", "–", "–", "–", "–"])
        else:
            drawn = f" ({match['draws']} drawn)" if match["draws"] else ""
            capped = ", frame cap" if match["decided_by"] == "frame cap" else ""
            rows.append(
                [
                    number,
                    a,
                    f"{match['wins'][0]}–{match['wins'][1]}{capped}",
                    b,
                    match["winner"] or "playing",
                    f"{match['frames']}{drawn}",
                    _pair(match["fouls"]),
                    _pair(match["time_fouls"]),
                    _pair(match["extensions"]),
                ]
            )
    return rows


def thinking_rows(report: dict[str, Any]) -> list[list[str]]:
    """The thinking-time table (:data:`THINKING_COLUMNS`), per round and agent."""
    rows = []
    for row in report["thinking"]:
        per = row["seconds_per_decision"]
        rows.append(
            [
                str(row["round"]),
                _clock_text(row["clock"]),
                row["agent"],
                row["opponent"],
                f"{row['frames_won']}–{row['frames_lost']}",
                str(row["decisions"]),
                "–" if per is None else f"{per:.2f}",
                str(row["time_fouls"]),
                str(row["extensions"]),
            ]
        )
    return rows


def champion_line(report: dict[str, Any]) -> str:
    """Who won the knockout, or that it is not decided yet."""
    return f"Champion: {report['champion'] or 'not decided yet'}"


def render_knockout_markdown(report: dict[str, Any]) -> str:
    """The report as Markdown: settings, champion, one table per round, thinking time."""
    lines = ["# Knockout report", "", knockout_settings(report), "", f"**{champion_line(report)}**"]
    for entry in report["rounds"]:
        lines += [
            "",
            f"## {round_title(entry)}",
            "",
            *markdown_table(ROUND_COLUMNS, round_rows(entry)),
        ]
    lines += [
        "",
        "## Thinking time by round",
        "",
        *markdown_table(THINKING_COLUMNS, thinking_rows(report)),
    ]
    return "\n".join(lines) + "\n"


BRACKET_FILE = "bracket.png"


def knockout_parts(report: dict[str, Any], bracket_png: bytes | None = None) -> list[Part]:
    """A knockout's page: settings, champion, the bracket drawn (``bracket_png``, when given),
    one table per round, thinking time."""
    drawn = [] if bracket_png is None else [Picture("Bracket", bracket_png, "the bracket")]
    return [
        Text(knockout_settings(report)),
        Text(champion_line(report)),
        *drawn,
        *(Table(round_title(e), ROUND_COLUMNS, round_rows(e)) for e in report["rounds"]),
        Table("Thinking time by round", THINKING_COLUMNS, thinking_rows(report)),
    ]


def _pair(values: Sequence[int]) -> str:
    return f"{values[0]}–{values[1]}"


def plot_bracket(report: dict[str, Any], path: Path) -> None:
    """The bracket drawn left to right: each match a box with both entrants and their frames
    (the winner in bold), lines to the next round, the champion at the right."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rounds = report["rounds"]
    size = 2 ** len(rounds)
    figure, axes = plt.subplots(figsize=(2.9 * (len(rounds) + 1), 0.6 * size + 1.2))
    for entry in rounds:
        x = entry["round"] - 1
        axes.text(
            x,
            -1.1,
            f"{_round_title(entry)}\n{_clock_text(entry['clock'])}",
            ha="center",
            va="bottom",
            fontsize=9,
            weight="bold",
        )
        for match in entry["matches"]:
            y = _slot_y(entry["round"], match["index"])
            _draw_match(axes, x, y, match)
            if entry["round"] < len(rounds):
                nxt = _slot_y(entry["round"] + 1, match["index"] // 2)
                axes.plot([x + 0.42, x + 0.5, x + 0.5, x + 0.58], [y, y, nxt, nxt], color="grey")
    final_y = _slot_y(len(rounds), 0)
    axes.plot([len(rounds) - 0.58, len(rounds) - 0.32], [final_y, final_y], color="grey")
    axes.text(
        len(rounds),
        final_y,
        f"Champion\n{report['champion'] or '?'}",
        ha="center",
        va="center",
        fontsize=11,
        weight="bold",
        bbox={"boxstyle": "round", "facecolor": "#fde9a9", "edgecolor": "#b8860b"},
    )
    axes.set_xlim(-0.6, len(rounds) + 0.6)
    axes.set_ylim(size - 0.2, -1.4)
    axes.axis("off")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


LABEL_CHARS = 26
"""Longest entrant name drawn in full in a match box; longer ones keep their ends."""


def _short(name: str) -> str:
    """``name``, or its start and end around an ellipsis when it would not fit the box."""
    if len(name) <= LABEL_CHARS:
        return name
    return f"{name[:8]}…{name[-(LABEL_CHARS - 9) :]}"


def _round_title(entry: dict[str, Any]) -> str:
    """``Round 2``, or ``Round 2 (tournament round 5)`` when the numbering starts later."""
    title = f"Round {entry['round']}"
    if entry["tournament_round"] != entry["round"]:
        title += f" (tournament round {entry['tournament_round']})"
    return title


def _slot_y(bracket_round: int, index: int) -> float:
    """The vertical centre of a slot: the middle of the bracket places it covers."""
    span = 2**bracket_round
    return (index + 0.5) * span - 0.5


def _draw_match(axes: Any, x: float, y: float, match: dict[str, Any]) -> None:
    """One match box: the two entrants with their frames won, the winner in bold."""
    from matplotlib.patches import Rectangle

    axes.add_patch(Rectangle((x - 0.42, y - 0.42), 0.84, 0.84, facecolor="#eef3f8", edgecolor="k"))
    for side, offset in ((0, -0.2), (1, 0.2)):
        name = match["agents"][side]
        if match["bye"] and side == 1:
            label, score = "bye", ""
        else:
            label = _short(name) if name else "…"
            score = str(match["wins"][side]) if "wins" in match else ""
        weight = "bold" if name is not None and name == match["winner"] else "normal"
        axes.text(x - 0.38, y + offset, label, va="center", fontsize=8, weight=weight)
        axes.text(x + 0.38, y + offset, score, va="center", ha="right", fontsize=9)
    notes = []
    if "time_fouls" in match and sum(match["time_fouls"]):
        notes.append(f"time fouls {_pair(match['time_fouls'])}")
    if "extensions" in match and sum(match["extensions"]):
        notes.append(f"ext. {_pair(match['extensions'])}")
    if notes:
        axes.text(x, y + 0.58, ", ".join(notes), ha="center", va="center", fontsize=7, color="#a33")


def write_knockout_report(out: Path, config: KnockoutConfig, state: KnockoutState) -> str:
    """Write ``report.json``, ``report.md``, ``bracket.png`` and ``report.html`` (with the frames
    recorded in ``out``) in ``out``; return a summary."""
    report = build_knockout_report(config, state)
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "report.md").write_text(render_knockout_markdown(report))
    plot_bracket(report, out / BRACKET_FILE)
    parts = knockout_parts(report, (out / BRACKET_FILE).read_bytes())
    write_page(out / HTML_FILE, "Knockout report", parts, records=out)
    files = ", ".join(
        str(out / name) for name in ("report.md", HTML_FILE, "report.json", BRACKET_FILE)
    )
    return f"{champion_line(report)}\n\nReport: {files}"
