"""Top-down pictures of the table (``rgb_array``) and a pygame window that shows them (``human``).

:class:`TableRenderer` draws with Pillow, headless and in a few milliseconds per frame: the table
(rail, cushions, pocket mouths, spots and lines) is drawn once, then each frame pastes pre-drawn
ball sprites and the overlay text. The picture reads like a diagram of the table: x (toward the
rear) to the right, so the house is at the left, and y (toward the left side) up.

Cushions, jaws and pockets are drawn from :class:`~kinghill.physics.TableGeometry`, the shapes the
physics plays on: each cushion's outline (nose, rounded jaw tips, facings), the slate between the
facings of each pocket, and the pocket's hole (the slate's cut, whose edge is the fall edge: a ball
whose centre passes it drops) in black.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium.error import DependencyNotInstalled
from PIL import Image, ImageDraw, ImageFont

from kinghill.envs.planning.call_path import call_path
from kinghill.envs.rules import Call
from kinghill.physics.geometry import TableGeometry
from kinghill.physics.names import COLOURED, N_BALLS, Pocket
from kinghill.physics.spec import TableSpec
from kinghill.physics.state import TableState

Point = tuple[float, float]
RGB = tuple[int, int, int]

RAIL_WIDTH = 0.08
"""Width of the wooden rail beyond the cushions and pockets (m), for drawing only."""
SUPERSAMPLING = 4
"""Ball sprites and the table are drawn this many times larger, then scaled down (anti-aliasing)."""
NUMBER_SIZE = 0.8
"""Height of a ball's number as a fraction of the ball's diameter."""
NUMBER_WEIGHT = 0.035
"""Stroke added around a number's glyphs, a fraction of the diameter: bold enough to read at
800 px, where a ball is 14 px across."""

WOOD: RGB = (110, 62, 30)
CUSHION: RGB = (18, 104, 52)
NOSE: RGB = (120, 190, 130)
CLOTH: RGB = (24, 128, 64)
POCKET: RGB = (16, 14, 12)
MARK: RGB = (225, 235, 225)
IVORY: RGB = (246, 240, 222)
NUMBER: RGB = (30, 30, 30)
COLOURED_FILL: RGB = (222, 70, 24)
COLOURED_RING: RGB = (250, 220, 60)
OVERLAY_BACK: RGB = (20, 20, 24)
OVERLAY_TEXT: RGB = (235, 235, 235)
CUE_RING: RGB = (70, 210, 255)
"""The ring around the cue ball of the shot being played."""
CALL_LINE: RGB = (250, 90, 230)
"""The called route and the ring around the called pocket."""


@dataclass(frozen=True)
class ShotMarks:
    """What a picture marks about a shot: its cue ball (ringed), and its call: the called
    pocket (ringed) and the called route as a line on the table (:func:`call_path`).

    :param cue_ball: the ball struck, or None for no mark.
    :param pocket: the called pocket, or None (whites only).
    :param path: the called route's points on the table (m), from the cue ball to the pocket.
    """

    cue_ball: int | None
    pocket: Pocket | None = None
    path: tuple[Point, ...] = ()

    @classmethod
    def of(
        cls, cue_ball: int | None, call: Call | None, positions: np.ndarray, spec: TableSpec
    ) -> ShotMarks:
        """The marks of a shot with ``cue_ball`` and ``call`` from balls at ``positions``."""
        if call is None:
            return cls(cue_ball)
        return cls(cue_ball, call.pocket, tuple(call_path(call, positions, spec)))


def cushion_overhang(geometry: TableGeometry) -> float:
    """How far the cushions reach outside the cushion noses (m); the pockets' holes, which run
    on under the rail, are drawn as far as the picture goes."""
    spec = geometry.spec
    return max(
        max(-x, -y, x - spec.length, y - spec.width)
        for cushion in geometry.cushions.values()
        for x, y in cushion.outline
    )


def slate_outline(geometry: TableGeometry) -> list[Point]:
    """The cloth inside the cushions' backs: every facing's outer end, in order around the table.

    Cushions drawn over it leave the playing area, the pocket throats between the facings and
    the room behind the rounded jaw tips.
    """
    spec = geometry.spec
    ends = [
        end
        for cushion in geometry.cushions.values()
        for end in (cushion.outline[0], cushion.outline[-1])
    ]
    return sorted(ends, key=lambda p: math.atan2(p[1] - spec.width / 2, p[0] - spec.length / 2))


def _ball_sprite(
    label: str, fill: RGB, ring: RGB | None, diameter_px: int
) -> tuple[np.ndarray, np.ndarray]:
    """An anti-aliased picture of one ball with its id, ringed in ``ring`` if given.

    Returned as colour ``(d, d, 3)`` and opacity ``(d, d, 1)`` float arrays, ready to blend.
    """
    size = diameter_px * SUPERSAMPLING
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    pen = ImageDraw.Draw(sprite)
    edge, edge_width = ((*ring, 255), round(size * 0.1)) if ring else ((40, 40, 40, 255), 1)
    pen.ellipse((0, 0, size - 1, size - 1), fill=(*fill, 255), outline=edge, width=edge_width)
    # the coloured ball is told by its colour: its id is smaller and plain, inside the ring
    font = ImageFont.load_default(size=size * NUMBER_SIZE * (0.7 if ring else 1.0))
    text = OVERLAY_TEXT if ring is not None else NUMBER
    pen.text(
        (size / 2, size / 2 + size * 0.03),
        label,
        fill=(*text, 255),
        font=font,
        anchor="mm",
        stroke_width=0 if ring else round(size * NUMBER_WEIGHT),
        stroke_fill=(*text, 255),
    )
    small = sprite.resize((diameter_px, diameter_px), Image.Resampling.LANCZOS)
    rgba = np.asarray(small, dtype=np.float32)
    return rgba[..., :3], rgba[..., 3:] / 255


def _ring_sprite(colour: RGB, diameter_px: int, width_px: int) -> tuple[np.ndarray, np.ndarray]:
    """An anti-aliased ring, as :func:`_ball_sprite` returns a ball."""
    size = diameter_px * SUPERSAMPLING
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).ellipse(
        (0, 0, size - 1, size - 1), outline=(*colour, 255), width=width_px * SUPERSAMPLING
    )
    rgba = np.asarray(sprite.resize((diameter_px, diameter_px), Image.Resampling.LANCZOS))
    rgba = rgba.astype(np.float32)
    return rgba[..., :3], rgba[..., 3:] / 255


MIN_WIDTH_PX = 200
"""The narrowest picture :class:`TableRenderer` draws (ball numbers stay legible)."""


class TableRenderer:
    """Draws the table and the balls top-down as an ``(H, W, 3)`` uint8 array.

    :param spec: the table to draw.
    :param width_px: picture width in pixels (at least 200); the height follows the table's
        proportions plus the overlay strip, rounded up to an even number (video codecs want it).
    :param overlay_lines: text lines in the overlay strip at the bottom of the picture.
    """

    def __init__(self, spec: TableSpec, width_px: int = 800, overlay_lines: int = 3) -> None:
        if width_px < MIN_WIDTH_PX:
            raise ValueError(
                f"TableRenderer: width_px must be at least {MIN_WIDTH_PX}, got {width_px}"
            )
        if overlay_lines < 0:
            raise ValueError(f"TableRenderer: overlay_lines must be >= 0, got {overlay_lines}")
        self.spec = spec
        self.overlay_lines = overlay_lines
        self.geometry = TableGeometry.from_spec(spec)
        border = cushion_overhang(self.geometry) + RAIL_WIDTH
        self._scale = width_px / (spec.length + 2 * border)
        self._border_px = border * self._scale
        table_h = math.ceil((spec.width + 2 * border) * self._scale)
        font_px = max(10, width_px // 60)
        self._font = ImageFont.load_default(size=font_px)
        self._line_px = math.ceil(font_px * 1.3)
        self._overlay_top = table_h
        height = table_h + (overlay_lines * self._line_px + 6 if overlay_lines else 0)
        self.shape = (height + height % 2, width_px, 3)
        self._background = np.asarray(self._draw_table()).copy()
        self._strip: tuple[tuple[str, ...], np.ndarray] = ((), self._background[table_h:])
        diameter = max(5, round(spec.ball_diameter * self._scale))
        self._sprites = [
            _ball_sprite("0", COLOURED_FILL, COLOURED_RING, diameter)
            if ball == COLOURED
            else _ball_sprite(str(ball), IVORY, None, diameter)
            for ball in range(N_BALLS)
        ]
        self._cue_ring = _ring_sprite(CUE_RING, diameter + 6, 2)
        self._marked: tuple[ShotMarks | None, np.ndarray] = (None, self._background)

    def to_pixel(self, xy: np.ndarray | Sequence[float]) -> np.ndarray:
        """Table coordinates (m, ``(..., 2)``) to pixel coordinates (column, row) as floats."""
        xy = np.asarray(xy, dtype=np.float64)
        column = self._border_px + xy[..., 0] * self._scale
        row = self._border_px + (self.spec.width - xy[..., 1]) * self._scale
        return np.stack([column, row], axis=-1)

    def to_table(self, pixel: Sequence[float]) -> Point:
        """The table point (m) under a pixel (column, row): the inverse of :meth:`to_pixel`."""
        column, row = pixel
        return (
            (column - self._border_px) / self._scale,
            self.spec.width - (row - self._border_px) / self._scale,
        )

    @property
    def table_height(self) -> int:
        """Rows of the picture that show the table; the overlay strip lies below them."""
        return self._overlay_top

    @property
    def scale(self) -> float:
        """Pixels per metre."""
        return self._scale

    def _points(self, points: Sequence[Point]) -> list[tuple[float, float]]:
        """Table points to pixel points on the supersampled table picture."""
        k = SUPERSAMPLING
        return [(float(c) * k, float(r) * k) for c, r in self.to_pixel(np.array(points))]

    def _draw_table(self) -> Image.Image:
        """The static picture: rail, cloth, pockets, cushions, spots and lines.

        Drawn :data:`SUPERSAMPLING` times larger and box-filtered down, so the jaws' millimetre
        curves and the pockets' edges come out anti-aliased.
        """
        spec, geometry, k = self.spec, self.geometry, SUPERSAMPLING
        width, height = self.shape[1] * k, self.shape[0] * k
        picture = Image.new("RGB", (width, height), OVERLAY_BACK)
        pen = ImageDraw.Draw(picture)
        pen.rectangle((0, 0, width - 1, self._overlay_top * k - 1), fill=WOOD)
        pen.polygon(self._points(slate_outline(geometry)), fill=CLOTH)
        for pocket in geometry.pockets.values():
            ((c, r),) = self._points([pocket.capture_centre])
            radius = pocket.capture_radius * self._scale * k
            pen.ellipse((c - radius, r - radius, c + radius, r + radius), fill=POCKET)
        line = max(1, round(self._scale * k * 0.004))
        for cushion in geometry.cushions.values():
            outline = self._points(cushion.outline)
            pen.polygon(outline, fill=CUSHION)
            pen.line(outline, fill=NOSE, width=line, joint="curve")  # all but the back
        for x in (spec.house_line_x, spec.centre_line_x):
            pen.line(self._points([(x, 0.0), (x, spec.width)]), fill=MARK, width=line)
        dot = max(1.5, self._scale * 0.008) * k
        for spot in (spec.front_spot, spec.rear_spot):
            ((c, r),) = self._points([spot])
            pen.ellipse((c - dot, r - dot, c + dot, r + dot), fill=MARK)
        return picture.resize((self.shape[1], self.shape[0]), Image.Resampling.BOX)

    def draw(
        self,
        positions: np.ndarray,
        on_table: np.ndarray,
        overlay: Sequence[str] = (),
        marks: ShotMarks | None = None,
    ) -> np.ndarray:
        """The picture of balls at ``positions`` (8 x 2, m; NaN off the table) and the overlay text.

        Balls not ``on_table`` are not drawn. ``overlay`` holds at most ``overlay_lines`` lines.
        ``marks`` rings the shot's cue ball where it is now and draws its call (see
        :class:`ShotMarks`).
        """
        positions = np.asarray(positions, dtype=np.float64)
        on_table = np.asarray(on_table, dtype=bool)
        if positions.shape != (N_BALLS, 2) or on_table.shape != (N_BALLS,):
            raise ValueError(
                f"draw: positions must have shape (8, 2) and on_table (8,), got "
                f"{positions.shape} and {on_table.shape}"
            )
        if not np.isfinite(positions[on_table]).all():
            raise ValueError("draw: a ball on the table has a position that is not finite")
        if len(overlay) > self.overlay_lines:
            raise ValueError(
                f"draw: {len(overlay)} overlay lines given, this renderer has room for "
                f"{self.overlay_lines}"
            )
        picture = self._marked_background(marks).copy()
        columns_rows = self.to_pixel(positions)
        for ball in np.flatnonzero(on_table):
            self._paste(picture, self._sprites[int(ball)], columns_rows[ball])
        cue = None if marks is None else marks.cue_ball
        if cue is not None and on_table[cue]:
            self._paste(picture, self._cue_ring, columns_rows[cue])
        if overlay:
            picture[self._overlay_top :] = self._overlay_strip(tuple(overlay))
        return picture

    def _marked_background(self, marks: ShotMarks | None) -> np.ndarray:
        """The table with the call of ``marks`` drawn on it (kept for the next picture)."""
        if marks is None or marks.pocket is None:
            return self._background
        if self._marked[0] != marks:
            picture = Image.fromarray(self._background)
            pen = ImageDraw.Draw(picture)
            width = max(2, round(self._scale * 0.008))
            if len(marks.path) >= 2:  # a pocket alone (a call still being chosen) is ringed only
                pixels = self.to_pixel(np.array(marks.path))
                points = [(float(c), float(r)) for c, r in pixels]
                pen.line(points, fill=CALL_LINE, width=width, joint="curve")
            shape = self.geometry.pockets[marks.pocket]
            ((c, r),) = self.to_pixel(np.array([shape.capture_centre]))
            radius = shape.capture_radius * self._scale + width
            pen.ellipse(
                (c - radius, r - radius, c + radius, r + radius), outline=CALL_LINE, width=width
            )
            self._marked = (marks, np.asarray(picture).copy())
        return self._marked[1]

    @staticmethod
    def _paste(
        picture: np.ndarray, sprite: tuple[np.ndarray, np.ndarray], centre: np.ndarray
    ) -> None:
        """Blend a sprite into the picture around ``centre`` (column, row), clipped to it."""
        colour, alpha = sprite
        size = alpha.shape[0]
        left, top = round(centre[0] - size / 2), round(centre[1] - size / 2)
        c0, r0 = max(left, 0), max(top, 0)
        c1, r1 = min(left + size, picture.shape[1]), min(top + size, picture.shape[0])
        if c0 >= c1 or r0 >= r1:
            return
        sprite_part = (slice(r0 - top, r1 - top), slice(c0 - left, c1 - left))
        region = picture[r0:r1, c0:c1]
        a = alpha[sprite_part]
        region[:] = (region * (1 - a) + colour[sprite_part] * a + 0.5).astype(np.uint8)

    def _overlay_strip(self, lines: tuple[str, ...]) -> np.ndarray:
        """The overlay strip with ``lines`` written on it; the last one is kept for reuse."""
        if self._strip[0] != lines:
            strip = Image.fromarray(self._background[self._overlay_top :])
            pen = ImageDraw.Draw(strip)
            for i, text in enumerate(lines):
                pen.text((6, 3 + i * self._line_px), text, fill=OVERLAY_TEXT, font=self._font)
            self._strip = (lines, np.asarray(strip).copy())
        return self._strip[1]

    def draw_state(
        self, state: TableState, overlay: Sequence[str] = (), marks: ShotMarks | None = None
    ) -> np.ndarray:
        """The picture of a :class:`TableState` on this renderer's table."""
        if state.spec != self.spec:
            raise ValueError("draw_state: the state is on a different table than this renderer's")
        return self.draw(state.positions, state.on_table, overlay, marks)


