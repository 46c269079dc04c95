"""Time control (section 12, R-clock) as a pure model: decision times are given, never measured.

No clock in rounds 1-2 or when time control is off (12.1, 12.2); from round 3, 35 s a shot, 5 s
less each later round, never under 20 s (12.3); one 15 s extension per player per frame, claimed
before the base time runs out (12.5-12.7); over time is a foul (12.4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from kinghill.envs.rules.frame import Frame, is_whole

FIRST_TIMED_ROUND = 3
BASE_LIMIT = 35.0
LIMIT_STEP = 5.0
MIN_LIMIT = 20.0
EXTENSION = 15.0


@dataclass(frozen=True)
class TimeVerdict:
    """Whether a decision was in time, the time it was allowed, and the frame afterwards
    (with the extension marked used when it was granted)."""

    in_time: bool
    allowed: float | None
    extension_granted: bool
    frame: Frame

    @property
    def is_foul(self) -> bool:
        """Over time: a foul (12.4); judge it with ``judge_overtime``."""
        return not self.in_time


@dataclass(frozen=True)
class TimeAllowance:
    """The time a player may take for one decision: the round's base limit (``None``: no clock)
    and the extension still open to them in this frame (15 s, or 0 once used; 12.5-12.6)."""

    limit: float | None = None
    extension: float = 0.0

    @property
    def timed(self) -> bool:
        return self.limit is not None


@dataclass(frozen=True)
class ShotClock:
    """The clock of one tournament round; ``enabled`` False means no time control (12.1)."""

    round: int = 1
    enabled: bool = True

    def __post_init__(self) -> None:
        if not is_whole(self.round) or self.round < 1:
            raise ValueError(f"round numbers are whole numbers from 1, got {self.round!r}")

    @property
    def limit(self) -> float | None:
        """Seconds per shot in this round, or ``None`` without a clock (12.2, 12.3)."""
        if not self.enabled or self.round < FIRST_TIMED_ROUND:
            return None
        return max(MIN_LIMIT, BASE_LIMIT - LIMIT_STEP * (self.round - FIRST_TIMED_ROUND))

    def allowance(self, frame: Frame, player: int) -> TimeAllowance:
        """What ``player`` may take for a shot now: the base limit and the extension left."""
        limit = self.limit
        if limit is None:
            return TimeAllowance()
        return TimeAllowance(limit, 0.0 if frame.extension_used[player] else EXTENSION)

    def judge_time(
        self,
        frame: Frame,
        player: int,
        seconds: float,
        claim_extension_at: float | None = None,
    ) -> TimeVerdict:
        """Judge ``player``'s decision that took ``seconds``, with an extension claimed at
        ``claim_extension_at`` seconds (or none). Exactly the limit is in time; a claim at or after
        the base limit, after the decision ended, or a second claim in the frame, is not granted
        (12.5, 12.7, R-clock).

        :raises ValueError: ``player`` is not 0 or 1, or a time is negative, NaN or infinite.
        """
        if isinstance(player, bool) or player not in (0, 1):
            raise ValueError(f"player: 0 or 1, got {player!r}")
        _check_seconds(seconds, "seconds")
        if claim_extension_at is not None:
            _check_seconds(claim_extension_at, "claim_extension_at")
        limit = self.limit
        if limit is None:
            return TimeVerdict(True, None, False, frame)
        granted = (
            claim_extension_at is not None
            and claim_extension_at < limit
            and claim_extension_at <= seconds
            and not frame.extension_used[player]
        )
        if granted:
            used = list(frame.extension_used)
            used[player] = True
            frame = replace(frame, extension_used=(used[0], used[1]))
            limit += EXTENSION
        return TimeVerdict(seconds <= limit, limit, granted, frame)


def _check_seconds(value: object, name: str) -> None:
    """A time in seconds is a finite number >= 0 (NaN would be judged over time, silently)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name}: a number of seconds, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name}: a decision's time is finite and 0 or more, got {value}")
