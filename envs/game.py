"""One frame of King of the Hill played end to end: the physics table and the referee joined.

:class:`Game` is the single place where a decision becomes a shot, a ruling and a new position;
the Gymnasium env, the PettingZoo env and the tournament runner all play through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from kinghill.envs.actions import Action, ChoiceAction, FrameView, ShotAction
from kinghill.envs.rules import (
    Decision,
    Foul,
    Frame,
    Ruling,
    ShotClock,
    apply,
    choose,
    judge,
    judge_overtime,
    validate_shot,
)
from kinghill.physics import (
    BREAK_BALL,
    NoiseModel,
    ShotResult,
    TableSpec,
    TableState,
    simulate,
)


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
class GameSnapshot:
    """Everything needed to put a :class:`Game` back where it was (for look-ahead)."""

    state: TableState
    frame: Frame
    rng_state: Mapping[str, Any]


class Game:
    """A frame on a table: positions, frame state, execution noise and the clock.

    :param spec: the table (default :class:`TableSpec`).
    :param noise: execution noise applied to every shot, or None for exact shots.
    :param required: whites required per player (R-handicap).
    :param shot_limit: shots after which the frame is truncated (R-truncate).
    :param clock: section-12 time control, or None for none.
    :param no_cushion_foul: R-fouls (b) on or off.
    :param trajectory_fps: when set, shots keep trajectories sampled at this rate (for replays).
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
    ) -> None:
        self.spec = spec or TableSpec()
        self.noise = noise
        self.required = required
        self.shot_limit = shot_limit
        self.clock = clock
        self.no_cushion_foul = no_cushion_foul
        self.trajectory_fps = trajectory_fps
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

    def snapshot(self) -> GameSnapshot:
        return GameSnapshot(self.state, self.frame, self.rng.bit_generator.state)

    def restore(self, snap: GameSnapshot) -> None:
        self.state, self.frame = snap.state, snap.frame
        self.rng.bit_generator.state = snap.rng_state

    # ---- playing ------------------------------------------------------------------------------
    def play(self, action: Action, seconds: float | None = None) -> Turn:
        """Carry out the decision of the player to move; ``seconds`` is its decision time
        (judged by the clock, if any). Raises ``ValueError`` (the game unchanged) for an action
        that does not fit the decision or the table."""
        frame, player = self.frame, self.frame.to_move
        if frame.is_over:
            raise ValueError(f"the frame is over: {frame.result}")
        if frame.decision is Decision.CHOICE:
            if not isinstance(action, ChoiceAction):
                raise ValueError("the 10.4 choice is due: expected a ChoiceAction")
            self.frame = choose(frame, action.play_on)
            return Turn(player, Decision.CHOICE, action, None, None, seconds)
        if not isinstance(action, ShotAction):
            raise ValueError(f"a {frame.decision.value} is due: expected a ShotAction")
        state = self.state
        if frame.decision is Decision.BREAK and action.place is not None:
            state = state.place(BREAK_BALL, action.place)
        validate_shot(frame, state, action.shot.cue_ball, action.call)
        if self.clock is not None and seconds is not None:
            verdict = self.clock.judge_time(
                frame, player, seconds, claim_extension_at=0.0 if action.claim_extension else None
            )
            frame = verdict.frame
            if verdict.is_foul:
                return self._not_played(frame, judge_overtime(frame), action, seconds)
        noisy = self.noise is not None
        result = simulate(
            state,
            action.shot,
            self.rng if noisy else None,
            noise=self.noise,
            trajectory=self.trajectory_fps is not None,
            trajectory_fps=self.trajectory_fps or 60.0,
        )
        ruling = judge(frame, action.shot.cue_ball, action.call, result.events)
        self.frame, self.state = apply(frame, ruling, result.final)
        return Turn(player, frame.decision, action, ruling, result, seconds)

    def forfeit(self, reason: str, seconds: float | None = None) -> Turn:
        """The player to move produced no valid decision (an agent that raised or returned
        garbage): a shot not played is a foul like a shot not played in time (12.4); a 10.4
        choice not made is taken as playing on."""
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
