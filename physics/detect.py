"""When the next contact happens: exact first-contact times of quadratic (constant-acceleration)
paths, found from the closed-form gap functions rather than by stepping.

- ball-cushion line: the signed gap ``s(t) = s0 + s1 t + s2 t^2`` is quadratic;
- ball-ball and ball-jaw-tip: ``f(t) = |D + V t + A t^2 / 2|^2 - S^2`` is quartic; it is cut at
  its critical points (the roots of f', in closed form) and the first piece where f falls
  through zero is bracketed and solved, so a graze is never stepped over; a graze or a slide
  past within rounding of touching is not a contact.
"""

from __future__ import annotations

import math

INF = math.inf
TIME_TOL = 1e-13
"""Absolute tolerance of contact times (s)."""
APPROACH_EPS = 1e-12
"""Closing rates below this count as not approaching (touching balls at rest)."""
GRAZE_EPS = 1e-15
"""A squared gap (m^2) whose minimum dips below zero by less than this only grazes (a
penetration of ~1e-14 m, rounding): no contact."""
PRESS_EPS = 1e-12
"""Curvatures of a gap (a cushion gap's acceleration, m/s^2; a squared ball gap's second
derivative, m^2/s^2) above ``-PRESS_EPS`` do not press touching bodies together: far above
rounding (~1e-16), far below any real press."""


def quadratic_roots(c0: float, c1: float, c2: float) -> tuple[float, ...]:
    """Real roots of ``c0 + c1 t + c2 t^2``, ascending (numerically stable form)."""
    if c2 == 0.0:
        return () if c1 == 0.0 else (-c0 / c1,)
    disc = c1 * c1 - 4.0 * c2 * c0
    if disc < 0.0:
        return ()
    q = -0.5 * (c1 + math.copysign(math.sqrt(disc), c1))
    r1 = q / c2
    r2 = c0 / q if q != 0.0 else r1
    return (r1, r2) if r1 <= r2 else (r2, r1)


def first_gap_closure(s0: float, s1: float, s2: float, horizon: float) -> float:
    """First t in [0, horizon] at which the gap ``s0 + s1 t + s2 t^2`` reaches 0 while closing
    (at once if touching and closing in or pressed in; a ball leaving a cushion that its
    acceleration brings back meets it again at the later root)."""
    if s0 <= 0.0 and (s1 < -APPROACH_EPS or (s1 <= APPROACH_EPS and s2 < -PRESS_EPS)):
        return 0.0
    for t in quadratic_roots(s0, s1, s2):
        if 0.0 <= t <= horizon and s1 + 2.0 * s2 * t < 0.0:
            return t
    return INF


def first_circle_contact(
    dx: float, dy: float, vx: float, vy: float, ax: float, ay: float, reach: float, horizon: float
) -> float:
    """First t in [0, horizon] at which ``|D + V t + A t^2/2|`` falls to ``reach`` (else inf)."""
    hx, hy = 0.5 * ax, 0.5 * ay
    r2 = reach * reach
    f0 = dx * dx + dy * dy - r2
    if f0 > 0.0:  # cheap exit: even closing head-on, the gap cannot close within the horizon
        travel = (math.sqrt(vx * vx + vy * vy) + math.sqrt(hx * hx + hy * hy) * horizon) * horizon
        if travel < math.sqrt(dx * dx + dy * dy) - reach:
            return INF
    d1 = 2.0 * (dx * vx + dy * vy)  # f'(0)
    hx2 = 2.0 * (vx * vx + vy * vy + dx * ax + dy * ay)  # f''(0)
    if f0 <= 0.0 and (d1 < -APPROACH_EPS or (d1 <= APPROACH_EPS and hx2 < -PRESS_EPS)):
        return 0.0  # touching and closing in, or pressed together by the accelerations
    f, c2, c3, c4, crit = _squared_gap(dx, dy, vx, vy, hx, hy, r2, horizon)
    # Walk the monotone pieces. While f stays <= 0 (rounding) the bodies are still in the
    # contact just resolved, or in a graze: a minimum there is no new contact, a maximum is where
    # they turn back in (pressed). Otherwise the first fall through zero is the contact.
    ta, fa = 0.0, f0
    touching = f0 <= 0.0
    for tb in crit:
        fb = f(tb)
        if fb > 0.0:
            touching = False
        elif touching:
            if tb < horizon and 2.0 * c2 + tb * (6.0 * c3 + 12.0 * c4 * tb) < -PRESS_EPS:
                return tb
        elif fb > -GRAZE_EPS and tb < horizon and c2 + tb * (3.0 * c3 + 6.0 * c4 * tb) > 0.0:
            touching = True  # a minimum within rounding of touching: a graze
        else:
            return _bracketed_root(f, ta, tb, fa)
        ta, fa = tb, fb
    return INF


