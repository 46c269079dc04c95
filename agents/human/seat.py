"""A person in a seat: a pygame window to play a frame against any agent (``kinghill play human
search``).

:class:`HumanSeat` is an agent (``act(view) -> Action``) whose decisions come from the mouse and
the keyboard through :class:`~kinghill.agents.human.controls.Controls`, and a spectator
(:meth:`HumanSeat.watch`) that animates every shot played, the opponent's and its own, and
shows the ruling as it happens. Closing the window stops the frame as Ctrl-C would (a
:class:`~kinghill.envs.game.decisions.UserStop`, never a foul, even where SIGINT is ignored). On
a machine with no display the seat refuses to start (:class:`NoDisplay`) rather than play in
SDL's invisible offscreen window.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kinghill.agents.human import panel
from kinghill.agents.human.controls import Controls
from kinghill.envs import Action, FrameView, ShotAction, Turn
from kinghill.envs.drawing import (
    ShotMarks,
    TableRenderer,
    import_pygame,
    resample,
    scoreboard,
    shot_line,
)
from kinghill.envs.game.decisions import UserStop
from kinghill.envs.rules import Frame
from kinghill.physics import TableSpec, TableState

KEYS = {
    "RETURN": "shoot",
    "KP_ENTER": "shoot",
    "SPACE": "shoot",
    "UP": "speed+",
    "DOWN": "speed-",
    "LEFT": "aim+",
    "RIGHT": "aim-",
    "w": "tip-up",
    "s": "tip-down",
    "a": "tip-left",
    "d": "tip-right",
    "c": "tip-centre",
    "BACKSPACE": "clear-route",
    "p": "play-on",
    "h": "hand-back",
    "x": "extension",
}
"""pygame key names (``pygame.K_<name>``) and the command each sends."""
DECISION_FPS = 30
"""How often the window is redrawn while the human decides."""
HUMAN = "human"
"""The seat name that ``kinghill play`` gives to a person at the window."""
HEADLESS_DRIVERS = ("offscreen", "dummy")
"""SDL video drivers that show nothing: SDL falls back to them when there is no display."""


class NoDisplay(RuntimeError):
    """There is no display to open the seat's window on."""


