"""Frame-like stress: thousands of shots from the positions real frames produce.

Unlike the uniform fuzz (test 7), shots follow each other from the rack as in a frame, pocketed
balls come back spotted the way the referee spots them (whites in a row from the rear cushion,
exactly touching it and each other; the coloured ball on the rear spot), balls are frozen to
cushions, and most shots are aimed at a ball, hard, with heavy draw, follow and side spin.
"""

import math

import numpy as np
from physics_support import SPEC, R, assert_physical, run

from kinghill.physics import TableState
from kinghill.physics.cue import strike
from kinghill.physics.shot import MAX_SPEED, MISCUE_LIMIT, Shot

N_SHOTS = 5000
FRAME_SHOTS = 25
"""Shots before the balls are racked again."""
L, W = SPEC.length, SPEC.width


def free(pos: list[tuple[float, float]], on: list[bool], p: tuple[float, float], ball: int) -> bool:
    """Whether ball ``ball`` could stand at ``p`` (distance 2R from the others is allowed)."""
    return all(not on[b] or b == ball or math.dist(p, pos[b]) >= 2 * R - 1e-12 for b in range(8))


def spot(pos: list[tuple[float, float]], on: list[bool], ball: int) -> None:
    """Put a pocketed ball back on the long axis: the coloured ball on the rear spot, a white
    against the rear cushion; each further forward by whole diameters while the place is taken."""
    x = SPEC.rear_spot[0] if ball == 0 else L - R
    while not free(pos, on, (x, W / 2), ball):
        x -= 2 * R
    pos[ball], on[ball] = (x, W / 2), True


def freeze_to_cushion(rng: np.random.Generator, pos: list, on: list[bool]) -> None:
    """Slide one ball straight onto its nearest cushion (centre exactly R from the nose)."""
    ball = int(rng.choice([b for b in range(8) if on[b]]))
    x, y = pos[ball]
    options = [(R, y), (L - R, y), (x, R), (x, W - R)]
    p = min(options, key=lambda q: math.dist(q, (x, y)))
    if free(pos, on, p, ball):
        pos[ball] = p


def frame_shot(rng: np.random.Generator, pos: list, on: list[bool]) -> Shot:
    """Mostly at a ball (cut up to about half-ball), sometimes anywhere; heavy spin, any speed."""
    balls = [b for b in range(8) if on[b]]
    cue = int(rng.choice(balls))
    others = [b for b in balls if b != cue]
    if others and rng.random() < 0.8:
        tx, ty = pos[int(rng.choice(others))]
        phi = math.atan2(ty - pos[cue][1], tx - pos[cue][0]) + rng.normal(0.0, 0.15)
    else:
        phi = rng.uniform(0.0, 2 * math.pi)
    r, ang = MISCUE_LIMIT * math.sqrt(rng.uniform(0.3, 1.0)), rng.uniform(0, 2 * math.pi)
    speed = float(rng.choice([rng.uniform(0.05, 2.0), rng.uniform(2.0, MAX_SPEED)]))
    return Shot(cue, phi, speed, r * math.cos(ang), r * math.sin(ang))


def new_frame(rng: np.random.Generator) -> tuple[list[tuple[float, float]], list[bool]]:
    """The rack, or a late-frame table: a few balls left, the rest spotted in a row."""
    pos = [(float(x), float(y)) for x, y in TableState.rack(SPEC).positions]
    on = [True] * 8
    if rng.random() < 0.5:
        return pos, on
    on = [False] * 8
    for ball in rng.permutation(8)[: int(rng.integers(0, 4))].tolist():
        p = (rng.uniform(R, L - R), rng.uniform(R, W - R))
        if free(pos, on, p, ball):
            pos[ball], on[ball] = p, True
    for ball in range(8):
        if not on[ball]:
            spot(pos, on, ball)
    return pos, on


def test_frames_of_shots_from_real_positions_stay_physical() -> None:
    """No exception; every ball ends on the playing area without overlap; the log is
    consistent; kinetic energy never rises from one event to the next."""
    rng = np.random.default_rng(20261130)
    pos: list[tuple[float, float]] = []
    on: list[bool] = []
    for k in range(N_SHOTS):
        if k % FRAME_SHOTS == 0 or sum(on) < 2:
            pos, on = new_frame(rng)
        elif rng.random() < 0.2:
            freeze_to_cushion(rng, pos, on)
        shot = frame_shot(rng, pos, on)
        out = run(SPEC, pos, on, shot.cue_ball, strike(shot, R), record_energy=True)
        assert_physical(out, on, (pos, on, shot))
        pos = [p if o else (0.0, 0.0) for p, o in zip(out.positions, out.on_table, strict=True)]
        on = list(out.on_table)
        for ball in range(8):
            if not on[ball] and rng.random() < 0.7:
                spot(pos, on, ball)
