"""Property tests: random well-formed event logs never make the referee raise, and "nothing lost"
holds through long random frames (1.1, 5.3, 5.8, 5.9, 10.5, 11.4)."""

from dataclasses import replace

from hypothesis import event, given, settings
from hypothesis import strategies as st

from kinghill.envs.rules import (
    MAX_CHAIN,
    MAX_TOUCHES,
    Call,
    Decision,
    Frame,
    Route,
    apply,
    check_invariants,
    choose,
    judge,
    judge_overtime,
    observe_route,
)
from kinghill.physics import (
    BREAK_BALL,
    COLOURED,
    WHITES,
    BallBall,
    BallCushion,
    CentreLine,
    Cushion,
    Event,
    Pocket,
    Pocketed,
    TableState,
)


@st.composite
def event_logs(draw: st.DrawFn, on_table: tuple[int, ...], cue: int) -> list[Event]:
    """A well-formed log among the balls on the table: a potted ball does nothing afterwards."""
    alive = set(on_table)
    events: list[Event] = []
    if len(alive) > 1 and draw(st.integers(0, 3)):  # mostly a contact and a cushion: fewer fouls
        struck = draw(st.sampled_from(sorted(alive - {cue})))
        events += [BallBall(cue, struck), BallCushion(struck, draw(st.sampled_from(Cushion)))]
    for _ in range(draw(st.integers(0, 14))):
        if not alive:
            break
        ball = draw(st.sampled_from(sorted(alive)))
        kind = draw(st.sampled_from(["hit", "hit", "cushion", "cushion", "pot", "cross"]))
        if kind == "hit" and len(alive) > 1:
            events.append(BallBall(ball, draw(st.sampled_from(sorted(alive - {ball})))))
        elif kind == "cushion":
            events.append(BallCushion(ball, draw(st.sampled_from(Cushion))))
        elif kind == "pot" and (ball != COLOURED or draw(st.integers(0, 3)) == 0):
            events.append(Pocketed(ball, draw(st.sampled_from(Pocket))))
            alive.discard(ball)
        elif kind == "cross":
            events.append(CentreLine(ball))
    return events


@st.composite
def clean_shots(draw: st.DrawFn, on_table: tuple[int, ...], cue: int) -> list[Event]:
    """A shot without a foul of contact: the cue ball strikes a ball that touches a cushion and
    may drop (so that frames last and legal pots happen)."""
    others = sorted(set(on_table) - {cue})
    if not others:
        return []
    struck = draw(st.sampled_from(others))
    cushions = draw(st.lists(st.sampled_from(Cushion), min_size=1, max_size=2))
    log: list[Event] = [BallBall(cue, struck), *(BallCushion(struck, c) for c in cushions)]
    if draw(st.booleans()):
        log.append(Pocketed(struck, draw(st.sampled_from(Pocket))))
    return log


@st.composite
def calls(draw: st.DrawFn, on_table: tuple[int, ...], cue: int) -> Call:
    """A call that can be meant, among the balls on the table."""
    whites = sorted(set(on_table) - {cue, COLOURED})
    via: list[int] = []
    if cue != COLOURED and whites:
        via = draw(st.lists(st.sampled_from(whites), max_size=MAX_CHAIN - 2, unique=True))
    chain = (COLOURED,) if cue == COLOURED else (cue, *via, COLOURED)
    legs = []
    for k in range(len(chain)):
        touchable = sorted(set(on_table) - set(chain[k:]))
        touch = st.sampled_from(Cushion) | (
            st.sampled_from(touchable) if touchable else st.nothing()
        )
        legs.append(tuple(draw(st.lists(touch, max_size=MAX_TOUCHES))))
    return Call(draw(st.sampled_from(Pocket)), chain, tuple(legs))


def _as_call(route: Route | None) -> Call | None:
    """The observed route as a call, when it fits the caps (so that legal pots happen often)."""
    if route is None or route.pocket is None or len(route.chain) > MAX_CHAIN:
        return None
    if any(len(leg) > MAX_TOUCHES for leg in route.legs):
        return None
    return Call(route.pocket, route.chain, route.legs)


@st.composite
def frames(draw: st.DrawFn) -> Frame:
    """A frame awaiting a shot after the break, with credits within the requirement."""
    required = (draw(st.integers(0, 4)), draw(st.integers(0, 4)))
    pool = list(WHITES)
    credited = []
    for player in (0, 1):
        n = draw(st.integers(0, min(required[player], len(pool) - 1)))
        credited.append(tuple(pool[:n]))
        pool = pool[n:]
    return replace(
        Frame.new(required=required, no_cushion_foul=draw(st.booleans())),
        decision=Decision.SHOT,
        shots=1,
        credited=(credited[0], credited[1]),
        fouls=(draw(st.integers(0, 1)), draw(st.integers(0, 1))),
        to_move=draw(st.integers(0, 1)),
    )


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_judge_never_raises_on_well_formed_logs(data: st.DataObject) -> None:
    """Any well-formed log, frame and call gives a ruling that prints as one line."""
    frame = data.draw(frames())
    credited = set(frame.credited[0] + frame.credited[1])
    on_table = tuple(b for b in range(8) if b not in credited)
    cue = data.draw(st.sampled_from(on_table))
    log = data.draw(event_logs(on_table, cue))
    call = data.draw(st.none() | calls(on_table, cue) | st.just(_as_call(observe_route(log, cue))))
    if call is not None and call.cue_ball != cue:
        call = None
    ruling = judge(frame, cue, call, log)
    assert "\n" not in str(ruling)
    assert set(ruling.credited) <= set(ruling.potted) and set(ruling.to_spot) <= set(ruling.potted)
    assert not (ruling.is_foul and ruling.credited)
    assert ruling.legal_colour_pot == (ruling.winner == frame.to_move and not ruling.is_foul)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_nothing_lost_through_long_random_frames(data: st.DataObject) -> None:
    """Through long random sequences of rulings every ball stays accounted for, credits only
    grow and stay within the requirement, spotted balls never overlap (check_invariants)."""
    required = (data.draw(st.integers(1, 4)), data.draw(st.integers(1, 3)))
    frame = Frame.new(required=required, shot_limit=data.draw(st.integers(2, 40)))
    state = TableState.rack()
    for _ in range(80):
        if frame.is_over:
            break
        before = frame
        if frame.decision is Decision.CHOICE:
            frame = choose(frame, data.draw(st.booleans()))
            continue
        if data.draw(st.integers(0, 49)) == 0:
            frame, state = apply(frame, judge_overtime(frame), state)
        else:
            on_table = state.balls_on_table()
            is_break = frame.decision is Decision.BREAK
            cue = BREAK_BALL if is_break else data.draw(st.sampled_from(on_table))
            log = data.draw(event_logs(on_table, cue) | clean_shots(on_table, cue))
            call = None
            if not is_break:
                observed = st.just(_as_call(observe_route(log, cue)))
                call = data.draw(st.none() | calls(on_table, cue) | observed)
            ruling = judge(frame, cue, call, log)
            final = state
            for ball in ruling.potted:
                final = final.remove(ball)
            frame, state = apply(frame, ruling, final)
        check_invariants(frame, state, before=before)
        assert frame.fouls[0] <= 2 and frame.fouls[1] <= 2
        assert frame.shots <= frame.shot_limit
    event(f"frame end: {frame.result.reason.value if frame.result else 'still on'}")
