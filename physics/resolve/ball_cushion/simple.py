"""The baseline law ("simple"): Han 2005's contact, sized to keep ``e`` of the normal speed.

kinghill's first cushion model, kept as a named baseline to compare the published laws against.
It is Han 2005 (:mod:`han_2005`) with one departure: the normal impulse is sized so that the
ball's horizontal normal velocity rebounds with exactly ``e`` whatever the spin and friction, so
``e`` keeps its everyday meaning and no speed or spin changes it.
"""

from __future__ import annotations

from kinghill.physics.resolve.ball_cushion.han_2005 import STICK, Han2005


class SimpleCushion(Han2005):
    """Constant restitution of the horizontal normal speed, Coulomb friction at the nose."""

    __slots__ = ()

    def impulses(self, vy: float, st: float, slip: float) -> tuple[float, float]:
        """Normal impulse giving ``dvy = -(1 + e) vy`` with the friction's own ``vy`` share."""
        e, mu, s, c = self.e_at(vy), self.rubber.mu, self.sin_t, self.cos_t
        target = (1.0 + e) * vy
        stick = slip / STICK
        jn = (target + s * st / STICK) / c
        if stick <= mu * jn or slip == 0.0:
            return jn, stick
        jn = target / (c - mu * s * st / slip)
        return jn, mu * jn
