"""What a cushion law is: the rubber's coefficients, the protocol, and the cushion frame.

Every law resolves one ball meeting one rubber (a cushion nose or a pocket jaw) in the same local
frame, the one Mathavan et al. (2010, Fig. 1) draw: x along the cushion, y horizontal into the
cushion, z up; the nose touches the ball at height ``h`` above the cloth, ``sin(theta) =
(h - R) / R`` above its equator. :class:`FrameLaw` turns the table-frame motion into that frame
and back (:func:`to_local`, :func:`from_local`), so a law only writes its physics; each law's
physics is a compiled kernel that reads the law's :attr:`FrameLaw.params`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.resolve.ball_cushion.restitution import CODES, RESTITUTIONS

if TYPE_CHECKING:
    from kinghill.physics.resolve.motion import Motion

MATHAVAN, HAN, SIMPLE = 0, 1, 2
"""The laws' codes (:attr:`FrameLaw.CODE`)."""
LAW, RESTITUTION, RADIUS, SIN, COS, E, MU, MU_CLOTH, TWO = range(9)
"""Places in :attr:`FrameLaw.params`: the law's code, the restitution relation's code, R,
sin and cos of the contact's elevation, e, the frictions, and 2.0 (the exponent of a square
taken with ``pow``, as CPython's ``x ** 2`` takes it: a constant exponent would be folded into
``x * x``, which differs in the last bit for one x in a thousand). A law's own constants
follow from :data:`EXTRA` on."""
EXTRA = 9


@dataclass(frozen=True)
class Rubber:
    """One rubber as a law sees it: ball radius, nose height and the contact coefficients."""

    radius: float
    """Ball radius R (m)."""
    height: float
    """Height of the nose's contact line above the cloth (m), R <= h < 2R."""
    e: float
    """Coefficient of restitution (its exact meaning is each law's; see the law)."""
    mu: float
    """Ball-rubber sliding friction."""
    mu_cloth: float
    """Ball-cloth sliding friction, for laws that keep the table contact during the impact."""
    restitution: str = "constant"
    """How ``e`` depends on the normal approach speed, by name (:data:`RESTITUTIONS`)."""

    def __post_init__(self) -> None:
        if not 0.0 < self.radius <= self.height < 2.0 * self.radius:
            raise ValueError(
                f"Rubber: nose height {self.height} m must lie in [R, 2R) for R = {self.radius} m"
            )
        if not 0.0 <= self.e <= 1.0:
            raise ValueError(f"Rubber.e must lie in [0, 1], got {self.e}")
        if self.restitution not in RESTITUTIONS:
            raise ValueError(
                f"Rubber.restitution must be one of {', '.join(RESTITUTIONS)}, "
                f"got {self.restitution!r}"
            )
        if self.mu < 0.0 or self.mu_cloth < 0.0:
            raise ValueError(f"Rubber frictions must not be negative: {self.mu}, {self.mu_cloth}")

    @property
    def sin_theta(self) -> float:
        """Sine of the contact's elevation above the ball's equator."""
        return (self.height - self.radius) / self.radius


class CushionLaw(Protocol):
    """A ball-rubber impact model: the motion just after, from the motion just before."""

    params: np.ndarray
    """The law's code and coefficients, as the compiled engine takes them."""

    def solve(self, nx: float, ny: float, ball: Motion) -> Motion:
        """Motion after the impact; ``(nx, ny)`` is the rubber's unit normal into the table."""
        ...


class FrameLaw:
    """Base of the laws: rotates into the cushion frame, calls :meth:`local`, rotates back."""

    CODE: ClassVar[int]
    __slots__ = ("rubber", "radius", "sin_t", "cos_t", "params")

    def __init__(self, rubber: Rubber) -> None:
        self.rubber = rubber
        self.radius = rubber.radius
        self.sin_t = rubber.sin_theta
        self.cos_t = math.sqrt(1.0 - self.sin_t * self.sin_t)
        head = [self.CODE, CODES[rubber.restitution], self.radius, self.sin_t, self.cos_t]
        tail = [rubber.e, rubber.mu, rubber.mu_cloth, 2.0, *self.constants()]
        self.params = np.array(head + tail, dtype=np.float64)

    def constants(self) -> tuple[float, ...]:
        """The law's own constants, stored from :data:`EXTRA` on in :attr:`params`."""
        return ()

    def solve(self, nx: float, ny: float, ball: Motion) -> Motion:
        """Motion after the impact; a ball not moving into the rubber is returned unchanged."""
        vx, vy, wx, wy, wz = ball
        lvx, lvy, lwx, lwy = to_local(nx, ny, vx, vy, wx, wy)
        if lvy <= 0.0:
            return ball
        lvx, lvy, lwx, lwy, wz = self.local(lvx, lvy, lwx, lwy, wz)
        return from_local(nx, ny, lvx, lvy, lwx, lwy, wz)

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        """The impact in the cushion frame (``vy > 0``: the ball moves into the rubber)."""
        raise NotImplementedError


@njit
def to_local(
    nx: float, ny: float, vx: float, vy: float, wx: float, wy: float
) -> tuple[float, float, float, float]:
    """``(vx, vy, wx, wy)`` in the cushion frame of the rubber with normal ``n`` into the table:
    x = (-ny, nx) along the rubber, y = (-nx, -ny) into it, z up."""
    return -vx * ny + vy * nx, -(vx * nx + vy * ny), -wx * ny + wy * nx, -(wx * nx + wy * ny)


@njit
def from_local(
    nx: float, ny: float, vx: float, vy: float, wx: float, wy: float, wz: float
) -> tuple[float, float, float, float, float]:
    """A motion in the cushion frame back in the table frame (:func:`to_local`'s inverse)."""
    return (-vx * ny - vy * nx, vx * nx - vy * ny, -wx * ny - wy * nx, wx * nx - wy * ny, wz)
