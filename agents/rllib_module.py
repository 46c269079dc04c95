"""RLlib's default PPO network on the shot menu, with its action mask honoured (the ``rllib``
extra): the mask is taken out of the observation before the network and the logits of the
actions it excludes are pushed to RLlib's ``FLOAT_MIN``, so they are never sampled nor chosen.

Trained by ``kinghill train rllib`` (:mod:`kinghill.experiments.training.rllib_train`)
and loaded from its checkpoints by :class:`kinghill.agents.rllib_agent.RLlibAgent`.

The module is built with RLlib's current constructor (``observation_space=``,
``action_space=``, ``model_config=``, ... as keywords). RLlib 2.60's ``RLModule.__init__``
still makes an ``RLModuleConfig`` of them for old subclasses and so logs "``RLModule(config=
[RLModuleConfig object])`` has been deprecated" for every module, its own defaults included;
:class:`_NotOurDeprecation` drops that one log line (the deprecated form itself, a ``config=``
argument, raises an error in 2.60, so nothing is hidden).
"""

from __future__ import annotations

import logging
from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

MASK = "action_mask"
"""The mask's key in the masked observation (:func:`kinghill.envs.rl.masked_aec.observation_space`);
the other key is the network's input: ``observation`` (``observations`` in older checkpoints)."""
RLLIB_OWN_DEPRECATION = "`RLModule(config=[RLModuleConfig object])` has been deprecated"
"""What RLlib 2.60 logs for every RLModule built with its current constructor."""


class _NotOurDeprecation(logging.Filter):
    """Drops RLlib's log of :data:`RLLIB_OWN_DEPRECATION`, which its own ``RLModule.__init__``
    triggers; every other record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        return RLLIB_OWN_DEPRECATION not in record.getMessage()


logging.getLogger("ray._common.deprecation").addFilter(_NotOurDeprecation())


class MaskedMenuModule(DefaultPPOTorchRLModule):
    """PPO's default actor-critic (``model_config``: ``fcnet_hiddens`` ...) built for the
    ``observation`` part of a ``Dict(observation, action_mask)`` space; every forward pass
    (inference, exploration, training, values) reads the mask from the batch and excludes the
    masked actions' logits."""

    def __init__(self, *, observation_space: gym.Space[Any] | None = None, **kwargs: Any) -> None:
        parts = observation_space.spaces if isinstance(observation_space, gym.spaces.Dict) else {}
        if MASK not in parts or len(parts) != 2:
            raise ValueError(
                f"MaskedMenuModule needs a Dict(observation, {MASK}) observation space, "
                f"got {observation_space}"
            )
        self.masked_space = observation_space
        super().__init__(observation_space=_unmasked(parts), **kwargs)

    def setup(self) -> None:
        super().setup()  # the networks see the observations alone
        self.observation_space = self.masked_space  # what the checkpoint rebuilds the module with

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = _split(batch)
        return _masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any | None = None) -> Any:
        if embeddings is None:
            batch = _split(batch)[0]
        return super().compute_values(batch, embeddings)


def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A shallow copy of ``batch`` whose observation is the part that is not the mask, and the
    mask (the batch itself is left as it is, so every pass finds the mask)."""
    observation = batch[Columns.OBS]
    inner = dict(batch)
    inner[Columns.OBS] = _unmasked(observation)
    return inner, observation[MASK]


def _unmasked(parts: Any) -> Any:
    """The one value of the mapping ``parts`` whose key is not :data:`MASK`."""
    (part,) = (value for key, value in parts.items() if key != MASK)
    return part


def _masked(output: dict[str, Any], mask: Any) -> dict[str, Any]:
    """``output`` with the logits of masked actions replaced by ``FLOAT_MIN``."""
    logits = output[Columns.ACTION_DIST_INPUTS]
    output[Columns.ACTION_DIST_INPUTS] = torch.where(
        mask > 0, logits, torch.full_like(logits, FLOAT_MIN)
    )
    return output
