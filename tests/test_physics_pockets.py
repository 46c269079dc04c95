"""Pockets: straight-in pots at any speed, rail shots into the corners, jaw rattles; geometry."""

import math

import pytest
from physics_support import SPEC, R, state

from kinghill.physics import (
    BallCushion,
    Cushion,
    Pocket,
    Pocketed,
    Shot,
    TableGeometry,
    simulate,
)

L, W = SPEC.length, SPEC.width
GEOMETRY = TableGeometry.from_spec(SPEC)


def pocketed_in(xy: tuple[float, float], phi: float, speed: float, b: float = 0.4):  # type: ignore[no-untyped-def]
    res = simulate(state({1: xy}), Shot(1, phi, speed, 0.0, b))
    pots = [e for e in res.events if isinstance(e, Pocketed)]
    return (pots[0].pocket if pots else None), res


@pytest.mark.parametrize("pocket", list(Pocket))
@pytest.mark.parametrize("speed", [0.3, 0.5, 1.0, 2.0, 4.0, 6.0])
def test_straight_in_along_the_centre_line_drops_at_any_speed(pocket: Pocket, speed: float) -> None:
    """Test 6: a ball sent straight along a pocket's centre line drops at 0.3-6 m/s."""
    p = GEOMETRY.pockets[pocket]
    start = (p.aim[0] - 0.3 * p.axis[0], p.aim[1] - 0.3 * p.axis[1])
    phi = math.atan2(p.axis[1], p.axis[0])
    got, res = pocketed_in(start, phi, speed)
    assert got is pocket
    assert not res.final.on_table[1]


@pytest.mark.parametrize("speed", [0.5, 0.8, 1.0, 1.5])
@pytest.mark.parametrize(
    ("start", "phi", "pocket"),
    [
        ((L - 0.8, R), 0.0, Pocket.REAR_RIGHT),
        ((L - 0.8, W - R), 0.0, Pocket.REAR_LEFT),
        ((0.8, R), math.pi, Pocket.FRONT_RIGHT),
        ((0.8, W - R), math.pi, Pocket.FRONT_LEFT),
    ],
)
def test_ball_rolling_along_long_cushion_drops_in_corner(
    start: tuple[float, float], phi: float, pocket: Pocket, speed: float
) -> None:
    """Test 6: a ball rolling along a long cushion into a corner at moderate speed drops (the
    opened jaw facings and dead jaws take it in)."""
    got, _ = pocketed_in(start, phi, speed)
    assert got is pocket


@pytest.mark.parametrize("speed", [0.5, 1.0, 2.0])
def test_ball_hitting_a_jaw_at_a_bad_angle_rattles_out(speed: float) -> None:
    """Test 6: straight onto the rounded tip of a corner jaw: it bounces out, logged as a touch
    of the cushion the jaw belongs to."""
    jaw = GEOMETRY.pockets[Pocket.REAR_RIGHT].jaw_points[1]  # on the right rear cushion
    got, res = pocketed_in((jaw[0] - 0.004, 0.4), -math.pi / 2, speed)
    assert got is None
    touches = [e for e in res.events if isinstance(e, BallCushion)]
    assert touches[0].cushion is Cushion.RIGHT_REAR


def test_geometry_mouths_aims_and_captures() -> None:
    """Jaw points are a mouth apart; aims and capture circles lie beyond the playing area, out
    of reach of any ball centre that stays on it."""
    assert len(GEOMETRY.pockets) == 6 and len(GEOMETRY.cushions) == 6
    for pocket, p in GEOMETRY.pockets.items():
        mouth = SPEC.middle_mouth if pocket.name.startswith("MIDDLE") else SPEC.corner_mouth
        assert math.dist(*p.jaw_points) == pytest.approx(mouth)
        cx, cy = p.capture_centre
        nearest = (min(max(cx, R), L - R), min(max(cy, R), W - R))
        assert math.dist(nearest, (cx, cy)) > p.capture_radius
        assert not (R < p.aim[0] < L - R and R < p.aim[1] < W - R)
    for cushion, c in GEOMETRY.cushions.items():
        assert len(c.outline) >= 8, cushion
        assert c.cushion is cushion
