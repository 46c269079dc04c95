"""The manual's picture of ``kinghill serve`` (docs/serve/page.png): a frame against the
``strong`` level (seed 7) in a headless Chromium, the break played by mouse, then the person's
next shot set up by mouse and keys (cue ball, aim, a plain call on a pocket) and the page
photographed.

Run from the repository root: ``python3 docs/serve/screenshot.py`` (needs the serve extra,
Playwright and a Chromium at /usr/bin/chromium or KINGHILL_CHROMIUM)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from kinghill.experiments.serve.app import create_app
from kinghill.experiments.serve.levels import LEVELS, level_ratings
from kinghill.experiments.serve.tables import Tables

OUT = Path(__file__).with_name("page.png")
PORT = 8731


def main() -> None:
    tables = Tables(Path(tempfile.mkdtemp()), LEVELS)
    app = create_app(tables, ratings=level_ratings())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=PORT, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    chromium = os.environ.get("KINGHILL_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        page = browser.new_page(viewport={"width": 1320, "height": 1040})
        page.goto(f"http://127.0.0.1:{PORT}/")
        page.select_option("#playback", "8")
        page.select_option("#opponent", "strong")
        page.fill("#seed", "7")
        page.click("#new-frame")

        def js(expression: str) -> object:
            return page.evaluate(f"() => {expression}")

        def wait_turn() -> None:
            while not js("window.kinghillServe.ready()"):
                time.sleep(0.1)

        def point(xy: list[float]) -> tuple[float, float]:
            x, y = js(f"window.kinghillServe.clientPoint({xy[0]}, {xy[1]})")  # type: ignore[misc]
            return x, y

        wait_turn()
        state = js("window.kinghillServe.game().state")
        balls = state["position"]  # type: ignore[index]
        page.mouse.move(*point(balls[1]))
        page.mouse.down()
        page.mouse.move(*point(balls[0]), steps=5)
        page.mouse.up()
        page.keyboard.press("Enter")
        time.sleep(0.5)
        wait_turn()
        if js("window.kinghillServe.game().state.decision") == "choice":
            page.keyboard.press("p")
            time.sleep(0.5)
            wait_turn()
        balls = js("window.kinghillServe.game().state.position")
        cue = next(b for b in range(1, 8) if balls[b] is not None)  # type: ignore[index]
        page.mouse.move(*point(balls[cue]))  # type: ignore[index]
        page.mouse.down()
        page.mouse.move(*point(balls[0]), steps=5)  # type: ignore[index]
        page.mouse.up()
        page.click('#pockets button[data-pocket="REAR_RIGHT"]')
        page.keyboard.press("ArrowDown")
        page.keyboard.press("w")
        time.sleep(1.0)
        page.screenshot(path=str(OUT), full_page=True)
        browser.close()
    server.should_exit = True
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
