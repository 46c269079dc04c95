"""report.html: a self-contained page whose outside text is escaped and whose replay data gives
the recorded shots back (the page in a real browser: test_html_report_browser.py)."""

import json
import math
import re
from pathlib import Path

import pytest

from kinghill.agents import RandomAgent
from kinghill.experiments import cli
from kinghill.experiments.htmlreport import HeatMap, IntervalRow, Intervals, Table, render_page
from kinghill.experiments.htmlreport.page import script_json
from kinghill.experiments.htmlreport.replays import UNITS_PER_METRE, replay_data
from kinghill.experiments.records.store import frames_in, load_frame
from kinghill.experiments.tournaments.bracket_report import write_knockout_report
from kinghill.experiments.tournaments.frame_log import FrameLog
from kinghill.experiments.tournaments.knockout import KnockoutConfig, run_knockout
from kinghill.experiments.tournaments.round_robin import evaluate
from kinghill.experiments.tournaments.runners import load_frame_player

HOSTILE = "mypkg.agent:Mine?name=<script>alert(1)</script>"
"""A plug-in agent's spec that would run in a page that did not escape it."""


def embedded_data(page: str) -> dict:
    """The replay data of a page, read back as the page's script reads it."""
    found = re.search(r'<script type="application/json" id="kinghill-data">(.*?)</script>', page)
    assert found is not None
    return json.loads(found.group(1))


@pytest.fixture(scope="module")
def recorded_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two recorded frames between a random agent named by a hostile spec and the heuristic."""
    out = tmp_path_factory.mktemp("recorded")
    evaluate({HOSTILE: RandomAgent, "heuristic": "heuristic"}, 2, out=out, record=True, seed=3)
    return out


def test_script_json_cannot_close_its_script_and_reads_back() -> None:
    data = {"name": "</script><script>alert(1)</script> & <!--", "line": "a\u2028b"}
    text = script_json(data)
    assert not set("<>&") & set(text) and "\u2028" not in text
    assert json.loads(text) == data


def test_outside_text_in_the_parts_is_escaped() -> None:
    page = render_page(
        HOSTILE,
        [
            Table(HOSTILE, [HOSTILE], [[HOSTILE]], note=HOSTILE),
            HeatMap(HOSTILE, [HOSTILE], [[0.3]], [[HOSTILE]]),
            Intervals(HOSTILE, [IntervalRow(HOSTILE, 1.0, 0.0, 2.0)], HOSTILE),
        ],
    )
    assert HOSTILE not in page
    assert page.count("<script") == 2  # the page's data and its own script, nothing else
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 8


def test_the_page_loads_nothing_from_outside() -> None:
    page = render_page("t", [Table("t", ["a"], [["1"]])])
    assert not re.search(
        r"""(src|href)\s*=|https?://|url\(|@import""", page.replace("default-src 'none'", "")
    )
    assert "default-src 'none'" in page  # and the browser is told to refuse any load


def test_the_run_folder_page_replays_every_recorded_shot(recorded_run: Path) -> None:
    page = (recorded_run / "report.html").read_text()
    assert HOSTILE not in page
    data = embedded_data(page)
    assert [f["frame"] for f in data["frames"]] == [0, 1]
    frame = data["frames"][1]
    assert HOSTILE in frame["agents"]  # the name travels as data, read as text by the page
    record = load_frame(recorded_run, 1)
    shown = frame["decisions"]
    assert len(shown) == len(record.decisions)
    for entry, decision in zip(shown, record.decisions, strict=True):
        assert entry["ruling"] == ("" if decision.ruling is None else str(decision.ruling))
        if decision.played is None:
            assert entry["moves"] == [] and entry["final"] == entry["start"]
            continue
        final = decision.resimulate().final
        for ball, xy in enumerate(entry["final"]):
            if final.on_table[ball]:
                assert xy == [round(v * UNITS_PER_METRE) for v in final.positions[ball]]
            else:
                assert xy is None
        for move in entry["moves"]:  # from where the ball stood, in steps, to where it rests
            assert move["xy"][:2] == entry["start"][move["ball"]]
            if move["gone"] is None:
                end = [sum(move["xy"][0::2]), sum(move["xy"][1::2])]
                assert end == entry["final"][move["ball"]]
    assert any(entry["moves"] for entry in shown)


def test_a_run_without_records_says_so_and_report_only_writes_the_same_page(
    tmp_path: Path,
) -> None:
    evaluate(["random", "heuristic"], 2, out=tmp_path, seed=1)
    page = (tmp_path / "report.html").read_text()
    assert embedded_data(page)["frames"] == [] and "not recorded" in page
    (tmp_path / "report.html").unlink()
    assert cli.main(["tournament", "--report-only", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "report.html").read_text() == page


def test_a_recorded_knockout_replays_its_frames(tmp_path: Path) -> None:
    config = KnockoutConfig(("random", "heuristic"), race=1, seed=2)
    state = run_knockout(config, tmp_path, load_frame_player(), record=True)
    write_knockout_report(tmp_path, config, state)
    played = [record.frame for record in FrameLog(tmp_path).records()]
    assert frames_in(tmp_path) == played
    page = (tmp_path / "report.html").read_text()
    assert [f["frame"] for f in embedded_data(page)["frames"]] == played
    assert f"Champion: {state.champion}" in page
    (tmp_path / "report.html").unlink()
    assert cli.main(["tournament", "--report-only", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "report.html").read_text() == page


def test_replay_data_of_a_folder_without_records_is_empty(tmp_path: Path) -> None:
    assert replay_data(tmp_path) == {"fps": 30.0, "table": None, "frames": []}


def test_a_one_sided_bound_is_drawn_as_an_arrow_with_its_sign() -> None:
    """A ladder's bound (an agent that won or lost every frame: ``≥ r`` or ``≤ r``) is an
    arrow pointing its open way and labelled as the standings write it, not a point with an
    interval ``[r, r]`` that reads as a measured rating."""
    chart = Intervals(
        "Ratings",
        [
            IntervalRow("rated", 100.0, 50.0, 150.0),
            IntervalRow("above", -216.0, -216.0, math.inf),
            IntervalRow("below", 74.0, -math.inf, 74.0),
        ],
        "Elo",
    ).html()
    assert "≥ -216</text>" in chart and "≤ 74</text>" in chart
    assert "[-216, -216]" not in chart and "inf" not in chart.lower()
    assert chart.count('class="bound"') == 2 and chart.count('class="dot"') == 1
    arrows = re.findall(r'<polygon points="([^"]+)" class="bound"/>', chart)
    tips = [[float(p.split(",")[0]) for p in a.split()] for a in arrows]
    assert tips[0][1] > tips[0][0] and tips[1][1] < tips[1][0]  # >= points right, <= left
