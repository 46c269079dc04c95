"""The human seat in its pygame window, headless (SDL's dummy video driver): scripted mouse and
key events posted to pygame's queue drive whole decisions, a whole frame through ``kinghill
play human random``, and the window's pixels show the aim line, the ghost ball and the call."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from test_human_controls import object_ball

from kinghill.agents.human import HumanSeat, panel
from kinghill.envs import Game, ShotAction
from kinghill.envs.drawing.render import CALL_LINE, CUE_RING
from kinghill.envs.rules import Call
from kinghill.experiments.cli.app import main
from kinghill.physics import BREAK_BALL, COLOURED, Cushion, Pocket, Shot

pygame = pytest.importorskip("pygame")


@pytest.fixture
def seat(monkeypatch: pytest.MonkeyPatch) -> Iterator[HumanSeat]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    seated = HumanSeat(("human", "random"), fps=25, speed=25, hold_s=0.05)
    seated._open()
    pygame.event.clear()
    yield seated
    seated.close()
    pygame.display.quit()


def _post(kind: int, **attributes: object) -> None:
    pygame.event.post(pygame.event.Event(kind, **attributes))


def _click(pixel: tuple[float, float], button: int = 1) -> None:
    pos = (round(pixel[0]), round(pixel[1]))
    _post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    _post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    _post(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def _key(key: int) -> None:
    _post(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)
    _post(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0)


def _button(seat: HumanSeat, command: str) -> tuple[float, float]:
    (button,) = [b for b in panel.buttons(seat.renderer.shape[0]) if b.command == command]
    left, top, right, bottom = button.box
    return ((left + right) / 2, (top + bottom) / 2)


def _table(seat: HumanSeat, xy: tuple[float, float]) -> tuple[float, float]:
    column, row = seat.renderer.to_pixel(xy)
    return (float(column), float(row))


def _after_break() -> Game:
    game = Game(trajectory_fps=25)
    game.reset(seed=0, breaker=0)
    game.play(ShotAction(Shot(BREAK_BALL, 0.0, 7.0)))
    return game


def _screen(seat: HumanSeat) -> np.ndarray:
    """The window's pixels as an (H, W, 3) array."""
    return np.transpose(pygame.surfarray.array3d(pygame.display.get_surface()), (1, 0, 2))


def test_the_break_placed_in_the_house_and_aimed_with_the_mouse(seat: HumanSeat) -> None:
    game = Game()
    _click(_table(seat, (0.5, 0.6)))  # white 1 placed in the house
    _click(_table(seat, game.state.xy(2)), button=3)  # aim fixed on the apex ball
    _key(pygame.K_UP)  # 7.25 m/s
    _key(pygame.K_RETURN)
    action = seat.act(game.view())
    assert isinstance(action, ShotAction) and action.call is None
    assert action.place == pytest.approx((0.5, 0.6), abs=0.006)  # one pixel is 5 mm
    assert action.shot.speed == 7.25
    turn = game.play(action)
    assert turn.ruling is not None


def test_a_whole_called_shot_from_clicks_keys_and_wheel(seat: HumanSeat) -> None:
    """Cue ball, kind, pocket, route, speed, tip and aim from the window, then Enter: the
    action is the shot and call the human chose, built with Call.double."""
    game = _after_break()
    state = game.state
    ball = object_ball(state)
    _click(_table(seat, state.xy(ball)))  # the cue ball
    _click(_button(seat, "kind:double"))
    _click(_button(seat, "pocket:MIDDLE_LEFT"))
    _click(_button(seat, "touch:RIGHT_REAR"))
    _post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
    _key(pygame.K_w)  # tip up: follow
    _click(_table(seat, state.xy(COLOURED)), button=3)  # right click: aim fixed on the colour
    _key(pygame.K_RETURN)
    action = seat.act(game.view())
    assert isinstance(action, ShotAction)
    assert action.call == Call.double(ball, Pocket.MIDDLE_LEFT, [Cushion.RIGHT_REAR])
    assert (action.shot.cue_ball, action.shot.speed, action.shot.b) == (ball, 2.75, 0.05)
    (x5, y5), (x0, y0) = state.xy(ball), state.xy(COLOURED)
    assert action.shot.phi == pytest.approx(np.arctan2(y0 - y5, x0 - x5), abs=0.02)
    game.play(action)


