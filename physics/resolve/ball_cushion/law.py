"""What a cushion law is: the rubber's coefficients, the protocol, and the cushion frame.

Every law resolves one ball meeting one rubber (a cushion nose or a pocket jaw) in the same local
frame, the one Mathavan et al. (2010, Fig. 1) draw: x along the cushion, y horizontal into the
cushion, z up; the nose touches the ball at height ``h`` above the cloth, ``sin(theta) =
(h - R) / R`` above its equator. :class:`FrameLaw` turns the table-frame motion into that frame
and back, so a law only writes its physics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kinghill.physics.resolve.ball_cushion.restitution import RESTITUTIONS

if TYPE_CHECKING:
    from kinghill.physics.resolve.ball_ball import Motion


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

    def solve(self, nx: float, ny: float, ball: Motion) -> Motion:
        """Motion after the impact; ``(nx, ny)`` is the rubber's unit normal into the table."""
        ...


class FrameLaw:
    """Base of the laws: rotates into the cushion frame, calls :meth:`local`, rotates back."""

    __slots__ = ("rubber", "radius", "sin_t", "cos_t", "relation")

    def __init__(self, rubber: Rubber) -> None:
        self.rubber = rubber
        self.radius = rubber.radius
        self.sin_t = rubber.sin_theta
        self.cos_t = math.sqrt(1.0 - self.sin_t * self.sin_t)
        self.relation = RESTITUTIONS[rubber.restitution]

    def e_at(self, vy: float) -> float:
        """The coefficient of restitution for a ball coming in at normal speed ``vy``."""
        return self.relation(vy, self.rubber.e)

    def solve(self, nx: float, ny: float, ball: Motion) -> Motion:
        """Motion after the impact; a ball not moving into the rubber is returned unchanged."""
        vx, vy, wx, wy, wz = ball
        # local axes: x = (-ny, nx) along the rubber, y = (-nx, -ny) into it, z up
        lvy = -(vx * nx + vy * ny)
        if lvy <= 0.0:
            return ball
        lvx = -vx * ny + vy * nx
        lwx = -wx * ny + wy * nx
        lwy = -(wx * nx + wy * ny)
        lvx, lvy, lwx, lwy, wz = self.local(lvx, lvy, lwx, lwy, wz)
        return (
            -lvx * ny - lvy * nx,
            lvx * nx - lvy * ny,
            -lwx * ny - lwy * nx,
            lwx * nx - lwy * ny,
            wz,
        )

    def local(self, vx: float, vy: float, wx: float, wy: float, wz: float) -> Motion:
        """The impact in the cushion frame (``vy > 0``: the ball moves into the rubber)."""
        raise NotImplementedError
