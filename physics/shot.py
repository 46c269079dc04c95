"""The cue's parameters for one shot, and the execution noise that perturbs them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kinghill.physics.names import N_BALLS

MAX_SPEED = 10.0
"""Largest cue-ball speed a shot may ask for (m/s)."""
MISCUE_LIMIT = 0.5
"""Tip offsets must satisfy a^2 + b^2 <= MISCUE_LIMIT^2 (fractions of R)."""


def _finite(name: str, value: object) -> float:
    if type(value) is not float:  # a plain float, the common case, needs no conversion
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
            raise ValueError(f"Shot.{name} must be a number, got {value!r}")
        value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"Shot.{name} must be finite, got {value}")
    return value


@dataclass(frozen=True)
class Shot:
    """One strike of the cue.

    :param cue_ball: id of the ball struck (any ball on the table, rule 1.4).
    :param phi: aim angle, rad, 0 = +x (toward the rear cushion), counter-clockwise.
    :param speed: the cue ball's speed right after the strike, m/s, 0 < speed <= 10.
    :param a: side offset of the tip as a fraction of R; a > 0 = right english seen from behind.
    :param b: vertical offset as a fraction of R; b > 0 = follow, b < 0 = draw.
    """

    cue_ball: int
    phi: float
    speed: float
    a: float = 0.0
    b: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.cue_ball, bool) or not isinstance(self.cue_ball, (int, np.integer)):
            raise ValueError(f"Shot.cue_ball must be an integer ball id, got {self.cue_ball!r}")
        if not 0 <= self.cue_ball < N_BALLS:
            raise ValueError(f"Shot.cue_ball must be 0-{N_BALLS - 1}, got {self.cue_ball}")
        object.__setattr__(self, "cue_ball", int(self.cue_ball))
        for name in ("phi", "speed", "a", "b"):
            object.__setattr__(self, name, _finite(name, getattr(self, name)))
        if not 0 < self.speed <= MAX_SPEED:
            raise ValueError(f"Shot.speed must be in (0, {MAX_SPEED}] m/s, got {self.speed}")
        if self.a * self.a + self.b * self.b > MISCUE_LIMIT**2 + 1e-12:
            raise ValueError(
                f"Shot.a and Shot.b: tip offset ({self.a}, {self.b}) is outside the miscue "
                f"limit a^2 + b^2 <= {MISCUE_LIMIT}^2"
            )


@dataclass(frozen=True)
class NoiseModel:
    """Zero-mean Gaussian execution noise on phi, speed, a and b.

    Defaults are those of the computational-pool tournaments: sigma_phi 0.125 deg,
    sigma_speed 0.075 m/s, sigma_a = sigma_b 0.5 mm (as a fraction of R at play time).
    """

    sigma_phi: float = math.radians(0.125)
    sigma_speed: float = 0.075
    sigma_a: float = 0.0005
    """Standard deviation of the side offset, m."""
    sigma_b: float = 0.0005
    """Standard deviation of the vertical offset, m."""

    def __post_init__(self) -> None:
        for name in ("sigma_phi", "sigma_speed", "sigma_a", "sigma_b"):
            v = getattr(self, name)
            if not math.isfinite(v) or v < 0:
                raise ValueError(f"NoiseModel.{name} must be finite and >= 0, got {v}")

    def perturb(self, shot: Shot, rng: np.random.Generator, radius: float) -> Shot:
        """The shot as executed: noise added, then clipped back into the valid ranges."""
        dphi, dv, da, db = rng.standard_normal(4)
        a, b = _within_miscue(
            shot.a + da * self.sigma_a / radius, shot.b + db * self.sigma_b / radius
        )
        speed = min(max(shot.speed + dv * self.sigma_speed, 1e-3), MAX_SPEED)
        return Shot(shot.cue_ball, shot.phi + dphi * self.sigma_phi, speed, a, b)

    def perturb_many(
        self, shots: np.ndarray, rng: np.random.Generator, radius: float
    ) -> np.ndarray:
        """Shots as rows ``(phi, speed, a, b)``, as executed: what :meth:`perturb` makes of each
        row in turn, the same numbers from the same noise drawn in the same order, without a
        :class:`Shot` built for each (the batch's noisy samples)."""
        return self.deviate(shots, rng.standard_normal((len(shots), 4)), radius)

    def deviate(self, shots: np.ndarray, deviations: np.ndarray, radius: float) -> np.ndarray:
        """Shots as rows ``(phi, speed, a, b)``, as executed with the given standard-normal
        ``deviations`` (one row ``(phi, speed, a, b)`` a shot): :meth:`perturb_many` with its
        draws given, so that several shots can meet the same luck (common random numbers)."""
        phi = shots[:, 0] + deviations[:, 0] * self.sigma_phi
        speed = shots[:, 1] + deviations[:, 1] * self.sigma_speed
        speed = np.minimum(np.maximum(speed, 1e-3), MAX_SPEED)
        a = shots[:, 2] + deviations[:, 2] * self.sigma_a / radius
        b = shots[:, 3] + deviations[:, 3] * self.sigma_b / radius
        for k in np.flatnonzero(a * a + b * b > 0.9 * MISCUE_LIMIT**2).tolist():
            a[k], b[k] = _within_miscue(a[k], b[k])  # math.hypot's rounding, as perturb's
        return np.stack([phi, speed, a, b], axis=1)


def _within_miscue(a: float, b: float) -> tuple[float, float]:
    """Tip offsets beyond the miscue limit scaled back onto it (execution noise's clip)."""
    norm = math.hypot(a, b)
    if norm > MISCUE_LIMIT:
        return a * MISCUE_LIMIT / norm, b * MISCUE_LIMIT / norm
    return a, b
