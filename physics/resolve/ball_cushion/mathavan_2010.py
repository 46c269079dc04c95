"""Mathavan, Jackson & Parkin 2010: the impact integrated over its impulse, slip at nose and cloth.

Mathavan, S., Jackson, M. R., Parkin, R. M. (2010), "A theoretical analysis of billiard ball
dynamics under cushion impacts", Proc. IMechE Part C, J. Mech. Eng. Sci. 224(9), 1863-1873,
doi:10.1243/09544062JMES1964. The ball touches the nose at I (``sin(theta) = (h - R)/R``) and
the cloth at C; it stays on the cloth (``zdot_G = 0``), so the cloth's normal reaction balances
the vertical parts of the nose's impulse. Both contacts slip (eqs 12a-b at I, 13a-b at C) and
Coulomb friction opposes each slip, ``mu_w`` at the nose and ``mu_s`` times the cloth's reaction
at C; a contact that stops slipping rolls (eqs 15a-b). The velocities change with the normal
impulse ``P_I`` at I as eqs 14 and their increments 17, the compression phase ends when the
ball stops moving into the cushion, and the restitution phase ends when the work of the normal
force at I during it is ``e^2`` times that of compression (eqs 16a-b; ``e`` is Stronge's
energetic coefficient). Restitution, friction and the nose height alone fix the rebound: speed,
spin and angle come out of the integration, with no fitted rebound law. The cushion is rigid, so
with a constant ``e`` (see :mod:`restitution` for a speed-dependent one) the outcome scales with
the speed in; it changes with a shot's speed through the spin the ball
arrives with (a fast plain ball still slides and comes back less lively than a rolling one).

How it is integrated (the same equations, fewer steps): the paper steps ``P_I`` in 5,000 equal
explicit steps of eqs 17. Here each phase takes ``steps`` steps, and each step's friction is the
impulse that would bring that contact's slip to rest by the step's end (static friction, eqs 15),
capped by its Coulomb bound (sliding, along the slip): a slip can stop but never reverse within a
step, so friction never adds energy and a resting contact needs no event. The last step of each
phase is sized to end it exactly (``vy`` = 0 or the work ``e^2 W_c`` given back), from a trial
step's rate. Against the paper's fine explicit scheme (tests): the velocity stays within 1.5%
of the speed in, the rolling-out velocity within 3%, spins within 10% (as surface speeds R w).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kinghill.physics.resolve.ball_cushion.law import FrameLaw, Rubber

if TYPE_CHECKING:
    from kinghill.physics.resolve.ball_ball import Motion

STEPS = 2
"""Steps of ``P_I`` per phase (the last one sized to end the phase)."""


class Mathavan2010(FrameLaw):
    """Mathavan et al. 2010 as published: ``e`` energetic, friction at the nose and the cloth."""

    __slots__ = ("steps", "consts")

    def __init__(self, rubber: Rubber, steps: int = STEPS) -> None:
        super().__init__(rubber)
        if steps < 1:
            raise ValueError(f"Mathavan2010: steps must be at least 1, got {steps}")
        self.steps = steps
        mw, ms, s, c, R = rubber.mu, rubber.mu_cloth, self.sin_t, self.cos_t, rubber.radius
        if c - s * mw - ms * (s + c * mw) <= 0.0:
            raise ValueError(
                f"Mathavan2010: nose friction {mw} and cloth friction {ms} at a nose "
                f"{rubber.height} m high could keep a ball moving into the cushion forever"
            )
        # q: the contacts' x slips couple through the spin; s * s + 2.5: I's y' slip answers its
        # friction less than a free point (the cloth holds z); 2.5 / R: 5 / (2 M R) per unit mass
        self.consts = (mw, ms, s, c, 2.5 / R, R, 1.0 - 2.5 * s, s * s + 2.5, s - 2.5)

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        m = (vx, vy, wx, wy, wz)
        m, work = self._phase(m, 0.0)
        m, _ = self._phase((m[0], 0.0, m[2], m[3], m[4]), self.e_at(vy) ** 2 * work)
        return m

    def _phase(self, m: Motion, target: float) -> tuple[Motion, float]:
        """Compression (``target`` 0: until ``vy`` is 0) or restitution (until the work given
        back, ``-c int vy dP_I``, is ``target``); returns the motion and the phase's work."""
        c = self.cos_t
        work, rate, cloth = 0.0, -c, (0.0, 0.0)  # d vy / dP_I and the cloth's friction rate
        for n in range(self.steps, 0, -1):
            dp = self._to_end(m[1], rate, target - work) / n
            if dp <= 0.0:
                break
            trial, cloth = self._step(m, dp, cloth)
            rate = (trial[1] - m[1]) / dp
            if n == 1:  # size the last step on its own rate, to end the phase exactly
                dp = self._to_end(m[1], rate, target - work)
                trial, cloth = self._step(m, dp, cloth)
            work += 0.5 * c * dp * abs(m[1] + trial[1])
            m = trial
        return m, work

    def _to_end(self, vy: float, rate: float, left: float) -> float:
        """Impulse to the phase's end at ``d vy / dP_I = rate < 0``: ``vy`` reaches 0 (no work
        ``left`` to give back: compression) or the work given back reaches ``left``."""
        if vy > 0.0:
            return vy / -rate
        if left <= 0.0:
            return 0.0
        qa, qb = -0.5 * self.cos_t * rate, -self.cos_t * vy
        return 2.0 * left / (qb + math.sqrt(qb * qb + 4.0 * qa * left))

    def _step(
        self, m: Motion, dp: float, cloth: tuple[float, float]
    ) -> tuple[Motion, tuple[float, float]]:
        """One step of normal impulse ``dp`` (per unit mass) at I, with its friction at I and C;
        ``cloth`` is C's friction per unit ``dp`` in the step before, for its pull on I's slip.
        Returns the motion and this step's ``cloth``."""
        mw, ms, s, c, k, R, q, ky, s25 = self.consts
        vx, vy, wx, wy, wz = m
        # slip at I (eqs 12a-b) at the step's end without I's own friction
        gx = vx + (wy * s - wz * c) * R - q * cloth[0] * dp
        gy = wx * R - vy * s + (s * c + s25 * cloth[1]) * dp
        fx, fy = gx / 3.5, gy / ky  # the friction that stops I's slip (eqs 15a)
        if math.hypot(fx, fy) > mw * dp:  # it slides, against the slip (eqs 17)
            g2 = gx * gx + gy * gy
            f = min(mw * dp / math.sqrt(g2), g2 / (3.5 * gx * gx + ky * gy * gy))
            fx, fy = f * gx, f * gy
        bound = ms * max(s * dp + c * fy, 0.0)  # the cloth balances the nose's vertical
        # slip at C (eqs 13a-b) at the step's end without C's own friction
        hx, hy = vx - wy * R - q * fx, vy + wx * R - c * dp + s25 * fy
        ex, ey = hx / 3.5, hy / 3.5  # the friction that stops C's slip (eqs 15b)
        f = math.hypot(ex, ey)
        if f > bound:
            ex, ey = ex * bound / f, ey * bound / f
        return (
            vx - fx - ex,
            vy - c * dp + s * fy - ey,
            wx - k * (fy + ey),
            wy - k * (s * fx - ex),
            wz + k * c * fx,
        ), (ex / dp, ey / dp)
