"""One frame of King of the Hill played end to end: the physics table and the referee joined.

:func:`play_shot` (one shot) and :func:`play_noisy` (many noisy samples in one batch) are the
single path from a shot to a ruling and the next position: simulate, judge, apply. :class:`Game`
plays every decision of a frame through it (the Gymnasium env, the PettingZoo env and the
tournament runner all play through :class:`Game`); the search scores its candidate shots and the
break learner its breaks through :func:`play_noisy`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from kinghill.envs.game.actions import (
    Action,
    ChoiceAction,
    FrameView,
    InvalidAction,
    ShotAction,
    check_action,
)
from kinghill.envs.game.decision_clock import DecisionClock
from kinghill.envs.game.decisions import Answer
from kinghill.envs.rules import (
    Call,
    Decision,
    Foul,
    Frame,
    Ruling,
    ShotClock,
    TimeAllowance,
    apply,
    choose,
    judge,
    judge_overtime,
    ruled_frame,
    spot,
    validate_shot,
)
from kinghill.physics import (
    BREAK_BALL,
    NoiseModel,
    ShotBatch,
    ShotResult,
    TableSpec,
    TableState,
    simulate,
    simulate_batch,
)

Simulate = Callable[..., ShotResult]
"""What plays a shot for :class:`Game` and :func:`play_shot`: called as
:func:`kinghill.physics.simulate` is, ``(state, shot, rng, noise=..., trajectory=...,
trajectory_fps=...)`` (a benchmark passes a timed one)."""


@dataclass(frozen=True)
class Played:
    """A shot played on a position: what the physics did (``result``), the referee's ruling on
    it, and the frame and table after the ruling was carried out."""

    result: ShotResult
    ruling: Ruling
    frame: Frame
    state: TableState


def shot_position(frame: Frame, state: TableState, action: ShotAction) -> TableState:
    """The table ``action`` is played from: ``state``, with white 1 placed where a break's
    action puts it (4.1); a ``place`` on another shot is a ``ValueError`` (only the break
    places a ball: the shot would be played from elsewhere than it says)."""
    if action.place is None:
        return state
    if frame.decision is not Decision.BREAK:
        raise ValueError(
            f"ShotAction.place is for the break only (4.1: white 1 in the house); a "
            f"{frame.decision.value} is due, played from the balls where they are"
        )
    return state.place(BREAK_BALL, action.place)


def play_shot(
    frame: Frame,
    state: TableState,
    action: ShotAction,
    rng: np.random.Generator | None = None,
    noise: NoiseModel | None = None,
    *,
    trajectory_fps: float | None = None,
    simulate: Simulate = simulate,
) -> Played:
    """``action`` played from ``state`` (its :func:`shot_position`) under ``noise`` drawn from
    ``rng`` (None: exactly), judged by the referee and the ruling carried out: the one path from
    a shot to a ruling. The shot must fit the frame (:func:`~kinghill.envs.rules.validate_shot`;
    :meth:`Game.play` checks it first). ``trajectory_fps``: keep the trajectory sampled at this
    rate (for replays)."""
    result = simulate(
        state,
        action.shot,
        rng,
        noise=noise,
        trajectory=trajectory_fps is not None,
        trajectory_fps=trajectory_fps or 60.0,
    )
    return _ruled(frame, action, result)


def play_noisy(
    frame: Frame,
    state: TableState,
    actions: Sequence[ShotAction],
    rng: np.random.Generator,
    noise: NoiseModel,
    rulings: Rulings | None = None,
) -> list[Played]:
    """Each of ``actions`` played once from ``state`` under its own execution ``noise`` drawn
    from ``rng`` in order, in one batch of simulations (``[action] * n``: ``n`` noisy samples of
    one shot): what as many :func:`play_shot` calls return, the same noise drawn in the same
    order. A break's actions must place white 1 alike (one table for the batch). ``rulings``:
    the referee's rulings on ``frame`` found so far (:class:`Rulings`; default a new one)."""
    batch, outcomes = _played(frame, state, actions, rng, noise, rulings)
    return [Played(batch.result(k), o.ruling, o.frame, o.state) for k, o in enumerate(outcomes)]


