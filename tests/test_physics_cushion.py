"""Ball-cushion rebounds through the engine: the default law (Mathavan 2010) on real shots."""

import math

import pytest
from physics_support import SPEC, R, Run, play, velocity_at

from kinghill.physics import BallCushion, Cushion, Shot
from kinghill.physics.resolve.ball_cushion import Mathavan2010
from kinghill.physics.resolve.motion import Motion

L, W = SPEC.length, SPEC.width


def rebound(a: float = 0.0, b: float = 0.4, speed: float = 1.0) -> tuple[tuple, tuple, Cushion]:
    """Velocity just before and just after ball 1 first meets the rear cushion head-on."""
    out = play({1: (L - 0.5, W / 2)}, Shot(1, 0.0, speed, a, b))
    hit = next(e for e in out.events if isinstance(e, BallCushion))
    return velocity_at(out, 1, hit.t - 1e-9), velocity_at(out, 1, hit.t), hit.cushion


@pytest.mark.parametrize(("b", "speed"), [(0.4, 1.0), (0.0, 2.0), (-0.3, 3.0), (0.4, 5.0)])
def test_perpendicular_rebound_is_mathavan_2010_for_the_arriving_spin(
    b: float, speed: float
) -> None:
    """Test 5: head-on into a cushion the normal speed comes back as Mathavan 2010 (the default
    law) gives for the ball's spin on arrival: the engine's rebound equals the fine-step law on
    the same pre-impact motion within 1.5% (the default steps' stated accuracy)."""
    out, seen = impacts({1: (L - 0.5, W / 2)}, Shot(1, 0.0, speed, 0.0, b))
    assert next(e for e in out.events if isinstance(e, BallCushion)).cushion is Cushion.REAR
    before, after = seen[0]
    fine = Mathavan2010(SPEC.cushion_rubber, steps=400).solve(-1.0, 0.0, before)
    assert after[0] / before[0] == pytest.approx(fine[0] / before[0], abs=0.015)
    assert after[1] == pytest.approx(0.0, abs=1e-12)
    assert 0.7 < -after[0] / before[0] < 0.85


def test_a_rolling_ball_comes_back_at_pooltools_mathavan_ratio() -> None:
    """A ball rolling head-on into the cushion keeps 0.822 of its speed: pooltool 0.6's
    Mathavan 2010 on the same arriving state, with the same coefficients (e 0.85, mu 0.2,
    cloth 0.2, nose 42 mm), gives 0.82226; stated tolerance 1.5%."""
    _, seen = impacts({1: (L - 0.5, W / 2)}, Shot(1, 0.0, 1.0, 0.0, 0.4))
    before, after = seen[0]
    assert before[3] == pytest.approx(before[0] / R)  # rolling on arrival
    assert -after[0] / before[0] == pytest.approx(0.82226, abs=0.015)


def test_restitution_falls_with_speed_for_a_centre_ball_shot() -> None:
    """Struck plain from 1 m out, a ball up to 2 m/s arrives rolling and keeps 0.822 of its
    normal speed; faster, it arrives still sliding with less topspin and keeps less, down to
    about the stun value 0.778 (Mathavan 2010 with these coefficients; pooltool 0.6: 0.82226
    rolling, 0.77795 stun): the rebound ratio falls with the shot's speed (stated: 1.5%)."""
    ratio = {}
    for speed in (1.0, 2.0, 3.0, 4.0, 6.0):
        _, seen = impacts({1: (L - 1.0, W / 2)}, Shot(1, 0.0, speed))
        before, after = seen[0]
        ratio[speed] = -after[0] / before[0]
    assert ratio[1.0] == pytest.approx(0.82226, abs=0.015)
    assert ratio[2.0] == pytest.approx(ratio[1.0], rel=1e-12)  # both rolling: the law is scale-free
    assert ratio[2.0] > ratio[3.0] > ratio[4.0]
    assert ratio[4.0] == pytest.approx(0.77795, abs=0.015)
    assert ratio[6.0] == pytest.approx(0.77795, abs=0.015)


def test_running_side_opens_the_angle() -> None:
    """30 degrees in to a side cushion, rolling at 2 m/s: running side (a = 0.45) opens the
    rebound to 43-47 degrees right after the impact (pooltool's three laws: 45-50; the old
    simple law 42), plain ball 22-26, reverse side closes it below 17."""
    angles = {a: rebound_angle(a) for a in (0.45, 0.0, -0.45)}
    assert 43.0 < angles[0.45] < 47.0
    assert 22.0 < angles[0.0] < 26.0
    assert angles[-0.45] < 17.0


def rebound_angle(a: float) -> float:
    """Angle (deg) from the left cushion's normal of ball 1's path right after it meets the
    cushion 30 degrees off its normal, struck at 2 m/s with side ``a``."""
    out = play({1: (1.2, W / 2)}, Shot(1, math.radians(60.0), 2.0, a, 0.0))
    hit = next(e for e in out.events if isinstance(e, BallCushion))
    vx, vy = velocity_at(out, 1, hit.t)
    return math.degrees(math.atan2(vx, -vy))


def impacts(
    balls: dict[int, tuple[float, float]], shot: Shot
) -> tuple[Run, list[tuple[Motion, Motion]]]:
    """Play ``shot``: the run and every (motion before, motion after) the cushion laws solved."""
    out = play(balls, shot)
    return out, out.cushion_impacts


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
    _, plain = impacts({1: (L - 0.5, W / 2)}, Shot(1, 0.0, 0.7, 0.0, 0.0))
    out, seen = impacts({1: (L - 0.5, W / 2)}, Shot(1, 0.0, 1.0, 0.0, 0.4))
    (plain_before, plain_after), (before, after) = plain[0], seen[0]
    assert before[3] == pytest.approx(before[0] / R) and plain_before[3] == pytest.approx(
        plain_before[0] / R
    )  # both arrive rolling, at different speeds
    # the normal speed comes back in the same ratio, topspin or not; the spin does not follow:
    # still turning towards the cushion, less, it is backspin on the way back
    assert after[0] / before[0] == pytest.approx(plain_after[0] / plain_before[0], rel=1e-9)
    assert after[0] < 0 < after[3] < before[3]
    hit = next(e for e in out.events if isinstance(e, BallCushion))
    assert out.segments is not None
    after = [s for s in out.segments[1] if s[0] >= hit.t]
    # the ball leaves sliding (its spin no longer matches its motion), then rolls back
    assert after[1][0] > hit.t
    assert abs(after[1][3]) < abs(after[0][3])
