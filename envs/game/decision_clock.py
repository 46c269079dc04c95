"""The clock of one decision as the player sees it while thinking (section 12, R-clock).

Whoever times a match starts a :class:`DecisionClock` when it asks a player to decide and hands
it over in the :class:`~kinghill.envs.FrameView` (``view.clock``). The player reads the time it
has left, with or without the 15 s extension, and may claim the extension while the base time
runs (12.5, 12.7); the runner then judges the decision with the claim's moment. The clock counts
``time.perf_counter`` seconds (monotonic, the same in every process of one machine), so a copy
sent to another process keeps the decision's start.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from kinghill.envs.rules import TimeAllowance


@dataclass
class DecisionClock:
    """The time a decision may take and how much of it is gone.

    :param allowance: the round's base limit for this decision and the extension still open.
    :param started: ``time.perf_counter()`` when the decision was asked for.
    :param claimed_at: seconds into the decision when the extension was claimed, or None.
    """

    allowance: TimeAllowance = field(default_factory=TimeAllowance)
    started: float = field(default_factory=lambda: time.perf_counter())
    claimed_at: float | None = None

    @property
    def timed(self) -> bool:
        """Whether this decision is on the clock (12.1, 12.2)."""
        return self.allowance.timed

    def elapsed(self) -> float:
        """Seconds since the decision was asked for."""
        return time.perf_counter() - self.started

    @property
    def extension_available(self) -> bool:
        """The extension is still open for this decision: unused in the frame, not yet claimed,
        and the base time not yet over (12.5, 12.7)."""
        return self._open_at(self.elapsed())

    def _open_at(self, seconds: float) -> bool:
        limit = self.allowance.limit
        return (
            limit is not None
            and self.allowance.extension > 0
            and self.claimed_at is None
            and seconds < limit
        )

    def time_left(self, with_extension: bool = False) -> float:
        """Seconds left for this decision (``math.inf`` without a clock). The extension counts
        once claimed; ``with_extension`` also counts it when it could still be claimed."""
        limit = self.allowance.limit
        if limit is None:
            return math.inf
        if self.claimed_at is not None or (with_extension and self.extension_available):
            limit += self.allowance.extension
        return limit - self.elapsed()

    def claim_extension(self) -> bool:
        """Claim the 15 s extension now; True when it is granted (12.5-12.7: once a frame,
        before the base time runs out). A refused claim changes nothing."""
        now = self.elapsed()
        if not self._open_at(now):
            return False
        self.claimed_at = now
        return True
