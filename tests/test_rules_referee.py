"""The referee, table-driven: one hand-written event log per rule and ruling (docs/rules.md)."""

from dataclasses import dataclass, field, replace

import pytest

from kinghill.envs.rules import Call, Decision, EndReason, Frame, FrameResult, judge, judge_overtime
from kinghill.physics import BallBall as hit
from kinghill.physics import BallCushion as cush
from kinghill.physics import CentreLine as cross
from kinghill.physics import Cushion, Event, Pocket
from kinghill.physics import Pocketed as pot

C, P = Cushion, Pocket
SHOT, CHOICE, OVER = Decision.SHOT, Decision.CHOICE, Decision.OVER
RL = P.REAR_LEFT


def at_shot(
    credited: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
    required: tuple[int, int] = (3, 3),
    fouls: tuple[int, int] = (0, 0),
    **kw: object,
) -> Frame:
    """Player 0 to shoot after the break, with these credits and fouls."""
    frame = Frame.new(required=required)
    kw = {"decision": SHOT, "shots": 1, **kw}
    return replace(frame, credited=credited, fouls=fouls, **kw)  # type: ignore[arg-type]


READY = at_shot(credited=((5, 6, 7), ()))
"""Player 0 has the three whites: the coloured ball is theirs to pot (6.1)."""


@dataclass
class Case:
    """One shot: what happened and what the referee must rule."""

    rule: str
    events: list[Event]
    cue: int = 3
    call: Call | None = None
    frame: Frame = field(default_factory=at_shot)
    fouls: tuple[str, ...] = ()
    """The rule numbers the fouls cite, all of them (rules.md); empty: no foul."""
    credited: tuple[int, ...] = ()
    colour: bool = False
    void: bool = False
    to_spot: tuple[int, ...] = ()
    next: tuple[int, Decision] = (1, SHOT)
    result: tuple[int | None, EndReason] | None = None


