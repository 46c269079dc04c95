"""Issue 10.2: an agent in its own process (experiments.agent_process) is cut off when its
decision's time is up, replaced by a fresh one built from its spec and a seed drawn from its
frame seed, and every other misdeed of it (dying, an answer that cannot be sent) comes back as
a fault; play_out cuts each decision at its limit by section 12 or at the untimed cap."""

import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from kinghill.envs import Answer, ChoiceAction, FrameView, Game, ShotAction
from kinghill.envs.rules import EXTENSION, Decision, EndReason, ShotClock
from kinghill.experiments.tournaments.agent_process import (
    AgentProcess,
    AgentStartError,
    restart_seed,
)
from kinghill.experiments.tournaments.frame_player import play_out
from kinghill.physics import BREAK_BALL, Shot

BREAK = ShotAction(Shot(BREAK_BALL, 0.0, 7.0), place=(0.44, 0.8875))
HANGING_SEED = 5


class HangsWithItsFirstSeed:
    """Never returns when built with HANGING_SEED; built with any other seed, it breaks."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, view: FrameView) -> ShotAction:
        if self.seed == HANGING_SEED:
            threading.Event().wait()
        return BREAK


class Dies:
    """Ends its process without a word."""

    def act(self, view: FrameView) -> ShotAction:
        os._exit(9)


class Unsendable:
    """Returns something that cannot be pickled back to the match."""

    def act(self, view: FrameView) -> object:
        return lambda: BREAK


class Claims:
    """Claims the 12.5 extension on the view's clock, then breaks."""

    def act(self, view: FrameView) -> ShotAction:
        assert view.clock is not None and view.clock.claim_extension()
        return BREAK


@pytest.fixture(scope="module")
def seat() -> Iterator[AgentProcess]:
    process = AgentProcess()
    yield process
    process.close()


def view(clocked: bool = False) -> FrameView:
    game = Game(clock=ShotClock(round=3) if clocked else None)
    game.reset(seed=1)
    return game.timed_view()


def test_a_decision_that_never_returns_is_cut_off_and_the_agent_replaced(
    seat: AgentProcess,
) -> None:
    """Cut off at the limit (plus the pipe's grace); the replacement is built from the spec
    with restart_seed(seed, 1), a function of the frame seed and the count only."""
    seat.build(f"{__name__}:HangsWithItsFirstSeed", HANGING_SEED)
    start = time.monotonic()
    answer = seat.decide(view(), limit=1.0)
    assert answer.timed_out and answer.fault == "no decision within 1 s" and answer.value is None
    assert answer.seconds >= 1.0 and time.monotonic() - start < 30
    assert seat.restarts == 1 and restart_seed(HANGING_SEED, 1) != HANGING_SEED
    assert restart_seed(HANGING_SEED, 1) == restart_seed(HANGING_SEED, 1)
    again = seat.decide(view(), limit=1.0)  # the fresh agent, with the new seed, answers
    assert again.fault is None and again.value == BREAK and again.seconds < 1.0


def test_an_agent_whose_process_dies_is_a_fault_and_replaced(seat: AgentProcess) -> None:
    seat.build(f"{__name__}:Dies", 1)
    answer = seat.decide(view(), limit=10.0)
    assert answer.fault == "its process died (exit status 9)" and not answer.timed_out
    assert seat.restarts == 1


def test_an_answer_that_cannot_be_sent_is_a_fault(seat: AgentProcess) -> None:
    seat.build(f"{__name__}:Unsendable", 1)
    answer = seat.decide(view(), limit=10.0)
    assert answer.fault == "returned a function that cannot be sent to the match"
    assert seat.restarts == 0


def test_the_extension_claimed_in_the_agent_process_reaches_the_match(seat: AgentProcess) -> None:
    """12.5: the claim's moment on the view's clock comes back with the answer."""
    seat.build(f"{__name__}:Claims", 1)
    answer = seat.decide(view(clocked=True), limit=50.0)
    assert answer.fault is None and answer.claimed_at is not None and answer.claimed_at >= 0


