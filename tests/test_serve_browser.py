"""``kinghill serve``'s page in a real headless Chromium (Playwright), against a live server:
a scripted person plays whole frames against ``random`` by mouse and keys only, sees every
ruling as the referee gave it, and the record on disk equals the frame; two pages play at once;
the page asks nothing of any other address and its console stays clean.

Skipped when Playwright, a Chromium or the serve extra is missing (as the report's browser test)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright (the dev extra)")
uvicorn = pytest.importorskip("uvicorn", reason="needs the serve extra")

from kinghill.envs import ShotAction  # noqa: E402
from kinghill.experiments.records.store import load_frame  # noqa: E402
from kinghill.experiments.serve.app import create_app  # noqa: E402
from kinghill.experiments.serve.tables import Tables  # noqa: E402

CHROMIUM = os.environ.get("KINGHILL_CHROMIUM") or next(
    filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (apt-get install chromium, or KINGHILL_CHROMIUM)"
)
HOSTILE = "<img src=x onerror=alert(1)>"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A live server on a free local port; its address and its records' folder."""
    folder = tmp_path_factory.mktemp("serve")
    tables = Tables(folder, ("random", HOSTILE), build=_build)
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(tables), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", folder
    server.should_exit = True
    thread.join(10)


def _build(name: str, seed: int) -> Any:
    from kinghill.agents import make_agent

    return make_agent("random", seed)  # the hostile name is only a name: random plays it


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


class Person:
    """One page with a person at it: the network beyond the server refused and noted, console
    messages and errors kept, and the person's hands (mouse and keys)."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()
        self.origin = origin
        self.console: list[str] = []
        self.elsewhere: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"error: {e}"))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.route("**/*", self._route)
        self.page.goto(origin + "/")
        self.page.select_option("#playback", "8")
        self.seen: list[str] = []

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(self.origin + "/"):
            route.continue_()
        else:
            self.elsewhere.append(route.request.url)
            route.abort()

    def js(self, expression: str) -> Any:
        return self.page.evaluate(f"() => {expression}")

    def state(self) -> dict[str, Any]:
        return self.js("window.kinghillServe.game()")

    def waiting(self) -> bool:
        """Whether the page waits for the person (or the frame is over and shown)."""
        game = self.state()
        over = game["state"]["result"] is not None and game["shown"] >= game["decisions"]
        return bool(self.js("window.kinghillServe.ready()")) or over

    def start(self, opponent: str = "random") -> None:
        self.page.select_option("#opponent", opponent)
        self.page.click("#new-frame")
        _until(lambda: self.state()["key"] is not None)

    def drag(self, start: list[float], end: list[float]) -> None:
        mouse = self.page.mouse
        x, y = self.js(f"window.kinghillServe.clientPoint({start[0]}, {start[1]})")
        tx, ty = self.js(f"window.kinghillServe.clientPoint({end[0]}, {end[1]})")
        mouse.move(x, y)
        mouse.down()
        mouse.move((x + tx) / 2, (y + ty) / 2, steps=4)
        mouse.move(tx, ty, steps=4)
        mouse.up()

    def decide(self) -> None:
        """One decision by mouse and keys: the 10.4 choice by its key; a shot by clicking a
        white (the cue ball, 1.4) and dragging from it at the nearest ball, the speed by the
        arrow keys, the tip by a key, Enter."""
        now = self.state()["state"]
        self.seen.append(self.page.text_content("#ruling") or "")
        keys = self.page.keyboard
        if now["decision"] == "choice":
            keys.press("p")
            return
        balls = now["position"]
        if now["decision"] == "break":  # white 1 placed in the house by a click (4.1)
            cue = 1
            house = [4000, balls[1][1] - 1500]  # 0.4 m from the front cushion, off the spot
            x, y = self.js(f"window.kinghillServe.clientPoint({house[0]}, {house[1]})")
            self.page.mouse.click(x, y)
            start = self.js("window.kinghillServe.seat()")["place"]
            assert all(abs(a - b) < 60 for a, b in zip(start, house, strict=True))  # a pixel
        else:
            cue = next(b for b in range(1, 8) if balls[b] is not None)
            start = balls[cue]
            x, y = self.js(f"window.kinghillServe.clientPoint({start[0]}, {start[1]})")
            self.page.mouse.click(x, y)
            assert self.js("window.kinghillServe.seat()")["cue"] == cue
        others = [b for b in range(8) if b != cue and balls[b] is not None]
        target = min(
            others, key=lambda b: (balls[b][0] - start[0]) ** 2 + (balls[b][1] - start[1]) ** 2
        )
        self.drag(start, balls[target])
        keys.press("ArrowUp")
        keys.press("w")
        keys.press("c")
        keys.press("Enter")


def _until(condition: Any, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("the page never got there")


def _check_frame(person: Person, folder: Path) -> None:
    """The frame on the page and the record on disk: the same decisions, rulings and result;
    every ruling the person was shown was the referee's."""
    game = person.state()
    record = load_frame(folder, game["state"]["number"])
    assert record.result is not None
    # the page shows the result once the last shot's animation has played
    _until(lambda: person.page.text_content("#result"))
    assert person.page.text_content("#result") == str(record.result)
    assert len(record.decisions) == game["state"]["count"] == game["decisions"]
    rulings = [str(d.ruling) for d in record.decisions if d.ruling is not None]
    items = person.page.locator("#shots li").all_text_contents()
    assert len(items) == len(record.decisions)
    for item, decision in zip(items, record.decisions, strict=True):
        if decision.ruling is not None:
            assert item.endswith(str(decision.ruling))
    assert all(seen in ("–", *rulings) for seen in person.seen[1:]), person.seen
    assert any(seen in rulings for seen in person.seen[1:])
    first = record.decisions[0].action
    assert isinstance(first, ShotAction) and first.place is not None
    assert abs(first.place[0] - 0.4) < 0.006  # where the person clicked white 1 into the house
    assert person.elsewhere == [] and person.dialogs == []
    assert [m for m in person.console if m.startswith(("error", "warning"))] == []


