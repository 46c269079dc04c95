"""The call (6.3, 7.1, 7.2, R-route, R-type): shape checks, builders, kinds, table checks."""

from dataclasses import replace

import pytest

from kinghill.envs.rules import (
    MAX_CHAIN,
    MAX_TOUCHES,
    Call,
    Decision,
    Frame,
    ShotKind,
    validate_call,
    validate_shot,
)
from kinghill.physics import Cushion, Pocket, TableState

C, P = Cushion, Pocket
PLAIN, DOUBLE, ABRICOL, COMBINATION = (
    ShotKind.PLAIN,
    ShotKind.DOUBLE,
    ShotKind.ABRICOL,
    ShotKind.COMBINATION,
)


@pytest.mark.parametrize(
    ("call", "kinds"),
    [
        (Call.plain(3, P.REAR_LEFT), {PLAIN}),
        (Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR]), {DOUBLE}),
        # 7.5: a called contact with the pocket's jaw cushion just before the drop is no double
        (Call.double(3, P.REAR_LEFT, [C.LEFT_REAR]), {PLAIN}),
        (Call.double(3, P.REAR_LEFT, [C.RIGHT_REAR, C.REAR]), {DOUBLE}),
        (Call.abricol(3, P.REAR_LEFT, [C.FRONT]), {ABRICOL}),
        (Call.abricol(3, P.REAR_LEFT, [C.FRONT], [C.RIGHT_REAR]), {ABRICOL, DOUBLE}),
        (Call.combination(3, [4], P.REAR_LEFT), {COMBINATION}),
        (Call.combination(3, [4, 5], P.REAR_LEFT, [C.RIGHT_FRONT]), {COMBINATION, DOUBLE}),
        (Call.carom(P.REAR_LEFT, [4, 5]), {COMBINATION}),  # 8.3: coloured ball as cue ball
        (Call.carom(P.REAR_LEFT, [C.FRONT]), {DOUBLE}),
        (Call.plain(0, P.REAR_LEFT), {PLAIN}),
        # a ball the cue ball touches on its leg takes part (R-type)
        (Call(P.REAR_LEFT, (3, 0), ((5,), ())), {COMBINATION}),
        (Call(P.REAR_LEFT, (3, 0), ((C.LEFT_FRONT, 5), ())), {ABRICOL, COMBINATION}),
    ],
)
def test_kinds_r_type(call: Call, kinds: set[ShotKind]) -> None:
    """R-type: the kinds follow from the called route, several at once."""
    assert call.kinds == kinds


def test_whites_taking_part_counts_white_cue_ball_r_early() -> None:
    """8.2/R-early: the cue ball counts when it is white; the coloured ball never counts."""
    assert Call.combination(3, [4], P.REAR_LEFT).whites_taking_part == 2
    assert Call.carom(P.REAR_LEFT, [4]).whites_taking_part == 1
    assert Call.carom(P.REAR_LEFT, [4, C.REAR, 6]).whites_taking_part == 2


