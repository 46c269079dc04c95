"""MaskablePPO's policy for the masked env with its action distribution computed in one pass.

sb3-contrib's ``MaskableMultiCategoricalDistribution`` builds one torch ``Categorical`` per
part of the ``MultiDiscrete`` action (slot, speed level, spin level), twice each (before and
after the mask), with the distributions' argument checks: the policy's forward pass on a 2-env
rollout step takes 2.6-2.9 ms with it and 0.6-0.7 ms with this one
(``benchmarks/training/policy_forward.py``). :class:`FusedMaskedMultiCategorical` is the
same distribution (each part a masked softmax over its logits, masked-out choices at
``-1e8``, their entropy terms zero) on the flat logits: one mask, one log-softmax per part, a
``gather`` for log-probabilities. :class:`MaskedMenuPolicy` is ``MaskableActorCriticPolicy``
with it; ``kinghill train sb3 --algo maskable-ppo`` trains with it, and checkpoints saved with the
stock policy load and play as before.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableMultiCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

MASKED_LOGIT = -1e8
"""The logit of a masked-out choice (sb3-contrib's value)."""

Self = TypeVar("Self", bound="FusedMaskedMultiCategorical")


class FusedMaskedMultiCategorical(MaskableMultiCategoricalDistribution):
    """A masked distribution over a ``MultiDiscrete`` action, its parts independent categoricals,
    held as one tensor of log-probabilities (rows: batch; columns: every part's choices)."""

    def __init__(self, action_dims: list[int]) -> None:
        super().__init__(action_dims)
        self.sizes = [int(n) for n in action_dims]
        self.offsets = th.as_tensor(np.cumsum([0, *self.sizes[:-1]]), dtype=th.long)
        self.logits: th.Tensor | None = None
        self.masks: th.Tensor | None = None
        self._log_p: th.Tensor | None = None

    def proba_distribution(self: Self, action_logits: th.Tensor) -> Self:
        self.logits = action_logits.view(-1, sum(self.sizes))
        self.masks = None
        self._log_p = None  # made when first read: a mask usually comes first
        return self

    def apply_masking(self, masks: Any) -> None:
        assert self.logits is not None, "Must set distribution parameters"
        if masks is None:
            self.masks = None
            self._log_p = None
            return
        self.masks = th.as_tensor(masks, dtype=th.bool).reshape(self.logits.shape)
        masked = th.where(self.masks, self.logits, th.tensor(MASKED_LOGIT, dtype=self.logits.dtype))
        self._log_p = self._log_softmax(masked)

    @property
    def log_p(self) -> th.Tensor:
        """The log-probabilities of every part's choices (masked where a mask was applied)."""
        assert self.logits is not None, "Must set distribution parameters"
        if self._log_p is None:
            self._log_p = self._log_softmax(self.logits)
        return self._log_p

    def _log_softmax(self, logits: th.Tensor) -> th.Tensor:
        return th.cat([part.log_softmax(dim=1) for part in logits.split(self.sizes, dim=1)], dim=1)

    def _parts(self) -> tuple[th.Tensor, ...]:
        return self.log_p.split(self.sizes, dim=1)

    def log_prob(self, actions: th.Tensor) -> th.Tensor:
        columns = actions.view(-1, len(self.sizes)).long() + self.offsets
        return self.log_p.gather(1, columns).sum(dim=1)

    def entropy(self) -> th.Tensor:
        log_p = self.log_p.clamp(min=th.finfo(self.log_p.dtype).min)
        p_log_p = log_p.exp() * log_p
        if self.masks is not None:
            p_log_p = th.where(self.masks, p_log_p, th.zeros((), dtype=p_log_p.dtype))
        return -p_log_p.sum(dim=1)

    def sample(self) -> th.Tensor:
        """One draw of every part by the Gumbel-max trick: the argmax of the log-probabilities
        plus standard Gumbel noise is distributed as the categorical (one draw of noise)."""
        noisy = self.log_p - th.empty_like(self.log_p).exponential_().log()
        return th.stack([part.argmax(dim=1) for part in noisy.split(self.sizes, dim=1)], dim=1)

    def mode(self) -> th.Tensor:
        return th.stack([part.argmax(dim=1) for part in self._parts()], dim=1)


class MaskedMenuPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose distribution over a ``MultiDiscrete`` action is
    :class:`FusedMaskedMultiCategorical` (other action spaces keep sb3-contrib's)."""

    def _build(self, lr_schedule: Any) -> None:
        if isinstance(self.action_space, spaces.MultiDiscrete):
            self.action_dist = FusedMaskedMultiCategorical(list(self.action_space.nvec))
        super()._build(lr_schedule)
