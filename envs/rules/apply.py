"""Carrying out a ruling on the frame and the table, and the 10.4 choice after a foul."""

from __future__ import annotations

from dataclasses import replace

from kinghill.envs.rules.frame import Decision, Frame
from kinghill.envs.rules.ruling import Ruling
from kinghill.envs.rules.spotting import spot
from kinghill.physics import TableState


def apply(frame: Frame, ruling: Ruling, state: TableState) -> tuple[Frame, TableState]:
    """The frame and table after ``ruling``; ``state`` is the shot's final table (pocketed balls
    off it), or the unchanged table for a time foul.

    Credits the shooter (5.2, 5.8), records a foul (10.1, 10.5), spots balls (10.3, 11.1-11.4,
    R-spot), hands on the decision and sets the result (3.2, 10.5, R-truncate).
    """
    return ruled_frame(frame, ruling), spot(state, ruling.to_spot)


def ruled_frame(frame: Frame, ruling: Ruling) -> Frame:
    """The frame after ``ruling`` (:func:`apply` without the table, which it does not read:
    the same ruling on the same frame gives the same frame whatever the balls did)."""
    if frame.is_over:
        raise ValueError(f"the frame is over: {frame.result}")
    if ruling.shooter != frame.to_move or frame.decision not in (Decision.BREAK, Decision.SHOT):
        raise ValueError(
            f"this ruling is for player {ruling.shooter}'s shot, but player {frame.to_move} "
            f"has the {frame.decision.value} decision"
        )
    shooter = ruling.shooter
    credited = list(frame.credited)
    credited[shooter] = credited[shooter] + ruling.credited
    fouls = list(frame.fouls)
    fouls[shooter] += ruling.is_foul
    return replace(
        frame,
        credited=(credited[0], credited[1]),
        fouls=(fouls[0], fouls[1]),
        to_move=ruling.next_to_move,
        decision=ruling.next_decision,
        fouled_by=shooter if ruling.next_decision is Decision.CHOICE else None,
        shots=frame.shots + ruling.shot_played,
        result=ruling.result,
    )


def choose(frame: Frame, play_on: bool) -> Frame:
    """The 10.4 choice (R-foul-choice): play on from the position as it lies, or hand the shot
    back to the player who fouled. A break not yet played (a time foul) is still a break."""
    if frame.decision is not Decision.CHOICE or frame.fouled_by is None:
        raise ValueError(
            f"no 10.4 choice to make: player {frame.to_move} has a {frame.decision.value} decision"
        )
    shooter = frame.to_move if play_on else frame.fouled_by
    decision = Decision.BREAK if frame.shots == 0 else Decision.SHOT
    return replace(frame, to_move=shooter, decision=decision, fouled_by=None)
