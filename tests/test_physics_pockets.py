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
    TableSpec,
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


RAILS = [
    ((L - 0.8, R), 0.0, Pocket.REAR_RIGHT),
    ((L - 0.8, W - R), 0.0, Pocket.REAR_LEFT),
    ((0.8, R), math.pi, Pocket.FRONT_RIGHT),
    ((0.8, W - R), math.pi, Pocket.FRONT_LEFT),
]


@pytest.mark.parametrize("speed", [0.5, 0.8, 1.0, 1.2])
@pytest.mark.parametrize(("start", "phi", "pocket"), RAILS)
def test_ball_rolling_along_long_cushion_drops_in_corner(
    start: tuple[float, float], phi: float, pocket: Pocket, speed: float
) -> None:
    """A ball rolling frozen along a long cushion into a corner drops at soft to moderate pace:
    it passes over the slate's cut under the near jaw's overhang slowly enough to sink before
    the far jaw can throw it back."""
    got, _ = pocketed_in(start, phi, speed)
    assert got is pocket


@pytest.mark.parametrize("speed", [2.0, 3.0])
@pytest.mark.parametrize(("start", "phi", "pocket"), RAILS[:2])
def test_fast_ball_along_the_cushion_rattles_out_of_the_corner(
    start: tuple[float, float], phi: float, pocket: Pocket, speed: float
) -> None:
    """Faster, the same rail ball crosses the hole in less than the time it takes to sink
    (``fall_drop``), meets the far jaw head on and is thrown back out: a 73 mm mouth leaves
    51.6 mm across a ball running along the rail, so the far jaw is always in its way."""
    got, res = pocketed_in(start, phi, speed)
    assert got is None
    assert any(
        isinstance(e, BallCushion) and e.cushion is not Cushion.RIGHT_REAR for e in res.events
    )


@pytest.mark.parametrize("speed", [0.5, 1.0, 2.0])
def test_ball_hitting_a_jaw_at_a_bad_angle_rattles_out(speed: float) -> None:
    """Test 6: straight onto the rounded tip of a corner jaw: it bounces out, logged as a touch
    of the cushion the jaw belongs to."""
    jaw = GEOMETRY.pockets[Pocket.REAR_RIGHT].mouth_ends[1]  # on the right rear cushion
    got, res = pocketed_in((jaw[0] - 0.004, 0.4), -math.pi / 2, speed)
    assert got is None
    touches = [e for e in res.events if isinstance(e, BallCushion)]
    assert touches[0].cushion is Cushion.RIGHT_REAR


def test_geometry_mouths_aims_and_captures() -> None:
    """The mouth's ends are a mouth apart; aims and capture circles lie beyond the playing area,
    out of reach of any ball centre that stays on it."""
    assert len(GEOMETRY.pockets) == 6 and len(GEOMETRY.cushions) == 6
    for pocket, p in GEOMETRY.pockets.items():
        mouth = SPEC.middle_mouth if pocket.name.startswith("MIDDLE") else SPEC.corner_mouth
        assert math.dist(*p.mouth_ends) == pytest.approx(mouth, abs=1e-12)
        cx, cy = p.capture_centre
        nearest = (min(max(cx, R), L - R), min(max(cy, R), W - R))
        assert math.dist(nearest, (cx, cy)) > p.capture_radius
        assert not (R < p.aim[0] < L - R and R < p.aim[1] < W - R)
    for cushion, c in GEOMETRY.cushions.items():
        assert len(c.outline) >= 8, cushion
        assert c.cushion is cushion


@pytest.mark.parametrize("pocket", list(Pocket))
def test_the_mouth_is_the_free_gap_at_the_jaws_narrowest_point(pocket: Pocket) -> None:
    """The free gap between the rounded tips is the spec's mouth (73 / 83 mm), and wherever
    the facings behind come closer (the middles' close in 14 degrees), a ball touching them is
    already past the fall edge: on the slate the mouth is the narrowest point (1 um)."""
    p = GEOMETRY.pockets[pocket]
    mouth = SPEC.middle_mouth if p.kind == "middle" else SPEC.corner_mouth
    a, b = pocket.adjacent_cushions
    tips = [el for el in GEOMETRY.elements if el[0] == "circle" and el[1] in (a, b)]
    tips = [el for el in tips if math.dist((el[2], el[3]), p.mouth_centre) < 0.1]
    assert len(tips) == 2
    (_, _, x0, y0, r0), (_, _, x1, y1, r1) = tips
    assert math.dist((x0, y0), (x1, y1)) - r0 - r1 == pytest.approx(mouth, abs=1e-9)
    facings = [el for el in GEOMETRY.elements if el[0] == "line" and el[8] and el[1] in (a, b)]
    facings = [el for el in facings if math.dist((el[2], el[3]), p.mouth_centre) < 0.1]
    (_, _, px, py, qx, qy, _, _, _), other = facings
    closer = 0
    for t in (0.0, 0.25, 0.5, 1.0):  # points down the other facing, measured to this one
        ox, oy = other[2] + t * (other[4] - other[2]), other[3] + t * (other[5] - other[3])
        ex, ey = qx - px, qy - py
        u = max(0.0, min(1.0, ((ox - px) * ex + (oy - py) * ey) / (ex * ex + ey * ey)))
        if math.hypot(ox - px - u * ex, oy - py - u * ey) < mouth - 1e-9:
            closer += 1
            centre = (ox + R * other[6], oy + R * other[7])  # a ball touching the facing there
            assert math.dist(centre, p.capture_centre) < p.capture_radius
    assert (closer > 0) == (p.kind == "middle")


def test_the_fall_edge_lies_where_the_spec_puts_it() -> None:
    """Each pocket's aim point (where the fall edge crosses the axis) lies the fall depth behind
    the mouth line, and the slate's cut has the spec's radius."""
    for p in GEOMETRY.pockets.values():
        depth = SPEC.corner_fall_depth if p.kind == "corner" else SPEC.middle_fall_depth
        cut = SPEC.corner_fall_radius if p.kind == "corner" else SPEC.middle_fall_radius
        along = (p.aim[0] - p.mouth_centre[0]) * p.axis[0] + (
            p.aim[1] - p.mouth_centre[1]
        ) * p.axis[1]
        assert along == pytest.approx(depth, abs=1e-12)
        assert p.capture_radius == cut
        assert math.dist(p.aim, p.capture_centre) == pytest.approx(cut, abs=1e-12)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("corner_fall_depth", -0.02, "within reach of a ball standing on the playing area"),
        ("middle_fall_radius", 0.005, "too small"),
        ("corner_facing_angle", math.radians(70.0), "under 60 degrees"),
        ("middle_fall_depth", -0.005, "closes the facings in front of the fall edge"),
        ("corner_facing_angle", math.radians(-30.0), "corner_fall_depth at -0.0"),
    ],
)
def test_spec_refuses_pockets_that_cannot_be_built(field: str, value: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableSpec(**{field: value})
