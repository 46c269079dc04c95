"""The observed route of the coloured ball, read from the event log, and its match with the call.

R-route: the chain follows motion from the cue ball to the coloured ball (each ball is set in
motion by the first moving ball that strikes it); each chain ball's leg holds what it touches from
the moment it starts moving until it strikes the next chain ball, the coloured ball's until it
drops. 7.3 compares called and observed routes after removing the contacts exempted by 7.5 and
8.1.1; 7.4 (void) asks whether the route so far left the called one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from kinghill.envs.rules.call import (
    Call,
    Leg,
    ShotKind,
    Touch,
    ball_name,
    format_route,
    leg_key,
    strip_adjacent,
    touch_name,
)
from kinghill.physics import COLOURED, BallBall, BallCushion, Event, Pocket, Pocketed


@dataclass(frozen=True)
class Route:
    """The coloured ball's observed route: ``chain``, one leg per chain ball, and where it dropped.

    ``pocket`` is ``None`` when the coloured ball did not drop.
    """

    chain: tuple[int, ...]
    legs: tuple[Leg, ...]
    pocket: Pocket | None

    def __str__(self) -> str:
        end = f" => {self.pocket.name}" if self.pocket is not None else " (did not drop)"
        return format_route(self.chain, self.legs) + end


def observe_route(events: Sequence[Event], cue_ball: int) -> Route | None:
    """The coloured ball's route in this log, or ``None`` when the coloured ball never moved."""
    started: dict[int, int] = {cue_ball: -1}  # ball -> index of the event that set it moving
    struck_by: dict[int, int] = {}
    for i, e in enumerate(events):
        if not isinstance(e, BallBall):
            continue
        for mover, rest in ((e.a, e.b), (e.b, e.a)):
            if mover in started and rest not in started:
                started[rest] = i
                struck_by[rest] = mover
                break
    if COLOURED not in started:
        return None
    chain = [COLOURED]
    while chain[-1] != cue_ball:
        chain.append(struck_by[chain[-1]])
    chain.reverse()
    drop = next(
        (i for i, e in enumerate(events) if isinstance(e, Pocketed) and e.ball == COLOURED), None
    )
    ends = [started[b] for b in chain[1:]] + [len(events) if drop is None else drop]
    legs = tuple(
        _touches(events, ball, started[ball] + 1, end)
        for ball, end in zip(chain, ends, strict=True)
    )
    pocket = None if drop is None else events[drop].pocket  # type: ignore[union-attr]
    return Route(tuple(chain), legs, pocket)


def _touches(events: Sequence[Event], ball: int, start: int, end: int) -> Leg:
    leg: list[Touch] = []
    for e in events[start:end]:
        if isinstance(e, BallCushion) and e.ball == ball:
            leg.append(e.cushion)
        elif isinstance(e, BallBall) and ball in (e.a, e.b):
            leg.append(e.b if e.a == ball else e.a)
    return tuple(leg)


class Verdict(Enum):
    """How the observed route stands to the call (7.3, 7.4, R-void)."""

    FULFILLED = "fulfilled"
    """The coloured ball dropped in the called pocket on the called route (7.3)."""
    SHORT = "short"
    """The route so far is the called one but the coloured ball did not drop (R-void: no foul)."""
    DEVIATED = "deviated"
    """An unannounced contact, another chain or another pocket (7.4)."""


@dataclass(frozen=True)
class RouteMatch:
    """The verdict and, for a deviation, what left the call, as people read it."""

    verdict: Verdict
    reason: str = ""


def match_route(call: Call, route: Route) -> RouteMatch:
    """Compare the observed route with the call, after the exemptions of 7.5 and 8.1.1."""
    called = list(call.legs)
    seen = list(route.legs)
    if ShotKind.ABRICOL in call.kinds:  # 8.1.1: any contact with the pocket's jaws cushions
        called[-1] = strip_adjacent(called[-1], call.pocket, trailing_only=False)
        seen[-1] = strip_adjacent(seen[-1], call.pocket, trailing_only=False)
    if route.pocket is not None:  # 7.5: the contacts immediately before the drop
        called[-1] = strip_adjacent(called[-1], call.pocket, trailing_only=True)
        seen[-1] = strip_adjacent(seen[-1], call.pocket, trailing_only=True)
    if route.chain != call.chain:
        return RouteMatch(
            Verdict.DEVIATED,
            f"motion reached the coloured ball by {' > '.join(map(str, route.chain))}, "
            f"the call was {' > '.join(map(str, call.chain))}",
        )
    dropped = route.pocket is not None
    for ball, want, got in zip(call.chain, called, seen, strict=True):
        last = ball == COLOURED
        reason = _leg_difference(ball, want, got, prefix_ok=last and not dropped)
        if reason:
            return RouteMatch(Verdict.DEVIATED, reason)
    if not dropped:
        return RouteMatch(Verdict.SHORT)
    if route.pocket != call.pocket:
        assert route.pocket is not None
        return RouteMatch(
            Verdict.DEVIATED,
            f"the coloured ball dropped in {route.pocket.name}, the call was {call.pocket.name}",
        )
    return RouteMatch(Verdict.FULFILLED)


def _leg_difference(ball: int, want: Leg, got: Leg, *, prefix_ok: bool) -> str:
    """The first difference of an observed leg from the called one, or ``""`` when none.

    ``prefix_ok``: the leg may stop short of the call (the coloured ball did not drop).
    """
    if leg_key(got) == leg_key(want[: len(got)]) and (prefix_ok or len(got) == len(want)):
        return ""
    who = ball_name(ball)
    for j, t in enumerate(got):
        if j >= len(want):
            return f"{who} touched {touch_name(t)}, which was not called"
        if leg_key((t,)) != leg_key((want[j],)):
            return f"{who} touched {touch_name(t)} where the call was {touch_name(want[j])}"
    missing = want[len(got)]
    return f"{who} did not touch {touch_name(missing)}, which was called"
