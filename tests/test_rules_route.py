"""The observed route (R-route) and its match with the call (7.3, 7.4, 7.5, 8.1.1, R-void)."""

import pytest

from kinghill.envs.rules import Call, Route, Verdict, match_route, observe_route
from kinghill.physics import BallBall, BallCushion, CentreLine, Cushion, Pocket, Pocketed

C, P = Cushion, Pocket


def test_chain_follows_motion_r_route() -> None:
    """R-route: the chain is the cue ball, then each ball that the carrier strikes and that
    leads on to the coloured ball; touches before the next chain ball make up the leg."""
    log = [
        BallCushion(3, C.FRONT),
        BallBall(3, 6),  # 6 goes off elsewhere: a touch of the cue ball's leg
        BallBall(3, 4),
        BallCushion(3, C.REAR),  # after the cue ball passed motion on: not in the route
        BallCushion(4, C.RIGHT_REAR),
        BallBall(6, 5),  # outside the chain
        BallBall(4, 0),
        CentreLine(0),
        BallCushion(0, C.LEFT_FRONT),
        Pocketed(0, P.MIDDLE_LEFT),
    ]
    route = observe_route(log, 3)
    assert route == Route(
        (3, 4, 0), ((C.FRONT, 6), (C.RIGHT_REAR,), (C.LEFT_FRONT,)), P.MIDDLE_LEFT
    )
    assert str(route) == "3 [FRONT, ball 6] > 4 [RIGHT_REAR] > 0 [LEFT_FRONT] => MIDDLE_LEFT"


def test_coloured_never_moved_has_no_route() -> None:
    assert observe_route([BallBall(3, 4), BallCushion(4, C.REAR)], 3) is None
    assert observe_route([], 3) is None


def test_coloured_cue_ball_chain_is_just_the_coloured_ball() -> None:
    """R-route: with the coloured ball as cue ball the chain is [coloured]; balls it meets are
    touches of its leg (8.3)."""
    log = [BallBall(0, 4), BallBall(0, 5), BallCushion(0, C.REAR), BallBall(4, 6)]
    assert observe_route(log, 0) == Route((0,), ((4, 5, C.REAR),), None)


def test_second_strike_of_coloured_is_a_contact_of_its_leg() -> None:
    """R-route: a second strike of the coloured ball by any ball during its leg is its contact."""
    log = [BallBall(3, 0), BallCushion(0, C.RIGHT_REAR), BallBall(3, 0), Pocketed(0, P.REAR_LEFT)]
    assert observe_route(log, 3) == Route((3, 0), ((), (C.RIGHT_REAR, 3)), P.REAR_LEFT)


def _route(colour_leg: tuple, pocket: Pocket | None = P.REAR_LEFT, cue_leg: tuple = ()) -> Route:
    return Route((3, 0), (cue_leg, colour_leg), pocket)


@pytest.mark.parametrize(
    ("call", "route", "verdict", "reason"),
    [
        (Call.plain(3, P.REAR_LEFT), _route(()), Verdict.FULFILLED, ""),
        # 7.5: contacts with the called pocket's cushions just before the drop are ignored
        (Call.plain(3, P.REAR_LEFT), _route((C.REAR, C.LEFT_REAR)), Verdict.FULFILLED, ""),
        (Call.double(3, P.REAR_LEFT, [C.REAR]), _route(()), Verdict.FULFILLED, ""),
        # 7.5 does not exempt a jaw contact followed by another contact
        (
            Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR]),
            _route((C.LEFT_REAR, C.RIGHT_REAR)),
            Verdict.DEVIATED,
            "the coloured ball touched LEFT_REAR where the call was RIGHT_REAR",
        ),
        (
            Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR]),
            _route((C.RIGHT_REAR, C.FRONT)),
            Verdict.DEVIATED,
            "the coloured ball touched FRONT, which was not called",
        ),
        (
            Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR]),
            _route(()),
            Verdict.DEVIATED,
            "the coloured ball did not touch RIGHT_REAR, which was called",
        ),
        # 8.1.1: an abricol with a white cue ball may touch the jaws' cushions anywhere
        (
            Call.abricol(3, P.REAR_LEFT, [C.FRONT], [C.RIGHT_REAR]),
            _route((C.REAR, C.RIGHT_REAR), cue_leg=(C.FRONT,)),
            Verdict.FULFILLED,
            "",
        ),
        (
            Call.abricol(3, P.REAR_LEFT, [C.FRONT]),
            _route((), cue_leg=(C.FRONT, C.RIGHT_FRONT)),
            Verdict.DEVIATED,
            "ball 3 touched RIGHT_FRONT, which was not called",
        ),
        (
            Call.plain(3, P.REAR_LEFT),
            _route((), P.REAR_RIGHT),
            Verdict.DEVIATED,
            "the coloured ball dropped in REAR_RIGHT, the call was REAR_LEFT",
        ),
        (
            Call.combination(3, [4], P.REAR_LEFT),
            _route(()),
            Verdict.DEVIATED,
            "motion reached the coloured ball by 3 > 0, the call was 3 > 4 > 0",
        ),
        # R-void: on the called route so far, but short of the pocket
        (
            Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR]),
            _route((C.RIGHT_REAR,), None),
            Verdict.SHORT,
            "",
        ),
        (Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR]), _route((), None), Verdict.SHORT, ""),
        # 7.5 needs a drop: a jaw rattle that stays out is an unannounced contact
        (
            Call.plain(3, P.REAR_LEFT),
            _route((C.REAR,), None),
            Verdict.DEVIATED,
            "the coloured ball touched REAR, which was not called",
        ),
        (
            Call.plain(3, P.REAR_LEFT),
            _route((), None, cue_leg=(C.FRONT,)),
            Verdict.DEVIATED,
            "ball 3 touched FRONT, which was not called",
        ),
    ],
)
def test_match_route_7_3_7_4_7_5_8_1_1(
    call: Call, route: Route, verdict: Verdict, reason: str
) -> None:
    """7.3 exact match, 7.4 deviation (with the first difference named), 7.5/8.1.1 exemptions."""
    got = match_route(call, route)
    assert (got.verdict, got.reason) == (verdict, reason)
