"""The top-down picture of the table: size, where balls are drawn, the coloured ball, overlay."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from kinghill.envs.drawing.render import (
    CLOTH,
    CUSHION,
    OVERLAY_BACK,
    POCKET,
    TableRenderer,
    scoreboard,
)
from kinghill.physics import COLOURED, TableGeometry, TableSpec, TableState

SPEC = TableSpec()


@pytest.fixture(scope="module")
def renderer() -> TableRenderer:
    return TableRenderer(SPEC, width_px=800)


def _disc_colour(
    picture: np.ndarray, renderer: TableRenderer, xy: tuple[float, float]
) -> np.ndarray:
    """Median colour of the pixels 0.5-0.75 R from a table point: a ball's body around its
    printed id, inside the coloured ball's ring."""
    column, row = renderer.to_pixel(xy)
    radius = renderer.to_pixel((SPEC.radius, 0.0))[0] - renderer.to_pixel((0.0, 0.0))[0]
    rows, columns = np.mgrid[: picture.shape[0], : picture.shape[1]]
    distance2 = (columns - column) ** 2 + (rows - row) ** 2
    inside = ((0.5 * radius) ** 2 <= distance2) & (distance2 <= (0.75 * radius) ** 2)
    return np.median(picture[inside], axis=0)


def _is_coloured_ball(rgb: np.ndarray) -> bool:
    return bool(rgb[0] > 180 and rgb[1] < 130 and rgb[2] < 100)


def _is_white_ball(rgb: np.ndarray) -> bool:
    return bool(np.all(rgb > 200))


def _is_cloth(rgb: np.ndarray) -> bool:
    return bool(np.all(np.abs(rgb - np.array(CLOTH)) < 12))


def test_picture_is_uint8_rgb_of_the_declared_shape(renderer: TableRenderer) -> None:
    picture = renderer.draw_state(TableState.rack(SPEC))
    assert picture.dtype == np.uint8
    assert picture.shape == renderer.shape
    assert picture.shape[1] == 800 and picture.shape[2] == 3 and picture.shape[0] % 2 == 0


def test_width_sets_the_scale_and_table_proportions() -> None:
    small, large = TableRenderer(SPEC, 400), TableRenderer(SPEC, 1600)
    assert small.shape[1] == 400 and large.shape[1] == 1600
    span = large.to_pixel((SPEC.length, 0.0)) - large.to_pixel((0.0, SPEC.width))
    assert span[0] / span[1] == pytest.approx(SPEC.length / SPEC.width)


def test_house_is_at_the_left_and_the_left_side_at_the_top(renderer: TableRenderer) -> None:
    front_right, rear_left = renderer.to_pixel([(0.0, 0.0), (SPEC.length, SPEC.width)])
    assert front_right[0] < rear_left[0]  # x (toward the rear) runs to the right
    assert rear_left[1] < front_right[1]  # y (toward the left) runs up


def _pixel(picture: np.ndarray, renderer: TableRenderer, xy: tuple[float, float]) -> np.ndarray:
    """The picture's colour at table point ``xy``."""
    column, row = np.round(renderer.to_pixel(xy)).astype(int)
    return picture[row, column].astype(int)


def test_cushions_and_pockets_are_drawn_where_the_physics_has_them(
    renderer: TableRenderer,
) -> None:
    """Each capture circle's centre is black; 1 cm behind a nose is cushion, in front cloth."""
    picture = renderer.draw_state(TableState.rack(SPEC).remove(COLOURED))
    geometry = TableGeometry.from_spec(SPEC)
    colour = functools.partial(_pixel, picture, renderer)
    for pocket in geometry.pockets.values():
        assert np.abs(colour(pocket.capture_centre) - POCKET).max() < 8, pocket.pocket
    centre = np.array([SPEC.length / 2, SPEC.width / 2])
    for cushion in geometry.cushions.values():
        start, end = np.array(cushion.nose)
        on_nose = (2 * start + end) / 3  # off the house and centre lines
        inward = np.array([start[1] - end[1], end[0] - start[0]]) / np.linalg.norm(end - start)
        inward *= np.sign(np.dot(centre - on_nose, inward))
        assert np.abs(colour(tuple(on_nose - 0.01 * inward)) - CUSHION).max() < 8, cushion.cushion
        assert _is_cloth(colour(tuple(on_nose + 0.01 * inward))), cushion.cushion


