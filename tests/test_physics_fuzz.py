"""Test 7: 10,000 random shots from random legal layouts, speeds up to 10 m/s, all spins."""

import math

import numpy as np
import pytest
from physics_support import SPEC, R, assert_physical, run

from kinghill.physics.cue import strike
from kinghill.physics.shot import MISCUE_LIMIT, Shot

N_SHOTS = 10_000


def random_layout(rng: np.random.Generator) -> tuple[list[tuple[float, float]], list[bool]]:
    """1-8 balls at uniform random non-overlapping spots (a few touching on purpose)."""
    n = int(rng.integers(1, 9))
    balls = rng.permutation(8)[:n]
    pos = [(0.0, 0.0)] * 8
    on = [False] * 8
    placed: list[tuple[float, float]] = []
    for b in balls:
        while True:
            if placed and rng.random() < 0.1:  # frozen to another ball
                ang = rng.uniform(0, 2 * math.pi)
                ox, oy = placed[int(rng.integers(len(placed)))]
                p = (ox + 2 * R * math.cos(ang), oy + 2 * R * math.sin(ang))
            else:
                p = (rng.uniform(R, SPEC.length - R), rng.uniform(R, SPEC.width - R))
            inside = R <= p[0] <= SPEC.length - R and R <= p[1] <= SPEC.width - R
            if inside and all(math.dist(p, q) >= 2 * R - 1e-12 for q in placed):
                break
        placed.append(p)
        pos[int(b)], on[int(b)] = p, True
    return pos, on


def random_shot(rng: np.random.Generator, on: list[bool]) -> Shot:
    cue = int(rng.choice([b for b in range(8) if on[b]]))
    r, ang = MISCUE_LIMIT * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
    return Shot(
        cue,
        rng.uniform(0, 2 * math.pi),
        rng.uniform(0.01, 10.0),
        r * math.cos(ang),
        r * math.sin(ang),
    )


@pytest.mark.slow
def test_fuzz_random_shots_stay_physical() -> None:
    """No exception; every ball ends on the playing area without overlap (TableState checks);
    the log is consistent; kinetic energy never rises from one event to the next."""
    rng = np.random.default_rng(20260611)
    for _ in range(N_SHOTS):
        pos, on = random_layout(rng)
        shot = random_shot(rng, on)
        out = run(SPEC, pos, on, shot.cue_ball, strike(shot, R), record_energy=True)
        assert_physical(out, on, shot)
