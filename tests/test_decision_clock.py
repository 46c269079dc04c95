"""The clock an agent reads while it decides (section 12, R-clock): the allowance per round, the
time left with and without the 12.5 extension, claims judged at their moment, the frame player
handing the clock over, and the search agent thinking to it."""

import math
import time
from dataclasses import replace

import pytest

from kinghill.agents.search import DEADLINE_BATCH, Arm, SearchAgent
from kinghill.envs import Action, Answer, ChoiceAction, FrameView, Game, ShotAction, ask
from kinghill.envs.game.decision_clock import DecisionClock
from kinghill.envs.rules import Decision, Frame, ShotClock, TimeAllowance
from kinghill.experiments.tournaments import frame_player as match
from kinghill.experiments.tournaments.frame_player import play_frame
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.physics import Shot, TableState


class FakeTime:
    """A ``time.perf_counter`` that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(time, "perf_counter", clock)
    return clock


@pytest.mark.parametrize(
    ("round_", "limit"), [(1, None), (2, None), (3, 35.0), (4, 30.0), (6, 20.0), (9, 20.0)]
)
def test_allowance_follows_the_round(round_: int, limit: float | None) -> None:
    """12.2: no clock in rounds 1-2; 12.3: 35 s in round 3, 5 s less a round, 20 s at least;
    12.5-12.6: 15 s extension while unused in the frame."""
    clock = ShotClock(round=round_)
    fresh = clock.allowance(Frame.new(), 0)
    assert fresh.limit == limit and fresh.timed == (limit is not None)
    assert fresh.extension == (15.0 if limit is not None else 0.0)
    used = replace(Frame.new(), extension_used=(True, False))
    assert clock.allowance(used, 0).extension == 0.0  # rule 12.5: once per frame
    assert clock.allowance(used, 1).extension == fresh.extension
    assert ShotClock(round=5, enabled=False).allowance(Frame.new(), 0) == TimeAllowance()  # 12.1


def test_time_left_counts_the_extension_once_claimed(fake_time: FakeTime) -> None:
    """rule 12.5-12.7: claimed while the base time runs, the 15 s count; once only."""
    clock = DecisionClock(TimeAllowance(35.0, 15.0))
    fake_time.now += 10.0
    assert clock.time_left() == 25.0 and clock.time_left(with_extension=True) == 40.0
    assert clock.extension_available and clock.claim_extension()
    assert clock.claimed_at == 10.0 and clock.time_left() == 40.0
    assert not clock.claim_extension() and clock.claimed_at == 10.0


def test_claim_at_the_base_limit_is_too_late(fake_time: FakeTime) -> None:
    """rule 12.7, R-clock: a claim at or after the base limit is not granted."""
    clock = DecisionClock(TimeAllowance(20.0, 15.0))
    fake_time.now += 20.0
    assert not clock.extension_available and not clock.claim_extension()
    assert clock.time_left(with_extension=True) == 0.0 and clock.claimed_at is None


def test_untimed_decision_has_all_the_time() -> None:
    """rule 12.2: nothing to read but infinity, nothing to claim."""
    clock = DecisionClock()
    assert not clock.timed and clock.time_left() == math.inf and not clock.claim_extension()


def break_shot() -> ShotAction:
    return ShotAction(Shot(1, 0.0, 7.0), place=(0.44, 0.8875))


def test_game_judges_a_claim_at_its_moment() -> None:
    """rule 12.7: a claim made 10 s in saves a 45 s decision in round 3; the same decision with
    only the action's flag claims when it arrives (45 s), too late: a time foul (12.4)."""
    game = Game(clock=ShotClock(round=3))
    assert game.allowance() == TimeAllowance(35.0, 15.0)
    turn = game.play(break_shot(), seconds=45.0, claimed_at=10.0)
    assert turn.ruling is not None and turn.ruling.shot_played
    assert game.frame.extension_used == (True, False)
    late = Game(clock=ShotClock(round=3))
    turn = late.play(replace(break_shot(), claim_extension=True), seconds=45.0)
    assert turn.ruling is not None and not turn.ruling.shot_played and turn.ruling.is_foul
    early = Game(clock=ShotClock(round=3))
    early.play(replace(break_shot(), claim_extension=True), seconds=20.0)
    assert early.frame.extension_used == (True, False)


