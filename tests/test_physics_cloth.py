"""Cloth motion and the cue tip: sliding to rolling, rolling to rest, spin from tip offsets."""

import pytest
from physics_support import lone_ball, run

from kinghill.physics import CentreLine, Shot, TableSpec, TableState, simulate
from kinghill.physics.cue import strike

SPEC = TableSpec()
R = SPEC.radius
G = SPEC.gravity


@pytest.mark.parametrize("speed", [0.5, 0.8, 1.0])
def test_centre_hit_reaches_rolling_at_five_sevenths_after_12v2_over_49mug(speed: float) -> None:
    """Test 1: rolling starts at 5/7 v after 12 v^2 / (49 mu g) of sliding (+-1%), then stops
    after (5/7 v)^2 / (2 mu_r g) of rolling (+-1%)."""
    x0 = 0.3
    out = run(
        SPEC, *lone_ball((x0, SPEC.width / 2)), 1, strike(Shot(1, 0.0, speed), R), record_paths=True
    )
    assert out.segments is not None
    t_roll, x_roll, _, vx_roll, vy_roll, _, _ = out.segments[1][1]
    mu, mu_r = SPEC.mu_slide, SPEC.mu_roll
    assert x_roll - x0 == pytest.approx(12 * speed**2 / (49 * mu * G), rel=0.01)
    assert t_roll == pytest.approx(2 * speed / (7 * mu * G), rel=0.01)
    assert vx_roll == pytest.approx(5 / 7 * speed, rel=0.01)
    assert vy_roll == pytest.approx(0.0, abs=1e-12)
    x_end = out.positions[1][0]
    assert x_end - x_roll == pytest.approx((5 / 7 * speed) ** 2 / (2 * mu_r * G), rel=0.01)
    assert all(isinstance(e, CentreLine) for e in out.events)  # no contacts


def test_cue_tip_gives_follow_draw_and_english() -> None:
    """b > 0 topspin (rolling at b = 0.4), b < 0 backspin, a > 0 right english (w_z > 0)."""
    vx, vy, wx, wy, wz = strike(Shot(1, 0.0, 2.0, 0.0, 0.4), R)
    assert (vx, vy) == pytest.approx((2.0, 0.0))
    assert wy == pytest.approx(vx / R) and wx == pytest.approx(0.0) and wz == 0.0
    assert strike(Shot(1, 0.0, 2.0, 0.0, -0.3), R)[3] < 0
    assert strike(Shot(1, 0.0, 2.0, 0.3, 0.0), R)[4] > 0
    assert strike(Shot(1, 0.0, 2.0), R)[2:] == (0.0, 0.0, 0.0) or strike(Shot(1, 0.0, 2.0), R)[
        2:
    ] == pytest.approx((0.0, 0.0, 0.0))


def test_natural_roll_never_slides() -> None:
    """b = 0.4 (natural roll): the ball starts rolling, so it stops after v^2 / (2 mu_r g)."""
    pos, on = lone_ball((0.3, 0.5))
    out = run(SPEC, pos, on, 1, strike(Shot(1, 0.0, 0.6, 0.0, 0.4), R))
    assert out.positions[1][0] - 0.3 == pytest.approx(0.36 / (2 * SPEC.mu_roll * G), rel=1e-9)


def test_ball_at_rest_ends_with_zero_motion_and_duration_covers_spin() -> None:
    """The shot ends when every ball is at rest; side spin keeps a stopped ball turning."""
    state = TableState.of(SPEC, {1: (0.5, 0.8)})
    res = simulate(state, Shot(1, 0.0, 0.5, 0.4, 0.0))
    t_stop = res.duration
    assert t_stop > 0
    spin_time = 2.5 * 0.4 * 0.5 / R / (2.5 * SPEC.mu_spin * G / R)
    at_rest = 2 * 0.5 / (7 * SPEC.mu_slide * G) + 5 / 7 * 0.5 / (SPEC.mu_roll * G)  # slide, roll
    assert t_stop == pytest.approx(max(spin_time, at_rest), rel=1e-6) and t_stop >= spin_time
