"""The human seat's picture: the table with the aim line, the ghost ball and the call, and below
it the menu of buttons (call kind, pocket, route, play) with the tip widget.

Drawn with Pillow onto the renderer's picture, so it is the same headless and in the window;
:func:`buttons` lays the menu out and :func:`hit` tells which button or widget a click is on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kinghill.agents.human.controls import KINDS, Controls
from kinghill.agents.human.preview import preview
from kinghill.envs.drawing import ShotMarks, TableRenderer
from kinghill.envs.planning import call_path
from kinghill.physics import Cushion, Pocket

PANEL_HEIGHT = 118
"""Rows of the menu under the table picture."""
MIN_WIDTH = 800
"""The menu needs this many columns."""
ROW, GAP, LEFT = 24, 4, 64
TIP_RADIUS = 44
"""The tip widget's ball, in pixels (a ball radius R)."""
AIM_LINE = (255, 255, 255)
GHOST = (235, 235, 235)
OBJECT_LINE = (190, 190, 190)
BUTTON = (52, 56, 64)
SELECTED = (40, 130, 200)
DISABLED = (34, 36, 40)
TEXT = (235, 235, 235)
DIM = (120, 120, 120)
PANEL_BACK = (26, 27, 31)

POCKET_LABELS = {
    Pocket.FRONT_LEFT: "front L",
    Pocket.FRONT_RIGHT: "front R",
    Pocket.MIDDLE_LEFT: "middle L",
    Pocket.MIDDLE_RIGHT: "middle R",
    Pocket.REAR_LEFT: "rear L",
    Pocket.REAR_RIGHT: "rear R",
}
CUSHION_LABELS = {
    Cushion.FRONT: "front",
    Cushion.REAR: "rear",
    Cushion.LEFT_FRONT: "left F",
    Cushion.LEFT_REAR: "left R",
    Cushion.RIGHT_FRONT: "right F",
    Cushion.RIGHT_REAR: "right R",
}
ROW_TITLES = ("call", "pocket", "route", "play")


@dataclass(frozen=True)
class Button:
    """One button of the menu: its label, the :data:`~controls.COMMANDS` entry it sends, and
    where it is (left, top, right, bottom pixels of the whole picture)."""

    label: str
    command: str
    box: tuple[int, int, int, int]

    def contains(self, column: float, row: float) -> bool:
        left, top, right, bottom = self.box
        return left <= column < right and top <= row < bottom


def buttons(top: int) -> list[Button]:
    """The menu's buttons, rows from ``top`` down (the table picture's height)."""
    rows: list[list[tuple[str, str, int]]] = [
        [(kind, f"kind:{kind}", 86) for kind in KINDS],
        [(label, f"pocket:{pocket.name}", 72) for pocket, label in POCKET_LABELS.items()],
        [(label, f"touch:{cushion.name}", 54) for cushion, label in CUSHION_LABELS.items()]
        + [(str(ball), f"touch:{ball}", 22) for ball in range(1, 8)]
        + [("clear", "clear-route", 48)],
        [
            ("shoot [Enter]", "shoot", 104),
            ("play on [P]", "play-on", 90),
            ("hand back [H]", "hand-back", 104),
            ("extension [X]", "extension", 104),
        ],
    ]
    laid = []
    for index, row in enumerate(rows):
        y = top + GAP + index * (ROW + GAP)
        x = LEFT
        for label, command, width in row:
            laid.append(Button(label, command, (x, y, x + width, y + ROW)))
            x += width + GAP
    return laid


