"""A report as one self-contained HTML page: tables, a heat map, ratings with their intervals,
and a canvas replay of every recorded frame, its script, style and data inlined (the page loads
nothing from anywhere).

Everything that comes from outside the code (agent names, rulings, calls) is text: the page's
parts are escaped with :func:`html.escape`, the replay data is JSON in a
``<script type="application/json">`` with ``<``, ``>`` and ``&`` written as ``\\u003c`` and so on,
and the page's script puts it on screen only through ``textContent``.
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from kinghill.experiments.htmlreport.replays import replay_data

HTML_FILE = "report.html"
"""The page's name beside ``report.md`` in a run folder."""


@dataclass(frozen=True)
class Text:
    """A paragraph of plain text."""

    text: str

    def html(self) -> str:
        return f"<p>{_e(self.text)}</p>"


@dataclass(frozen=True)
class Table:
    """A table of text cells under a heading; ``note`` a line under it."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    note: str = ""

    def html(self) -> str:
        head = "".join(f"<th>{_e(c)}</th>" for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in self.rows
        )
        return (
            f"<h2>{_e(self.title)}</h2>{_note(self.note)}"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )


@dataclass(frozen=True)
class HeatMap:
    """A square matrix of scores in [0, 1], row against column, each cell coloured by its value
    (red 0, white 1/2, green 1) and labelled by its text; None for a cell without a value."""

    title: str
    labels: Sequence[str]
    values: Sequence[Sequence[float | None]]
    cells: Sequence[Sequence[str]]
    note: str = ""

    def html(self) -> str:
        head = "<th></th>" + "".join(f'<th class="col">{_e(n)}</th>' for n in self.labels)
        rows = []
        for label, values, cells in zip(self.labels, self.values, self.cells, strict=True):
            tds = "".join(
                f'<td class="heat" style="background:{_heat(v)}">{_e(c)}</td>'
                for v, c in zip(values, cells, strict=True)
            )
            rows.append(f"<tr><th>{_e(label)}</th>{tds}</tr>")
        return (
            f"<h2>{_e(self.title)}</h2>{_note(self.note)}"
            f'<table class="matrix"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
        )


LABEL_CHAR_PX = 7.5
"""About the width of a character of a chart's label (12 px sans-serif, report.css), wide side."""
MAX_LABEL_PX = 520
"""The widest column of labels a chart gives; a longer label runs off its left edge."""


@dataclass(frozen=True)
class IntervalRow:
    """One labelled estimate with its interval, for :class:`Intervals`; an interval open on one
    side (``low = -inf`` or ``high = inf``, the estimate the bound) is a one-sided bound."""

    label: str
    estimate: float
    low: float
    high: float


