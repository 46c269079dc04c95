"""Applying rulings to the frame and the table: credits, fouls, spotting, the turn, the 10.4
choice, handicaps and the frame's end (3.2, 5.8, 5.9, 10.1-10.5, 11.4, R-handicap, R-truncate)."""

from dataclasses import replace

import pytest

from kinghill.envs.rules import (
    Call,
    Decision,
    EndReason,
    Frame,
    InvariantError,
    apply,
    check_invariants,
    choose,
    invariant_violations,
    judge,
    judge_overtime,
)
from kinghill.physics import BallBall as hit
from kinghill.physics import BallCushion as cush
from kinghill.physics import Cushion as C
from kinghill.physics import Event, Pocket, TableState
from kinghill.physics import Pocketed as pot

RL = Pocket.REAR_LEFT
BREAK_LOG: list[Event] = [hit(1, 2), cush(2, C.REAR), cush(2, C.LEFT_REAR)]


def play(
    frame: Frame, state: TableState, cue: int, call: Call | None, log: list[Event]
) -> tuple[Frame, TableState]:
    """Judge and apply one shot whose final table is ``state`` minus the balls potted."""
    ruling = judge(frame, cue, call, log)
    for b in ruling.potted:
        state = state.remove(b)
    after = apply(frame, ruling, state)
    check_invariants(*after, before=frame)
    return after


def broken(required: tuple[int, int] = (3, 3)) -> tuple[Frame, TableState]:
    """A frame after a legal break that potted nothing: player 1 to shoot."""
    return play(Frame.new(required=required), TableState.rack(), 1, None, BREAK_LOG)


def test_legal_break_hands_on_the_turn_4_7() -> None:
    frame, _ = broken()
    assert (frame.to_move, frame.decision, frame.shots) == (1, Decision.SHOT, 1)


def test_foul_recorded_then_10_4_choice_both_ways_10_1_10_4() -> None:
    """10.1/10.2: the first foul is recorded and the frame goes on; 10.4: the opponent plays on
    or hands the shot back."""
    frame, state = broken()
    fouled, state = play(frame, state, 3, None, [cush(3, C.FRONT)])  # a miss by player 1
    assert (fouled.fouls, fouled.decision, fouled.to_move, fouled.fouled_by) == (
        (0, 1),
        Decision.CHOICE,
        0,
        1,
    )
    on = choose(fouled, play_on=True)
    back = choose(fouled, play_on=False)
    assert (on.to_move, on.decision, on.fouled_by) == (0, Decision.SHOT, None)
    assert (back.to_move, back.decision, back.fouled_by) == (1, Decision.SHOT, None)
    with pytest.raises(ValueError, match="no 10.4 choice"):
        choose(on, play_on=True)


def test_second_foul_loses_the_frame_10_5() -> None:
    frame, state = broken()
    frame, state = play(frame, state, 3, None, [cush(3, C.FRONT)])
    frame, state = play(choose(frame, False), state, 4, None, [cush(4, C.FRONT)])
    assert frame.result is not None
    assert (frame.winner, frame.result.reason, frame.is_over) == (0, EndReason.SECOND_FOUL, True)
    assert frame.decision is Decision.OVER
    with pytest.raises(ValueError, match="frame is over"):
        apply(frame, judge_overtime(replace(frame, result=None, decision=Decision.SHOT)), state)


def test_fouls_never_take_credits_5_8_5_9_and_spot_whites_5_7() -> None:
    frame, state = broken()
    frame, state = play(frame, state, 3, None, [hit(3, 4), pot(4, RL)])
    assert frame.credited == ((), (4,)) and frame.to_move == 1  # R-turn: plays again
    frame, state = play(
        frame, state, 3, None, [hit(3, 5), hit(5, 6), pot(6, RL)] + [cush(3, C.FRONT)]
    )
    assert frame.credited == ((), (4, 6))
    # a foul that pots a white: the white is spotted, earlier credits stay
    frame, after = play(frame, state, 3, None, [cush(3, C.FRONT), pot(3, RL)])
    assert frame.credited == ((), (4, 6)) and after.on_table[3]
    assert after.xy(3) == (
        pytest.approx(after.spec.length - after.spec.radius),
        after.spec.width / 2,
    )


