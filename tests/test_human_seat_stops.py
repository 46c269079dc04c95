"""Issue 39 item 8: the human seat where a user stops it. With no display it says so in one line
(SDL would open an invisible offscreen window and wait forever); a closed window or SIGTERM
stops the frame cleanly, never a foul (12.4), even in a background job that ignores SIGINT, and
the decisions played are kept. Run as real processes: without a display, and under Xvfb."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from kinghill.agents.human import HumanSeat
from kinghill.envs import Action, FrameView
from kinghill.experiments.cli.app import main
from kinghill.experiments.records.store import load_frame

pygame = pytest.importorskip("pygame")
KINGHILL = [
    sys.executable,
    "-c",
    "import sys; from kinghill.experiments.cli.app import main; sys.exit(main())",
]


def _headless_env() -> dict[str, str]:
    """This process's environment without a display or a chosen SDL video driver."""
    gone = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    return {**{k: v for k, v in os.environ.items() if k not in gone}, "PYTHONWARNINGS": "ignore"}


def _ignore_sigint() -> None:
    """As a shell's background job starts: SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("display", [None, ":4711"], ids=["unset", "unreachable"])
def test_no_display_is_one_line_not_an_invisible_window(display: str | None) -> None:
    """DISPLAY unset: the one line alone; a display that cannot be reached: SDL falls back to
    its offscreen driver (and says so itself), then the one line."""
    env = _headless_env() if display is None else {**_headless_env(), "DISPLAY": display}
    done = subprocess.run(
        [*KINGHILL, "play", "human", "random"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    ours = [line for line in done.stderr.splitlines() if line.startswith("kinghill")]
    assert ours == [done.stderr.splitlines()[-1]]
    assert ours[0].startswith("kinghill play: error: no display to open the human seat's window")
    if display is None:
        assert done.stderr.count("\n") == 1


@pytest.fixture(scope="module")
def xvfb() -> Iterator[str]:
    """A virtual X display (Xvfb), its name."""
    if not any(Path(d, "Xvfb").exists() for d in os.get_exec_path()):
        pytest.skip("no Xvfb (apt-get install xvfb)")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "1280x1024x24"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_sigterm_in_a_background_job_stops_the_frame_and_keeps_what_was_played(
    xvfb: str, tmp_path: Path
) -> None:
    """Random breaks, then the human's window waits; SIGTERM (SIGINT ignored, as in a
    background job) stops the frame: exit 130, the break kept in the record, no 12.4 foul."""
    env = {**_headless_env(), "DISPLAY": xvfb}
    gif = tmp_path / "frame.gif"
    argv = [*KINGHILL, "play", "random", "human", "--seed", "1", "--record", str(tmp_path)]
    argv += ["--out-file", str(gif), "--width", "400", "--fps", "10"]
    job = subprocess.Popen(
        argv,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint,
    )
    try:
        assert job.stdout is not None
        first = job.stdout.readline()  # the break is settled; the human's window is next
        assert first.startswith("player 0 (random)")
        job.send_signal(signal.SIGTERM)
        out, err = job.communicate(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()
    assert job.returncode == 130, err
    assert "12.4" not in first + out
    assert "interrupted; the frame was stopped after 1 decisions, kept in the record and" in err
    shots = load_frame(tmp_path)
    assert len(shots.decisions) == 1 and shots.result is None
    with Image.open(gif) as replay:  # the break's motion, then the table as it was stopped
        assert replay.n_frames > 2


def test_closing_the_window_with_sigint_ignored_stops_the_frame(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The window closed while the human decides (SIGINT ignored): no foul charged (12.4), no
    window reopened, the frame stopped with the decisions before it kept."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    decide, opened = HumanSeat.act, HumanSeat._open
    windows: list[int] = []

    def close_then_decide(self: HumanSeat, view: FrameView) -> Action:
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # the user closes the window
        return decide(self, view)

    def open_counted(self: HumanSeat) -> None:
        windows.extend([1] if self._screen is None else [])
        opened(self)

    monkeypatch.setattr(HumanSeat, "act", close_then_decide)
    monkeypatch.setattr(HumanSeat, "_open", open_counted)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        status = main(["play", "random", "human", "--seed", "1", "--record", str(tmp_path)])
    finally:
        signal.signal(signal.SIGINT, previous)
        pygame.display.quit()
    captured = capsys.readouterr()
    assert status == 130 and "12.4" not in captured.out
    assert "kinghill play: interrupted; the frame was stopped after 1 decisions" in captured.err
    assert "stopped after" not in captured.out  # said once, where the error goes
    assert windows == [1]
    shots = load_frame(tmp_path)
    assert shots.result is None and len(shots.decisions) == 1