def test_the_window_shows_the_aim_line_the_ghost_ball_and_the_call(seat: HumanSeat) -> None:
    """A screenshot taken while the human decides: the cue ball ringed, a white aim line from
    it toward the coloured ball, the call's magenta route, the chosen buttons highlighted."""
    game = _after_break()
    state = game.state
    ball = object_ball(state)
    _click(_table(seat, state.xy(ball)))
    _click(_button(seat, "kind:plain"))
    _click(_button(seat, "pocket:REAR_LEFT"))
    _post(pygame.MOUSEMOTION, pos=tuple(round(v) for v in _table(seat, state.xy(0))), rel=(0, 0))
    pygame.time.set_timer(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), 400, 1)
    seat.act(game.view())  # Enter arrives after the window has drawn the choices
    screen = _screen(seat)
    cue, colour = np.array(_table(seat, state.xy(ball))), np.array(_table(seat, state.xy(0)))
    near = lambda rgb, at: np.abs(screen[at[1], at[0]].astype(int) - rgb).max() <= 50  # noqa: E731
    along = [np.round(cue + t * (colour - cue)).astype(int) for t in np.linspace(0.2, 0.8, 7)]
    whites = [np.abs(screen[r - 1 : r + 2, c - 1 : c + 2].astype(int) - 255).max(-1).min() < 40
              for c, r in along]  # fmt: skip
    assert sum(whites) >= 5, whites  # the aim line, unless a ball stands on it
    ring = cue + [seat.renderer.scale * game.spec.radius + 2, 0]
    assert near(CUE_RING, np.round(ring).astype(int))
    assert (np.abs(screen.astype(int) - CALL_LINE).max(-1) <= 40).sum() > 100  # the call
    double = np.round(_button(seat, "kind:plain")).astype(int) + [-30, -8]
    assert near(panel.SELECTED, double)


def _play_with_timers(*args: str) -> int:
    """``kinghill ARGS`` with a human whose Enter (every 150 ms) plays the default shot and
    whose click on "play on" (every 170 ms) takes the 10.4 choice after a foul (pygame keeps
    one timer per event type, hence a key and a click)."""
    pygame.display.init()
    top = HumanSeat().renderer.shape[0]
    (play_on,) = [b for b in panel.buttons(top) if b.command == "play-on"]
    pos = (play_on.box[0] + 5, play_on.box[1] + 5)
    pygame.time.set_timer(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), 150)
    pygame.time.set_timer(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), 170)
    try:
        return main(list(args))
    finally:
        pygame.display.init()  # the seat closed it; the timers are stopped with it up
        pygame.time.set_timer(pygame.KEYDOWN, 0)
        pygame.time.set_timer(pygame.MOUSEBUTTONDOWN, 0)
        pygame.display.quit()


def test_a_whole_frame_through_the_cli_against_random(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kinghill play human random``: the human breaks, the random agent's shots are animated
    between the human's decisions, the frame ends with a winner."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    args = ("play", "human", "random", "--max-shots", "8", "--speed", "40", "--seed", "2")
    assert _play_with_timers(*args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("player 0 (human): cue ball 1 at 7.00 m/s, whites only: ")
    assert any(line.startswith("player 0 chooses to play on (10.4)") for line in lines)
    assert lines[-1] == "player 0 wins the frame (second foul, 10.5)"


def test_the_human_in_the_second_seat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    args = ("play", "random", "human", "--max-shots", "3", "--speed", "40", "--seed", "1")
    assert _play_with_timers(*args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("player 0 (random)")
    assert any(line.startswith(("player 1 (human)", "player 1 chooses")) for line in lines)


def test_closing_the_window_stops_the_frame(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    opened = HumanSeat._open

    def open_then_close(self: HumanSeat) -> None:  # the user closes the window once it is up
        opened(self)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    monkeypatch.setattr(HumanSeat, "_open", open_then_close)
    try:
        assert main(["play", "human", "random"]) == 130
    finally:
        pygame.display.quit()
    assert "kinghill play: interrupted" in capsys.readouterr().err
