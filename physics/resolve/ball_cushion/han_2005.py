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

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.resolve.ball_cushion.law import (
    COS,
    HAN,
    MU,
    RADIUS,
    RESTITUTION,
    SIN,
    E,
    FrameLaw,
)
from kinghill.physics.resolve.ball_cushion.restitution import e_at

if TYPE_CHECKING:
    from kinghill.physics.resolve.motion import Motion

STICK = 3.5
"""Tangential impulse per unit slip that stops the contact point of a free sphere (eq 16, A)."""


class Han2005(FrameLaw):
    """Han 2005 as published: ``e`` is the restitution along the tilted contact normal."""

    CODE = HAN
    __slots__ = ()

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        return local(self.params, vx, vy, wx, wy, wz)


@njit
def contact_slip(
    law: np.ndarray, vx: float, vy: float, wx: float, wy: float, wz: float
) -> tuple[float, float, float]:
    """Eqs 14: the nose contact's slip along the rail (sx) and up the contact plane, direction
    (0, -s, c) (st), and its size."""
    R, s, c = law[RADIUS], law[SIN], law[COS]
    sx = vx + (wy * s - wz * c) * R
    st = wx * R - vy * s
    return sx, st, math.sqrt(sx * sx + st * st)


@njit
def apply_impulses(
    law: np.ndarray,
    vx: float,
    vy: float,
    wx: float,
    wy: float,
    wz: float,
    sx: float,
    st: float,
    slip: float,
    jn: float,
    f: float,
) -> Motion:
    """Eq 23: the motion after normal impulse ``jn`` and friction ``f`` against the slip."""
    R, s, c = law[RADIUS], law[SIN], law[COS]
    fx = ft = 0.0
    if slip > 0.0:
        fx, ft = f * sx / slip, f * st / slip
    k = 2.5 / R  # R / I per unit mass, I = 2/5 m R^2
    return (vx - fx, vy - jn * c + ft * s, wx - k * ft, wy - k * s * fx, wz + k * c * fx)


@njit
def impulses(law: np.ndarray, vy: float, slip: float) -> tuple[float, float]:
    """Normal impulse (per unit mass) and friction impulse size, eqs 17-20."""
    jn = (1.0 + e_at(law[RESTITUTION], vy, law[E])) * vy * law[COS]
    return jn, min(slip / STICK, law[MU] * jn)


@njit
def local(law: np.ndarray, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
    """The impact in the cushion frame (:class:`Han2005`'s ``params``)."""
    sx, st, slip = contact_slip(law, vx, vy, wx, wy, wz)
    jn, f = impulses(law, vy, slip)
    return apply_impulses(law, vx, vy, wx, wy, wz, sx, st, slip, jn, f)
