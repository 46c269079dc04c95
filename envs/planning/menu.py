"""The shots on offer in a position, as a ghost-ball player sees them: the legal pots (whites,
the coloured ball with its call, early doubles of it), soft safeties, a firm break from the house,
and a fallback when no line is clear.

The heuristic agent plays the best of them; the masked training env (:mod:`kinghill.envs.rl.masked`)
offers them to a learner as its discrete choices. They live in ``envs`` so that the environment
can offer them without depending on ``agents``.
"""

from __future__ import annotations

import math

import numpy as np

from kinghill.envs.game.actions import FrameView, ShotAction
from kinghill.envs.planning.aim import angle_to
from kinghill.envs.planning.candidates import PotCandidate, pots, roll_deceleration
from kinghill.envs.planning.safety_kernel import find_safeties
from kinghill.envs.planning.table_arrays import planning_arrays
from kinghill.envs.rules import Call, ShotKind
from kinghill.physics import BREAK_BALL, COLOURED, WHITES, Shot, TableState

EARLY_CHANCE = 0.3
"""An early double/abricol of the coloured ball (R-early) is tried only this likely or better."""
BREAK_SPEED = 7.0
"""Cue speed of the break (m/s)."""
BREAK_SPOT = (0.55, 0.62)
"""Where white 1 stands for the break, as fractions of the house length and the table width."""
BREAK_AIM_OFFSET = 0.4
"""The break strikes the apex this fraction of a ball's radius off full (a three-quarter ball)."""


def permitted_early(call: Call) -> bool:
    """Whether a pot on ``call`` is permitted before the required whites (8.1-8.3, R-early)."""
    kinds = call.kinds
    if ShotKind.DOUBLE in kinds and call.cue_ball != COLOURED:
        return True
    if ShotKind.ABRICOL in kinds and not call.is_single_adjacent_abricol:
        return True
    return ShotKind.COMBINATION in kinds and call.whites_taking_part >= 2


def legal_pots(view: FrameView) -> list[PotCandidate]:
    """The pots the player to move may make now, best first: whites while more are required
    (5.5), the coloured ball called once they are in (6.1), and early doubles of the coloured
    ball with a white cue ball that look makeable (8.1, R-early). Kicks (abricols) are left to
    the search: off a real cushion the cue ball too often misses the object ball (R-fouls (a))."""
    state, frame = view.state, view.frame
    needed = frame.whites_needed(view.player)
    whites = [b for b in WHITES if state.on_table[b]]
    if not state.on_table[COLOURED]:
        return pots(state, whites, whites) if needed else []
    if needed == 0:
        return pots(state, whites, [COLOURED], doubles=True)
    early = [
        c
        for c in pots(state, whites, [COLOURED], doubles=True, min_chance=EARLY_CHANCE)
        if (call := c.call) is not None and permitted_early(call)
    ]
    found = pots(state, whites, whites) + early
    found.sort(key=lambda c: c.chance, reverse=True)
    return found


def pot_action(candidate: PotCandidate) -> ShotAction:
    """The action that plays ``candidate`` with its call."""
    return ShotAction(candidate.shot, candidate.call)


def break_action(state: TableState) -> ShotAction:
    """A firm three-quarter-ball break on the apex from the house (4.1); it scatters the pyramid
    off the cushions, so the break is legal (4.2)."""
    spec = state.spec
    place = (
        spec.radius + BREAK_SPOT[0] * (spec.house_line_x - 2 * spec.radius),
        spec.radius + BREAK_SPOT[1] * (spec.width - 2 * spec.radius),
    )
    apex = min(
        (b for b in state.balls_on_table() if b != BREAK_BALL),
        key=lambda b: state.positions[b, 0],
    )
    ax, ay = state.xy(apex)
    side = 1.0 if place[1] > ay else -1.0  # strike the apex on the side facing the cue ball
    target = (ax, ay + side * BREAK_AIM_OFFSET * spec.radius)
    return ShotAction(Shot(BREAK_BALL, angle_to(place, target), BREAK_SPEED), None, place)


def safety_actions(view: FrameView, limit: int | None = None) -> list[ShotAction]:
    """Soft full-ball hits that send a white object ball to a cushion (R-fouls (a), (b)),
    softest first (the first ``limit`` of them when given); the object ball's path must not run
    at a pocket, so nothing drops.

    Every pair is costed first and the lines are checked in order of cost, until ``limit`` pass
    (:func:`.safety_kernel.find_safeties`): the checks are the expensive part, and the order (a
    stable sort) is the same either way."""
    state, spec = view.state, view.state.spec
    ids = np.flatnonzero(state.on_table)
    arrays = planning_arrays(spec)
    rows = find_safeties(
        state.positions[ids],
        ids,
        arrays.mouths,
        arrays.scalars,
        (spec.length - spec.radius, spec.width - spec.radius),
        roll_deceleration(spec),
        -1 if limit is None else limit,
    )
    return [ShotAction(Shot(int(cue), phi, speed)) for cue, phi, speed in rows.tolist()]


def fallback_action(view: FrameView) -> ShotAction:
    """A firm shot at the nearest ball when no line is clear: contact and cushions are likely."""
    state = view.state
    on = state.balls_on_table()
    cue_ball = next((b for b in on if b != COLOURED), on[0])
    cue = state.xy(cue_ball)
    target = min((b for b in on if b != cue_ball), key=lambda b: math.dist(cue, state.xy(b)))
    return ShotAction(Shot(cue_ball, angle_to(cue, state.xy(target)), 3.0))