def test_a_spec_that_cannot_be_built_raises_its_own_error(seat: AgentProcess) -> None:
    from kinghill.agents import AgentSpecError

    with pytest.raises(AgentSpecError, match="nosuch"):
        seat.build("nosuch", 1)
    with pytest.raises((AgentSpecError, AgentStartError)):
        seat.build(f"{__name__}:NoSuchClass", 1)


class Slow:
    """Answers after a second."""

    def act(self, view: FrameView) -> ShotAction:
        time.sleep(1.0)
        return ShotAction(Shot(BREAK_BALL, 1.0, 1.0), place=(0.4, 0.8))


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interrupts itself with SIGALRM")
def test_an_interrupted_decision_leaves_no_late_answer_behind(seat: AgentProcess) -> None:
    """Ctrl-C while the agent thinks stops the match; the agent's late answer must not be
    taken for the answer to a later question (its process is killed, the next build starts
    a fresh one)."""

    def interrupt(number: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        seat.build(f"{__name__}:Slow", 1)
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            seat.decide(view(), limit=10.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    seat.build(f"{__name__}:HangsWithItsFirstSeed", 1)  # not the hanging seed: it breaks
    time.sleep(1.0)  # the slow answer would be in the pipe by now
    answer = seat.decide(view(), limit=10.0)
    assert answer.fault is None and answer.value == BREAK


class RecordingSeat:
    """A seat that notes the limit of each decision and answers like an agent that hangs."""

    def __init__(self) -> None:
        self.limits: list[tuple[Decision, float]] = []

    def decide(self, view: FrameView, limit: float) -> Answer:
        self.limits.append((view.decision, limit))
        return Answer(seconds=limit + 0.3, fault=f"no decision within {limit:g} s", timed_out=True)


def test_play_out_cuts_timed_shots_at_their_limit_and_the_rest_at_the_cap() -> None:
    """R-clock: in round 6 a shot may take 20 s plus the 15 s extension while it is open; the
    10.4 choice is not timed (12.3 times shots): the cap. A hung shot under the clock is a time
    foul (12.4), not a fault; a hung choice is taken as playing on; two time fouls lose."""
    game = Game(clock=ShotClock(round=6))
    game.reset(seed=1, breaker=0)
    seats = (RecordingSeat(), RecordingSeat())
    decided = list(play_out(game, seats, decision_cap=2.5))
    assert seats[0].limits[0] == (Decision.BREAK, 20.0 + EXTENSION)
    assert seats[1].limits[0] == (Decision.CHOICE, 2.5)
    first, choice = decided[0], decided[1]
    assert first.fault is None and first.turn.ruling.is_foul
    assert "12.4" in str(first.turn.ruling) and "in time" in str(first.turn.ruling)
    assert choice.fault == "no decision within the 2.5 s cap" and choice.turn.ruling is None
    shots = [d for d in decided if d.turn.ruling is not None]
    assert all(d.fault is None and not d.turn.ruling.shot_played for d in shots)  # time fouls
    assert game.frame.result is not None and game.frame.result.reason is EndReason.SECOND_FOUL
    assert game.frame.fouls == (2, 1) and game.frame.result.winner == 1


def test_play_out_without_a_clock_cuts_every_decision_at_the_cap() -> None:
    """No time control (12.1): a hung shot is no decision, charged as a shot not played."""
    game = Game()
    game.reset(seed=1, breaker=0)
    seats = (RecordingSeat(), RecordingSeat())
    decided = list(play_out(game, seats, decision_cap=2.5))
    assert {limit for seat in seats for _, limit in seat.limits} == {2.5}
    assert decided[0].fault == "no decision within the 2.5 s cap"
    assert decided[0].turn.ruling.is_foul
    assert isinstance(decided[1].turn.action, ChoiceAction)  # the hung choice: playing on
