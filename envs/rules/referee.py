"""The referee: judges one shot from its event log (pure: it simulates nothing and reads no
table geometry; the physics' event types come through :mod:`kinghill.physics`, whose import
loads the engine, see :mod:`kinghill.envs.rules`).

A shot is judged as a whole once all balls are at rest (R-same-shot): first every foul, then the
call, then credits, spotting, the next decision and the frame result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kinghill.envs.rules.call import Call, ShotKind, validate_call
from kinghill.envs.rules.frame import (
    FOULS_TO_LOSE,
    Decision,
    EndReason,
    Frame,
    FrameResult,
    opponent,
)
from kinghill.envs.rules.route import Route, Verdict, match_route, observe_route
from kinghill.envs.rules.ruling import Foul, Ruling
from kinghill.physics import (
    BREAK_BALL,
    COLOURED,
    BallBall,
    BallCushion,
    CentreLine,
    Event,
    Pocketed,
    TableState,
)


def validate_shot(frame: Frame, state: TableState, cue_ball: int, call: Call | None) -> None:
    """Check that this shot may be played now; ``ValueError`` says what is wrong.

    The frame must await a break or a shot; the break is white 1 from the house with no call
    (4.1, 4.4); otherwise any ball on the table is the cue ball (1.4) and the call must fit the
    table (:func:`validate_call`).
    """
    _check_turn(frame, cue_ball, call)
    if frame.decision is Decision.BREAK and not state.in_house(BREAK_BALL):
        raise ValueError(
            f"the break is played from the house (4.1): ball {BREAK_BALL} is not in it"
        )
    validate_call(call, state, cue_ball)


def _check_turn(frame: Frame, cue_ball: int, call: Call | None) -> None:
    if frame.is_over:
        raise ValueError(f"the frame is over: {frame.result}")
    if frame.decision not in (Decision.BREAK, Decision.SHOT):
        raise ValueError(f"player {frame.to_move} must make the 10.4 choice first (choose())")
    if call is not None and call.cue_ball != cue_ball:
        raise ValueError(f"call chain {call.chain} must start with the cue ball {cue_ball}")
    if frame.decision is Decision.BREAK:
        if cue_ball != BREAK_BALL:
            raise ValueError(f"the break is played with white {BREAK_BALL} (1.3), got {cue_ball}")
        if call is not None:
            raise ValueError("no call on the break: a coloured ball potted then is spotted (4.4)")


@dataclass(frozen=True)
class _Pots:
    """The balls potted in the shot, in order."""

    balls: tuple[int, ...]

    @property
    def whites(self) -> tuple[int, ...]:
        return tuple(b for b in self.balls if b != COLOURED)

    @property
    def colour(self) -> bool:
        return COLOURED in self.balls


def judge(frame: Frame, cue_ball: int, call: Call | None, events: Iterable[Event]) -> Ruling:
    """Judge a played shot: ``cue_ball`` struck with ``call`` (``None``: whites only), ``events``
    the physics event log in order. Raises ``ValueError`` only when the shot may not be played.
    """
    _check_turn(frame, cue_ball, call)
    log = tuple(events)
    shooter = frame.to_move
    is_break = frame.decision is Decision.BREAK
    potted: dict[int, None] = {}
    for e in log:
        if isinstance(e, Pocketed):
            potted[e.ball] = None
    pots = _Pots(tuple(potted))
    fouls = _contact_fouls(frame, cue_ball, log, pots, is_break)
    route = observe_route(log, cue_ball)
    notes: list[str] = []
    void = False
    colour_legal = False
    if is_break:
        if pots.colour:
            notes.append("4.4: the coloured ball potted on the break is no foul, it is spotted")
    elif call is None or route is None:
        if pots.colour:  # with a call, only a malformed log pots a ball that never moved
            fouls.append(Foul(("6.3", "7.4", "R-uncalled"), "the coloured ball dropped uncalled"))
    else:
        verdict = match_route(call, route)
        if verdict.verdict is Verdict.DEVIATED:
            void = True
            if pots.balls:
                rules = ("7.3", "7.4", "R-uncalled") if pots.colour else ("7.4",)
                fouls.append(Foul(rules, verdict.reason))
            else:  # no foul of its own; "no foul" only when the contacts found none either
                tail = "" if fouls else ", no foul"
                notes.append(f"void 7.4, R-void: {verdict.reason}; nothing potted{tail}")
        elif verdict.verdict is Verdict.FULFILLED:
            early = _early_foul(frame, shooter, call)
            if early is None:
                colour_legal = True
            else:
                fouls.append(early)
    total = len(frame.credited[shooter]) + len(pots.whites)
    if total > frame.required[shooter] and not fouls and not void:  # only whites that count
        fouls.append(
            Foul(
                ("5.5", "5.6", "5.7"),
                f"{total} whites would exceed the {frame.required[shooter]} required",
            )
        )
    return _rule(frame, cue_ball, call, pots, fouls, colour_legal and not fouls, void, route, notes)


def _contact_fouls(
    frame: Frame, cue_ball: int, log: Sequence[Event], pots: _Pots, is_break: bool
) -> list[Foul]:
    """The fouls read from contacts alone: miss and no cushion (R-fouls), the break (4.2, 4.3)."""
    first = None
    for i, e in enumerate(log):
        if isinstance(e, BallBall) and (e.a == cue_ball or e.b == cue_ball):
            first = i
            break
    if first is None:
        return [Foul(("R-fouls(a)",), f"miss: cue ball {cue_ball} touched no other ball")]
    if is_break:
        if _break_is_legal(log):
            return []
        return [
            Foul(
                ("4.2", "4.3"),
                "no ball touched two different cushions or crossed the centre line after a cushion",
            )
        ]
    cushion = any(isinstance(e, BallCushion) for e in log[first + 1 :])
    if frame.no_cushion_foul and not cushion and not pots.balls:
        return [Foul(("R-fouls(b)",), "no ball touched a cushion after the first contact")]
    return []


def _break_is_legal(log: Sequence[Event]) -> bool:
    """4.2: (a) a ball touched two different cushions, or (b) a ball crossed the centre line
    with its centre after touching a cushion."""
    cushions: dict[int, set[int]] = {}
    for e in log:
        if isinstance(e, BallCushion):
            cushions.setdefault(e.ball, set()).add(e.cushion)
            if len(cushions[e.ball]) >= 2:
                return True
        elif isinstance(e, CentreLine) and e.ball in cushions:
            return True
    return False


def _early_foul(frame: Frame, shooter: int, call: Call) -> Foul | None:
    """R-early, R-status: ``None`` when the called pot is permitted to ``shooter`` now, else why."""
    if frame.has_required(shooter):
        return None  # 6.1
    kinds = call.kinds
    white_cue = call.cue_ball != COLOURED
    if ShotKind.DOUBLE in kinds and white_cue:
        return None  # 8.1, double
    if ShotKind.ABRICOL in kinds and not call.is_single_adjacent_abricol:
        return None  # 8.1, abricol
    if ShotKind.COMBINATION in kinds and call.whites_taking_part >= 2:
        return None  # 8.2, 8.3
    needed = frame.whites_needed(shooter)
    names = "/".join(sorted(k.value for k in kinds))
    return Foul(
        ("6.1", "8.1", "8.2", "R-early"),
        f"the coloured ball was potted early by a {names} shot "
        f"({needed} more white{'s' if needed > 1 else ''} required first)",
    )


def _rule(
    frame: Frame,
    cue_ball: int,
    call: Call | None,
    pots: _Pots,
    fouls: list[Foul],
    colour_legal: bool,
    void: bool,
    route: Route | None,
    notes: list[str],
) -> Ruling:
    """Credits, spotting, the next decision and the result from the shot's findings."""
    shooter = frame.to_move
    is_break = frame.decision is Decision.BREAK
    if fouls or void:
        credited: tuple[int, ...] = ()
        to_spot = pots.balls  # 5.7, 10.3; a void shot with balls potted is a foul (7.4)
    else:
        credited = pots.whites  # 4.8, 5.2
        to_spot = () if colour_legal else tuple(b for b in pots.balls if b == COLOURED)
    if len(to_spot) > 1:
        to_spot = tuple(sorted(to_spot, key=lambda b: b != COLOURED))  # R-spot: coloured first
    result, next_to_move, decision = _next(frame, bool(fouls), colour_legal, credited, is_break)
    return Ruling(
        shooter=shooter,
        cue_ball=cue_ball,
        call=call,
        is_break=is_break,
        potted=pots.balls,
        fouls=tuple(fouls),
        credited=credited,
        legal_colour_pot=colour_legal,
        void=void,
        to_spot=to_spot,
        next_to_move=next_to_move,
        next_decision=decision,
        result=result,
        route=route,
        notes=tuple(notes),
    )


