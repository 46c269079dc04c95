"""When the next contact happens: exact first-contact times of quadratic (constant-acceleration)
paths, found from the closed-form gap functions rather than by stepping.

- ball-cushion line: the signed gap ``s(t) = s0 + s1 t + s2 t^2`` is quadratic;
- ball-ball and ball-jaw-tip: ``f(t) = |D + V t + A t^2 / 2|^2 - S^2`` is quartic; it is cut at
  its critical points (the roots of f', in closed form) and the first piece where f falls
  through zero is bracketed and solved, so a graze is never stepped over; a graze or a slide
  past within rounding of touching is not a contact.

Every function here is a compiled kernel (:mod:`kinghill.physics.jit`).
"""

from __future__ import annotations

import math

from kinghill.physics.jit import njit

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


@njit
def quadratic_roots(c0: float, c1: float, c2: float) -> tuple[int, float, float]:
    """Real roots of ``c0 + c1 t + c2 t^2``: ``(n, r1, r2)``, the first ``n`` of ``r1 <= r2``
    real (numerically stable form; the others inf)."""
    if c2 == 0.0:
        if c1 == 0.0:
            return 0, INF, INF
        return 1, -c0 / c1, INF
    disc = c1 * c1 - 4.0 * c2 * c0
    if disc < 0.0:
        return 0, INF, INF
    q = -0.5 * (c1 + math.copysign(math.sqrt(disc), c1))
    r1 = q / c2
    r2 = c0 / q if q != 0.0 else r1
    if r1 <= r2:
        return 2, r1, r2
    return 2, r2, r1


@njit
def first_gap_closure(s0: float, s1: float, s2: float, horizon: float) -> float:
    """First t in [0, horizon] at which the gap ``s0 + s1 t + s2 t^2`` reaches 0 while closing
    (at once if touching and closing in or pressed in; a ball leaving a cushion that its
    acceleration brings back meets it again at the later root)."""
    if s0 <= 0.0 and (s1 < -APPROACH_EPS or (s1 <= APPROACH_EPS and s2 < -PRESS_EPS)):
        return 0.0
    n, r1, r2 = quadratic_roots(s0, s1, s2)
    for k in range(n):
        t = r1 if k == 0 else r2
        if 0.0 <= t <= horizon and s1 + 2.0 * s2 * t < 0.0:
            return t
    return INF


@njit
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
    c2, c3, c4, n, r0, r1, r2_ = _squared_gap(dx, dy, vx, vy, hx, hy)
    # Walk the monotone pieces. While f stays <= 0 (rounding) the bodies are still in the
    # contact just resolved, or in a graze: a minimum there is no new contact, a maximum is where
    # they turn back in (pressed). Otherwise the first fall through zero is the contact.
    ta, fa = 0.0, f0
    touching = f0 <= 0.0
    for k in range(n + 1):
        tb = _piece_end(k, n, r0, r1, r2_, horizon)
        if tb < 0.0:
            continue
        fb = _gap(dx, dy, vx, vy, hx, hy, r2, tb)
        if fb > 0.0:
            touching = False
        elif touching:
            if tb < horizon and 2.0 * c2 + tb * (6.0 * c3 + 12.0 * c4 * tb) < -PRESS_EPS:
                return tb
        elif fb > -GRAZE_EPS and tb < horizon and c2 + tb * (3.0 * c3 + 6.0 * c4 * tb) > 0.0:
            touching = True  # a minimum within rounding of touching: a graze
        else:
            return _bracketed_root(dx, dy, vx, vy, hx, hy, r2, ta, tb, fa)
        ta, fa = tb, fb
    return INF


@njit
def first_circle_exit(
    dx: float, dy: float, vx: float, vy: float, ax: float, ay: float, reach: float, horizon: float
) -> float:
    """First t in (0, horizon] at which ``|D + V t + A t^2/2|`` rises past ``reach``, for a path
    that starts inside (or on) the circle (else inf)."""
    hx, hy, r2 = 0.5 * ax, 0.5 * ay, reach * reach
    _, _, _, n, r0, r1, r2_ = _squared_gap(dx, dy, vx, vy, hx, hy)
    ta, fa = 0.0, min(_gap(dx, dy, vx, vy, hx, hy, r2, 0.0), 0.0)
    for k in range(n + 1):
        tb = _piece_end(k, n, r0, r1, r2_, horizon)
        if tb < 0.0:
            continue
        fb = _gap(dx, dy, vx, vy, hx, hy, r2, tb)
        if fb > 0.0:
            return _bracketed_root(dx, dy, vx, vy, hx, hy, r2, ta, tb, fa) if fa < 0.0 else ta
        ta, fa = tb, fb
    return INF


