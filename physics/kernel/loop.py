"""The event loop: analytic motion between events, exact event times, billiards responses.

Each ball moves on a quadratic path within its cloth phase (:mod:`.cloth`), so the loop never
integrates: it knows, for every ball, when its phase ends, when it first meets a cushion, jaw,
fall edge or the centre line, and for every pair when the balls touch (:mod:`.plan`); it jumps
to the earliest of these, resolves it (:mod:`.responses`), starts the changed balls' new phases
(:mod:`.evolve`) and re-plans only those balls. The arrays it works on are laid out in
:mod:`.layout`; :func:`run` is its Python face (what :func:`kinghill.physics.simulate` calls).

A ball whose centre passes a fall edge is over the hole: it drops once it has stayed there for
the time it takes to sink out of a jaw's reach (``TableSpec.fall_drop``), or when it leaves the
hole anywhere but back over the fall edge between the jaws (it met the pocket's back); back over
the edge in time, it lands on the shelf and plays on. A ball at rest short of the fall edge,
off the playing area, hangs in the mouth and stays in play.
"""

from __future__ import annotations

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.kernel.cloth import SPIN_DECAY
from kinghill.physics.kernel.detect import INF, TIME_TOL
from kinghill.physics.kernel.evolve import end_phase, energy, rebase, set_up, start_phase, stop
from kinghill.physics.kernel.layout import (
    BALL_BALL,
    CENTRE_LINE,
    FALL_POCKET,
    FALL_T,
    ON,
    OWN_CENTRE,
    OWN_CUSHION,
    OWN_DATA,
    OWN_FALL,
    OWN_KIND,
    OWN_LAND,
    OWN_PHASE,
    OWN_POCKET,
    OWN_T,
    PAIRS,
    SIDE,
    T0,
    WZ,
    Start,
    TableArrays,
    Work,
    X,
    Y,
    named,
)
from kinghill.physics.kernel.plan import back_over_edge, plan_all, plan_own, replan
from kinghill.physics.kernel.responses import bounce, collide, drop, same_contact
from kinghill.physics.kernel.table import Table
from kinghill.physics.kernel.workspace import (
    RawRun,
    full,
    play_in,
    record_energy,
    record_event,
)
from kinghill.physics.names import N_BALLS
from kinghill.physics.resolve.motion import Motion

MAX_EVENTS = 20000
"""Safety cap on events per shot (a real shot has a few hundred at most)."""


def run(
    table: Table,
    positions: np.ndarray,
    on_table: np.ndarray,
    cue_ball: int,
    motion: Motion,
    *,
    record_paths: bool = False,
    record_energy: bool = False,
) -> RawRun:
    """Play from ``positions`` (8 x 2) with ``cue_ball`` given ``motion`` until every ball is at
    rest, in the compiled loop; the arrays as it returns them."""
    return play_in(
        enter_play, table.plain, positions, on_table, cue_ball, motion, record_paths, record_energy
    )


@njit
def enter_play(
    work: tuple, table: tuple, start: tuple, paths: bool, with_energy: bool
) -> tuple[bool, int, float]:
    """:func:`play` entered from Python, its arguments plain tuples (:func:`.layout.named`)."""
    w, t, s = named(work, table, start)
    return play(w, t, s, paths, with_energy, -1)