def test_colour_on_the_break_spotted_on_the_rear_spot_4_5() -> None:
    """4.4/4.5: a coloured ball potted on the break goes back on the rear spot (here taken by
    the apex ball, so the nearest free point on the spotting line, 11.3)."""
    state = TableState.rack()
    frame, after = play(Frame.new(), state, 1, None, [*BREAK_LOG, pot(0, RL)])
    assert frame.fouls == (0, 0) and after.on_table[0]
    x, y = after.xy(0)
    assert y == pytest.approx(state.spec.width / 2)
    assert abs(x - state.spec.rear_spot[0]) == pytest.approx(2 * state.spec.radius)


def test_legal_colour_pot_ends_the_frame_3_2() -> None:
    frame, state = broken()
    ready = replace(frame, credited=((), (4, 5, 6)))
    state = state.remove(4).remove(5).remove(6)
    won, after = play(ready, state, 3, Call.plain(3, RL), [hit(3, 0), pot(0, RL)])
    assert (won.winner, won.decision, after.on_table[0]) == (1, Decision.OVER, False)


@pytest.mark.parametrize("required", [2, 4])
def test_handicaps_2_and_4_r_handicap(required: int) -> None:
    """R-handicap/5.3/5.5/6.1: player 1 needs ``required`` whites; the colour is theirs after
    exactly that many, and more is a 5.6 foul."""
    frame, state = broken(required=(3, required))
    whites = [2, 3, 4, 5, 6, 7][:required]
    for w in whites:
        frame, state = play(frame, state, 0, None, [hit(0, w), pot(w, RL)])
    assert frame.credit_counts == (0, required) and frame.has_required(1)
    assert frame.to_move == 1
    cue = next(b for b in state.balls_on_table() if b != 0)
    over = judge(frame, cue, None, [hit(cue, 0), cush(0, C.FRONT), pot(cue, RL)])
    assert over.is_foul and "5.6" in over.fouls[0].rules
    won, _ = play(frame, state, cue, Call.plain(cue, RL), [hit(cue, 0), pot(0, RL)])
    assert won.winner == 1


def test_required_below_three_allows_colour_earlier_than_three() -> None:
    """R-handicap: a head start of 1 (required 2) makes the plain pot legal after two whites."""
    frame, state = broken(required=(3, 2))
    frame = replace(frame, credited=((), (4, 5)))
    state = state.remove(4).remove(5)
    won, _ = play(frame, state, 3, Call.plain(3, RL), [hit(3, 0), pot(0, RL)])
    assert won.winner == 1


def test_truncated_at_the_shot_limit_r_truncate() -> None:
    frame, state = play(Frame.new(shot_limit=2), TableState.rack(), 1, None, BREAK_LOG)
    assert not frame.is_over
    frame, _ = play(frame, state, 3, None, [hit(3, 4), cush(4, C.FRONT)])
    assert frame.is_truncated and frame.winner is None and frame.shots == 2


def test_time_foul_applied_table_unchanged_12_4() -> None:
    """12.4: the time foul is recorded, no shot is played, the table stays as it is; after a
    time foul before the break the shot chosen by 10.4 is still the break."""
    frame, state = Frame.new(), TableState.rack()
    ruling = judge_overtime(frame)
    fouled, after = apply(frame, ruling, state)
    assert after == state and fouled.shots == 0 and fouled.fouls == (1, 0)
    assert choose(fouled, play_on=True).decision is Decision.BREAK
    assert choose(fouled, play_on=False) == replace(
        fouled, to_move=0, decision=Decision.BREAK, fouled_by=None
    )


def test_apply_rejects_a_ruling_for_another_decision() -> None:
    frame, state = broken()
    ruling = judge(frame, 3, None, [hit(3, 4)])
    with pytest.raises(ValueError, match="player 1's shot"):
        apply(replace(frame, to_move=0), ruling, state)


def test_invariants_catch_a_lost_or_duplicated_ball() -> None:
    """Nothing lost: every ball in exactly one place; credits within the requirement."""
    frame, state = Frame.new(), TableState.rack()
    assert invariant_violations(frame, state) == []
    assert invariant_violations(frame, state.remove(4)) == [
        "ball 4 is in 0 places (on table, credits, won pot)"
    ]
    twice = replace(frame, credited=((4,), ()))
    assert "ball 4 is in 2 places" in invariant_violations(twice, state)[0]
    over = replace(frame, credited=((2, 3, 4, 5), ()))
    state4 = state.remove(2).remove(3).remove(4).remove(5)
    assert invariant_violations(over, state4) == ["player 0 has 4 whites, over 3"]
    fewer = replace(frame, credited=((2,), ()))
    with pytest.raises(InvariantError, match="fell"):
        check_invariants(
            fewer, state.remove(2).remove(3), before=replace(frame, credited=((2, 3), ()))
        )
