"""The options both environments share, checked when the environment is made (a wrong type
there would otherwise surface only at the first step, far from its cause)."""

from __future__ import annotations

from kinghill.envs.game.noise import NoiseScale, scaled
from kinghill.envs.rl.rewards import RewardWeights
from kinghill.physics import NoiseModel


def noise_model(noise: object, noise_scale: NoiseScale = 1.0) -> NoiseModel | None:
    """The execution noise an env's ``noise`` and ``noise_scale`` options ask for: ``True`` the
    default model, ``False`` or ``None`` none, or a :class:`NoiseModel` as given; at the noise
    condition ``noise_scale`` (:func:`kinghill.envs.game.noise.scaled`: its sigmas times a
    number, or ``"variable"``).

    :raises TypeError: a ``noise`` that is none of those (``"yes"`` is not ``True``).
    :raises ValueError: a ``noise_scale`` that is no noise condition.
    """
    if noise is True:
        return scaled(NoiseModel(), noise_scale)
    if noise is False or noise is None:
        return None
    if isinstance(noise, NoiseModel):
        return scaled(noise, noise_scale)
    raise TypeError(f"noise: True, False, None or a NoiseModel, got {noise!r}")


def reward_weights(weights: object) -> RewardWeights:
    """An env's ``reward_weights`` option: a :class:`RewardWeights`, or ``None`` for the defaults.

    :raises TypeError: anything else.
    """
    if weights is None:
        return RewardWeights()
    if isinstance(weights, RewardWeights):
        return weights
    raise TypeError(f"reward_weights: a RewardWeights or None, got {weights!r}")
