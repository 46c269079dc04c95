"""How a rubber's coefficient of restitution depends on the impact speed, chosen by name.

``"constant"``: the rubber's own ``e`` at every speed (Mathavan et al. 2010 fit their measured
snooker rebounds below 2.5 m/s normal speed with one energetic ``e``, 0.98, and friction 0.14).

``"han_2005"``: Han, I. (2005), "Dynamics in carom and three cushion billiards", J. Mech. Sci.
Tech. 19(4), 976-984, eq. 26, fitted to measured cushion rebounds: ``e = 0.39 + 0.257 V -
0.044 V^2`` with ``V`` the ball's normal approach speed (m/s). It takes the place of the
rubber's ``e``: 0.50 at 0.45 m/s, 0.60 at 1 m/s, most lively (0.765) at 2.92 m/s, then falling
again, to 0.58 at 5 m/s. The paper gives no range; the quadratic would fall below its value at
rest (0.39) past 5.84 m/s and reach 0 at 7.09 m/s, so kinghill holds it at 0.39 there.

Each law takes the value as its own ``e`` (Mathavan: energetic, Han: along the contact normal,
simple: of the horizontal normal speed), with ``V`` the horizontal normal approach speed.
"""

from __future__ import annotations

from collections.abc import Callable

from kinghill.physics.jit import njit

HAN_2005 = (0.39, 0.257, -0.044)
"""Han 2005, eq. 26: e = a + b V + c V^2 (V in m/s)."""
HAN_2005_FLOOR = HAN_2005[0]
"""Where kinghill holds eq. 26 once it falls below its value at rest (past 5.84 m/s)."""
CONSTANT, HAN = 0, 1
"""The relations' codes, as the compiled laws take them (:data:`CODES`)."""


@njit
def constant(speed: float, e: float) -> float:
    """The rubber's own ``e``, whatever the speed."""
    return e


@njit
def han_2005(speed: float, e: float) -> float:
    """Han 2005, eq. 26, at normal approach speed ``speed`` (m/s); the rubber's ``e`` is not
    used."""
    a, b, c = HAN_2005
    return max(a + speed * (b + c * speed), HAN_2005_FLOOR)


@njit
def e_at(code: float, speed: float, e: float) -> float:
    """The relation of code ``code`` (:data:`CODES`) at ``speed`` for a rubber's ``e``."""
    if code == HAN:
        return han_2005(speed, e)
    return constant(speed, e)


RESTITUTIONS: dict[str, Callable[[float, float], float]] = {
    "constant": constant,
    "han_2005": han_2005,
}
"""The restitution relations by name: ``f(normal approach speed, rubber's e) -> e``."""
CODES: dict[str, int] = {"constant": CONSTANT, "han_2005": HAN}
"""The relations' codes by name."""
