"""TableState and the opening rack (R-rack), TableSpec validation."""

import math

import numpy as np
import pytest

from kinghill.physics import BREAK_BALL, COLOURED, TableSpec, TableState


def test_rack_r_rack_geometry() -> None:
    """R-rack: apex on the rear spot, coloured ball centre of row 3, row-4 white behind it."""
    spec = TableSpec()
    s = TableState.rack(spec)
    assert s.xy(2) == pytest.approx(spec.rear_spot)
    assert s.xy(COLOURED)[1] == pytest.approx(spec.width / 2)
    row = (spec.ball_diameter + 1e-4) * math.sqrt(3) / 2
    assert s.xy(COLOURED)[0] == pytest.approx(spec.rear_spot[0] + 2 * row)
    assert s.xy(7)[0] - s.xy(COLOURED)[0] == pytest.approx(spec.ball_diameter + 1e-4)
    assert s.in_house(BREAK_BALL)  # rule 1.3
    assert len(s.balls_on_table()) == 8  # rule 1.1


def test_rack_rejects_cue_outside_house() -> None:
    with pytest.raises(ValueError, match="house"):
        TableState.rack(cue_xy=(TableSpec().house_line_x, 0.8))


def test_place_rejects_overlap_and_off_table() -> None:
    s = TableState.rack()
    with pytest.raises(ValueError, match="overlap"):
        s.place(1, s.xy(2))
    with pytest.raises(ValueError, match="not on the playing area nor hanging"):
        s.place(1, (0.01, 0.5))
    with pytest.raises(ValueError, match="finite"):
        s.place(1, (float("nan"), 0.5))


def test_state_is_immutable_and_remove_gives_nan() -> None:
    s = TableState.rack()
    with pytest.raises(ValueError):
        s.positions[0, 0] = 1.0
    t = s.remove(3)
    assert not t.on_table[3] and np.isnan(t.positions[3]).all()
    assert s.on_table[3]
    with pytest.raises(ValueError, match="not on the table"):
        t.xy(3)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("corner_mouth", 0.060, "wider than a ball"),
        ("length", -1.0, "negative"),
        ("mu_slide", float("nan"), "finite"),
        ("e_ball", 1.5, "at most 1"),
        ("mu_slide", 0.0, "mu_slide must be positive"),
        ("mu_roll", 0.0, "mu_roll must be positive"),
        ("mu_spin", 0.0, "mu_spin must be positive"),
    ],
)
def test_spec_rejects_impossible_values(field: str, value: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableSpec(**{field: value})


def test_of_places_only_the_given_balls() -> None:
    s = TableState.of(TableSpec(), {0: (1.0, 0.5), 4: (2.0, 1.0)})
    assert s.balls_on_table() == (0, 4) and s.xy(4) == (2.0, 1.0)
    with pytest.raises(ValueError, match="ball id"):
        TableState.of(TableSpec(), {9: (1.0, 0.5)})
