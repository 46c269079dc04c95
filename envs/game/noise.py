"""Noise conditions: the execution noise of a frame at a multiple of the default sigmas, or at
a scale drawn afresh for every shot (``"variable"``, uniform in [0, 5] as at the Olympiad).

A scale multiplies every sigma of a :class:`~kinghill.physics.NoiseModel` and changes nothing
else: the same normal draws are taken from the game's generator in the same order, so two
frames with the same seed at scales 1 and 5 differ only in how far each shot strays. The
variable condition draws its scale from that same generator just before the shot's noise, so it
too is fixed by the frame's seed.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from kinghill.physics import NoiseModel, Shot

VARIABLE = "variable"
"""The noise scale that is drawn for each shot, uniform in [0, :data:`VARIABLE_HIGH`]."""
VARIABLE_HIGH = 5.0
"""The largest scale of the variable condition (the Olympiad's range)."""

NoiseScale = float | str
"""A noise condition: a multiple of the default sigmas (1 = the default), or ``"variable"``."""

_SIGMAS = ("sigma_phi", "sigma_speed", "sigma_a", "sigma_b")


@dataclass(frozen=True)
class VariableNoise(NoiseModel):
    """Execution noise whose scale is drawn for every shot, uniform in [0, ``high``], from the
    generator that draws the noise itself (the frame's); the sigmas are those at scale 1."""

    high: float = VARIABLE_HIGH

    def __post_init__(self) -> None:
        super().__post_init__()
        if not (math.isfinite(self.high) and self.high >= 0):
            raise ValueError(f"VariableNoise.high must be finite and >= 0, got {self.high}")

    def perturb(self, shot: Shot, rng: np.random.Generator, radius: float) -> Shot:
        scale = float(rng.uniform(0.0, self.high))
        return scaled(self.base(), scale).perturb(shot, rng, radius)

    def base(self) -> NoiseModel:
        """The noise at scale 1 (these sigmas, no drawn scale)."""
        return NoiseModel(**{name: getattr(self, name) for name in _SIGMAS})


def check_noise_scale(scale: object) -> NoiseScale:
    """``scale`` if it is a noise condition: a finite number >= 0, or ``"variable"``.

    :raises ValueError: anything else (the message names ``noise_scale``).
    """
    if scale == VARIABLE:
        return VARIABLE
    if (
        isinstance(scale, int | float)
        and not isinstance(scale, bool)
        and math.isfinite(scale)
        and scale >= 0
    ):
        return float(scale)
    raise ValueError(
        f"noise_scale: a number >= 0 (1 = the default noise) or {VARIABLE!r}, got {scale!r}"
    )


def scaled(model: NoiseModel, scale: NoiseScale) -> NoiseModel:
    """``model`` at the noise condition ``scale``: its sigmas times a number, or
    :class:`VariableNoise` over them for ``"variable"``.

    :raises ValueError: ``scale`` is not a noise condition.
    """
    scale = check_noise_scale(scale)
    if scale == VARIABLE:
        return VariableNoise(**{name: getattr(model, name) for name in _SIGMAS})
    assert isinstance(scale, float)
    if scale == 1.0:
        return model
    return dataclasses.replace(model, **{name: getattr(model, name) * scale for name in _SIGMAS})
