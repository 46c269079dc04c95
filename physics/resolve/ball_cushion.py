"""Ball-cushion (and jaw) impact after Han 2005, with restitution on the horizontal normal speed.

Han, I. (2005), "Dynamics in carom and three cushion billiards", J. Mech. Sci. Tech. 19(4):
the cushion nose touches the ball at height h above the cloth, i.e. at ``sin(theta) = (h-R)/R``
above the equator, so the contact normal is tilted and the slip of the contact point mixes the
ball's top/back spin and side spin. Friction (``mu_cushion``) opposes that slip, capped by the
impulse that stops it (``2/7 m |u_t|``, free sphere). Departure from Han: the slate takes the
vertical impulse, and the normal impulse is sized so that the horizontal normal velocity rebounds
with exactly ``e_cushion`` (the coefficient keeps its everyday meaning). Side spin then bends the
rebound: right english (w_z > 0) throws the ball to the shooter's right.
"""

from __future__ import annotations

import math

from kinghill.physics.resolve.ball_ball import Motion
from kinghill.physics.spec import TableSpec


class BallCushionModel:
    """Coefficients of one table's cushion noses (or, with ``jaw``, its pocket jaws)."""

    __slots__ = ("radius", "e", "mu", "sin_t", "cos_t")

    def __init__(self, spec: TableSpec, *, jaw: bool = False) -> None:
        self.radius = spec.radius
        self.e = spec.e_jaw if jaw else spec.e_cushion
        self.mu = spec.mu_cushion
        self.sin_t = (spec.cushion_height - spec.radius) / spec.radius
        self.cos_t = math.sqrt(1.0 - self.sin_t * self.sin_t)

    def solve(self, nx: float, ny: float, ball: Motion) -> Motion:
        """Motion after the impact; ``(nx, ny)`` is the cushion's unit normal into the table."""
        vx, vy, wx, wy, wz = ball
        v_in = -(vx * nx + vy * ny)
        if v_in <= 0.0:
            return ball
        R, s, c = self.radius, self.sin_t, self.cos_t
        # contact point relative to the centre, and the contact normal (into the ball)
        rx, ry, rz = -R * c * nx, -R * c * ny, R * s
        Nx, Ny, Nz = c * nx, c * ny, -s
        # slip of the contact point u = v + w x r, minus its normal part
        ux = vx + wy * rz - wz * ry
        uy = vy + wz * rx - wx * rz
        uz = wx * ry - wy * rx
        un = ux * Nx + uy * Ny + uz * Nz
        ux, uy, uz = ux - un * Nx, uy - un * Ny, uz - un * Nz
        slip = math.sqrt(ux * ux + uy * uy + uz * uz)
        target = (1.0 + self.e) * v_in  # horizontal normal velocity change
        fx = fy = fz = 0.0
        jn = target / c
        if slip > 0.0:
            tx, ty, tz = ux / slip, uy / slip, uz / slip
            stick = slip / 3.5
            fx, fy, fz = -stick * tx, -stick * ty, -stick * tz
            jn = (target - (fx * nx + fy * ny)) / c
            if stick > self.mu * jn:  # sliding friction
                jn = target / (c - self.mu * (tx * nx + ty * ny))
                f = self.mu * jn
                fx, fy, fz = -f * tx, -f * ty, -f * tz
        vx += jn * c * nx + fx
        vy += jn * c * ny + fy
        k = 2.5 / (R * R)  # dw = 5/(2 R^2) r x F (per unit mass)
        wx += k * (ry * fz - rz * fy)
        wy += k * (rz * fx - rx * fz)
        wz += k * (rx * fy - ry * fx)
        return (vx, vy, wx, wy, wz)
