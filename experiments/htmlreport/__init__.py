"""Reports as one self-contained HTML page (``report.html``): tables, heat maps and intervals
(:mod:`.page`) above a canvas replay of every recorded frame (:mod:`.replays`), for the
tournaments, the knockouts and the ladder to write beside their ``report.md``."""

from kinghill.experiments.htmlreport.page import (
    HTML_FILE,
    HeatMap,
    IntervalRow,
    Intervals,
    Part,
    Picture,
    Table,
    Text,
    render_page,
    write_page,
)

__all__ = [
    "HTML_FILE",
    "HeatMap",
    "IntervalRow",
    "Intervals",
    "Part",
    "Picture",
    "Table",
    "Text",
    "render_page",
    "write_page",
]
