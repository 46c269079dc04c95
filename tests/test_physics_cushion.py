"""Ball-cushion rebounds: restitution on a perpendicular hit, side spin bending the rebound."""

import pytest
from physics_support import SPEC, play, velocity_at

from kinghill.physics import BallCushion, Cushion, Shot

L, W = SPEC.length, SPEC.width


def rebound(a: float = 0.0, b: float = 0.4, speed: float = 1.0) -> tuple[tuple, tuple, Cushion]:
    """Velocity just before and just after ball 1 first meets the rear cushion head-on."""
    out = play({1: (L - 0.5, W / 2)}, Shot(1, 0.0, speed, a, b))
    hit = next(e for e in out.events if isinstance(e, BallCushion))
    return velocity_at(out, 1, hit.t - 1e-9), velocity_at(out, 1, hit.t), hit.cushion


@pytest.mark.parametrize(("b", "speed"), [(0.4, 1.0), (0.0, 2.0), (-0.3, 3.0), (0.4, 5.0)])
def test_perpendicular_rebound_speed_ratio_is_cushion_restitution(b: float, speed: float) -> None:
    """Test 5: head-on into a cushion the normal speed comes back at e_cushion (+-2%)."""
    v_in, v_out, cushion = rebound(b=b, speed=speed)
    assert cushion is Cushion.REAR
    assert -v_out[0] / v_in[0] == pytest.approx(SPEC.e_cushion, rel=0.02)
    assert v_out[1] == pytest.approx(0.0, abs=1e-12)


def test_side_spin_bends_the_rebound_the_way_players_expect() -> None:
    """Test 5: right english (a > 0) sends the ball off to the shooter's right (-y when
    shooting along +x), left english to the left; more english bends more."""
    _, right, _ = rebound(a=0.3)
    _, left, _ = rebound(a=-0.3)
    _, more, _ = rebound(a=0.45, b=0.1)
    assert right[1] < -0.01
    assert left[1] == pytest.approx(-right[1])
    assert more[1] < right[1]


def test_topspin_and_nose_height_change_the_spin_not_the_normal_speed() -> None:
    """The nose above the equator (Han 2005) turns topspin into backspin-ish motion: a rolling
    ball leaves the cushion with less speed along its new path than a stun ball's spin allows."""
    out = play({1: (L - 0.5, W / 2)}, Shot(1, 0.0, 1.0, 0.0, 0.4))
    hit = next(e for e in out.events if isinstance(e, BallCushion))
    assert out.segments is not None
    after = [s for s in out.segments[1] if s[0] >= hit.t]
    # the ball leaves sliding (its spin no longer matches its motion), then rolls back
    assert after[1][0] > hit.t
    assert abs(after[1][3]) < abs(after[0][3])
