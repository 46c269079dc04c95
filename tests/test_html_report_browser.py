"""report.html in a real headless Chromium (driven by Playwright, network off): it loads without
console errors, a frame plays, the picture at the end of a shot shows the balls where the record
puts them, a hostile agent spec is shown as text, and the page requests nothing.

Skipped when Playwright or a Chromium is missing (Debian: ``apt-get install chromium``;
``pip install playwright``, in the dev extra); CI installs both (``.ci/run``)."""

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kinghill.agents import RandomAgent
from kinghill.envs.drawing.render import CLOTH, COLOURED_FILL, COLOURED_RING, CUSHION, IVORY, WOOD
from kinghill.experiments.records.store import load_frame
from kinghill.experiments.tournaments.round_robin import evaluate
from kinghill.physics import COLOURED

sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright (the dev extra)")
CHROMIUM = os.environ.get("KINGHILL_CHROMIUM") or next(
    filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (apt-get install chromium, or KINGHILL_CHROMIUM)"
)

HOSTILE = (
    "mypkg.agents.careful_players:CarefulPlayer?name=<script>alert(1)</script>,"
    "depth=3,temperature=0.25,style=a_very_long_description_of_the_way_it_plays"
)
"""A spec that tries to run a script, and long enough to push a careless page off 1280 px."""


class Visit:
    """A page opened with the network off, and everything it did: console messages, errors,
    dialogs and requests."""

    def __init__(self, page: Any, url: str) -> None:
        self.page, self.url = page, url
        self.console: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("dialog", self._dialog)
        page.on("request", lambda r: self.requests.append(r.url))
        page.route("**/*", self._route)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route: Any) -> None:
        if route.request.url == self.url:
            route.continue_()
        else:
            route.abort()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two recorded frames, random (named by a hostile spec) against heuristic."""
    out = tmp_path_factory.mktemp("browser")
    evaluate({HOSTILE: RandomAgent, "heuristic": "heuristic"}, 2, out=out, record=True, seed=3)
    return out


@pytest.fixture(scope="module")
def visit(run_dir: Path) -> Iterator[Visit]:
    url = (run_dir / "report.html").resolve().as_uri()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(offline=True, viewport={"width": 1600, "height": 1200})
        page = context.new_page()
        opened = Visit(page, url)
        page.goto(url)
        page.wait_for_function("() => window.kinghillReplay !== undefined")
        yield opened
        browser.close()


def test_the_page_loads_without_errors_and_requests_nothing(visit: Visit) -> None:
    assert visit.errors == []
    assert [m for m in visit.console if m[0] in ("error", "warning")] == []
    assert visit.requests == [visit.url]


def test_a_hostile_agent_spec_is_shown_as_text(visit: Visit) -> None:
    page = visit.page
    headers = page.eval_on_selector_all("th", "cells => cells.map(c => c.textContent)")
    assert HOSTILE in headers
    frames = page.eval_on_selector_all("#replay-frame option", "os => os.map(o => o.textContent)")
    assert all(HOSTILE in text for text in frames)
    assert page.eval_on_selector_all("script", "s => s.length") == 2
    assert visit.dialogs == []


def test_the_page_fits_1280_px_with_a_long_agent_name(visit: Visit) -> None:
    """Issue 39, item 13: a long spec wraps in the tables and the replay's controls."""
    visit.page.set_viewport_size({"width": 1280, "height": 1000})
    try:
        assert visit.page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        visit.page.set_viewport_size({"width": 1600, "height": 1200})


