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

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.norm import hypot
from kinghill.physics.resolve.ball_cushion.law import (
    COS,
    EXTRA,
    MATHAVAN,
    RESTITUTION,
    TWO,
    E,
    FrameLaw,
    Rubber,
)
from kinghill.physics.resolve.ball_cushion.restitution import e_at

if TYPE_CHECKING:
    from kinghill.physics.resolve.motion import Motion

STEPS = 2
"""Steps of ``P_I`` per phase (the last one sized to end the phase)."""
_STEPS = EXTRA + 9
"""Place of the number of steps in the law's ``params`` (after its nine constants)."""


class Mathavan2010(FrameLaw):
    """Mathavan et al. 2010 as published: ``e`` energetic, friction at the nose and the cloth."""

    CODE = MATHAVAN
    __slots__ = ("steps",)

    def __init__(self, rubber: Rubber, steps: int = STEPS) -> None:
        if steps < 1:
            raise ValueError(f"Mathavan2010: steps must be at least 1, got {steps}")
        self.steps = steps
        super().__init__(rubber)
        mw, ms, s, c = rubber.mu, rubber.mu_cloth, self.sin_t, self.cos_t
        if c - s * mw - ms * (s + c * mw) <= 0.0:
            raise ValueError(
                f"Mathavan2010: nose friction {mw} and cloth friction {ms} at a nose "
                f"{rubber.height} m high could keep a ball moving into the cushion forever"
            )

    def constants(self) -> tuple[float, ...]:
        """The nose and cloth frictions, s and c, k = 5 / (2 M R) per unit mass, R, q = 1 -
        5 s / 2 (the contacts' x slips coupling through the spin), s^2 + 5 / 2 (I's y' slip
        answering its friction less than a free point's: the cloth holds z), s - 5 / 2, and the
        number of steps."""
        mw, ms, s, c, R = self.rubber.mu, self.rubber.mu_cloth, self.sin_t, self.cos_t, self.radius
        return (mw, ms, s, c, 2.5 / R, R, 1.0 - 2.5 * s, s * s + 2.5, s - 2.5, float(self.steps))

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        return local(self.params, vx, vy, wx, wy, wz)


@njit
def local(law: np.ndarray, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
    """The impact in the cushion frame (:class:`Mathavan2010`'s ``params``): compression,
    then restitution until ``e^2`` of its work is given back."""
    m, work = _phase(law, (vx, vy, wx, wy, wz), 0.0)
    e = e_at(law[RESTITUTION], vy, law[E])
    m, _ = _phase(law, (m[0], 0.0, m[2], m[3], m[4]), e ** law[TWO] * work)
    return m


@njit
def _phase(law: np.ndarray, m: Motion, target: float) -> tuple[Motion, float]:
    """Compression (``target`` 0: until ``vy`` is 0) or restitution (until the work given
    back, ``-c int vy dP_I``, is ``target``); returns the motion and the phase's work."""
    c = law[COS]
    work, rate, cloth = 0.0, -c, (0.0, 0.0)  # d vy / dP_I and the cloth's friction rate
    for n in range(int(law[_STEPS]), 0, -1):
        dp = _to_end(c, m[1], rate, target - work) / n
        if dp <= 0.0:
            break
        trial, cloth = _step(law, m, dp, cloth)
        rate = (trial[1] - m[1]) / dp
        if n == 1:  # size the last step on its own rate, to end the phase exactly
            dp = _to_end(c, m[1], rate, target - work)
            trial, cloth = _step(law, m, dp, cloth)
        work += 0.5 * c * dp * abs(m[1] + trial[1])
        m = trial
    return m, work


@njit
def _to_end(c: float, vy: float, rate: float, left: float) -> float:
    """Impulse to the phase's end at ``d vy / dP_I = rate < 0``: ``vy`` reaches 0 (no work
    ``left`` to give back: compression) or the work given back reaches ``left``."""
    if vy > 0.0:
        return vy / -rate
    if left <= 0.0:
        return 0.0
    qa, qb = -0.5 * c * rate, -c * vy
    return 2.0 * left / (qb + math.sqrt(qb * qb + 4.0 * qa * left))


@njit
def _step(
    law: np.ndarray, m: Motion, dp: float, cloth: tuple[float, float]
) -> tuple[Motion, tuple[float, float]]:
    """One step of normal impulse ``dp`` (per unit mass) at I, with its friction at I and C;
    ``cloth`` is C's friction per unit ``dp`` in the step before, for its pull on I's slip.
    Returns the motion and this step's ``cloth``."""
    mw, ms, s, c, k = law[EXTRA], law[EXTRA + 1], law[EXTRA + 2], law[EXTRA + 3], law[EXTRA + 4]
    R, q, ky, s25 = law[EXTRA + 5], law[EXTRA + 6], law[EXTRA + 7], law[EXTRA + 8]
    vx, vy, wx, wy, wz = m
    # slip at I (eqs 12a-b) at the step's end without I's own friction
    gx = vx + (wy * s - wz * c) * R - q * cloth[0] * dp
    gy = wx * R - vy * s + (s * c + s25 * cloth[1]) * dp
    fx, fy = gx / 3.5, gy / ky  # the friction that stops I's slip (eqs 15a)
    if hypot(fx, fy) > mw * dp:  # it slides, against the slip (eqs 17)
        g2 = gx * gx + gy * gy
        f = min(mw * dp / math.sqrt(g2), g2 / (3.5 * gx * gx + ky * gy * gy))
        fx, fy = f * gx, f * gy
    bound = ms * max(s * dp + c * fy, 0.0)  # the cloth balances the nose's vertical
    # slip at C (eqs 13a-b) at the step's end without C's own friction
    hx, hy = vx - wy * R - q * fx, vy + wx * R - c * dp + s25 * fy
    ex, ey = hx / 3.5, hy / 3.5  # the friction that stops C's slip (eqs 15b)
    f = hypot(ex, ey)
    if f > bound:
        ex, ey = ex * bound / f, ey * bound / f
    return (
        vx - fx - ex,
        vy - c * dp + s * fy - ey,
        wx - k * (fy + ey),
        wy - k * (s * fx - ex),
        wz + k * c * fx,
    ), (ex / dp, ey / dp)
