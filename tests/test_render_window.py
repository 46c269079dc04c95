"""The human-mode pygame window, under SDL's dummy video driver (no display needed)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest
from gymnasium.error import DependencyNotInstalled

from kinghill.envs.drawing.render import HumanWindow, TableRenderer
from kinghill.physics import TableSpec, TableState

pygame = pytest.importorskip("pygame")


@pytest.fixture
def window(monkeypatch: pytest.MonkeyPatch) -> Iterator[HumanWindow]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    shown = HumanWindow(title="kinghill test")
    yield shown
    shown.close()


def _picture() -> np.ndarray:
    spec = TableSpec()
    return TableRenderer(spec, 400).draw_state(TableState.rack(spec))


def test_nothing_opens_until_the_first_picture(window: HumanWindow) -> None:
    assert not window.is_open
    assert window.show(_picture())
    assert window.is_open


def test_the_window_shows_the_picture_at_its_size(window: HumanWindow) -> None:
    picture = _picture()
    window.show(picture)
    screen = pygame.display.get_surface()
    assert screen.get_size() == (picture.shape[1], picture.shape[0])
    shown = np.transpose(pygame.surfarray.array3d(screen), (1, 0, 2))
    np.testing.assert_array_equal(shown, picture)


def test_quit_closes_the_window_for_good(window: HumanWindow) -> None:
    window.show(_picture())
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert not window.show(_picture())
    assert not window.is_open
    assert not window.show(_picture())
    assert not window.is_open


def test_close_is_safe_twice(window: HumanWindow) -> None:
    window.show(_picture())
    window.close()
    window.close()
    assert not window.is_open


def test_a_picture_of_the_wrong_shape_is_refused(window: HumanWindow) -> None:
    with pytest.raises(ValueError, match=r"\(H, W, 3\)"):
        window.show(np.zeros((10, 10), dtype=np.uint8))


def test_missing_pygame_names_the_render_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)
    with pytest.raises(DependencyNotInstalled, match=r"kinghill\[render\]"):
        HumanWindow()


def test_importing_the_renderer_neither_imports_pygame_nor_opens_a_window() -> None:
    code = "import sys, kinghill.envs.drawing.render; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