def _next(
    frame: Frame, foul: bool, colour_legal: bool, credited: tuple[int, ...], is_break: bool
) -> tuple[FrameResult | None, int, Decision]:
    """The frame result, and who decides what next (3.2, 4.6, 4.7, 10.4, 10.5, R-turn,
    R-truncate). The shot counts as played."""
    shooter = frame.to_move
    other = opponent(shooter)
    if foul and frame.fouls[shooter] + 1 >= FOULS_TO_LOSE:
        return FrameResult(other, EndReason.SECOND_FOUL), other, Decision.OVER
    if colour_legal:
        return FrameResult(shooter, EndReason.COLOUR_POTTED), shooter, Decision.OVER
    if frame.shots + 1 >= frame.shot_limit:
        return FrameResult(None, EndReason.TRUNCATED), other, Decision.OVER
    if foul:
        return None, other, Decision.CHOICE
    keeps = bool(credited)  # 4.6/4.7 on the break, R-turn afterwards
    return None, shooter if keeps else other, Decision.SHOT


def judge_overtime(frame: Frame) -> Ruling:
    """The ruling on a shot not played in time (12.4, R-clock): a foul; the table is unchanged."""
    if frame.is_over:
        raise ValueError(f"the frame is over: {frame.result}")
    if frame.decision not in (Decision.BREAK, Decision.SHOT):
        raise ValueError("the clock runs for shots (12.3), not for the 10.4 choice")
    shooter = frame.to_move
    other = opponent(shooter)
    if frame.fouls[shooter] + 1 >= FOULS_TO_LOSE:
        result, decision = FrameResult(other, EndReason.SECOND_FOUL), Decision.OVER
    else:
        result, decision = None, Decision.CHOICE
    return Ruling(
        shooter=shooter,
        cue_ball=None,
        call=None,
        is_break=frame.decision is Decision.BREAK,
        potted=(),
        fouls=(Foul(("12.4", "R-clock"), "the shot was not played in time"),),
        credited=(),
        legal_colour_pot=False,
        void=False,
        to_spot=(),
        next_to_move=other,
        next_decision=decision,
        result=result,
        shot_played=False,
    )