def test_balls_are_drawn_where_they_stand(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    picture = renderer.draw_state(state)
    assert _is_coloured_ball(_disc_colour(picture, renderer, state.xy(COLOURED)))
    for white in range(1, 8):
        assert _is_white_ball(_disc_colour(picture, renderer, state.xy(white))), white
    assert _is_cloth(_disc_colour(picture, renderer, (SPEC.length / 2 + 0.3, SPEC.width / 2)))


def test_a_moved_ball_is_drawn_at_its_new_place(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    target = (SPEC.length * 0.6, SPEC.width * 0.3)
    before = renderer.draw_state(state)
    after = renderer.draw_state(state.place(1, target))
    assert _is_cloth(_disc_colour(before, renderer, target))
    assert _is_white_ball(_disc_colour(after, renderer, target))
    assert _is_cloth(_disc_colour(after, renderer, state.xy(1)))


def test_the_coloured_ball_looks_unlike_every_white(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    picture = renderer.draw_state(state)
    coloured = _disc_colour(picture, renderer, state.xy(COLOURED))
    for white in range(1, 8):
        assert np.abs(coloured - _disc_colour(picture, renderer, state.xy(white))).sum() > 150


def test_pocketed_balls_are_not_drawn(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    picture = renderer.draw_state(state.remove(COLOURED).remove(1))
    assert _is_cloth(_disc_colour(picture, renderer, state.xy(COLOURED)))
    assert _is_cloth(_disc_colour(picture, renderer, state.xy(1)))
    assert _is_white_ball(_disc_colour(picture, renderer, state.xy(7)))


def test_positions_of_balls_off_the_table_are_ignored(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    on_table = state.on_table.copy()
    on_table[3] = False
    positions = state.positions.copy()
    positions[3] = np.nan
    expected = renderer.draw_state(state.remove(3))
    np.testing.assert_array_equal(renderer.draw(positions, on_table), expected)


def test_overlay_text_is_drawn_in_the_strip_below_the_table(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    plain = renderer.draw_state(state)
    line = scoreboard([2, 0], [3, 3], [1, 0], to_move=1, decision="shot")
    with_text = renderer.draw_state(state, [line, "P0: white 4 credited"])
    changed_rows = np.flatnonzero(np.any(plain != with_text, axis=(1, 2)))
    table_bottom = renderer.to_pixel((0.0, 0.0))[1]
    assert changed_rows.size > 0 and changed_rows.min() > table_bottom
    strip = plain[int(changed_rows.min()) :]
    assert np.all(strip == np.array(OVERLAY_BACK, dtype=np.uint8))


def test_scoreboard_line_reads_credits_fouls_and_turn() -> None:
    line = scoreboard([2, 0], [3, 3], [1, 0], to_move=1, decision="shot")
    assert line == "P0 whites 2/3 fouls 1 | P1 whites 0/3 fouls 0 | to move: P1 (shot)"


def test_too_many_overlay_lines_is_a_clear_error(renderer: TableRenderer) -> None:
    with pytest.raises(ValueError, match="room for 3"):
        renderer.draw_state(TableState.rack(SPEC), ["a", "b", "c", "d"])


def test_bad_shapes_and_a_lost_ball_position_are_clear_errors(renderer: TableRenderer) -> None:
    state = TableState.rack(SPEC)
    with pytest.raises(ValueError, match="shape"):
        renderer.draw(state.positions[:7], state.on_table[:7])
    positions = state.positions.copy()
    positions[2] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        renderer.draw(positions, state.on_table)


def test_a_state_on_another_table_is_refused(renderer: TableRenderer) -> None:
    other = TableSpec(length=3.2, width=1.6)
    with pytest.raises(ValueError, match="different table"):
        renderer.draw_state(TableState.rack(other))


def test_a_ball_hanging_in_a_mouth_is_drawn_there(renderer: TableRenderer) -> None:
    """A white hanging in the right middle pocket's mouth, its centre 5 mm from the cushion
    line (off the playing area), is drawn at its place: a light disc on the shelf's cloth."""
    xy = (SPEC.length / 2, 0.005)
    state = TableState.of(SPEC, {3: xy, 0: (1.0, 0.8)})
    assert np.all(_disc_colour(renderer.draw_state(state), renderer, xy) > 180)
    assert _is_cloth(_disc_colour(renderer.draw_state(state.remove(3)), renderer, xy))
