"""Time control (section 12, R-clock): limits per round, the extension, over time a foul."""

import math

import pytest

from kinghill.envs.rules import EXTENSION, Frame, ShotClock, apply, judge_overtime
from kinghill.physics import TableState


@pytest.mark.parametrize(
    ("round_", "enabled", "limit"),
    [(1, True, None), (2, True, None), (3, True, 35.0), (4, True, 30.0), (5, True, 25.0)]
    + [(6, True, 20.0), (7, True, 20.0), (12, True, 20.0), (5, False, None)],
)
def test_limit_per_round_12_1_12_2_12_3(round_: int, enabled: bool, limit: float | None) -> None:
    """12.2: no clock in rounds 1-2; 12.3: 35 s from round 3, 5 s less a round, floor 20 s;
    12.1: time control may be off."""
    assert ShotClock(round=round_, enabled=enabled).limit == limit


@pytest.mark.parametrize(
    ("round_", "seconds", "claim", "in_time", "granted"),
    [
        (2, 500.0, None, True, False),  # 12.2: no clock
        (3, 35.0, None, True, False),  # exactly the limit is in time (R-clock)
        (3, 35.01, None, False, False),  # 12.4
        (3, 49.0, 34.9, True, True),  # 12.5/12.6: 35 + 15 s
        (3, 50.5, 10.0, False, True),
        (3, 40.0, 35.0, False, False),  # 12.7: a claim at the limit is too late
        (5, 24.0, None, True, False),
        (5, 26.0, None, False, False),
        (5, 39.0, 20.0, True, True),
        (7, 20.0, None, True, False),
        (7, 21.0, None, False, False),
        (7, 34.5, 19.0, True, True),
    ],
)
def test_judge_time_rounds_2_3_5_7(
    round_: int, seconds: float, claim: float | None, in_time: bool, granted: bool
) -> None:
    """The clock in rounds 2, 3, 5 and 7, with and without the extension (12.3-12.7)."""
    frame = Frame.new()
    verdict = ShotClock(round=round_).judge_time(frame, 0, seconds, claim_extension_at=claim)
    assert (verdict.in_time, verdict.is_foul, verdict.extension_granted) == (
        in_time,
        not in_time,
        granted,
    )
    assert verdict.frame.extension_used == (granted, False)
    if granted:
        assert verdict.allowed == ShotClock(round=round_).limit + EXTENSION  # type: ignore[operator]


def test_one_extension_per_player_per_frame_12_5() -> None:
    clock = ShotClock(round=3)
    first = clock.judge_time(Frame.new(), 1, 40.0, claim_extension_at=5.0)
    assert first.in_time and first.frame.extension_used == (False, True)
    second = clock.judge_time(first.frame, 1, 40.0, claim_extension_at=5.0)
    assert not second.in_time and not second.extension_granted
    other = clock.judge_time(first.frame, 0, 40.0, claim_extension_at=5.0)
    assert other.in_time and other.frame.extension_used == (True, True)


def test_over_time_is_a_foul_counting_toward_10_5_r_clock() -> None:
    """12.4 + R-clock: the time foul is judged and applied like any foul, table unchanged."""
    frame, state = Frame.new(), TableState.rack()
    verdict = ShotClock(round=4).judge_time(frame, 0, 31.0)
    assert verdict.is_foul
    frame, after = apply(verdict.frame, judge_overtime(verdict.frame), state)
    assert frame.fouls == (1, 0) and after == state


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="round"):
        ShotClock(round=0)
    with pytest.raises(ValueError, match="seconds: a decision's time is finite and 0 or more"):
        ShotClock(round=3).judge_time(Frame.new(), 0, -1.0)


@pytest.mark.parametrize(
    ("player", "seconds", "claim", "message"),
    [
        (2, 10.0, None, "player: 0 or 1, got 2"),
        (True, 10.0, None, "player: 0 or 1, got True"),
        (0, math.nan, None, "seconds: a decision's time is finite"),
        (0, math.inf, None, "seconds: a decision's time is finite"),
        (0, "10", None, "seconds: a number of seconds"),
        (0, 10.0, -1.0, "claim_extension_at: a decision's time is finite and 0 or more"),
        (0, 10.0, math.nan, "claim_extension_at: a decision's time is finite"),
    ],
)
def test_impossible_times_are_refused_naming_the_argument(
    player: int, seconds: float, claim: float | None, message: str
) -> None:
    """Issue 10: R-clock judges real decisions; NaN is not quietly over time (12.4)."""
    with pytest.raises(ValueError, match=message):
        ShotClock(round=3).judge_time(Frame.new(), player, seconds, claim_extension_at=claim)


def test_a_claim_after_the_decision_ended_is_not_granted() -> None:
    """12.5: the extension is claimed while the decision runs; a later claim extends nothing."""
    verdict = ShotClock(round=3).judge_time(Frame.new(), 0, 10.0, claim_extension_at=20.0)
    assert verdict.in_time and not verdict.extension_granted
    assert verdict.frame.extension_used == (False, False)