CASES = [
    # ---- the break (4.x) ------------------------------------------------------------------
    Case(
        "4.2a two different cushions",
        [hit(1, 2), cush(2, C.REAR), cush(2, C.LEFT_REAR)],
        cue=1,
        frame=Frame.new(),
    ),
    Case(
        "4.2b only: a cushion, then the centre line",
        [hit(1, 2), cush(2, C.REAR), cush(2, C.REAR), cross(2)],
        cue=1,
        frame=Frame.new(),
    ),
    Case(
        "4.3 centre line crossed before any cushion",
        [cross(1), hit(1, 2), cush(2, C.REAR)],
        cue=1,
        frame=Frame.new(),
        fouls=("4.2", "4.3"),
        next=(1, CHOICE),
    ),
    Case(
        "4.3 one cushion only, whites potted spotted (5.7, 10.3)",
        [hit(1, 2), hit(2, 3), pot(3, RL), cush(2, C.REAR)],
        cue=1,
        frame=Frame.new(),
        fouls=("4.2", "4.3"),
        to_spot=(3,),
        next=(1, CHOICE),
    ),
    Case(
        "R-fouls(a) miss on the break",
        [cush(1, C.LEFT_FRONT), cush(1, C.REAR)],
        cue=1,
        frame=Frame.new(),
        fouls=("R-fouls(a)",),
        next=(1, CHOICE),
    ),
    Case(
        "4.4/4.5 coloured potted on the break, no foul, spotted; 4.7 turn passes",
        [hit(1, 2), hit(2, 0), pot(0, P.REAR_RIGHT), cush(2, C.REAR), cush(2, C.RIGHT_REAR)],
        cue=1,
        frame=Frame.new(),
        to_spot=(0,),
    ),
    Case(
        "4.6/4.8 a white on the break: credited, the breaker keeps the turn",
        [hit(1, 2), hit(2, 4), pot(4, RL), cush(2, C.REAR), cush(2, C.RIGHT_REAR)],
        cue=1,
        frame=Frame.new(),
        credited=(4,),
        next=(0, SHOT),
    ),
    Case(
        "4.4 + 4.6 coloured and a white on the break",
        [hit(1, 2), pot(0, RL), pot(4, P.REAR_RIGHT), cush(2, C.REAR), cush(2, C.FRONT)],
        cue=1,
        frame=Frame.new(),
        credited=(4,),
        to_spot=(0,),
        next=(0, SHOT),
    ),
    Case(
        "5.4/5.6 four whites on the break exceed the limit",
        [hit(1, 2), cush(2, C.REAR), cush(2, C.FRONT), *(pot(b, RL) for b in (3, 4, 5, 6))],
        cue=1,
        frame=Frame.new(),
        fouls=("5.5", "5.6", "5.7"),
        to_spot=(3, 4, 5, 6),
        next=(1, CHOICE),
    ),
    # ---- whites (5.x) and the turn (R-turn) ---------------------------------------------------
    Case(
        "5.1/5.2 R-turn a white potted without a call: credited, plays again",
        [hit(3, 4), pot(4, P.FRONT_LEFT)],
        credited=(4,),
        next=(0, SHOT),
    ),
    Case("R-turn nothing potted: the turn passes", [hit(3, 4), cush(4, C.FRONT)]),
    Case(
        "5.5 two whites in one shot up to the limit",
        [hit(3, 4), pot(4, P.FRONT_LEFT), hit(3, 5), pot(5, P.FRONT_RIGHT)],
        frame=at_shot(credited=((6,), ())),
        credited=(4, 5),
        next=(0, SHOT),
    ),
    Case(
        "5.6/5.7 whites over the limit in one shot: foul, all spotted",
        [hit(3, 4), pot(4, P.FRONT_LEFT), hit(3, 5), pot(5, P.FRONT_RIGHT)],
        frame=at_shot(credited=((6, 7), ())),
        fouls=("5.5", "5.6", "5.7"),
        to_spot=(4, 5),
        next=(1, CHOICE),
    ),
    Case(
        "R-fouls the white cue ball potted after a contact counts as a white",
        [hit(3, 4), cush(4, C.FRONT), pot(3, P.MIDDLE_LEFT)],
        credited=(3,),
        next=(0, SHOT),
    ),
    # ---- other fouls (R-fouls) ----------------------------------------------------------------
    Case(
        "R-fouls(a) miss: the cue ball touches no ball",
        [cush(3, C.REAR), cush(3, C.FRONT)],
        fouls=("R-fouls(a)",),
        next=(1, CHOICE),
    ),
    Case(
        "R-fouls(a) miss and the cue ball potted: spotted",
        [cush(3, C.REAR), pot(3, RL)],
        fouls=("R-fouls(a)",),
        to_spot=(3,),
        next=(1, CHOICE),
    ),
    Case(
        "R-fouls(b) no cushion after the first contact",
        [cush(3, C.REAR), hit(3, 4), hit(4, 5)],
        fouls=("R-fouls(b)",),
        next=(1, CHOICE),
    ),
    Case(
        "R-fouls(b) is an option: off, no foul",
        [hit(3, 4), hit(4, 5)],
        frame=at_shot(no_cushion_foul=False),
    ),
    Case(
        "R-fouls(b) a potted ball is enough", [hit(3, 4), pot(4, RL)], credited=(4,), next=(0, SHOT)
    ),
    Case(
        "10.5 a second foul loses the frame",
        [cush(3, C.REAR)],
        frame=at_shot(fouls=(1, 0)),
        fouls=("R-fouls(a)",),
        next=(1, OVER),
        result=(1, EndReason.SECOND_FOUL),
    ),
    Case(
        "10.1/10.2 the opponent's earlier foul does not count against the shooter",
        [cush(3, C.REAR)],
        frame=at_shot(fouls=(0, 1)),
        fouls=("R-fouls(a)",),
        next=(1, CHOICE),
    ),
    # ---- the coloured ball with the required whites (3.2, 6.1, 7.x) ----------------------------
    Case(
        "3.2/6.1 plain pot as called wins the frame",
        [hit(3, 0), pot(0, RL)],
        call=Call.plain(3, RL),
        frame=READY,
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "R-status whites potted in the shot do not permit the colour in that shot",
        [hit(3, 0), pot(0, RL), hit(3, 4), pot(4, P.FRONT_LEFT)],
        call=Call.plain(3, RL),
        frame=at_shot(credited=((5, 6), ()), required=(3, 3)),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0, 4),
        next=(1, CHOICE),
    ),
    Case(
        "R-same-shot 3.2 whites within the limit count with the winning (early) colour",
        [hit(3, 0), cush(0, C.RIGHT_REAR), pot(0, RL), hit(3, 4), pot(4, P.FRONT_LEFT)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        frame=at_shot(credited=((5,), ())),
        credited=(4,),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "5.6 R-same-shot whites over the limit void the colour pot",
        [hit(3, 0), pot(0, RL), hit(3, 4), pot(4, P.FRONT_LEFT)],
        call=Call.plain(3, RL),
        frame=READY,
        fouls=("5.5", "5.6", "5.7"),
        to_spot=(0, 4),
        next=(1, CHOICE),
    ),
    Case(
        "6.3 R-uncalled the coloured ball potted without a call",
        [hit(3, 0), pot(0, RL)],
        frame=READY,
        fouls=("6.3", "7.4", "R-uncalled"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "7.3 R-uncalled the coloured ball in another pocket",
        [hit(3, 0), pot(0, P.REAR_RIGHT)],
        call=Call.plain(3, RL),
        frame=READY,
        fouls=("7.3", "7.4", "R-uncalled"),
        void=True,
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "7.4 a called double with an extra cushion contact by the coloured ball",
        [hit(3, 0), cush(0, C.RIGHT_REAR), cush(0, C.LEFT_REAR), cush(0, C.FRONT), pot(0, RL)],
        call=Call.double(3, RL, [C.RIGHT_REAR, C.LEFT_REAR]),
        frame=READY,
        fouls=("7.3", "7.4", "R-uncalled"),
        void=True,
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "7.5 a jaw contact immediately before the drop is ignored",
        [hit(3, 0), cush(0, C.RIGHT_REAR), cush(0, C.LEFT_REAR), cush(0, C.REAR), pot(0, RL)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        frame=READY,
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "7.5 a jaw contact not immediately before the drop is not exempt",
        [hit(3, 0), cush(0, C.LEFT_REAR), cush(0, C.RIGHT_REAR), pot(0, RL)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        frame=READY,
        fouls=("7.3", "7.4", "R-uncalled"),
        void=True,
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "7.5 a jaw contact then a kiss by another ball before the drop is not exempt",
        [hit(3, 0), cush(0, C.LEFT_REAR), hit(4, 0), pot(0, RL)],
        call=Call.plain(3, RL),
        frame=READY,
        fouls=("7.3", "7.4", "R-uncalled"),
        void=True,
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "7.4 'affects': contacts outside the chain and after passing motion on are ignored",
        [hit(3, 0), cush(3, C.FRONT), hit(3, 5), cush(5, C.REAR), pot(0, RL)],
        call=Call.plain(3, RL),
        frame=READY,
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "R-route the cue ball's leg is part of the call",
        [cush(3, C.FRONT), hit(3, 0), pot(0, RL)],
        call=Call.plain(3, RL),
        frame=READY,
        fouls=("7.3", "7.4", "R-uncalled"),
        void=True,
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "R-void an unannounced contact, nothing potted: void, no foul, the turn passes",
        [hit(3, 0), cush(0, C.FRONT), cush(0, C.RIGHT_FRONT)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        frame=READY,
        void=True,
    ),
    Case(
        "7.4 void with a white potted: a foul, the white spotted",
        [hit(3, 0), cush(0, C.FRONT), hit(3, 4), pot(4, P.FRONT_RIGHT)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        frame=at_shot(),
        fouls=("7.4",),
        void=True,
        to_spot=(4,),
        next=(1, CHOICE),
    ),
    Case(
        "R-void the call fulfilled so far but short: judged as whites only",
        [hit(3, 0), cush(0, C.RIGHT_REAR), hit(3, 4), pot(4, P.FRONT_RIGHT)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        credited=(4,),
        next=(0, SHOT),
    ),
    Case(
        "R-void a call whose coloured ball never moves: whites only",
        [hit(3, 4), pot(4, P.FRONT_RIGHT)],
        call=Call.plain(3, RL),
        credited=(4,),
        next=(0, SHOT),
    ),
    Case(
        "R-route a second strike of the coloured ball not called",
        [hit(3, 0), cush(0, C.RIGHT_REAR), hit(3, 0), pot(0, RL)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        frame=READY,
        fouls=("7.3", "7.4", "R-uncalled"),
        void=True,
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    # ---- early pots (6.2, 8.x, R-early) ------------------------------------------------------
    Case(
        "R-early a plain pot before the required whites",
        [hit(3, 0), pot(0, RL)],
        call=Call.plain(3, RL),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "8.1 an early double with a white cue ball",
        [hit(3, 0), cush(0, C.RIGHT_REAR), pot(0, RL)],
        call=Call.double(3, RL, [C.RIGHT_REAR]),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.1 an early abricol off one cushion not adjacent to the pocket",
        [cush(3, C.FRONT), hit(3, 0), pot(0, RL)],
        call=Call.abricol(3, RL, [C.FRONT]),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.1 exception: an early abricol off the single pocket-adjacent cushion",
        [cush(3, C.LEFT_REAR), hit(3, 0), pot(0, RL)],
        call=Call.abricol(3, RL, [C.LEFT_REAR]),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "8.1 exception, R-early: the single adjacent cushion touched twice is still one cushion",
        [cush(3, C.REAR), cush(3, C.REAR), hit(3, 0), pot(0, RL)],
        call=Call.abricol(3, RL, [C.REAR, C.REAR]),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "6.1 the same single-adjacent abricol is legal with the required whites",
        [cush(3, C.LEFT_REAR), hit(3, 0), pot(0, RL)],
        call=Call.abricol(3, RL, [C.LEFT_REAR]),
        frame=READY,
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.1 an early abricol off two cushions, one adjacent",
        [cush(3, C.LEFT_REAR), cush(3, C.REAR), hit(3, 0), pot(0, RL)],
        call=Call.abricol(3, RL, [C.LEFT_REAR, C.REAR]),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "R-early a single-adjacent abricol that is also a double is permitted as a double",
        [cush(3, C.LEFT_REAR), hit(3, 0), cush(0, C.RIGHT_REAR), pot(0, RL)],
        call=Call.abricol(3, RL, [C.LEFT_REAR], [C.RIGHT_REAR]),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.1.1 abricol: the coloured ball touching the pocket's cushions is no violation",
        [cush(3, C.FRONT), hit(3, 0), cush(0, C.LEFT_REAR), cush(0, C.RIGHT_REAR), pot(0, RL)],
        call=Call.abricol(3, RL, [C.FRONT], [C.RIGHT_REAR]),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.2 an early combination with one white (the cue ball) only is a plain shot: foul",
        [hit(3, 0), pot(0, RL)],
        call=Call.plain(3, RL),
        frame=at_shot(credited=((5,), ())),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "8.2 an early combination with two whites",
        [hit(3, 4), hit(4, 0), pot(0, RL)],
        call=Call.combination(3, [4], RL),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.3 the coloured cue ball caroming off one white: only one white takes part",
        [hit(0, 4), pot(0, RL)],
        cue=0,
        call=Call.carom(RL, [4]),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "8.3 the coloured cue ball caroming off two whites",
        [hit(0, 4), hit(0, 5), pot(0, RL)],
        cue=0,
        call=Call.carom(RL, [4, 5]),
        colour=True,
        next=(0, OVER),
        result=(0, EndReason.COLOUR_POTTED),
    ),
    Case(
        "8.1 a double with the coloured cue ball is not an early pot",
        [hit(0, 4), cush(0, C.RIGHT_REAR), pot(0, RL)],
        cue=0,
        call=Call.carom(RL, [4, C.RIGHT_REAR]),
        fouls=("6.1", "8.1", "8.2", "R-early"),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "R-fouls(a) the coloured cue ball potted without touching a ball",
        [pot(0, RL)],
        cue=0,
        call=Call.plain(0, RL),
        frame=READY,
        fouls=("R-fouls(a)",),
        to_spot=(0,),
        next=(1, CHOICE),
    ),
    Case(
        "R-truncate the shot limit ends the frame without a winner",
        [hit(3, 4), cush(4, C.FRONT)],
        frame=at_shot(shots=199),
        next=(1, OVER),
        result=(None, EndReason.TRUNCATED),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.rule for c in CASES])
def test_judge(case: Case) -> None:
    """Every rule and ruling of docs/rules.md on a hand-written event log."""
    r = judge(case.frame, case.cue, case.call, case.events)
    rules = {n for f in r.fouls for n in f.rules}
    assert set(case.fouls) == rules and r.is_foul == bool(case.fouls), str(r)
    assert r.credited == case.credited, str(r)
    assert (r.legal_colour_pot, r.void, r.to_spot) == (case.colour, case.void, case.to_spot), str(r)
    assert (r.next_to_move, r.next_decision) == case.next, str(r)
    result = None if r.result is None else (r.result.winner, r.result.reason)
    assert result == case.result, str(r)


def test_ruling_reads_as_one_line() -> None:
    """Ruling prints for people: the rule numbers, what happened, what is spotted, who is next."""
    r = judge(
        at_shot(credited=((5, 6, 7), ())),
        3,
        Call.double(3, RL, [C.RIGHT_REAR]),
        [hit(3, 0), cush(0, C.LEFT_REAR), cush(0, C.RIGHT_REAR), hit(3, 4), pot(4, P.FRONT_LEFT)],
    )
    assert str(r) == (
        "foul 7.4: the coloured ball touched LEFT_REAR where the call was RIGHT_REAR; "
        "1 white to spot; player 1 chooses to play on or hand the shot back (10.4)"
    )
    assert "\n" not in str(r)
    win = judge(READY, 3, Call.plain(3, RL), [hit(3, 0), pot(0, RL)])
    assert str(win) == (
        "coloured ball potted as called (3 > 0 => REAR_LEFT); "
        "player 0 wins the frame (colour potted, 3.2)"
    )
    assert (win.winner, win.is_over, win.whites_credited) == (0, True, 0)


def test_a_void_shot_with_a_contact_foul_does_not_read_no_foul() -> None:
    """R-void, R-fouls(b): the void note says "no foul" only when there is none (issue 10)."""
    call = Call.combination(3, [4], RL)
    foul = judge(READY, 3, call, [hit(3, 0)])  # deviated, and no cushion after the contact
    assert foul.void and [f.rules for f in foul.fouls] == [("R-fouls(b)",)]
    assert "no foul" not in str(foul)
    assert "void 7.4, R-void: motion reached the coloured ball by 3 > 0" in str(foul)
    clean = judge(READY, 3, call, [hit(3, 0), cush(0, C.FRONT)])
    assert clean.void and not clean.fouls
    assert "nothing potted, no foul" in str(clean)


def test_judge_overtime_12_4() -> None:
    """12.4, R-clock: a shot not played in time is a foul; no shot is played."""
    r = judge_overtime(at_shot())
    assert (r.is_foul, r.shot_played, r.next_to_move, r.next_decision) == (True, False, 1, CHOICE)
    assert "12.4" in r.fouls[0].rules
    lost = judge_overtime(at_shot(fouls=(1, 0)))
    assert lost.result is not None and lost.result.winner == 1  # 10.5


@pytest.mark.parametrize(
    ("frame", "cue", "call", "message"),
    [
        (Frame.new(), 3, None, "white 1"),
        (Frame.new(), 1, Call.plain(1, RL), "no call on the break"),
        (at_shot(), 4, Call.plain(3, RL), "start with the cue ball 4"),
        (at_shot(decision=CHOICE, fouled_by=1), 3, None, "10.4 choice"),
        (at_shot(result=FrameResult(1, EndReason.SECOND_FOUL)), 3, None, "the frame is over"),
    ],
)
def test_judge_rejects_a_shot_that_may_not_be_played(
    frame: Frame, cue: int, call: Call | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        judge(frame, cue, call, [hit(cue, 2)])
