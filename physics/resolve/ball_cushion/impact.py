"""A ball meeting a rubber, as the compiled engine resolves it: the law chosen by its code."""

from __future__ import annotations

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.resolve.ball_cushion import han_2005, mathavan_2010, simple
from kinghill.physics.resolve.ball_cushion.law import HAN, LAW, MATHAVAN, from_local, to_local
from kinghill.physics.resolve.motion import Motion


@njit
def rubber_impact(
    law: np.ndarray, nx: float, ny: float, vx: float, vy: float, wx: float, wy: float, wz: float
) -> Motion:
    """The motion after the impact on the rubber of normal ``(nx, ny)`` (into the table), by
    the law of ``params`` ``law`` (:attr:`FrameLaw.params`); unchanged if the ball is not
    moving into it (what :meth:`FrameLaw.solve` does, compiled)."""
    lvx, lvy, lwx, lwy = to_local(nx, ny, vx, vy, wx, wy)
    if lvy <= 0.0:
        return vx, vy, wx, wy, wz
    code = law[LAW]
    if code == MATHAVAN:
        out = mathavan_2010.local(law, lvx, lvy, lwx, lwy, wz)
    elif code == HAN:
        out = han_2005.local(law, lvx, lvy, lwx, lwy, wz)
    else:
        out = simple.local(law, lvx, lvy, lwx, lwy, wz)
    return from_local(nx, ny, out[0], out[1], out[2], out[3], out[4])