def test_a_person_plays_a_whole_frame_by_mouse_and_keys(
    browser: Any, served: tuple[str, Path]
) -> None:
    origin, folder = served
    person = Person(browser, origin)
    person.start()
    while True:
        _until(person.waiting)
        if person.state()["state"]["result"] is not None:
            break
        person.decide()
        _until(
            lambda: (
                not person.js("window.kinghillServe.ready()") or person.state()["state"]["result"]
            )
        )
    _check_frame(person, folder)
    first = person.page.locator("#shots li").first
    first.click()  # step back to the break
    _until(lambda: "break" in (person.page.text_content("#who") or ""))
    assert not person.page.locator("#live").is_hidden()
    person.context.close()


def test_a_preview_on_its_way_reaches_the_server_before_the_shot(
    browser: Any, served: tuple[str, Path]
) -> None:
    """The controls ask the server for the call's words as the person aims; a shot sent while
    such a preview is still on its way waits for it, so that the preview never arrives after
    the turn has passed (a 409 in the console). Here the previews are held on their way while
    the person aims and shoots: the shot does not leave first, and once they are let go the
    frame goes on with a clean console."""
    origin, _ = served
    person = Person(browser, origin)
    held: list[Any] = []
    holding = [True]

    def hold(route: Any) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    person.page.route("**/preview", hold)  # runs before the person's own route (registered later)
    person.start()
    _until(person.waiting)
    count = person.state()["state"]["count"]
    person.decide()
    end = time.monotonic() + 1.5
    while time.monotonic() < end:  # the page's requests are routed while the test asks it things
        assert person.state()["state"]["count"] == count, "the shot left before its previews"
        time.sleep(0.05)
    assert held, "aiming asked for no preview"
    holding[0] = False
    for route in held:
        route.continue_()
    _until(lambda: person.state()["state"]["count"] > count)
    assert [m for m in person.console if m.startswith(("error", "warning"))] == []
    person.context.close()