class HumanSeat:
    """A human player in a pygame window, for either seat or both.

    :param names: the players' names as the strip shows them (seat 0, seat 1).
    :param spec: the table (default :class:`TableSpec`).
    :param width_px: window width (at least :data:`panel.MIN_WIDTH`).
    :param fps: pictures per second of the shot animations.
    :param speed: playback speed of the animations (2: twice as fast).
    :param hold_s: seconds each ruling stays on screen after its shot.
    """

    def __init__(
        self,
        names: Sequence[str] = ("human", "human"),
        spec: TableSpec | None = None,
        width_px: int = 800,
        fps: float = 25.0,
        speed: float = 1.0,
        hold_s: float = 1.5,
    ) -> None:
        if not (fps > 0 and speed > 0 and hold_s >= 0):
            raise ValueError(f"HumanSeat: fps and speed must be > 0, hold_s >= 0 ({fps}, {speed})")
        self._pygame = import_pygame()
        check_display(self._pygame)
        self.names = tuple(names)
        self.renderer = TableRenderer(spec or TableSpec(), max(width_px, panel.MIN_WIDTH), 3)
        self.fps, self.speed, self.hold_s = fps, speed, hold_s
        self.last_ruling = ""
        self._screen: Any = None
        self._clock: Any = None
        self._keys = {getattr(self._pygame, f"K_{key}"): command for key, command in KEYS.items()}

    # ---- the agent ----------------------------------------------------------------------------
    def act(self, view: FrameView) -> Action:
        """Let the human decide: the window shows the position and the menu until a shot is
        played (Enter) or the 10.4 choice is made."""
        pygame = self._pygame
        controls = Controls.start(view)
        self._open()
        while controls.done is None:
            for event in pygame.event.get():
                self.handle(event, controls)
            name = self.names[view.player]
            lines = (_score(view.frame), panel.status(controls, name), self._note(controls))
            self._show(panel.picture(self.renderer, controls, lines))
            self._clock.tick(DECISION_FPS)
        return controls.done

    def handle(self, event: Any, controls: Controls) -> None:
        """Apply one pygame event to the controls (QUIT stops the frame, as Ctrl-C does)."""
        pygame, renderer = self._pygame, self.renderer
        top = renderer.shape[0]
        if event.type == pygame.QUIT:
            self.close()
            _interrupt()
        elif event.type == pygame.KEYDOWN and event.key in self._keys:
            controls.command(self._keys[event.key])
        elif event.type == pygame.MOUSEWHEEL:
            controls.command("speed+" if event.y > 0 else "speed-")
        elif event.type == pygame.MOUSEMOTION and event.pos[1] < renderer.table_height:
            controls.point(renderer.to_table(event.pos))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            if event.pos[1] < renderer.table_height:
                controls.aim_at(renderer.to_table(event.pos))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            column, row = event.pos
            if row < renderer.table_height:
                controls.click(renderer.to_table(event.pos))
                return
            target = panel.hit(column, row, renderer.shape[1], top)
            if isinstance(target, str):
                controls.command(target)
            elif target is not None:
                controls.set_tip(*target)

    # ---- the spectator ------------------------------------------------------------------------
    def watch(self, turn: Turn, before: Frame, after: TableState) -> None:
        """Animate a shot just played (from its trajectory) and show its ruling; a 10.4 choice
        or a shot not played shows its ruling only. ``before`` is the frame as the decision
        began, ``after`` the table once it is settled (spotting done)."""
        self._open()
        text = str(turn)
        self.last_ruling = f"P{turn.player}: {turn.ruling}" if turn.ruling else text
        result, action = turn.result, turn.action
        score = _score(before)
        if result is not None and result.trajectory is not None and isinstance(action, ShotAction):
            cue, call = action.shot.cue_ball, action.call
            trajectory = result.trajectory
            marks = ShotMarks.of(cue, call, trajectory.positions[0], result.final.spec)
            lines = (score, shot_line(turn.player, cue, call, self.names[turn.player]), "")
            positions, on_table = resample(trajectory, self.fps / self.speed)
            for frame_positions, frame_on_table in zip(positions, on_table, strict=True):
                moving = self.renderer.draw(frame_positions, frame_on_table, lines, marks)
                self._show(self._watching(moving))
                self._pump()
                self._clock.tick(self.fps)
            ending = (score, lines[1], self.last_ruling)
            final = self.renderer.draw(
                trajectory.positions[-1], trajectory.on_table[-1], ending, marks
            )
        else:
            final = self.renderer.draw_state(after, (score, self.last_ruling))
        self._show(self._watching(final))
        for _ in range(max(1, round(self.hold_s * DECISION_FPS))):
            self._pump()
            self._clock.tick(DECISION_FPS)

    # ---- the window ---------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The window's (width, height) in pixels."""
        return (self.renderer.shape[1], self.renderer.shape[0] + panel.PANEL_HEIGHT)

    def _open(self) -> None:
        pygame = self._pygame
        if self._screen is None:
            pygame.display.init()
            pygame.display.set_caption("kinghill: " + " vs ".join(self.names))
            with _signals_held():
                self._screen = pygame.display.set_mode(self.size)
            self._clock = pygame.time.Clock()

    def _show(self, picture: np.ndarray) -> None:
        pygame = self._pygame
        pixels = np.ascontiguousarray(picture).tobytes()
        surface = pygame.image.frombuffer(pixels, self.size, "RGB")
        self._screen.blit(surface, (0, 0))
        pygame.display.flip()

    def _pump(self) -> None:
        """While a shot is watched, input is dropped; QUIT still stops the frame."""
        for event in self._pygame.event.get():
            if event.type == self._pygame.QUIT:
                self.close()
                _interrupt()

    def _watching(self, table: np.ndarray) -> np.ndarray:
        whole = Image.new("RGB", self.size, panel.PANEL_BACK)
        whole.paste(Image.fromarray(table), (0, 0))
        font = ImageFont.load_default(size=14)
        where = (16, table.shape[0] + 16)
        ImageDraw.Draw(whole).text(where, "watching the shot", fill=panel.DIM, font=font)
        return np.asarray(whole)

    def _note(self, controls: Controls) -> str:
        return controls.message or self.last_ruling

    def close(self) -> None:
        """Close the window if it is open."""
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None


def _score(frame: Frame) -> str:
    """The strip's score line for ``frame``."""
    f = frame
    return scoreboard(f.credit_counts, f.required, f.fouls, f.to_move, f.decision.value)


def _interrupt() -> None:
    """Stop play as Ctrl-C does: a :class:`UserStop`, which the match runner knows for the
    user's, not the agent's, whatever SIGINT's handler (a background job ignores it)."""
    raise UserStop("the window was closed")


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the end of the block, then take them: pygame's ``set_mode``
    calls back into Python (for its icon) and swallows whatever is raised there, so a signal's
    ``KeyboardInterrupt`` raised then would be lost. While inside, a handled SIGINT or SIGTERM
    is only noted; each noted one is raised again after (signals are handled in the main
    thread; elsewhere nothing is held)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    held = {number: handler for number, handler in handlers.items() if callable(handler)}
    for number in held:
        signal.signal(number, lambda received, _: noted.append(received))
    try:
        yield
    finally:
        for number, handler in held.items():
            signal.signal(number, handler)
        for received in dict.fromkeys(noted):
            signal.raise_signal(received)


def check_display(pygame: Any) -> None:
    """Refuse to open a window nobody can see: SDL picks an invisible driver (offscreen, dummy)
    when there is no display, and a seat there would wait forever for a click. A driver asked
    for by name (``SDL_VIDEODRIVER=dummy``, as the tests do) is taken as meant.

    :raises NoDisplay: SDL found no display.
    """
    chosen = os.environ.get("SDL_VIDEODRIVER")
    unix = sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))
    if unix and not (chosen or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NoDisplay(
            "no display to open the human seat's window on (DISPLAY and WAYLAND_DISPLAY are "
            "unset): play on a desktop, or over ssh -X"
        )
    pygame.display.init()
    driver = pygame.display.get_driver()
    if driver in HEADLESS_DRIVERS and chosen != driver:
        pygame.display.quit()
        raise NoDisplay(
            f"no display to open the human seat's window on (SDL found none and chose its "
            f"invisible {driver} driver): play on a desktop, or over ssh -X"
        )
