"""Positions the value tests share."""

from dataclasses import replace

from kinghill.envs.rules import Decision, Frame
from kinghill.physics import TableState


def midframe() -> tuple[Frame, TableState]:
    """Player 1 to move after the break, player 0 with two whites credited and a foul."""
    state = TableState.rack().remove(2).remove(3)
    frame = replace(
        Frame.new(),
        decision=Decision.SHOT,
        credited=((2, 3), ()),
        fouls=(1, 0),
        to_move=1,
        shots=4,
    )
    return frame, state
