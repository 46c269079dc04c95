"""The baseline law ("simple"): Han 2005's contact, sized to keep ``e`` of the normal speed.

kinghill's first cushion model, kept as a named baseline to compare the published laws against.
It is Han 2005 (:mod:`han_2005`) with one departure: the normal impulse is sized so that the
ball's horizontal normal velocity rebounds with exactly ``e`` whatever the spin and friction, so
``e`` keeps its everyday meaning and no speed or spin changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.resolve.ball_cushion.han_2005 import (
    STICK,
    Han2005,
    apply_impulses,
    contact_slip,
)
from kinghill.physics.resolve.ball_cushion.law import COS, MU, RESTITUTION, SIMPLE, SIN, E
from kinghill.physics.resolve.ball_cushion.restitution import e_at

if TYPE_CHECKING:
    from kinghill.physics.resolve.motion import Motion


class SimpleCushion(Han2005):
    """Constant restitution of the horizontal normal speed, Coulomb friction at the nose."""

    CODE = SIMPLE
    __slots__ = ()

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        return local(self.params, vx, vy, wx, wy, wz)


@njit
def impulses(law: np.ndarray, vy: float, st: float, slip: float) -> tuple[float, float]:
    """Normal impulse giving ``dvy = -(1 + e) vy`` with the friction's own ``vy`` share."""
    e, mu, s, c = e_at(law[RESTITUTION], vy, law[E]), law[MU], law[SIN], law[COS]
    target = (1.0 + e) * vy
    stick = slip / STICK
    jn = (target + s * st / STICK) / c
    if stick <= mu * jn or slip == 0.0:
        return jn, stick
    jn = target / (c - mu * s * st / slip)
    return jn, mu * jn


@njit
def local(law: np.ndarray, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
    """The impact in the cushion frame (:class:`SimpleCushion`'s ``params``)."""
    sx, st, slip = contact_slip(law, vx, vy, wx, wy, wz)
    jn, f = impulses(law, vy, st, slip)
    return apply_impulses(law, vx, vy, wx, wy, wz, sx, st, slip, jn, f)