@njit
def _piece_end(k: int, n: int, r0: float, r1: float, r2: float, horizon: float) -> float:
    """The end of the k-th monotone piece: the k-th critical point if it lies in (0,
    horizon) (else -1: no piece ends there), the horizon after the ``n`` of them."""
    if k == n:
        return horizon
    t = r0 if k == 0 else (r1 if k == 1 else r2)
    return t if 0.0 < t < horizon else -1.0


@njit
def _gap(
    dx: float, dy: float, vx: float, vy: float, hx: float, hy: float, r2: float, t: float
) -> float:
    """``f(t) = |D + V t + H t^2|^2 - r2``."""
    x = dx + (vx + hx * t) * t
    y = dy + (vy + hy * t) * t
    return x * x + y * y - r2


@njit
def _squared_gap(
    dx: float, dy: float, vx: float, vy: float, hx: float, hy: float
) -> tuple[float, float, float, int, float, float, float]:
    """Coefficients c2..c4 of ``f(t) = |D + V t + H t^2|^2 - r2`` and the ``n`` roots of f'
    (its critical points, ascending): ``(c2, c3, c4, n, r0, r1, r2)``."""
    # f'(t) = c1 + 2 c2 t + 3 c3 t^2 + 4 c4 t^3 ; f''(t) = 2 c2 + 6 c3 t + 12 c4 t^2
    c4 = hx * hx + hy * hy
    c3 = 2.0 * (vx * hx + vy * hy)
    c2 = vx * vx + vy * vy + 2.0 * (dx * hx + dy * hy)
    c1 = 2.0 * (dx * vx + dy * vy)
    n, r0, r1, r2 = _critical_points(c1, c2, c3, c4)
    return c2, c3, c4, n, r0, r1, r2


@njit
def _critical_points(c1: float, c2: float, c3: float, c4: float) -> tuple[int, float, float, float]:
    """Real roots of f'(t) = c1 + 2 c2 t + 3 c3 t^2 + 4 c4 t^3, ascending: ``(n, r0, r1, r2)``
    (closed form, then one Newton polish each)."""
    if c4 <= 1e-18 * (abs(c3) + abs(c2) + abs(c1)):
        n, q1, q2 = quadratic_roots(c1, 2.0 * c2, 3.0 * c3)
        return n, q1, q2, INF
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
        n = 1
        r0 = math.copysign(abs(u) ** (1 / 3), u) + math.copysign(abs(v) ** (1 / 3), v) + shift
        r1 = r2 = INF
    elif p == 0.0:
        n, r0, r1, r2 = 1, shift, INF, INF
    else:
        m = 2.0 * math.sqrt(-p / 3.0)
        arg = max(-1.0, min(1.0, 3.0 * q / (p * m)))
        th = math.acos(arg) / 3.0
        n = 3
        r0 = m * math.cos(th) + shift
        r1 = m * math.cos(th - 2.0 * math.pi / 3.0) + shift
        r2 = m * math.cos(th - 2.0 * math.pi * 2 / 3.0) + shift
        r0, r1, r2 = _sort3(r0, r1, r2)
    return (
        n,
        _polish(r0, c1, c2, c3, c4),
        _polish(r1, c1, c2, c3, c4) if n > 1 else r1,
        _polish(r2, c1, c2, c3, c4) if n > 2 else r2,
    )


@njit
def _sort3(a: float, b: float, c: float) -> tuple[float, float, float]:
    """Three numbers ascending."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@njit
def _polish(r: float, c1: float, c2: float, c3: float, c4: float) -> float:
    """One Newton step of f'(t) = 0 from ``r``."""
    d2 = 2.0 * c2 + r * (6.0 * c3 + r * (12.0 * c4))
    if d2 != 0.0:
        r -= (c1 + r * (2.0 * c2 + r * (3.0 * c3 + r * 4.0 * c4))) / d2
    return r


@njit
def _bracketed_root(
    dx: float,
    dy: float,
    vx: float,
    vy: float,
    hx: float,
    hy: float,
    r2: float,
    ta: float,
    tb: float,
    ga: float,
) -> float:
    """Root of the gap ``f`` (monotone on [ta, tb], with a sign change): bisection + secant,
    Illinois."""
    gb = _gap(dx, dy, vx, vy, hx, hy, r2, tb)
    side = 0
    for _ in range(100):
        if tb - ta <= TIME_TOL:
            break
        tm = (ta * gb - tb * ga) / (gb - ga) if gb != ga else 0.5 * (ta + tb)
        if not ta < tm < tb:
            tm = 0.5 * (ta + tb)
        gm = _gap(dx, dy, vx, vy, hx, hy, r2, tm)
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
