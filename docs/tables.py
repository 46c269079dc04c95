"""Regenerate the README's and the docs' figure tables from the committed reports.

    python3 docs/tables.py           # rewrite the tables in place
    python3 docs/tables.py --check   # exit 1, naming the file, if a table differs from its reports

A table sits between ``<!-- table:NAME -->`` and ``<!-- /table -->``; everything between the
markers is generated, so prose and data cannot drift:

- ``strength``: one row per entry of ``docs/strength/rows.json``, its score from
  ``docs/strength/<id>.json`` (a tournament's ``report.json``) or, failing that,
  ``docs/strength/<id>.md`` (its ``report.md``); a row with neither reads "not measured". The
  report names the agents as the row's ``reported`` pair where it has one (a report played
  before the shipped models had names), else as the command does.
- ``speed``: kinghill and pooltool on the peer suite, from ``benchmarks/peer/results/``
  (``kinghill.json``, ``pooltool.json``: what ``benchmarks/peer/run.sh`` writes).

Standard library only.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STRENGTH = ROOT / "docs" / "strength"
PEER_RESULTS = ROOT / "benchmarks" / "peer" / "results"
TARGETS = (
    ROOT / "README.md",
    ROOT / "docs" / "guide" / "strength.md",
    ROOT / "docs" / "guide" / "benchmarks.md",
)
BLOCK = re.compile(r"(<!-- table:(\w+) -->\n)(.*?)(<!-- /table -->)", re.S)


@dataclass(frozen=True)
class Score:
    """One agent's score against another in a report: estimate, Wilson 95% bounds, frames."""

    estimate: float
    low: float
    high: float
    frames: int

    def text(self) -> str:
        return f"{self.estimate:.2f} [{self.low:.2f}, {self.high:.2f}]"


def score_from_json(path: Path, agent: str, opponent: str) -> Score:
    """``agent``'s win rate against ``opponent`` in a tournament's ``report.json``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rate = data["win_rates"][agent][opponent]
    win = rate["win_rate"]
    return Score(
        win["estimate"], win["low"], win["high"], int(rate.get("frames", data["frames_played"]))
    )


def score_from_markdown(path: Path, agent: str, opponent: str) -> Score:
    """``agent``'s win rate against ``opponent`` from the win-rate table of a ``report.md``."""
    text = path.read_text(encoding="utf-8")
    frames = int(re.search(r"Frames played: (\d+)", text).group(1))  # type: ignore[union-attr]
    section = text.split("## Win rates", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] == f"**{agent}**":
            number = r"(-?\d+(?:\.\d+)?)"
            match = re.fullmatch(rf"{number} \[{number}, {number}\]", cells[header.index(opponent)])
            if match is None:
                raise ValueError(f"{path}: no score of {agent} against {opponent}")
            estimate, low, high = (float(g) for g in match.groups())
            return Score(estimate, low, high, frames)
    raise ValueError(f"{path}: no row for {agent}")


def reported(row: dict[str, Any]) -> tuple[str, str]:
    """The row's agent and opponent as its report names them."""
    agent, opponent = row.get("reported", (row["agent"], row["opponent"]))
    return agent, opponent


def strength_score(row: dict[str, Any]) -> tuple[Score, Path] | None:
    """The row's score and the report it comes from, or None when no report is committed."""
    for suffix, read in ((".json", score_from_json), (".md", score_from_markdown)):
        path = STRENGTH / f"{row['id']}{suffix}"
        if path.exists():
            return read(path, *reported(row)), path
    return None


def tournament_command(row: dict[str, Any]) -> str:
    """The command that measures a row (its report is then copied to ``docs/strength``): 200
    frames unless the row says ``frames``."""
    agents = " ".join(f'"{a}"' if "?" in a else a for a in (row["agent"], row["opponent"]))
    out = f"runs/strength/{row['id']}"
    frames = row.get("frames", 200)
    return f"kinghill tournament --agents {agents} --frames {frames} --jobs 2 --out {out}"


def strength_table(link_prefix: str) -> str:
    """The strength table; report links start with ``link_prefix`` (relative to the page)."""
    rows = json.loads((STRENGTH / "rows.json").read_text(encoding="utf-8"))["rows"]
    lines = [
        "| pairing | score [Wilson 95%] | frames | report | command |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        command = f"`{tournament_command(row)}`"
        if "trained_by" in row:
            command += f" (model: {row['trained_by']})"
        found = strength_score(row)
        if found is None:
            lines.append(f"| {row['pairing']} | not measured | – | – | {command} |")
            continue
        score, path = found
        link = f"[{path.name}]({link_prefix}{path.name})"
        lines.append(f"| {row['pairing']} | {score.text()} | {score.frames} | {link} | {command} |")
    return "\n".join(lines) + "\n"


def _speed_rows() -> list[tuple[str, float, float, float]]:
    spec = importlib.util.spec_from_file_location(
        "peer_compare", ROOT / "benchmarks/peer/compare.py"
    )
    assert spec is not None and spec.loader is not None
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    kinghill, pooltool = (
        json.loads((PEER_RESULTS / name).read_text(encoding="utf-8"))
        for name in ("kinghill.json", "pooltool.json")
    )
    return compare.speed_rows(kinghill, pooltool)


def speed_table(link_prefix: str) -> str:
    """kinghill against pooltool 0.6 on the peer suite, measured in one run."""
    lines = ["| peer suite | kinghill | pooltool 0.6 | ratio |", "|---|---|---|---|"]
    for name, ours, theirs, ratio in _speed_rows():
        lines.append(f"| {name} | {ours:,.0f} shots/s | {theirs:,.1f} shots/s | {ratio:.1f}× |")
    results = f"{link_prefix}benchmarks/peer/results/"
    when = (PEER_RESULTS / "machine.txt").read_text(encoding="utf-8").splitlines()[0]
    lines.append("")
    lines.append(
        f"Source: `{results}kinghill.json` and `pooltool.json` ({when.removeprefix('measured: ')})."
    )
    return "\n".join(lines) + "\n"


GENERATORS = {"strength": strength_table, "speed": speed_table}


def link_prefixes(target: Path) -> dict[str, str]:
    """Relative prefixes from ``target`` to the strength reports and to the repository root."""
    if target.parent == ROOT:
        return {"strength": "docs/strength/", "speed": ""}
    return {"strength": "../strength/", "speed": ""}


def render(target: Path) -> str:
    """``target``'s text with every marked table regenerated."""
    prefixes = link_prefixes(target)

    def block(match: re.Match[str]) -> str:
        name = match.group(2)
        return match.group(1) + GENERATORS[name](prefixes[name]) + match.group(4)

    return BLOCK.sub(block, target.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    stale = []
    for target in TARGETS:
        text = render(target)
        if text != target.read_text(encoding="utf-8"):
            stale.append(target)
            if not check:
                target.write_text(text, encoding="utf-8")
    for target in stale:
        verb = "differs from its reports" if check else "rewritten"
        print(f"{target.relative_to(ROOT)}: {verb}", file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