def test_two_pages_play_at_once(browser: Any, served: tuple[str, Path]) -> None:
    origin, folder = served
    people = [Person(browser, origin), Person(browser, origin)]
    for person in people:
        person.start()
    playing = list(people)
    while playing:
        for person in list(playing):
            if not person.waiting():
                continue
            if person.state()["state"]["result"] is not None:
                playing.remove(person)
                continue
            person.decide()
            _until(
                lambda p=person: (
                    not p.js("window.kinghillServe.ready()") or p.state()["state"]["result"]
                )
            )
        time.sleep(0.05)
    numbers = {person.state()["state"]["number"] for person in people}
    assert len(numbers) == 2
    for person in people:
        _check_frame(person, folder)
        person.context.close()


def test_an_agents_name_is_shown_as_text(browser: Any, served: tuple[str, Path]) -> None:
    origin, _ = served
    person = Person(browser, origin)
    options = person.page.locator("#opponent option").all_text_contents()
    assert HOSTILE in options
    person.start(HOSTILE)
    _until(lambda: HOSTILE in (person.page.text_content("#frame-info") or ""))
    assert person.page.locator("img").count() == 0 and person.dialogs == []
    person.context.close()


def test_a_watched_frame_plays_to_its_result(browser: Any, served: tuple[str, Path]) -> None:
    origin, folder = served
    person = Person(browser, origin)
    person.page.select_option("#watch-a", "random")
    person.page.select_option("#watch-b", "random")
    person.page.click("#watch")
    _until(lambda: bool(person.page.text_content("#result")))
    game = person.state()
    assert game["state"]["person"] is None and person.page.locator("#seat").is_hidden()
    record = load_frame(folder, game["state"]["number"])
    assert person.page.text_content("#result") == str(record.result)
    assert person.page.locator("#shots li").count() == len(record.decisions)
    assert [m for m in person.console if m.startswith(("error", "warning"))] == []
    person.context.close()


def test_the_clock_counts_down_and_the_extension_is_claimed_by_key(
    browser: Any, served: tuple[str, Path]
) -> None:
    """Section 12 in the page: a round-3 frame shows the seconds left of the person's shot
    (35 s, 12.3) and X claims the 15 s extension once (12.5)."""
    origin, _ = served
    person = Person(browser, origin)
    person.page.select_option("#round", "3")
    person.start()
    _until(person.waiting)
    _until(lambda: "left" in (person.page.text_content("#clock") or ""), timeout=10)
    left = float((person.page.text_content("#clock") or "").split(" s")[0])
    assert 0 < left <= 35
    assert not person.page.locator("#extend").is_hidden()
    person.page.locator("#table").focus()
    person.page.keyboard.press("x")
    _until(lambda: "15 s more" in (person.page.text_content("#message") or ""), timeout=10)
    _until(lambda: "extension claimed" in (person.page.text_content("#clock") or ""), timeout=10)
    person.context.close()


def test_a_new_frame_leaves_the_last_one(browser: Any, served: tuple[str, Path]) -> None:
    """Starting frame after frame from one page never fills the server: each new frame lets
    the page's last one go (its record stays)."""
    origin, _ = served
    person = Person(browser, origin)
    keys = []
    for _ in range(10):  # more than the server's 8 at once
        person.start()
        _until(lambda: person.state()["key"] not in keys)
        keys.append(person.state()["key"])
    assert person.page.text_content("#notice") == ""
    person.context.close()


def test_a_reload_comes_back_to_the_frame_in_play(browser: Any, served: tuple[str, Path]) -> None:
    """A reloaded page (or one that lost its script's state) finds its frame again: the same
    key, every decision so far in its list, and the person plays on from it. The frame used to
    be lost to the page while it kept a seat on the server until its idle time."""
    origin, _ = served
    person = Person(browser, origin)
    person.start()
    _until(person.waiting)
    person.decide()  # the break
    _until(lambda: person.state()["decisions"] >= 1 and person.waiting())
    before = person.state()
    person.page.reload()
    _until(lambda: person.state()["key"] == before["key"])
    _until(lambda: person.state()["decisions"] >= before["decisions"])
    assert len(person.page.locator("#shots li").all_text_contents()) >= before["decisions"]
    if person.state()["state"]["result"] is None:
        _until(person.waiting)
        person.decide()
        _until(lambda: person.state()["decisions"] > before["decisions"])
    assert [m for m in person.console if m.startswith(("error", "warning"))] == []
    person.context.close()
