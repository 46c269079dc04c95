"""Han 2005: one impulse at the tilted nose, restitution along the contact normal, Coulomb slip.

Han, I. (2005), "Dynamics in carom and three cushion billiards", J. Mech. Sci. Tech. 19(4),
976-984. The nose touches the ball at ``sin(theta) = (h - R)/R`` above its equator. The slip of
the contact point in the contact plane (eqs 14) is opposed by friction; the normal impulse gives
the contact-normal approach speed ``vy cos(theta)`` back with ``e`` (eqs 16-17: ``P_zE = (1 + e)
m c``); the tangential impulse is the one that stops the slip, ``m |s| / (7/2)`` (eq 20), when
that is within ``mu P_zE`` (eq 18, sticking), else ``mu P_zE`` against the slip (eq 19, sliding).
The impulse is taken back to the rail frame (eqs 21-22) and applied to the ball (eq 23); as in
Han's planar treatment the vertical part goes into the slate (the ball does not leave the cloth)
and the cloth itself takes no part in the impact.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kinghill.physics.resolve.ball_cushion.law import FrameLaw

if TYPE_CHECKING:
    from kinghill.physics.resolve.ball_ball import Motion

STICK = 3.5
"""Tangential impulse per unit slip that stops the contact point of a free sphere (eq 16, A)."""


class Han2005(FrameLaw):
    """Han 2005 as published: ``e`` is the restitution along the tilted contact normal."""

    __slots__ = ()

    def impulses(self, vy: float, st: float, slip: float) -> tuple[float, float]:
        """Normal impulse (per unit mass) and friction impulse size, eqs 17-20."""
        jn = (1.0 + self.e_at(vy)) * vy * self.cos_t
        return jn, min(slip / STICK, self.rubber.mu * jn)

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        R, s, c = self.radius, self.sin_t, self.cos_t
        # eqs 14: slip along the rail (sx) and up the contact plane, direction (0, -s, c) (st)
        sx = vx + (wy * s - wz * c) * R
        st = wx * R - vy * s
        slip = math.sqrt(sx * sx + st * st)
        jn, f = self.impulses(vy, st, slip)
        fx = ft = 0.0
        if slip > 0.0:
            fx, ft = f * sx / slip, f * st / slip
        k = 2.5 / R  # eq 23: R / I per unit mass, I = 2/5 m R^2
        return (
            vx - fx,
            vy - jn * c + ft * s,
            wx - k * ft,
            wy - k * s * fx,
            wz + k * c * fx,
        )
