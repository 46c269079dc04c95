"""Ball-ball impacts against closed-form results: stun, draw, follow, cut angles and throw."""

import math

import numpy as np
import pytest
from physics_support import SPEC, R, angle_deg, play, position_at, velocity_at

from kinghill.physics import BallBall, Shot

W = SPEC.width
E = SPEC.e_ball


def mu(v: float) -> float:
    return SPEC.mu_ball_a + SPEC.mu_ball_b * math.exp(-SPEC.mu_ball_c * v)


def closed_form_impact(
    va: np.ndarray, wa: np.ndarray, n: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cue ball (v, w) and object ball v after hitting a ball at rest; 3-D vectors, n a->b.

    Restitution e on the line of centres; friction mu(slip) J_n against the contact slip
    va + R wa x n, capped by the impulse that stops the slip (m |u_t| / 7).
    """
    jn = 0.5 * (1 + E) * float(va @ n)
    u = va + R * np.cross(wa, n)
    ut = u - (u @ n) * n
    s = float(np.linalg.norm(ut))
    jt = min(mu(s) * jn, s / 7)
    t = ut / s
    horiz = np.array([1.0, 1.0, 0.0])
    va2 = va - jn * n - jt * t * horiz
    vb2 = (jn * n + jt * t) * horiz
    wa2 = wa - 2.5 * jt / R * np.cross(n, t)
    return va2, wa2, vb2


def contact_time(out, a: int, b: int) -> float:  # type: ignore[no-untyped-def]
    return next(e.t for e in out.events if isinstance(e, BallBall) and {e.a, e.b} == {a, b})


def test_stun_full_hit_stops_cue_ball_and_sends_object_ball_at_one_plus_e_over_two() -> None:
    """Test 2: the cue ball keeps <= 3% of its speed and stops within 5 mm of the contact;
    the object ball leaves straight on at (1+e)/2 of the cue ball's speed (+-1%, 0.1 deg)."""
    y = W / 2
    out = play({1: (1.0, y), 0: (1.0 + 2 * R + 0.005, y)}, Shot(1, 0.0, 1.0))
    t = contact_time(out, 1, 0)
    v_in = velocity_at(out, 1, t - 1e-9)
    v_cue = velocity_at(out, 1, t)
    v_obj = velocity_at(out, 0, t)
    assert math.hypot(*v_cue) <= 0.03 * math.hypot(*v_in)
    assert out.segments is not None
    rest = next(s for s in out.segments[1] if s[0] > t and s[3] == s[4] == 0.0)
    assert math.dist(rest[1:3], position_at(out, 1, t)) < 0.005
    assert math.hypot(*v_obj) == pytest.approx((1 + E) / 2 * math.hypot(*v_in), rel=0.01)
    assert angle_deg(v_obj, (1.0, 0.0)) < 0.1


def test_rolling_half_ball_hit_deflects_cue_ball_about_30_degrees() -> None:
    """Test 3: a rolling cue ball on a half-ball hit ends up about 30 deg off its line, within
    1 deg of the closed form for the model's restitution and friction."""
    y = W / 2
    out = play({1: (0.6, y), 0: (1.1, y + R)}, Shot(1, 0.0, 2.0, 0.0, 0.4))
    t = contact_time(out, 1, 0)
    assert out.segments is not None
    after = [s for s in out.segments[1] if s[0] >= t]
    final_dir = (after[1][3], after[1][4])  # start of rolling after the post-impact slide
    vx, _ = velocity_at(out, 1, t - 1e-9)
    cue, obj = np.array(position_at(out, 1, t)), np.array(position_at(out, 0, t))
    n = np.append((obj - cue) / np.linalg.norm(obj - cue), 0.0)
    va = np.array([vx, 0.0, 0.0])
    wa = np.array([0.0, vx / R, 0.0])  # rolling
    va2, wa2, _ = closed_form_impact(va, wa, n)
    u2 = va2 + np.cross(wa2, np.array([0.0, 0.0, -R]))
    v_final = va2 - 2 / 7 * u2
    expected = angle_deg((1.0, 0.0), (v_final[0], v_final[1]))
    got = angle_deg((1.0, 0.0), final_dir)
    assert got == pytest.approx(expected, abs=1.0), (got, expected)
    assert 28.0 < got < 36.0


@pytest.mark.parametrize("cut_deg", [30.0, 45.0, 60.0])
def test_stun_cut_separation_angle_matches_closed_form(cut_deg: float) -> None:
    """Test 3: balls separate at the closed-form angle (+-1 deg): a few degrees under 90."""
    cut = math.radians(cut_deg)
    y = W / 2
    obj = (1.0 + 2 * R * math.cos(cut) + 0.001, y + 2 * R * math.sin(cut))
    out = play({1: (1.0, y), 0: obj}, Shot(1, 0.0, 2.0))
    t = contact_time(out, 1, 0)
    got = angle_deg(velocity_at(out, 1, t), velocity_at(out, 0, t))
    cue_c, obj_c = np.array(position_at(out, 1, t)), np.array(position_at(out, 0, t))
    n = np.append((obj_c - cue_c) / np.linalg.norm(obj_c - cue_c), 0.0)
    va = np.append(velocity_at(out, 1, t - 1e-9), 0.0)
    va2, _, vb2 = closed_form_impact(va, np.zeros(3), n)
    expected = angle_deg((va2[0], va2[1]), (vb2[0], vb2[1]))
    assert got == pytest.approx(expected, abs=1.0)
    assert 80.0 < got < 89.0


def test_draw_comes_back_and_follow_goes_on() -> None:
    """Test 4: on a full hit, b = -0.4 brings the cue ball back, b = +0.4 carries it on."""
    y = W / 2
    for b, sign in ((-0.4, -1.0), (0.4, 1.0)):
        out = play({1: (0.8, y), 0: (1.3, y)}, Shot(1, 0.0, 2.0, 0.0, b))
        t = contact_time(out, 1, 0)
        x_contact = position_at(out, 1, t)[0]
        assert sign * (out.positions[1][0] - x_contact) > 0.1


@pytest.mark.parametrize("cut_deg", [10.0, 30.0, 50.0])
def test_stun_cut_throw_matches_closed_form(cut_deg: float) -> None:
    """Test 4: cut-induced throw of a stun shot within 0.5 deg of
    atan(min(mu(v_rel) J_n, m v_rel / 7) / J_n) with v_rel = v sin(cut)."""
    cut = math.radians(cut_deg)
    y = W / 2
    obj = (1.0 + 2 * R * math.cos(cut) + 0.001, y + 2 * R * math.sin(cut))
    out = play({1: (1.0, y), 0: obj}, Shot(1, 0.0, 2.0))
    t = contact_time(out, 1, 0)
    cue_c, obj_c = position_at(out, 1, t), position_at(out, 0, t)
    n = (obj_c[0] - cue_c[0], obj_c[1] - cue_c[1])
    v = math.hypot(*velocity_at(out, 1, t - 1e-9))
    real_cut = math.radians(angle_deg((1.0, 0.0), n))
    jn = 0.5 * (1 + E) * v * math.cos(real_cut)
    slip = v * math.sin(real_cut)
    expected = math.degrees(math.atan(min(mu(slip) * jn, slip / 7) / jn))
    got = angle_deg(velocity_at(out, 0, t), n)
    assert got == pytest.approx(expected, abs=0.5)
    assert got > 0.5  # there is throw


def test_striker_is_logged_first() -> None:
    """BallBall.a is the striker: the moving ball hitting one at rest."""
    y = W / 2
    out = play({3: (1.0, y), 5: (1.5, y)}, Shot(3, 0.0, 1.0))
    hit = next(e for e in out.events if isinstance(e, BallBall))
    assert (hit.a, hit.b) == (3, 5)
