"""Regressions: exact layouts and shots (as played) that once stuck or broke the engine.

Each was found by playing real frames or frame-like layouts (spotted rows touching the rear
cushion and each other, balls frozen to cushions, racks); each must now finish with the balls on
the playing area, no energy gained and a consistent log.
"""

import numpy as np
import pytest
from physics_support import SPEC, R, Run, assert_physical, layout, run

from kinghill.physics import BallCushion, Pocketed, Shot, TableState
from kinghill.physics.cue import strike

Balls = dict[int, tuple[float, float]]
RACK: Balls = {b: (float(x), float(y)) for b, (x, y) in enumerate(TableState.rack().positions)}
"""The rack (0.1 mm gaps; white 1 on the house line)."""
ROW = [(x, 0.8875) for x in (3.516, 3.448, 3.38, 3.312, 3.2439999999999998, 3.1759999999999997)]
"""Whites spotted in a row from the rear cushion, exactly touching it and each other (as the
referee's spotting computes them)."""
SPOTTED_ROW: Balls = {0: (2.6624999999999996, 0.8875)} | dict(
    zip((4, 3, 5, 6, 2, 1), ROW, strict=True)
)
"""The coloured ball on the rear spot, six whites in the row."""
RACK_WITH_SPOTTED: Balls = RACK | dict(zip((2, 3, 4, 7), ROW[:4], strict=True))
FROZEN_ON_LONG_CUSHION: Balls = {
    0: (0.3364461959101811, 0.8875),
    1: (0.13301602994673675, 0.034),
    2: (0.20101602994673676, 0.034),
    3: (0.2690160299467368, 0.034),
}
"""Three whites touching each other and the right-front cushion."""
BROKEN_RACK: Balls = {b: p for b, p in RACK.items() if b != 1} | {
    2: (2.993140668405274, 1.540023184407316)
}
"""A real frame's position (noisy shots between): the rack with two whites gone."""
ON_MIDDLE_MOUTH: Balls = {
    0: (2.5497314634884405, 0.8875),
    1: (1.6481152890916415, 0.034),
    2: (1.7161152890916416, 0.034),
    3: (1.7841152890916416, 0.034),
}
"""Three whites touching on the right long cushion, the last one over the middle pocket's mouth."""


def play(balls: Balls, shot: Shot) -> Run:
    pos, on = layout(balls)
    out = run(SPEC, pos, on, shot.cue_ball, strike(shot, R), record_energy=True)
    assert_physical(out, on, shot)
    return out


@pytest.mark.parametrize(
    ("balls", "shot"),
    [
        (
            SPOTTED_ROW,
            Shot(
                2,
                0.016000881182656322,
                5.467601868451961,
                -0.33977420928029967,
                -0.16956835800614137,
            ),
        ),
        (
            RACK_WITH_SPOTTED,
            Shot(
                4, 4.924775453460612, 3.2868621320623905, -0.20166760060680095, 0.4352466454614538
            ),
        ),
        (
            FROZEN_ON_LONG_CUSHION,
            Shot(
                1, 0.004299978040189412, 7.991065956016332, 0.3867959695649557, 0.2184493020532544
            ),
        ),
        (
            BROKEN_RACK,
            Shot(
                6,
                1.3095359915518452,
                2.2042760878040872,
                -0.005355892481112079,
                0.01412427686340899,
            ),
        ),
        (
            RACK | {1: (0.05274899129454107, 0.9950478100259843)},
            Shot(
                1,
                -0.04117285011817216,
                1.621258909249484,
                0.002494352054847115,
                -0.006663728770595743,
            ),
        ),
        (
            RACK | {1: (0.16272204061840007, 1.0101771537797921)},
            Shot(
                1,
                -0.0487014529135968,
                1.5845562403595022,
                -0.017470725401124987,
                0.0029482472199621698,
            ),
        ),
    ],
)
def test_touching_balls_sliding_past_each_other_do_not_stick(balls: Balls, shot: Shot) -> None:
    """Two touching balls moving apart sideways (the gap's minimum at the contact, rounding below
    zero) are not a new contact at every instant: the shot ends (once: event cap exceeded).
    Layouts: spotted rows, a frozen row on a cushion, and real frames (two soft breaks, a
    broken rack), each with the shot as played."""
    out = play(balls, shot)
    assert len(out.events) < 500