@njit
def play(
    work: Work, table: TableArrays, start: Start, paths: bool, with_energy: bool, watch: int
) -> tuple[bool, int, float]:
    """The event loop, a kernel (:data:`~kinghill.physics.kernel.layout.Kernel`): ``(done,
    steps, duration)``, the run in ``work``; not done if the records ran out of room. With
    ``watch`` a ball (-1: none), the run stops once that ball has had two events, the duration
    then the time it stopped (what measuring the ball's departure needs, :mod:`.batch`)."""
    balls, flags, pairs, rec = work.balls, work.flags, work.pairs, work.records
    cloth = table.cloth
    set_up(work, table, start, paths)
    plan_all(balls, flags, pairs, table, 0.0)
    now = 0.0
    if with_energy:
        record_energy(rec, energy(balls, flags, cloth, 0.0))
    steps = 0
    seen, watched = 0, 0  # the events looked at for the watched ball, its events among them
    while True:
        if watch >= 0:
            for i in range(seen, rec.counts[0]):
                event = rec.events[i]
                if event[1] == watch or (event[0] == BALL_BALL and event[2] == watch):
                    watched += 1
            seen = rec.counts[0]
            if watched >= 2:
                return True, steps, now
        steps += 1
        if steps > MAX_EVENTS:
            raise RuntimeError("physics: event cap exceeded (a stuck contact?)")
        if full(rec, paths, with_energy, 2):
            return False, steps, 0.0
        b, ob = 0, balls[0, OWN_T]
        for n in range(1, N_BALLS):
            if balls[n, OWN_T] < ob:
                b, ob = n, balls[n, OWN_T]
        k, tp = 0, pairs[0]
        for m in range(1, len(pairs)):
            if pairs[m] < tp:
                k, tp = m, pairs[m]
        if tp < ob:
            t = now = tp
            i, j = PAIRS[k, 0], PAIRS[k, 1]
            rebase(balls, flags, cloth, i, t)
            rebase(balls, flags, cloth, j, t)
            collide(balls, table, rec, i, j, t)
            start_phase(balls, flags, cloth, rec, paths, i)
            start_phase(balls, flags, cloth, rec, paths, j)
            replan(balls, flags, pairs, table, i, j, t)
            if pairs[k] <= t + TIME_TOL:
                # still closing after the response (a press the rules above missed): stop
                stop(balls, flags, cloth, rec, paths, i)
                stop(balls, flags, cloth, rec, paths, j)
                replan(balls, flags, pairs, table, i, j, t)
        else:
            t = ob
            kind, data = flags[b, OWN_KIND], flags[b, OWN_DATA]
            if t == INF:
                break
            now = t
            if kind == OWN_PHASE:
                end_phase(balls, flags, cloth, b)
                start_phase(balls, flags, cloth, rec, paths, b)
                replan(balls, flags, pairs, table, b, -1, t)
                continue
            if kind == OWN_CENTRE:
                record_event(rec, CENTRE_LINE, b, -1, t)
                balls[b, SIDE] = -balls[b, SIDE]
                plan_own(balls, flags, table, b, t)
                continue
            if kind == OWN_POCKET:
                rebase(balls, flags, cloth, b, t)
                drop(balls, flags, pairs, rec, paths, b, data, t)
                continue
            if kind in (OWN_FALL, OWN_LAND):
                # past the fall edge the ball sinks; back over it in time, it is on the slate
                # (unless it left the hole on the far side: then it met the pocket's back)
                rebase(balls, flags, cloth, b, t)
                if kind == OWN_FALL:
                    balls[b, FALL_T], flags[b, FALL_POCKET] = t + table.fall_time, data
                elif back_over_edge(table, data, balls[b, X], balls[b, Y]):
                    balls[b, FALL_T], flags[b, FALL_POCKET] = INF, -1
                else:
                    drop(balls, flags, pairs, rec, paths, b, data, t)
                    continue
                plan_own(balls, flags, table, b, t)
                continue
            rebase(balls, flags, cloth, b, t)
            bounce(balls, table, rec, paths, b, data, t)
            start_phase(balls, flags, cloth, rec, paths, b)
            replan(balls, flags, pairs, table, b, -1, t)
            if (
                balls[b, OWN_T] <= t + TIME_TOL
                and flags[b, OWN_KIND] == OWN_CUSHION
                and same_contact(table.elements, flags[b, OWN_DATA], data)
            ):
                # still pressed into the same cushion or jaw after the response: it stops
                stop(balls, flags, cloth, rec, paths, b)
                replan(balls, flags, pairs, table, b, -1, t)
        if with_energy:
            record_energy(rec, energy(balls, flags, cloth, now))
    n_events = rec.counts[0]
    duration = max(0.0, rec.times[n_events - 1]) if n_events > 0 else 0.0
    for b in range(N_BALLS):
        if flags[b, ON]:
            duration = max(duration, balls[b, T0] + abs(balls[b, WZ]) / cloth[SPIN_DECAY])
    return True, steps, duration
