"""The frame state beside the table: whose decision it is, credits, fouls, clock, result.

Immutable and small (tuples and ints), so copying a frame for look-ahead costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from numbers import Integral

from kinghill.physics import N_BALLS

DEFAULT_REQUIRED = 3
"""Whites required without a handicap (5.3)."""
DEFAULT_SHOT_LIMIT = 200
"""Shots after which an undecided frame is truncated (R-truncate)."""
FOULS_TO_LOSE = 2
"""A player's second foul in a frame loses it (10.5)."""


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer (numpy's included), not a bool: what a count must be."""
    return isinstance(value, Integral) and not isinstance(value, bool)


class Decision(Enum):
    """What the player to move decides now."""

    BREAK = "break"
    """Place white 1 in the house and break (4.1)."""
    SHOT = "shot"
    """Choose a cue ball, a call and the cue parameters (1.4, 7.1)."""
    CHOICE = "choice"
    """After the opponent's foul: play on, or hand the shot back (10.4, R-foul-choice)."""
    OVER = "over"
    """The frame has a result; nothing more to decide."""


class EndReason(str, Enum):  # noqa: UP042 (StrEnum would change str(), which records use)
    """Why a frame ended."""

    COLOUR_POTTED = "colour potted"
    """A legal pot of the coloured ball (3.2)."""
    SECOND_FOUL = "second foul"
    """The loser's second foul (10.5)."""
    TRUNCATED = "truncated"
    """The shot limit was reached (R-truncate); no winner."""


@dataclass(frozen=True, slots=True)
class FrameResult:
    """The end of a frame: ``winner`` 0/1, or ``None`` when truncated."""

    winner: int | None
    reason: EndReason

    def __str__(self) -> str:
        if self.winner is None:
            return f"frame {self.reason.value} (R-truncate), no winner"
        rule = "3.2" if self.reason is EndReason.COLOUR_POTTED else "10.5"
        return f"player {self.winner} wins the frame ({self.reason.value}, {rule})"


@dataclass(frozen=True, slots=True)
class Frame:
    """Everything about a frame except ball positions (those are the physics ``TableState``).

    ``credited[p]``: the whites credited to player ``p`` (ball ids, in potting order);
    ``required[p]``: how many ``p`` needs (5.3, R-handicap); ``fouls[p]``: fouls this frame;
    ``extension_used[p]``: the 12.5 extension taken; ``shots``: shots played (a time foul plays
    none); ``fouled_by``: who fouled, while the opponent makes the 10.4 choice.
    """

    required: tuple[int, int] = (DEFAULT_REQUIRED, DEFAULT_REQUIRED)
    credited: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    fouls: tuple[int, int] = (0, 0)
    extension_used: tuple[bool, bool] = (False, False)
    to_move: int = 0
    decision: Decision = Decision.BREAK
    fouled_by: int | None = None
    shots: int = 0
    shot_limit: int = DEFAULT_SHOT_LIMIT
    breaker: int = 0
    no_cushion_foul: bool = True
    """R-fouls (b), an option: no ball touches a cushion after the first contact, none potted."""
    result: FrameResult | None = None

    @classmethod
    def new(
        cls,
        required: tuple[int, int] = (DEFAULT_REQUIRED, DEFAULT_REQUIRED),
        breaker: int = 0,
        shot_limit: int = DEFAULT_SHOT_LIMIT,
        no_cushion_foul: bool = True,
    ) -> Frame:
        """A frame before the break; ``required`` per player is 3 minus the head start."""
        if (
            not isinstance(required, tuple | list)
            or len(required) != 2
            or any(not is_whole(r) or not 0 <= r < N_BALLS for r in required)
        ):
            raise ValueError(f"required whites: two whole numbers 0-7, got {required!r}")
        if breaker not in (0, 1):
            raise ValueError(f"breaker: player 0 or 1, got {breaker!r}")
        if not is_whole(shot_limit) or shot_limit < 1:
            raise ValueError(f"shot_limit must be a whole number of at least 1, got {shot_limit!r}")
        if not isinstance(no_cushion_foul, bool):
            raise ValueError(f"no_cushion_foul must be True or False, got {no_cushion_foul!r}")
        return cls(
            required=(int(required[0]), int(required[1])),
            to_move=breaker,
            breaker=breaker,
            shot_limit=shot_limit,
            no_cushion_foul=no_cushion_foul,
        )

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result.winner

    @property
    def is_truncated(self) -> bool:
        return self.result is not None and self.result.reason is EndReason.TRUNCATED

    @property
    def credit_counts(self) -> tuple[int, int]:
        """Whites credited per player."""
        return (len(self.credited[0]), len(self.credited[1]))

    def whites_needed(self, player: int) -> int:
        """Whites ``player`` still needs before the coloured ball is theirs to pot (6.1)."""
        return max(0, self.required[player] - len(self.credited[player]))

    def has_required(self, player: int) -> bool:
        """Whether ``player`` has potted the required whites (6.1, judged at the shot's start)."""
        return self.whites_needed(player) == 0


def opponent(player: int) -> int:
    """The other player."""
    return 1 - player
