"""``report.html`` written again for an existing run folder, a round robin's or a knockout's, from
its ``report.json`` (:func:`~kinghill.experiments.tournaments.report.save_report` and
:func:`~kinghill.experiments.tournaments.bracket_report.write_knockout_report` write it with the
other report files)."""

from __future__ import annotations

import json
from pathlib import Path

from kinghill.experiments.htmlreport import HTML_FILE, write_page
from kinghill.experiments.tournaments.bracket_report import BRACKET_FILE, knockout_parts
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.knockout import FORMAT as KNOCKOUT
from kinghill.experiments.tournaments.report import round_robin_parts

REPORT_FILE = "report.json"


def write_html_report(run_dir: str | Path) -> Path:
    """Write ``report.html`` in a tournament's or a knockout's run folder from its
    ``report.json``, with the replay of every frame recorded in its ``records/``; return its path.

    :raises TournamentError: the folder holds no readable ``report.json``.
    """
    folder = Path(run_dir)
    try:
        report = json.loads((folder / REPORT_FILE).read_text())
    except (OSError, ValueError) as error:
        raise TournamentError(f"{folder}: no readable {REPORT_FILE} ({error})") from None
    if report.get("format") == KNOCKOUT:
        bracket = folder / BRACKET_FILE
        drawn = bracket.read_bytes() if bracket.is_file() else None
        title, parts = "Knockout report", knockout_parts(report, drawn)
    else:
        title, parts = "Tournament report", round_robin_parts(report)
    return write_page(folder / HTML_FILE, title, parts, records=folder)
