"""The referee's ruling on one shot: fouls with their rules, credits, spotting, next decision."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from kinghill.envs.rules.call import Call
from kinghill.envs.rules.frame import Decision, FrameResult
from kinghill.envs.rules.route import Route
from kinghill.physics import COLOURED


@dataclass(frozen=True, slots=True)
class Foul:
    """One reason the shot is a foul: the rule numbers that make it one, and what happened."""

    rules: tuple[str, ...]
    reason: str

    def __str__(self) -> str:
        return f"{', '.join(self.rules)}: {self.reason}"


@dataclass(frozen=True)
class Ruling:
    """What the referee decided about one shot (or about a shot not played in time, 12.4).

    Several fouls in one shot are one foul (R-fouls); ``fouls`` lists every reason.
    ``credited``: the whites credited to the shooter; ``to_spot``: the balls to spot before the
    next shot, coloured first (R-spot); ``void``: the call was left by an unannounced contact
    (7.4); ``next_to_move``/``next_decision``: who decides what next; ``result``: the frame's end.
    """

    shooter: int
    cue_ball: int | None
    call: Call | None
    is_break: bool
    potted: tuple[int, ...]
    fouls: tuple[Foul, ...]
    credited: tuple[int, ...]
    legal_colour_pot: bool
    void: bool
    to_spot: tuple[int, ...]
    next_to_move: int
    next_decision: Decision
    result: FrameResult | None
    route: Route | None = None
    """The coloured ball's observed route, when it moved."""
    notes: tuple[str, ...] = ()
    """Rulings that are not fouls, for people: ``void 7.4: ...``, ``4.4: ...``."""
    shot_played: bool = True
    """False for a time foul (12.4): the table is unchanged."""

    @property
    def is_foul(self) -> bool:
        return bool(self.fouls)

    @property
    def whites_credited(self) -> int:
        return len(self.credited)

    @property
    def whites_spotted(self) -> int:
        return sum(1 for b in self.to_spot if b != COLOURED)

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result.winner

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The ruling as one line for people (built once: env info, overlays and logs reuse it)."""
        parts = []
        if self.fouls:
            parts.append("foul " + "; ".join(str(f) for f in self.fouls))
        elif self.legal_colour_pot:
            parts.append(f"coloured ball potted as called ({self.call})")
        elif self.is_break:
            parts.append("legal break")
        parts.extend(self.notes)
        if self.credited:
            parts.append(f"{_count(len(self.credited), 'white')} credited to player {self.shooter}")
        if self.whites_spotted:
            parts.append(f"{_count(self.whites_spotted, 'white')} to spot")
        if COLOURED in self.to_spot:
            parts.append("the coloured ball to spot")
        parts.append(self._next())
        return "; ".join(parts)

    def _next(self) -> str:
        if self.result is not None:
            return str(self.result)
        who = f"player {self.next_to_move}"
        if self.next_decision is Decision.CHOICE:
            return f"{who} chooses to play on or hand the shot back (10.4)"
        if self.next_to_move == self.shooter:
            return f"{who} plays again"
        return f"turn passes to {who}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
