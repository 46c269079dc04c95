"""The cue-tip model: a shot becomes the cue ball's velocity and 3-D spin right after the strike.

Instantaneous point impulse through the tip contact (the peer suite's convention):
``v0 = speed * d`` and ``w0 = 5 * speed / (2 R) * (a * z + b * (z x d))`` with ``d`` the aim
direction and ``z`` up; b = 0.4 gives natural roll, a > 0 (right english) gives w_z > 0.
"""

from __future__ import annotations

import math

from kinghill.physics.shot import Shot


def strike(shot: Shot, radius: float) -> tuple[float, float, float, float, float]:
    """``(vx, vy, wx, wy, wz)`` of the cue ball right after ``shot``."""
    dx, dy = math.cos(shot.phi), math.sin(shot.phi)
    k = 2.5 * shot.speed / radius
    return (shot.speed * dx, shot.speed * dy, -k * shot.b * dy, k * shot.b * dx, k * shot.a)