def test_single_adjacent_abricol_8_1_exception() -> None:
    """8.1: an abricol off one cushion adjacent to the called pocket is the exception."""
    assert Call.abricol(3, P.REAR_LEFT, [C.REAR]).is_single_adjacent_abricol
    assert Call.abricol(3, P.REAR_LEFT, [C.LEFT_REAR]).is_single_adjacent_abricol
    assert not Call.abricol(3, P.REAR_LEFT, [C.FRONT]).is_single_adjacent_abricol
    assert not Call.abricol(3, P.REAR_LEFT, [C.REAR, C.LEFT_REAR]).is_single_adjacent_abricol
    # R-early: "touches a single cushion (once or more)": distinct cushions count
    assert Call.abricol(3, P.REAR_LEFT, [C.REAR, C.REAR]).is_single_adjacent_abricol
    assert not Call.abricol(3, P.REAR_LEFT, [C.FRONT, C.FRONT]).is_single_adjacent_abricol


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Call(P.REAR_LEFT, (), ()), "chain: 1 to 4"),
        (lambda: Call(P.REAR_LEFT, (1, 2, 3, 4, 0), ((),) * 5), "chain: 1 to 4"),
        (lambda: Call(P.REAR_LEFT, (1, 2), ((), ())), "must end with the coloured ball"),
        (lambda: Call(P.REAR_LEFT, (1, 2, 1, 0), ((),) * 4), "holds a ball twice"),
        (lambda: Call(P.REAR_LEFT, (1, 9, 0), ((),) * 3), "ball ids are 0-7"),
        (lambda: Call(P.REAR_LEFT, (1, 0), ((),)), "one leg per chain ball"),
        (lambda: Call.double(1, P.REAR_LEFT, [C.REAR] * 4), "at most 3 touches"),
        (lambda: Call(P.REAR_LEFT, (1, 0), (("REAR",), ())), "a touch is a Cushion"),
        (lambda: Call(P.REAR_LEFT, (1, 0), ((1,), ())), "cannot touch itself"),
        (lambda: Call(P.REAR_LEFT, (1, 2, 0), ((0,), (), ())), "before ball 0 is reached"),
        (lambda: Call(5, (1, 0), ((), ())), "pocket"),  # type: ignore[arg-type]
        (lambda: Call.abricol(0, P.REAR_LEFT, [C.FRONT]), "white cue ball"),
        (lambda: Call.combination(0, [3], P.REAR_LEFT), "carom"),
        # issue 10: builders that silently built another kind of call
        (lambda: Call.double(1, P.REAR_LEFT, []), "double: name at least one cushion"),
        (lambda: Call.abricol(1, P.REAR_LEFT, []), "abricol: name at least one cushion"),
        (lambda: Call.double(1, P.REAR_LEFT, [4]), "double cushions: each is a Cushion, got 4"),
        (lambda: Call.abricol(1, P.REAR_LEFT, [C.FRONT, 5]), "abricol cushions: each is a"),
        (lambda: Call.carom(P.REAR_LEFT, []), "carom: name at least one touch"),
    ],
)
def test_call_that_cannot_be_meant_is_rejected(make, message: str) -> None:  # type: ignore[no-untyped-def]
    """7.2, R-route: a malformed call fails before anything is played, naming the wrong part."""
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: Call.double(1, P.REAR_LEFT, None), "double cushions"),
        (lambda: Call.abricol(1, P.REAR_LEFT, None), "abricol cushions"),
        (lambda: Call.abricol(1, P.REAR_LEFT, [C.FRONT], None), "colour_leg"),
        (lambda: Call.combination(1, None, P.REAR_LEFT), "combination via"),
        (lambda: Call.combination(1, [], P.REAR_LEFT, 5), "colour_leg"),
        (lambda: Call.carom(P.REAR_LEFT, None), "carom touches"),
        (lambda: Call(P.REAR_LEFT, None, ((),)), "call chain"),
        (lambda: Call(P.REAR_LEFT, (1, 0), None), "call legs"),
        (lambda: Call(P.REAR_LEFT, (1, 0), (None, ())), "call leg of ball 1"),
        (lambda: Call.double(1, P.REAR_LEFT, "REAR"), "double cushions"),
    ],
)
def test_a_missing_sequence_is_a_type_error_naming_it(make, name: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 10: None (or a string) where a sequence belongs names the argument."""
    with pytest.raises(TypeError, match=f"^{name}: expected a sequence"):
        make()


def test_caps_of_design() -> None:
    """design.md: a called chain holds at most 4 balls, a leg at most 3 touches."""
    assert (MAX_CHAIN, MAX_TOUCHES) == (4, 3)
    Call(P.REAR_LEFT, (1, 2, 3, 0), ((C.FRONT, 4, C.REAR), (), (), (5, 6, 7)))


def test_validate_call_against_the_table() -> None:
    """1.4, 7.2: cue ball and every named ball must be on the table; the chain starts with it."""
    state = TableState.rack().remove(5)
    validate_call(None, state, 3)
    validate_call(Call.combination(3, [4], P.REAR_LEFT), state, 3)
    with pytest.raises(ValueError, match="start with the cue ball 4"):
        validate_call(Call.plain(3, P.REAR_LEFT), state, 4)
    with pytest.raises(ValueError, match="ball 5, which is not on the table"):
        validate_call(Call.combination(3, [5], P.REAR_LEFT), state, 3)
    with pytest.raises(ValueError, match="ball 5, which is not on the table"):
        validate_call(Call.carom(P.REAR_LEFT, [5]), state, 0)
    with pytest.raises(ValueError, match="cue ball 5 is not on the table"):
        validate_call(None, state, 5)
    with pytest.raises(ValueError, match="cue ball: a ball id"):
        validate_call(None, state, 8)


def test_validate_shot_break_and_choice() -> None:
    """1.3, 4.1, 4.4: the break: white 1 from the house, no call; no shot during a 10.4 choice."""
    frame, state = Frame.new(), TableState.rack()
    validate_shot(frame, state, 1, None)
    with pytest.raises(ValueError, match="white 1"):
        validate_shot(frame, state, 3, None)
    with pytest.raises(ValueError, match="no call on the break"):
        validate_shot(frame, state, 1, Call.plain(1, P.REAR_LEFT))
    moved = state.place(1, (state.spec.length / 2, 0.3))
    with pytest.raises(ValueError, match="from the house"):
        validate_shot(frame, moved, 1, None)
    with pytest.raises(ValueError, match="10.4 choice"):
        validate_shot(replace(frame, decision=Decision.CHOICE, fouled_by=1), state, 1, None)
    validate_shot(replace(frame, decision=Decision.SHOT), moved, 0, Call.carom(P.REAR_LEFT, [7]))


def test_cushion_and_ball_touches_differ() -> None:
    """Cushion is an int too: REAR (1) and ball 1 must not compare equal inside a call."""
    a = Call(P.REAR_LEFT, (3, 0), ((C.REAR,), ()))
    b = Call(P.REAR_LEFT, (3, 0), ((1,), ()))
    assert a != b
    assert a == Call.abricol(3, P.REAR_LEFT, [C.REAR])
    assert len({a, b, Call.abricol(3, P.REAR_LEFT, [C.REAR])}) == 2


def test_str_reads_as_a_route() -> None:
    call = Call.combination(3, [4], P.REAR_LEFT, [C.RIGHT_REAR])
    assert str(call) == "3 > 4 > 0 [RIGHT_REAR] => REAR_LEFT"