def scoreboard(
    credited: Sequence[int],
    required: Sequence[int],
    fouls: Sequence[int],
    to_move: int,
    decision: str,
) -> str:
    """The overlay's score line, e.g. ``P0 whites 2/8 fouls 1 | P1 whites 0/8 fouls 0 | to move:
    P1 (shot)``, from each player's credited and required whites and fouls."""
    seats = " | ".join(
        f"P{seat} whites {c}/{r} fouls {f}"
        for seat, (c, r, f) in enumerate(zip(credited, required, fouls, strict=True))
    )
    return f"{seats} | to move: P{to_move} ({decision})"


def shot_line(player: int, cue_ball: int, call: Call | None, name: str | None = None) -> str:
    """The overlay's line for a shot being played: who shoots, the cue ball and the call, e.g.
    ``P1 (search) shoots cue ball 3, calls 3 > 0 [REAR] => MIDDLE_LEFT (double)``."""
    who = f"P{player}" + (f" ({name})" if name else "")
    if call is None:
        return f"{who} shoots cue ball {cue_ball}, whites only (no call)"
    kinds = ", ".join(sorted(kind.value for kind in call.kinds))
    return f"{who} shoots cue ball {cue_ball}, calls {call} ({kinds})"


def import_pygame() -> ModuleType:
    """pygame, or a clear error naming the extra that installs it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as error:
        raise DependencyNotInstalled(
            'pygame is not installed; run `pip install "kinghill[render]"` for render_mode="human"'
        ) from error
    return pygame


class HumanWindow:
    """A pygame window that shows rgb pictures (``render_mode="human"``).

    Nothing opens until the first :meth:`show`. Closing the window (QUIT) closes it for good:
    later calls to :meth:`show` return False and draw nothing.

    :param title: the window caption.
    :param fps: frames per second to pace :meth:`show` to, or None not to wait.
    """

    def __init__(self, title: str = "kinghill", fps: float | None = None) -> None:
        self._pygame = import_pygame()
        self.title = title
        self.fps = fps
        self._screen: Any = None
        self._clock: Any = None
        self._quit = False

    @property
    def is_open(self) -> bool:
        """Whether the window is on screen."""
        return self._screen is not None

    def show(self, frame: np.ndarray) -> bool:
        """Show an ``(H, W, 3)`` uint8 picture; False once the user has closed the window."""
        pygame = self._pygame
        if self._quit:
            return False
        frame = np.ascontiguousarray(frame, dtype=np.uint8)
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(f"show: expected an (H, W, 3) picture, got shape {frame.shape}")
        size = (frame.shape[1], frame.shape[0])
        if self._screen is None or self._screen.get_size() != size:
            pygame.display.init()
            pygame.display.set_caption(self.title)
            self._screen = pygame.display.set_mode(size)
            self._clock = pygame.time.Clock()
        if any(event.type == pygame.QUIT for event in pygame.event.get()):
            self._quit = True
            self.close()
            return False
        self._screen.blit(pygame.image.frombuffer(frame.tobytes(), size, "RGB"), (0, 0))
        pygame.display.flip()
        if self.fps and self._clock is not None:
            self._clock.tick(self.fps)
        return True

    def close(self) -> None:
        """Close the window if it is open."""
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None


class RenderOutput:
    """Where an env's pictures go in its ``render_mode``: returned as they are (``"rgb_array"``)
    or shown in a :class:`HumanWindow` opened at the first (``"human"``), so that every env
    renders the same way.

    :param mode: the env's render mode, ``"human"`` or ``"rgb_array"`` (None: the env draws
        nothing, and no window opens).
    :param fps: what the window paces itself to.
    """

    def __init__(self, mode: str | None, fps: float | None) -> None:
        self.mode = mode
        self.fps = fps
        self._window: HumanWindow | None = None

    @property
    def is_open(self) -> bool:
        """Whether a window is on screen."""
        return self._window is not None and self._window.is_open

    def put(self, picture: np.ndarray) -> np.ndarray | None:
        """The picture itself, or in ``human`` mode None once it is on screen."""
        if self.mode != "human":
            return picture
        if self._window is None:
            self._window = HumanWindow("kinghill", fps=self.fps)
        self._window.show(picture)
        return None

    def close(self) -> None:
        """Close the window, if one is open."""
        if self._window is not None:
            self._window.close()
            self._window = None