def tip_centre(width: int, top: int) -> tuple[int, int]:
    """The centre of the tip widget (pixels)."""
    return (width - TIP_RADIUS - 16, top + PANEL_HEIGHT // 2)


def hit(column: float, row: float, width: int, top: int) -> str | tuple[float, float] | None:
    """What a click at (column, row) of the menu is on: a button's command, a tip offset (a, b)
    in ball radii inside the tip widget, or None."""
    for button in buttons(top):
        if button.contains(column, row):
            return button.command
    cx, cy = tip_centre(width, top)
    if math.hypot(column - cx, row - cy) <= TIP_RADIUS:
        return ((column - cx) / TIP_RADIUS, (cy - row) / TIP_RADIUS)
    return None


def marks(controls: Controls) -> ShotMarks:
    """The cue ball and, when it can be built, the call as the controls stand."""
    try:
        call = controls.call()
    except ValueError:
        call = None
    state = controls.state
    if call is None or not all(state.on_table[b] for b in call.balls_taking_part):
        return ShotMarks(controls.cue_ball, controls.pocket)
    return ShotMarks(
        controls.cue_ball, call.pocket, tuple(call_path(call, state.positions, state.spec))
    )


def picture(renderer: TableRenderer, controls: Controls, overlay: tuple[str, ...]) -> np.ndarray:
    """The whole window: the table with the aim and the call, the strip, and the menu."""
    state = controls.state
    table = renderer.draw_state(state, overlay, None if controls.is_choice else marks(controls))
    image = Image.fromarray(table)
    if not controls.is_choice:
        _draw_aim(ImageDraw.Draw(image), renderer, controls)
    width = table.shape[1]
    panel = Image.new("RGB", (width, PANEL_HEIGHT), PANEL_BACK)
    _draw_menu(ImageDraw.Draw(panel), controls, width)
    whole = Image.new("RGB", (width, table.shape[0] + PANEL_HEIGHT))
    whole.paste(image, (0, 0))
    whole.paste(panel, (0, table.shape[0]))
    return np.asarray(whole)


def _draw_aim(pen: ImageDraw.ImageDraw, renderer: TableRenderer, controls: Controls) -> None:
    """The aim line from the cue ball to the ghost ball, the ghost ball, and the object ball's
    line away from it."""
    state = controls.state
    aim = preview(state, controls.cue_ball, controls.phi)
    (c0, r0), (c1, r1) = renderer.to_pixel(np.array([aim.start, aim.ghost]))
    pen.line([(c0, r0), (c1, r1)], fill=AIM_LINE, width=2)
    radius = state.spec.radius * renderer.scale
    pen.ellipse((c1 - radius, r1 - radius, c1 + radius, r1 + radius), outline=GHOST, width=2)
    if aim.ball is not None:
        bx, by = state.xy(aim.ball)
        dx, dy = bx - aim.ghost[0], by - aim.ghost[1]
        norm = math.hypot(dx, dy) or 1.0
        end = (bx + 0.3 * dx / norm, by + 0.3 * dy / norm)
        (c2, r2), (c3, r3) = renderer.to_pixel(np.array([(bx, by), end]))
        pen.line([(c2, r2), (c3, r3)], fill=OBJECT_LINE, width=1)


def _selected(controls: Controls, command: str) -> bool:
    head, _, arg = command.partition(":")
    if head == "kind":
        return controls.kind == arg
    if head == "pocket":
        return controls.pocket is not None and controls.pocket.name == arg
    if command == "extension":
        return controls.claim
    return False


def _enabled(controls: Controls, command: str) -> bool:
    if command in ("play-on", "hand-back"):
        return controls.is_choice
    if command == "extension":
        return True
    return not controls.is_choice


def _draw_menu(pen: ImageDraw.ImageDraw, controls: Controls, width: int) -> None:
    font = ImageFont.load_default(size=12)
    for index, title in enumerate(ROW_TITLES):
        pen.text((8, GAP + index * (ROW + GAP) + 5), title, fill=DIM, font=font)
    for button in buttons(0):
        enabled = _enabled(controls, button.command)
        fill = SELECTED if _selected(controls, button.command) else BUTTON
        pen.rounded_rectangle(button.box, radius=4, fill=fill if enabled else DISABLED)
        left, top, right, bottom = button.box
        centre = ((left + right) / 2, (top + bottom) / 2)
        pen.text(centre, button.label, fill=TEXT if enabled else DIM, font=font, anchor="mm")
    route = ", ".join(str(t.name if isinstance(t, Cushion) else t) for t in controls.route)
    x = buttons(0)[-1].box[2] + 12
    pen.text((x, 3 * (ROW + GAP) + GAP + 5), f"route: {route or '-'}", fill=TEXT, font=font)
    cx, cy = tip_centre(width, 0)
    pen.ellipse(
        (cx - TIP_RADIUS, cy - TIP_RADIUS, cx + TIP_RADIUS, cy + TIP_RADIUS), fill=(246, 240, 222)
    )
    limit = TIP_RADIUS * 0.5
    pen.ellipse((cx - limit, cy - limit, cx + limit, cy + limit), outline=DIM, width=1)
    a, b = controls.tip
    tx, ty = cx + a * TIP_RADIUS, cy - b * TIP_RADIUS
    pen.ellipse((tx - 5, ty - 5, tx + 5, ty + 5), fill=(40, 110, 220))
    pen.text((cx, cy + TIP_RADIUS + 1), "tip [WASD]", fill=DIM, font=font, anchor="mt")
    pen.text(
        (cx - TIP_RADIUS - 8, 8), f"{controls.speed:.2f} m/s", fill=TEXT, font=font, anchor="ra"
    )
    pen.text((cx - TIP_RADIUS - 8, 24), "speed [up/down]", fill=DIM, font=font, anchor="ra")


def status(controls: Controls, name: str) -> str:
    """The strip's line for the decision being made: who, the cue ball, speed, tip, the call
    and the clock."""
    view = controls.view
    who = f"P{view.player} ({name})"
    clock = view.clock
    timed = "" if clock is None or not clock.timed else f" | {max(clock.time_left(), 0):.0f} s left"
    if controls.is_choice:
        return f"{who} chooses (10.4){timed}"
    try:
        call = controls.call()
        called = "whites only" if call is None else f"calls {call}"
    except ValueError as error:
        called = f"call incomplete: {error}"
    a, b = controls.tip
    return (
        f"{who} cue ball {controls.cue_ball} at {controls.speed:.2f} m/s, tip ({a:+.2f}, "
        f"{b:+.2f}), {called}{timed}"
    )