def test_cue_ball_struck_from_inside_the_rack_finishes() -> None:
    """The earlier cluster repro (coloured ball struck out of the rack, exact shot)."""
    out = play(
        RACK | {1: (1.0120927364645473, 0.5581048976374601)},
        Shot(0, 2.7635673190201073, 1.9654869109392168, 0.0640726163983345, -0.46842217445373535),
    )
    assert len(out.events) < 500


def test_ball_driven_into_a_cushion_by_its_spin_runs_along_it() -> None:
    """A ball touching a cushion whose slip drives it into the cushion leans on it and runs
    along it, instead of an endless train of nanometre bounces (once: event cap exceeded)."""
    balls = {
        0: (2.5862829984833877, 0.8875),
        1: (1.0899774188090796, 1.7409999999999999),
        2: (1.1579774188090797, 1.7409999999999999),
    }
    out = play(
        balls,
        Shot(1, 0.007041228532835509, 7.604482343703253, 0.33792958425717606, 0.3122935180574781),
    )
    assert len(out.events) < 500


@pytest.mark.parametrize(
    "shot",
    [
        Shot(0, -2.2748752837195947, 0.666482461236801, -0.28860325673251447, 0.21015167462272133),
        Shot(3, 3.1620502598336357, 3.5902894415562603, 0.31381006124357796, 0.17133384744978533),
    ],
)
def test_ball_stopped_over_a_pocket_mouth_stays_or_drops_validly(shot: Shot) -> None:
    """A ball brought to rest by a press (not at the end of its roll) with its centre over a
    pocket mouth either hangs there, a valid place on the table, or has dropped past the fall edge
    (once: it stayed in the mouth and the final state was invalid)."""
    out = play(ON_MIDDLE_MOUTH, shot)
    final = TableState(SPEC, np.array(out.positions), np.array(out.on_table))
    dropped = [e.ball for e in out.events if isinstance(e, Pocketed)]
    assert all(final.on_table[b] != (b in dropped) for b in ON_MIDDLE_MOUTH)


def test_spinning_ball_at_a_jaw_tip_does_not_chatter() -> None:
    """A ball all but stopped at a jaw tip, still sliding on its spin along the tip's tangent, is
    not pressed into it by the rounding of ``D . A`` (once: event cap exceeded)."""
    balls = {0: (2.6624999999999996, 0.8875), 1: (3.448, 0.8875), 2: (3.516, 0.8875)}
    shot = Shot(2, 3.7708572094619424, 3.7720866804759674, 0.313188132018009, -0.31838522432219674)
    out = play(balls, shot)
    assert len(out.events) < 500


def test_ball_leaving_a_cushion_that_its_spin_brings_back_meets_it_again() -> None:
    """A ball touching a cushion, moving off it with spin that drives it back, bounces when it
    returns (at t = 2 v / (mu_s g)), not through the cushion (once: a touching start hid the
    return and the ball sank into the cushion until its slide ended)."""
    pos, on = layout({1: (1.0, R)})
    out = run(SPEC, pos, on, 1, (0.0, 0.2, 2.0 / R, 0.0, 0.0), record_energy=True)
    assert_physical(out, on)
    assert isinstance(out.events[0], BallCushion)
    assert out.events[0].t == pytest.approx(2 * 0.2 / (SPEC.mu_slide * SPEC.gravity), rel=1e-9)


def test_follow_through_a_frozen_ball_graze_is_no_contact() -> None:
    """A cue ball with follow driving on behind a frozen object ball along a cushion: after a
    push the two slide past each other within rounding of touching, which is not a new contact
    (once: detected as one at once, the last-resort stop froze both balls at 0.6 m/s)."""
    balls = {
        0: (1.427420768015141, 0.8875),
        1: (0.7466961451761621, 0.034),
        2: (0.8146961451761621, 0.034),
        3: (0.8826961451761621, 0.034),
    }
    shot = Shot(3, 3.1468325733600273, 7.887917397105878, -0.34531775424057776, 0.18580176808860713)
    out = play(balls, shot)
    assert out.positions[2][0] < 0.7
    assert not out.on_table[3] or out.positions[3][0] < 0.7