@dataclass(frozen=True)
class Intervals:
    """Estimates with their intervals drawn as a chart (one row each, in the order given), e.g.
    ratings with their 95% intervals; ``axis`` names the scale."""

    title: str
    rows: Sequence[IntervalRow]
    axis: str
    note: str = ""

    def html(self) -> str:
        if not self.rows:
            return f"<h2>{_e(self.title)}</h2><p>Nothing to show yet.</p>"
        ends = [v for r in self.rows for v in (r.estimate, r.low, r.high) if math.isfinite(v)]
        low, high = min(min(ends), 0.0), max(max(ends), 0.0)
        span = (high - low) or 1.0
        longest = max(len(r.label) for r in self.rows)  # the labels' column fits the longest
        left = min(max(180, round(LABEL_CHAR_PX * longest) + 16), MAX_LABEL_PX)
        width, row_h = 420, 26

        def x(value: float) -> float:
            return left + (value - low) / span * width

        parts = [
            f'<line x1="{x(0):.1f}" y1="0" x2="{x(0):.1f}" y2="{row_h * len(self.rows)}" '
            'class="zero"/>'
        ]
        for i, row in enumerate(self.rows):
            y = row_h * i + row_h / 2
            at = x(row.estimate)
            parts.append(
                f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{_e(row.label)}</text>'
            )
            if math.isinf(row.low) or math.isinf(row.high):  # a bound: an arrow its open way
                way = -1 if math.isinf(row.low) else 1
                tip = at + 12 * way
                arrow = f"{at:.1f},{y - 6:.1f} {tip:.1f},{y:.1f} {at:.1f},{y + 6:.1f}"
                parts.append(
                    f'<polygon points="{arrow}" class="bound"/>'
                    f'<text x="{left + width + 8}" y="{y + 4:.1f}">{"≤≥"[way > 0]} '
                    f"{row.estimate:.0f}</text>"
                )
                continue
            parts.append(
                f'<line x1="{x(row.low):.1f}" y1="{y:.1f}" x2="{x(row.high):.1f}" y2="{y:.1f}" '
                'class="bar"/>'
                f'<circle cx="{at:.1f}" cy="{y:.1f}" r="5" class="dot"/>'
                f'<text x="{left + width + 8}" y="{y + 4:.1f}">{row.estimate:.0f} '
                f"[{row.low:.0f}, {row.high:.0f}]</text>"
            )
        height = row_h * len(self.rows) + 24
        parts.append(
            f'<text x="{left}" y="{height - 4}">{low:.0f}</text>'
            f'<text x="{left + width}" y="{height - 4}" text-anchor="end">{high:.0f}</text>'
            f'<text x="{left + width / 2}" y="{height - 4}" text-anchor="middle">'
            f"{_e(self.axis)}</text>"
        )
        return (
            f"<h2>{_e(self.title)}</h2>{_note(self.note)}"
            f'<svg class="intervals" width="{left + width + 140}" height="{height}" '
            f'role="img">{"".join(parts)}</svg>'
        )


@dataclass(frozen=True)
class Picture:
    """A PNG picture (e.g. a knockout's bracket) inlined in the page as a ``data:`` address."""

    title: str
    png: bytes
    alt: str = ""

    def html(self) -> str:
        source = "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")
        return f'<h2>{_e(self.title)}</h2><img class="picture" src="{source}" alt="{_e(self.alt)}">'


Part = Text | Table | HeatMap | Intervals | Picture
"""What a page holds above its replay."""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _note(note: str) -> str:
    return f'<p class="note">{_e(note)}</p>' if note else ""


def _heat(value: float | None) -> str:
    """The cell colour of a score: red at 0, white at 1/2, green at 1; grey without a value."""
    if value is None or not math.isfinite(value):
        return "#eeeeee"
    v = min(max(value, 0.0), 1.0)
    if v < 0.5:
        t = v / 0.5
        r, g, b = 230, round(120 + 135 * t), round(110 + 145 * t)
    else:
        t = (v - 0.5) / 0.5
        r, g, b = round(255 - 165 * t), round(255 - 55 * t), round(255 - 140 * t)
    return f"rgb({r},{g},{b})"


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&``
    (written as JSON escapes, which :func:`json.loads` and ``JSON.parse`` read back), so no
    text in it can close the element or open a comment."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escape)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _static(name: str) -> str:
    return resources.files("kinghill.experiments.htmlreport").joinpath("static", name).read_text()


def render_page(title: str, parts: Sequence[Part], records: Path | None = None) -> str:
    """The page: ``title``, the ``parts`` in order, then the replay of every frame recorded under
    ``records`` (a run folder with ``records/``), or a line saying that no frame was recorded."""
    return Template(_static("page.html")).substitute(
        title=_e(title),
        style=_static("report.css"),
        parts="\n".join(part.html() for part in parts),
        data=script_json(replay_data(None if records is None else Path(records))),
        script=_static("table.js") + _static("report.js"),
    )


def write_page(path: Path, title: str, parts: Sequence[Part], records: Path | None = None) -> Path:
    """Write :func:`render_page`'s page to ``path`` atomically and return the path."""
    path = Path(path)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_text(render_page(title, parts, records), encoding="utf-8")
    os.replace(temporary, path)
    return path