BROKEN_WORDS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll("table:not(.matrix) thead th")) {
    const text = th.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    for (const m of text.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""
"""The words of the tables' column headers that the page broke across lines."""


def test_the_column_headers_keep_their_words_whole_beside_a_long_agent_name(
    visit: Visit,
) -> None:
    """A long spec in the first column wraps; the headers beside it ("fouls/frame",
    "s/decision") are not broken inside a word to make room for it."""
    visit.page.set_viewport_size({"width": 1280, "height": 1000})
    try:
        assert visit.page.evaluate(BROKEN_WORDS) == []
        assert visit.page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        visit.page.set_viewport_size({"width": 1600, "height": 1200})


def test_a_frame_plays(visit: Visit) -> None:
    page = visit.page
    page.evaluate("kinghillReplay.seek(0, 0)")
    page.click("#replay-play")
    page.wait_for_function("() => kinghillReplay.state().time > 0.2")
    assert page.text_content("#replay-play") == "Pause"
    page.click("#replay-play")
    assert page.evaluate("kinghillReplay.state().playing") is False


def test_the_shot_list_jumps_and_shows_each_ruling(visit: Visit, run_dir: Path) -> None:
    page = visit.page
    page.select_option("#replay-frame", "1")
    record = load_frame(run_dir, 1)
    items = page.eval_on_selector_all("#replay-shots li", "ls => ls.map(l => l.textContent)")
    assert len(items) == len(record.decisions)
    for text, decision in zip(items, record.decisions, strict=True):
        assert decision.ruling is None or str(decision.ruling) in text
    last = len(items) - 1
    page.click(f"#replay-shots li:nth-child({last + 1})")
    assert page.evaluate("kinghillReplay.state().decision") == last
    assert page.text_content("#replay-ruling") == str(record.decisions[last].ruling)


PALETTE = {"ivory": IVORY, "coloured": COLOURED_FILL, "ring": COLOURED_RING, "cloth": CLOTH}
PALETTE.update(cushion=CUSHION, wood=WOOD)


def _looks(picture: Any, xy: tuple[float, float]) -> str:
    """The name of the table colour nearest to the picture's pixel at ``xy``."""
    seen = picture.getpixel((round(xy[0]), round(xy[1])))[:3]
    return min(
        PALETTE, key=lambda n: sum((a - b) ** 2 for a, b in zip(seen, PALETTE[n], strict=True))
    )


def test_the_end_of_a_shot_shows_the_balls_where_the_record_puts_them(
    visit: Visit, run_dir: Path
) -> None:
    from PIL import Image

    page = visit.page
    record = load_frame(run_dir, 0)
    number = next(i for i, d in enumerate(record.decisions) if d.played is not None)
    final = record.decisions[number].resimulate().final
    page.select_option("#replay-frame", "0")
    page.evaluate(f"kinghillReplay.seek({number}, Infinity)")
    state = page.evaluate("kinghillReplay.state()")
    assert state["time"] == state["duration"]
    box = page.locator("#replay-canvas").bounding_box()
    width = page.eval_on_selector("#replay-canvas", "c => c.width")
    ratio = box["width"] / width
    picture = Image.open(io.BytesIO(page.locator("#replay-canvas").screenshot())).convert("RGB")
    table = page.evaluate("JSON.parse(document.getElementById('kinghill-data').textContent).table")
    left, _, right, top = table["view"]  # the picture: x to the right, y up, as TableRenderer's
    scale = width / (right - left) * ratio
    for ball in final.balls_on_table():
        x, y = (round(v * 10_000) for v in final.positions[ball])
        assert state["balls"][ball] == [x, y]
        column, row = (x + table["ball_radius"] / 2 - left) * scale, (top - y) * scale
        expected = ("coloured", "ring") if ball == COLOURED else ("ivory",)
        assert _looks(picture, (column, row)) in expected, ball
    gone = [ball for ball in range(8) if not final.on_table[ball]]
    assert all(state["balls"][ball] is None for ball in gone)


def test_every_seed_is_shown_exactly(visit: Visit, run_dir: Path) -> None:
    """Issue 39 item 4: a frame's seed (63 bits, past JavaScript's exact integers) is shown
    digit for digit, so that it can be copied into ``kinghill play --seed``."""
    page = visit.page
    for index in (0, 1):
        seed = load_frame(run_dir, index).seed
        assert seed > 2**53  # a seed JSON.parse would round as a number
        page.select_option("#replay-frame", str(index))
        assert f"(seed {seed})" in page.text_content("#replay-frame-info")


def test_a_charts_labels_fit_beside_it(visit: Visit) -> None:
    """A rating chart's names (a candidate ``pkg.players:Careful?depth=2``) start inside the
    chart: the column of labels is as wide as the longest needs (the ladder page cut them)."""
    from importlib.resources import files

    from kinghill.experiments.htmlreport.page import IntervalRow, Intervals

    names = ["pkg.players:Careful?depth=2,temperature=0.25", "random@1", "search-120@2"]
    rows = [
        IntervalRow(name, 100.0 * i, 100.0 * i - 50, 100.0 * i + 50) for i, name in enumerate(names)
    ]
    css = (files("kinghill.experiments.htmlreport") / "static" / "report.css").read_text()
    page = visit.page.context.new_page()
    page.set_content(f"<style>{css}</style>{Intervals('Ratings', rows, 'Elo').html()}")
    texts = page.eval_on_selector_all(
        "svg.intervals text", "texts => texts.map(t => [t.textContent, t.getBBox().x])"
    )
    page.close()
    starts = {text: x for text, x in texts if text in names}
    assert len(starts) == len(names) and min(starts.values()) >= 0, starts
