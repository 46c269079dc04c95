"""Ball motion on the cloth between contacts: sliding, rolling, spinning in place (analytic).

Within a phase the acceleration is constant, so position is exactly quadratic in time:
- sliding: the contact point slips with velocity ``u = v - R (w x z)``; friction ``mu_s m g``
  opposes it, ``u`` keeps its direction and shrinks at ``7/2 mu_s g``, so rolling starts at
  ``t = 2 |u0| / (7 mu_s g)`` with ``v = v0 - 2/7 u0``;
- rolling: ``w = (z x v) / R``, deceleration ``mu_r g`` until rest at ``|v| / (mu_r g)``;
- side spin ``w_z`` decays at ``5 mu_spin g / (2 R)`` in every phase, independently.
"""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.spec import TableSpec

SLIDING, ROLLING, RESTING = 0, 1, 2
"""Motion phases of a ball on the cloth."""

SLIP_EPS = 1e-9
"""Slip speed (m/s) below which a ball counts as rolling."""
SPEED_EPS = 1e-9
"""Speed (m/s) below which a rolling ball counts as at rest."""
RADIUS, SLIDE_ACC, SLIDE_SPIN_ACC, ROLL_ACC, SPIN_DECAY = range(5)
"""Places of the coefficients in :attr:`Cloth.params` (what the kernels read)."""


class Cloth:
    """Phase laws of one table's cloth (coefficients from the spec, precomputed)."""

    __slots__ = ("radius", "slide_acc", "slide_spin_acc", "roll_acc", "spin_decay", "params")

    def __init__(self, spec: TableSpec) -> None:
        self.radius = spec.radius
        self.slide_acc = spec.mu_slide * spec.gravity
        self.slide_spin_acc = 2.5 * spec.mu_slide * spec.gravity / spec.radius
        self.roll_acc = spec.mu_roll * spec.gravity
        self.spin_decay = 2.5 * spec.mu_spin * spec.gravity / spec.radius
        self.params = np.array(
            [self.radius, self.slide_acc, self.slide_spin_acc, self.roll_acc, self.spin_decay]
        )
        """The coefficients as the kernels take them (places :data:`RADIUS` ...)."""


@njit
def phase(
    cloth: np.ndarray, vx: float, vy: float, wx: float, wy: float
) -> tuple[int, float, float, float, float, float]:
    """``(phase, ax, ay, alpha_x, alpha_y, duration)`` of a ball moving with ``v, w`` on the
    cloth of coefficients ``cloth`` (:attr:`Cloth.params`).

    ``alpha`` is the angular acceleration of ``w_x, w_y`` while sliding (0 otherwise: rolling
    balls keep ``w = (z x v) / R``).
    """
    R = cloth[RADIUS]
    ux, uy = vx - R * wy, vy + R * wx
    slip = math.sqrt(ux * ux + uy * uy)
    if slip > SLIP_EPS:
        ex, ey = ux / slip, uy / slip
        k = cloth[SLIDE_SPIN_ACC]
        acc = cloth[SLIDE_ACC]
        return (SLIDING, -acc * ex, -acc * ey, -k * ey, k * ex, slip / (3.5 * acc))
    speed = math.sqrt(vx * vx + vy * vy)
    if speed > SPEED_EPS:
        a = cloth[ROLL_ACC] / speed
        return (ROLLING, -a * vx, -a * vy, 0.0, 0.0, speed / cloth[ROLL_ACC])
    return (RESTING, 0.0, 0.0, 0.0, 0.0, math.inf)


@njit
def spin_after(decay: float, wz: float, dt: float) -> float:
    """Side spin ``dt`` seconds later, decaying at ``decay`` (rad/s^2) to 0."""
    d = decay * dt
    if wz > d:
        return wz - d
    if wz < -d:
        return wz + d
    return 0.0
