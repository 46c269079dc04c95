"""``hypot`` for the kernels: CPython's ``math.hypot`` (3.11's algorithm), compiled.

numba's ``math.hypot`` is the C library's, which differs from CPython's in the last bit for
about one argument pair in 160; the engine uses this one on both paths, so a compiled run and
its plain-Python run (``NUMBA_DISABLE_JIT=1``) agree bit for bit. The algorithm: scale by a
power of two, square and sum exactly in double-length arithmetic, take the root, then one
differential correction (CPython's ``vector_norm``, Modules/mathmodule.c).
"""

from __future__ import annotations

import math

from kinghill.physics.jit import njit

_SPLIT = 134217729.0
"""2**27 + 1: Veltkamp's splitter, cuts a double into two halves whose products are exact."""
_TINY = 2.2250738585072014e-308
"""The smallest normal double (DBL_MIN)."""


@njit
def hypot(x: float, y: float) -> float:
    """``sqrt(x*x + y*y)`` without overflow or underflow, as CPython 3.11 rounds it."""
    x, y = abs(x), abs(y)
    if math.isinf(x) or math.isinf(y):
        return math.inf
    if math.isnan(x) or math.isnan(y):
        return math.nan
    top = max(x, y)
    if top == 0.0:
        return 0.0
    _, exponent = math.frexp(top)
    if exponent < -1023:
        return _TINY * hypot(x / _TINY, y / _TINY)
    scale = math.ldexp(1.0, -exponent)
    total, frac1, frac2 = 1.0, 0.0, 0.0
    for v in (x * scale, y * scale):
        hi, lo = _product(v, v)
        total, frac1, frac2 = _accumulate(total, frac1, frac2, hi, lo)
    h = math.sqrt(total - 1.0 + (frac1 + frac2))
    hi, lo = _product(-h, h)
    total, frac1, frac2 = _accumulate(total, frac1, frac2, hi, lo)
    h += (total - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return h / scale


@njit
def _product(a: float, b: float) -> tuple[float, float]:
    """``a * b`` as the rounded product and its exact error (Dekker)."""
    p = a * b
    ca, cb = _SPLIT * a, _SPLIT * b
    ah, bh = ca - (ca - a), cb - (cb - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@njit
def _accumulate(
    total: float, frac1: float, frac2: float, hi: float, lo: float
) -> tuple[float, float, float]:
    """Add a double-length term to the running sum (``total`` >= ``hi``: a fast two-sum)."""
    s = total + hi
    return s, frac1 + lo, frac2 + ((total - s) + hi)