def noisy_outcomes(
    frame: Frame,
    state: TableState,
    actions: Sequence[ShotAction],
    rng: np.random.Generator,
    noise: NoiseModel,
    rulings: Rulings | None = None,
    deviations: np.ndarray | None = None,
) -> list[Outcome]:
    """What :func:`play_noisy` returns less the physics' results: the rulings and the frames
    and tables after them, no event objects built for an event log the referee has ruled on
    (the search's inner loop, which reads only these). ``deviations``: the noise's draws
    given, not drawn from ``rng`` (:func:`~kinghill.physics.simulate_batch`)."""
    return _played(frame, state, actions, rng, noise, rulings, deviations)[1]


@dataclass(frozen=True)
class Outcome:
    """A shot's ruling and the frame and table after it (a :class:`Played` less the physics'
    result)."""

    ruling: Ruling
    frame: Frame
    state: TableState


class Rulings:
    """The referee's rulings on the shots of one ``frame``, kept by what the rules read of a
    shot: its cue ball and call, and the event log's kinds and balls in order, not the times,
    nor where the balls stopped, nor how the cue struck (:func:`~kinghill.envs.rules.judge`
    reads nothing else). A noisy sample that touches what another touched, in the same order,
    is ruled without its events built or judged again, whichever shot of the same ball and
    call played it (the search's variants of one pot share their rulings); each ruling is kept
    with the frame after it (:func:`~kinghill.envs.rules.ruled_frame`)."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self._found: dict[tuple[int, int, bytes], tuple[Call | None, Ruling, Frame]] = {}

    def rule(self, actions: Sequence[ShotAction], batch: ShotBatch) -> list[tuple[Ruling, Frame]]:
        """The ruling on each of ``batch``'s shots, played as ``actions[k]``, and the frame
        after it."""
        out = []
        for k, (action, log) in enumerate(zip(actions, batch.log_keys(), strict=True)):
            call = action.call
            key = (action.shot.cue_ball, id(call), log)  # the call kept: its id is not reused
            found = self._found.get(key)
            if found is None:
                events = batch.untimed_events(k)  # the times unread
                ruling = judge(self.frame, action.shot.cue_ball, call, events)
                found = self._found[key] = (call, ruling, ruled_frame(self.frame, ruling))
            out.append((found[1], found[2]))
        return out


def _played(
    frame: Frame,
    state: TableState,
    actions: Sequence[ShotAction],
    rng: np.random.Generator,
    noise: NoiseModel,
    rulings: Rulings | None,
    deviations: np.ndarray | None = None,
) -> tuple[ShotBatch, list[Outcome]]:
    """:func:`noisy_outcomes` and the batch played."""
    if rulings is None:
        rulings = Rulings(frame)
    elif rulings.frame is not frame:
        raise ValueError("play_noisy: the rulings kept are another frame's")
    table = shot_position(frame, state, actions[0]) if actions else state
    shots = [a.shot for a in actions]
    batch = simulate_batch([table] * len(actions), shots, rng, noise=noise, deviations=deviations)
    outcomes = [
        Outcome(ruling, after, spot(batch.final(k), ruling.to_spot))
        for k, (ruling, after) in enumerate(rulings.rule(actions, batch))
    ]
    return batch, outcomes


def _ruled(frame: Frame, action: ShotAction, result: ShotResult) -> Played:
    """``result`` of ``action`` judged on ``frame`` and the ruling carried out."""
    ruling = judge(frame, action.shot.cue_ball, action.call, result.events)
    after, state = apply(frame, ruling, result.final)
    return Played(result, ruling, after, state)


@dataclass(frozen=True)
class Turn:
    """What one decision did: who made it, the ruling (None for a 10.4 choice) and the shot."""

    player: int
    decision: Decision
    action: Action | None
    ruling: Ruling | None
    result: ShotResult | None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.ruling is None:
            play_on = isinstance(self.action, ChoiceAction) and self.action.play_on
            return f"player {self.player} chooses to {'play on' if play_on else 'hand back'} (10.4)"
        return f"player {self.player}: {self.ruling}"


@dataclass(frozen=True)
class Decided:
    """One decision as settled: the game's turn, and the agent's fault when it gave no playable
    action (the turn is then what it was charged). A decision the clock judged over time is a
    time foul (12.4), not a fault."""

    turn: Turn
    fault: str | None = None


@dataclass(frozen=True)
class GameSnapshot:
    """Everything needed to put a :class:`Game` back where it was (for look-ahead)."""

    state: TableState
    frame: Frame
    rng_state: Mapping[str, Any]


class Game:
    """A frame on a table: positions, frame state, execution noise and the clock.

    :param spec: the table (default :class:`TableSpec`).
    :param noise: execution noise applied to every shot, or None (the default) for exact shots.
        The envs, ``kinghill play`` and tournaments default to ``NoiseModel()`` instead: pass
        it here to play as they do.
    :param required: whites required per player (R-handicap).
    :param shot_limit: shots after which the frame is truncated (R-truncate).
    :param clock: section-12 time control, or None for none.
    :param no_cushion_foul: R-fouls (b) on or off.
    :param trajectory_fps: when set, shots keep trajectories sampled at this rate (for replays).
    :param simulate: what plays each shot (default :func:`kinghill.physics.simulate`; a
        benchmark passes a timed one, :data:`Simulate`). Kept as the attribute ``simulate``.
    """

    def __init__(
        self,
        spec: TableSpec | None = None,
        noise: NoiseModel | None = None,
        required: tuple[int, int] = (3, 3),
        shot_limit: int = 200,
        clock: ShotClock | None = None,
        no_cushion_foul: bool = True,
        trajectory_fps: float | None = None,
        simulate: Simulate = simulate,
    ) -> None:
        if noise is not None and not isinstance(noise, NoiseModel):
            raise TypeError(f"noise: a NoiseModel or None, got {noise!r}")
        self.spec = spec or TableSpec()
        self.noise = noise
        self.required = required
        self.shot_limit = shot_limit
        self.clock = clock
        self.no_cushion_foul = no_cushion_foul
        self.trajectory_fps = trajectory_fps
        self.simulate = simulate
        self.rng = np.random.default_rng()
        self._rack = TableState.rack(self.spec)
        self.reset(breaker=0)

    def reset(self, seed: int | None = None, breaker: int = 0) -> None:
        """Rack the balls and start a new frame with ``breaker`` to break."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.state = self._rack  # immutable: every frame starts from the same rack
        self.frame = Frame.new(
            required=self.required,
            breaker=breaker,
            shot_limit=self.shot_limit,
            no_cushion_foul=self.no_cushion_foul,
        )

    # ---- reading ------------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.frame.to_move

    @property
    def is_over(self) -> bool:
        return self.frame.is_over

    def view(self, player: int | None = None) -> FrameView:
        """The frame as ``player`` (default: the player to decide) sees it."""
        return FrameView(self.state, self.frame, self.frame.to_move if player is None else player)

    def allowance(self) -> TimeAllowance:
        """The time the player to move may take for the decision now due: the round's limit and
        the extension left for a shot; none without a clock or for the untimed 10.4 choice."""
        if self.clock is None or self.frame.decision not in (Decision.BREAK, Decision.SHOT):
            return TimeAllowance()
        return self.clock.allowance(self.frame, self.frame.to_move)

    def snapshot(self) -> GameSnapshot:
        return GameSnapshot(self.state, self.frame, self.rng.bit_generator.state)

    def restore(self, snap: GameSnapshot) -> None:
        if not isinstance(snap, GameSnapshot):
            raise TypeError(f"restore: a GameSnapshot from snapshot(), got {type(snap).__name__}")
        self.state, self.frame = snap.state, snap.frame
        self.rng.bit_generator.state = snap.rng_state

    # ---- playing ------------------------------------------------------------------------------
    def time_allowed(self) -> float | None:
        """The longest the player to move may think: the round's limit, plus the 15 s extension
        while it is still theirs to claim (12.3, 12.5-12.7); None when no clock runs for this
        decision (no time control, rounds 1-2, the 10.4 choice)."""
        allowance = self.allowance()
        return None if allowance.limit is None else allowance.limit + allowance.extension

    def timed_view(self) -> FrameView:
        """The view of the player to move with its decision's clock started now (R-clock), as
        agents get it in matches (``view.clock``)."""
        frame = self.frame
        return FrameView(self.state, frame, frame.to_move, DecisionClock(self.allowance()))

    def play(
        self, action: Action, seconds: float | None = None, claimed_at: float | None = None
    ) -> Turn:
        """Carry out the decision of the player to move; ``seconds`` is its decision time
        (judged by the clock, if any) and ``claimed_at`` when in it the 12.5 extension was
        claimed (a :class:`DecisionClock`'s ``claimed_at``); without it, an action's
        ``claim_extension`` claims at the moment the action came, ``seconds``. Raises
        :class:`InvalidAction` (a ``ValueError``; the game unchanged) for anything that is not an
        action or does not fit the decision or the table; errors of the engine itself propagate
        as they are."""
        frame, player = self.frame, self.frame.to_move
        if frame.is_over:
            raise ValueError(f"the frame is over: {frame.result}")
        action = check_action(action)
        if frame.decision is Decision.CHOICE:
            if not isinstance(action, ChoiceAction):
                raise InvalidAction("the 10.4 choice is due: expected a ChoiceAction")
            self.frame = choose(frame, action.play_on)
            return Turn(player, Decision.CHOICE, action, None, None, seconds)
        if not isinstance(action, ShotAction):
            raise InvalidAction(f"a {frame.decision.value} is due: expected a ShotAction")
        try:
            state = shot_position(frame, self.state, action)
            validate_shot(frame, state, action.shot.cue_ball, action.call)
        except ValueError as error:  # the action does not fit the table: nothing has changed
            raise InvalidAction(str(error)) from None
        if self.clock is not None and seconds is not None:
            if claimed_at is None and action.claim_extension:
                claimed_at = seconds
            verdict = self.clock.judge_time(frame, player, seconds, claim_extension_at=claimed_at)
            frame = verdict.frame
            if verdict.is_foul:
                return self._not_played(frame, judge_overtime(frame), action, seconds)
        played = play_shot(
            frame,
            state,
            action,
            self.rng if self.noise is not None else None,
            self.noise,
            trajectory_fps=self.trajectory_fps,
            simulate=self.simulate,
        )
        self.frame, self.state = played.frame, played.state
        return Turn(player, frame.decision, action, played.ruling, played.result, seconds)

    def settle(self, answer: Answer) -> Decided:
        """Play what an agent answered, or charge it by the rules when it gave nothing playable:
        cut off by the clock, a time foul (12.4, ``judge_overtime``); any other fault (it
        raised, returned an :class:`InvalidAction`, or gave no answer within an untimed
        decision's cap) a :meth:`forfeit` (R-fault). Play goes on either way; engine errors
        propagate."""
        if answer.timed_out and self.time_allowed() is not None:
            ruling = judge_overtime(self.frame)
            return Decided(self._not_played(self.frame, ruling, None, answer.seconds))
        if answer.fault is not None:
            return Decided(self.forfeit(answer.fault, answer.seconds), answer.fault)
        try:
            return Decided(self.play(answer.value, answer.seconds, answer.claimed_at))  # type: ignore[arg-type]
        except InvalidAction as error:
            fault = f"invalid action: {error}"
            return Decided(self.forfeit(fault, answer.seconds), fault)

    def forfeit(self, reason: str, seconds: float | None = None) -> Turn:
        """The player to move produced no valid decision (an agent that raised or returned
        garbage): a shot not played is a foul like a shot not played in time (12.4); a 10.4
        choice not made is taken as playing on (R-fault)."""
        if self.frame.decision is Decision.CHOICE:
            return self.play(ChoiceAction(play_on=True), seconds)
        ruling = judge_overtime(self.frame)
        ruling = replace(ruling, fouls=(Foul(("12.4",), f"no valid shot was played: {reason}"),))
        return self._not_played(self.frame, ruling, None, seconds)

    def _not_played(
        self, frame: Frame, ruling: Ruling, action: Action | None, seconds: float | None
    ) -> Turn:
        player = frame.to_move
        self.frame, self.state = apply(frame, ruling, self.state)
        return Turn(player, frame.decision, action, ruling, None, seconds)