class ClockReader:
    """Records the clocks it is handed; claims the extension on its first shot after the break;
    plays a soft shot of white 1 (plays on after a foul)."""

    def __init__(self) -> None:
        self.clocks: list[tuple[Decision, DecisionClock | None]] = []

    def act(self, view: FrameView) -> Action:
        self.clocks.append((view.decision, view.clock))
        if view.decision is Decision.CHOICE:
            return ChoiceAction(play_on=True)
        if view.decision is Decision.SHOT and view.clock is not None:
            view.clock.claim_extension()
        return ShotAction(Shot(1, 0.0, 2.0), place=(0.4, 0.8) if view.frame.shots == 0 else None)


class InProcessSeat:
    """A seat that asks its agent here, in this process (no cut-off)."""

    def __init__(self, agent: ClockReader) -> None:
        self.agent = agent

    def build(self, spec: str, seed: int | None, maker: object = None) -> None:
        pass

    def decide(self, view: FrameView, limit: float) -> Answer:
        return ask(self.agent.act, view)


def test_frame_player_hands_each_agent_its_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-clock: every decision comes with its clock, timed for shots from round 3 (12.3) and
    untimed for the 10.4 choice; a claim through the clock is the frame's extension (12.5)."""
    readers = [ClockReader(), ClockReader()]
    seats = [InProcessSeat(reader) for reader in readers]  # to read what they were handed
    monkeypatch.setattr(match, "seat_processes", lambda: seats)
    record = play_frame("a", "b", 0, FrameOptions(round=4, max_shots=12))
    seen = [c for reader in readers for c in reader.clocks]
    assert seen and all(clock is not None for _, clock in seen)
    for decision, clock in seen:
        assert clock is not None
        timed = decision is not Decision.CHOICE
        assert clock.allowance.limit == (30.0 if timed else None)
    assert record.extensions == (1, 1) and record.time_fouls == (0, 0)
    assert sum(record.decisions) == len(seen) and all(t >= 0 for t in record.thinking)


def colour_shot_view(clock: DecisionClock) -> FrameView:
    """A shot for player 0, who has its three whites: a colour pot would win the frame (6.1)."""
    state = TableState.rack().remove(2).remove(3).remove(4)
    frame = replace(Frame.new(), credited=((2, 3, 4), ()), decision=Decision.SHOT, shots=3)
    return FrameView(state, frame, 0, clock)


def test_search_thinks_its_budget_without_a_clock() -> None:
    """search:Xs is anytime: it uses the time it is given (and not much more)."""
    view = replace(colour_shot_view(DecisionClock()), clock=None)
    start = time.perf_counter()
    SearchAgent(seed=0, time_budget=1.5).act(view)
    assert 1.4 <= time.perf_counter() - start < 2.5


def test_search_plays_to_the_clock_and_claims_the_extension_when_it_pays() -> None:
    """With more budget than the base time, on a shot that can win the frame it claims the
    extension (12.5) and stops the margin before the extended limit; without its whites in, it
    keeps to the base time and claims nothing."""
    agent = SearchAgent(seed=0, time_budget=10.0, margin=0.5)
    clock = DecisionClock(TimeAllowance(2.0, 2.0))
    agent.act(colour_shot_view(clock))
    assert clock.claimed_at is not None and clock.claimed_at < 2.0
    assert 3.4 <= clock.elapsed() < 4.0
    plain = DecisionClock(TimeAllowance(2.0, 2.0))
    view = colour_shot_view(plain)
    view = replace(view, frame=replace(view.frame, credited=((2,), ())))
    agent.act(view)
    assert plain.claimed_at is None and 1.4 <= plain.elapsed() < 2.0


def test_a_search_to_a_deadline_simulates_in_small_batches() -> None:
    """Section 12: thinking to a deadline, the search looks at the clock every
    ``DEADLINE_BATCH`` simulations, however large its doubled budget has grown; without one
    a round's samples of every arm go in one batch."""
    agent = SearchAgent(seed=0, time_budget=1.0, margin=0.0)
    sizes: list[int] = []
    score = agent._score

    def counted(view: FrameView, work: list[tuple[Arm, int]], common: bool = False) -> int:
        sizes.append(sum(n for _, n in work))
        return score(view, work, common)

    agent._score = counted  # type: ignore[method-assign]
    agent.act(colour_shot_view(None))
    assert sizes and max(sizes) <= DEADLINE_BATCH and sum(sizes) > 10 * DEADLINE_BATCH
    plain = SearchAgent(seed=0, budget=2000)
    sizes.clear()
    score = plain._score
    plain._score = counted  # type: ignore[method-assign]
    plain.act(colour_shot_view(None))
    assert max(sizes) > DEADLINE_BATCH
