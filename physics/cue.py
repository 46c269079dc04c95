"""The cue-tip model: a shot becomes the cue ball's velocity and 3-D spin right after the strike.

Instantaneous point impulse through the tip contact (the peer suite's convention):
``v0 = speed * d`` and ``w0 = 5 * speed / (2 R) * (a * z + b * (z x d))`` with ``d`` the aim
direction and ``z`` up; b = 0.4 gives natural roll, a > 0 (right english) gives w_z > 0.
"""

from __future__ import annotations

import math

from kinghill.physics.jit import njit
from kinghill.physics.shot import Shot


def strike(shot: Shot, radius: float) -> tuple[float, float, float, float, float]:
    """``(vx, vy, wx, wy, wz)`` of the cue ball right after ``shot``."""
    return motion_of(shot.phi, shot.speed, shot.a, shot.b, radius)


@njit
def motion_of(
    phi: float, speed: float, a: float, b: float, radius: float
) -> tuple[float, float, float, float, float]:
    """:func:`strike` of a shot given by its numbers (the batch's shots are array rows); compiled,
    so that the batches' kernels strike in their loop with the very same code."""
    dx, dy = math.cos(phi), math.sin(phi)
    k = 2.5 * speed / radius
    return (speed * dx, speed * dy, -k * b * dy, k * b * dx, k * a)