def first_circle_exit(
    dx: float, dy: float, vx: float, vy: float, ax: float, ay: float, reach: float, horizon: float
) -> float:
    """First t in (0, horizon] at which ``|D + V t + A t^2/2|`` rises past ``reach``, for a path
    that starts inside (or on) the circle (else inf)."""
    f, *_, crit = _squared_gap(dx, dy, vx, vy, 0.5 * ax, 0.5 * ay, reach * reach, horizon)
    ta, fa = 0.0, min(f(0.0), 0.0)
    for tb in crit:
        fb = f(tb)
        if fb > 0.0:
            return _bracketed_root(f, ta, tb, fa) if fa < 0.0 else ta
        ta, fa = tb, fb
    return INF


def _squared_gap(  # type: ignore[no-untyped-def]
    dx: float, dy: float, vx: float, vy: float, hx: float, hy: float, r2: float, horizon: float
):
    """``f(t) = |D + V t + H t^2|^2 - r2`` with its coefficients c2..c4 and the ends of its
    monotone pieces in (0, horizon] (critical points, then the horizon)."""
    # f'(t) = c1 + 2 c2 t + 3 c3 t^2 + 4 c4 t^3 ; f''(t) = 2 c2 + 6 c3 t + 12 c4 t^2
    c4 = hx * hx + hy * hy
    c3 = 2.0 * (vx * hx + vy * hy)
    c2 = vx * vx + vy * vy + 2.0 * (dx * hx + dy * hy)
    c1 = 2.0 * (dx * vx + dy * vy)

    def f(t: float) -> float:
        x = dx + (vx + hx * t) * t
        y = dy + (vy + hy * t) * t
        return x * x + y * y - r2

    def df(t: float) -> float:
        return c1 + t * (2.0 * c2 + t * (3.0 * c3 + t * 4.0 * c4))

    crit = [t for t in _critical_points(c1, c2, c3, c4, df) if 0.0 < t < horizon]
    crit.append(horizon)
    return f, c2, c3, c4, crit


def _critical_points(c1: float, c2: float, c3: float, c4: float, df) -> list[float]:  # type: ignore[no-untyped-def]
    """Real roots of f'(t) = c1 + 2 c2 t + 3 c3 t^2 + 4 c4 t^3, ascending (closed form, then one
    Newton polish each)."""
    if c4 <= 1e-18 * (abs(c3) + abs(c2) + abs(c1)):
        return [r for r in quadratic_roots(c1, 2.0 * c2, 3.0 * c3)]
    a = 0.75 * c3 / c4
    b = 0.5 * c2 / c4
    c = 0.25 * c1 / c4
    p = b - a * a / 3.0
    q = 2.0 * a * a * a / 27.0 - a * b / 3.0 + c
    shift = -a / 3.0
    disc = 0.25 * q * q + p * p * p / 27.0
    if disc > 0.0:
        sq = math.sqrt(disc)
        u, v = -0.5 * q + sq, -0.5 * q - sq
        roots = [math.copysign(abs(u) ** (1 / 3), u) + math.copysign(abs(v) ** (1 / 3), v) + shift]
    elif p == 0.0:
        roots = [shift]
    else:
        m = 2.0 * math.sqrt(-p / 3.0)
        arg = max(-1.0, min(1.0, 3.0 * q / (p * m)))
        th = math.acos(arg) / 3.0
        roots = sorted(m * math.cos(th - 2.0 * math.pi * k / 3.0) + shift for k in range(3))
    d2c = (2.0 * c2, 6.0 * c3, 12.0 * c4)
    out = []
    for r in roots:
        d2 = d2c[0] + r * (d2c[1] + r * d2c[2])
        if d2 != 0.0:
            r -= df(r) / d2
        out.append(r)
    return out


def _bracketed_root(g, ta: float, tb: float, ga: float) -> float:  # type: ignore[no-untyped-def]
    """Root of a monotone ``g`` on [ta, tb] with a sign change (bisection + secant, Illinois)."""
    gb = g(tb)
    side = 0
    for _ in range(100):
        if tb - ta <= TIME_TOL:
            break
        tm = (ta * gb - tb * ga) / (gb - ga) if gb != ga else 0.5 * (ta + tb)
        if not ta < tm < tb:
            tm = 0.5 * (ta + tb)
        gm = g(tm)
        if gm == 0.0:
            return tm
        if (gm > 0.0) == (ga > 0.0):
            ta, ga = tm, gm
            if side == -1:
                gb *= 0.5
            side = -1
        else:
            tb, gb = tm, gm
            if side == 1:
                ga *= 0.5
            side = 1
    return tb
