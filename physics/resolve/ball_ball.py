"""Ball-ball impact: restitution along the line of centres, Coulomb friction at the contact.

Instantaneous impulse model of Alciatore (TP A-14, "frictional inelastic" in pooltool): the normal
impulse gives restitution ``e``; friction opposes the 3-D slip of the contact points (including
the vertical slip from top/back spin, which is why rolling throw is about half of stun throw),
capped by ``mu(v) = a + b exp(-c v)`` times the normal impulse and by the impulse that stops the
slip (``m |u_t| / 7`` for two equal solid spheres). Friction throws the object ball and transfers
spin; the vertical part of its impulse is taken by the slate.
"""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.resolve.motion import Motion

Pair = tuple[float, float, float, float, float, float, float, float, float, float]
"""The motions of two balls, one after the other."""


class BallBallModel:
    """Coefficients of one table (restitution, the friction law) ready for :meth:`solve`: the
    ball's radius, ``TableSpec.e_ball`` and ``mu_ball_a``, ``_b``, ``_c``."""

    __slots__ = ("radius", "e", "mu_a", "mu_b", "mu_c", "params")

    def __init__(self, radius: float, e: float, mu_a: float, mu_b: float, mu_c: float) -> None:
        self.radius = radius
        self.e = e
        self.mu_a, self.mu_b, self.mu_c = mu_a, mu_b, mu_c
        self.params = np.array([self.radius, self.e, self.mu_a, self.mu_b, self.mu_c])
        """``(R, e, mu_a, mu_b, mu_c)`` as :func:`impact` takes them."""

    def solve(self, nx: float, ny: float, a: Motion, b: Motion) -> tuple[Motion, Motion]:
        """Motions after the impact; ``(nx, ny)`` is the unit vector from ball a to ball b."""
        out = impact(self.params, nx, ny, *a, *b)
        return out[:5], out[5:]


@njit
def impact(
    model: np.ndarray,
    nx: float,
    ny: float,
    avx: float,
    avy: float,
    awx: float,
    awy: float,
    awz: float,
    bvx: float,
    bvy: float,
    bwx: float,
    bwy: float,
    bwz: float,
) -> Pair:
    """Both balls' motions after the impact (:class:`BallBallModel`'s ``params``); ``(nx,
    ny)`` is the unit vector from ball a to ball b."""
    dvx, dvy = avx - bvx, avy - bvy
    closing = dvx * nx + dvy * ny
    if closing <= 0.0:
        return avx, avy, awx, awy, awz, bvx, bvy, bwx, bwy, bwz
    jn = 0.5 * (1.0 + model[1]) * closing  # normal impulse per unit mass
    R = model[0]
    sx, sy, sz = awx + bwx, awy + bwy, awz + bwz
    # contact-point slip u = dv + R (wa + wb) x n, minus its normal part
    ux = dvx - R * sz * ny - closing * nx
    uy = dvy + R * sz * nx - closing * ny
    uz = R * (sx * ny - sy * nx)
    slip = math.sqrt(ux * ux + uy * uy + uz * uz)
    avx -= jn * nx
    avy -= jn * ny
    bvx += jn * nx
    bvy += jn * ny
    if slip > 0.0:
        mu = model[2] + model[3] * math.exp(-model[4] * slip)
        jt = min(mu * jn, slip / 7.0)
        tx, ty, tz = ux / slip, uy / slip, uz / slip
        avx -= jt * tx
        avy -= jt * ty
        bvx += jt * tx
        bvy += jt * ty
        k = -2.5 * jt / R  # spin change of both balls: -(5 jt / 2R) (n x t)
        dwx, dwy, dwz = k * ny * tz, -k * nx * tz, k * (nx * ty - ny * tx)
        awx, awy, awz = awx + dwx, awy + dwy, awz + dwz
        bwx, bwy, bwz = bwx + dwx, bwy + dwy, bwz + dwz
    return avx, avy, awx, awy, awz, bvx, bvy, bwx, bwy, bwz
