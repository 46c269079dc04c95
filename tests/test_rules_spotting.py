"""Spotting on the real table (11.1-11.4, R-spot)."""

import numpy as np
import pytest

from kinghill.envs.rules import spot, spot_point
from kinghill.physics import COLOURED, N_BALLS, Pocket, TableGeometry, TableSpec, TableState

SPEC = TableSpec()
R, L, YC = SPEC.radius, SPEC.length, SPEC.width / 2
REAR_X = SPEC.rear_spot[0]
CUSHION_X = L - R
"""A white spotted at the rear cushion touches it (11.2)."""


def table(**where: tuple[float, float]) -> TableState:
    """Only the balls named ``b<id>`` on the table, at the given places."""
    return TableState.of(SPEC, {int(name[1:]): xy for name, xy in where.items()})


def test_coloured_on_the_rear_spot_11_1() -> None:
    assert spot_point(table(b1=(0.5, 0.5)), COLOURED) == (REAR_X, YC)


def test_white_at_the_rear_cushion_middle_touching_it_11_2() -> None:
    assert spot_point(table(b0=(0.5, 0.5)), 4) == (CUSHION_X, YC)


def test_rear_spot_taken_nearest_free_point_tie_toward_the_rear_11_3() -> None:
    """11.3, R-spot: a ball right on the spot leaves two points equally near: toward the rear."""
    x, y = spot_point(table(b2=(REAR_X, YC)), COLOURED)
    assert (x, y) == (pytest.approx(REAR_X + 2 * R), YC)


def test_rear_spot_taken_off_axis_goes_to_the_nearer_side_11_3() -> None:
    """A ball slightly rearward of the spot and off the axis: the nearer free point is frontward."""
    dy = R
    x, _ = spot_point(table(b2=(REAR_X + 0.3 * R, YC + dy)), COLOURED)
    assert x == pytest.approx(REAR_X + 0.3 * R - np.sqrt(4 * R * R - dy * dy))


def test_cushion_point_taken_whites_line_up_touching_11_3() -> None:
    """11.3, R-spot: whites go from the rear cushion toward the spot, each touching the previous;
    the coloured ball is spotted first."""
    state = table(b5=(CUSHION_X, YC), b6=(1.0, 0.4))
    after = spot(state, (COLOURED, 3, 4))
    assert after.xy(COLOURED) == (REAR_X, YC)
    assert after.xy(3) == (pytest.approx(CUSHION_X - 2 * R), YC)
    assert after.xy(4) == (pytest.approx(CUSHION_X - 4 * R), YC)


def test_whites_skip_a_gap_too_narrow_for_a_ball_11_3() -> None:
    """R-spot: the nearest *free* point on the line: a gap narrower than a ball is passed by."""
    state = table(b5=(CUSHION_X, YC), b6=(CUSHION_X - 3.5 * R, YC))
    x, _ = spot_point(state, 7)
    assert x == pytest.approx(CUSHION_X - 5.5 * R)
    assert state.is_free((x, YC))


def test_everything_spotted_before_the_next_shot_11_4() -> None:
    """11.4: the returned table holds every spotted ball, none overlapping (TableState checks)."""
    state = TableState.rack().remove(0).remove(2).remove(5)
    after = spot(state, (0, 2, 5))
    assert set(after.balls_on_table()) == set(range(N_BALLS))


def test_spotting_leaves_a_hanging_ball_where_it_hangs() -> None:
    """A white hanging in the rear-right corner's mouth stays there; whites and the coloured ball
    are spotted as usual (11.1, 11.2)."""
    corner = TableGeometry.from_spec(SPEC).pockets[Pocket.REAR_RIGHT]
    # on the pocket's axis 1 mm in front of the fall edge: off the playing area, in the mouth
    hanging = (corner.aim[0] - 0.001 * corner.axis[0], corner.aim[1] - 0.001 * corner.axis[1])
    state = spot(table(b3=hanging, b1=(1.0, 0.5)), [COLOURED, 4])
    assert state.hanging_in(3) is not None and state.xy(3) == hanging
    assert state.xy(COLOURED) == (REAR_X, YC) and state.xy(4) == (CUSHION_X, YC)
