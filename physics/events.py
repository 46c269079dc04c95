"""The event log of a shot: every contact, pot and centre-line crossing, with its time.

Events are small frozen value objects. Hand-written logs (for the referee's tests) may leave the
time at its default of 0.0: the log's order is what the referee reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from kinghill.physics.names import Cushion, Pocket


@dataclass(frozen=True, slots=True)
class BallBall:
    """Balls ``a`` and ``b`` collided; ``a`` is the striker (the faster toward the other)."""

    a: int
    b: int
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class BallCushion:
    """``ball`` touched ``cushion`` (a jaw counts as the cushion it belongs to)."""

    ball: int
    cushion: Cushion
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class Pocketed:
    """``ball`` dropped into ``pocket``; nothing happens to it afterwards."""

    ball: int
    pocket: Pocket
    t: float = 0.0


@dataclass(frozen=True, slots=True)
class CentreLine:
    """``ball``'s centre crossed the centre line x = L/2 (every crossing is logged)."""

    ball: int
    t: float = 0.0


Event = BallBall | BallCushion | Pocketed | CentreLine
"""Any event of the log."""
