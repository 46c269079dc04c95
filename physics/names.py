"""Ball ids, cushions and pockets of the pyramid table, named as in docs/rules.md.

Frame of reference: origin at the front-right corner of the playing area (the house end), x along
the length toward the rear cushion, y across toward the left side ("left"/"right" as seen from the
house looking at the rear).
"""

from __future__ import annotations

from enum import IntEnum

N_BALLS = 8
COLOURED = 0
"""Ball 0 is the coloured ball."""
WHITES = tuple(range(1, N_BALLS))
"""Balls 1-7 are white."""
BREAK_BALL = 1
"""The white that starts in the house and makes the break (rule 1.3)."""


class Cushion(IntEnum):
    """The six cushion segments between the pockets."""

    FRONT = 0
    REAR = 1
    LEFT_FRONT = 2
    LEFT_REAR = 3
    RIGHT_FRONT = 4
    RIGHT_REAR = 5


class Pocket(IntEnum):
    """The six pockets."""

    FRONT_LEFT = 0
    FRONT_RIGHT = 1
    MIDDLE_LEFT = 2
    MIDDLE_RIGHT = 3
    REAR_LEFT = 4
    REAR_RIGHT = 5

    @property
    def adjacent_cushions(self) -> tuple[Cushion, Cushion]:
        """The two cushion segments that form this pocket's jaws."""
        return _ADJACENT[self]


_ADJACENT: dict[Pocket, tuple[Cushion, Cushion]] = {
    Pocket.FRONT_LEFT: (Cushion.FRONT, Cushion.LEFT_FRONT),
    Pocket.FRONT_RIGHT: (Cushion.FRONT, Cushion.RIGHT_FRONT),
    Pocket.MIDDLE_LEFT: (Cushion.LEFT_FRONT, Cushion.LEFT_REAR),
    Pocket.MIDDLE_RIGHT: (Cushion.RIGHT_FRONT, Cushion.RIGHT_REAR),
    Pocket.REAR_LEFT: (Cushion.REAR, Cushion.LEFT_REAR),
    Pocket.REAR_RIGHT: (Cushion.REAR, Cushion.RIGHT_REAR),
}
