"""Issue 18: MaskablePPO's fused masked distribution (``kinghill.agents.masked_policy``) is
sb3-contrib's ``MaskableMultiCategoricalDistribution`` computed in one pass: the same
log-probabilities, entropies and modes, draws that follow the masked softmax, and a training
env whose ``info`` no longer carries the per-step diagnostics across the worker pipe."""

import numpy as np
import pytest
import torch as th
from sb3_contrib.common.maskable.distributions import MaskableMultiCategoricalDistribution

from kinghill.agents.masked_policy import FusedMaskedMultiCategorical, MaskedMenuPolicy
from kinghill.agents.policy import MASKED_POLICY_MODULE
from kinghill.experiments.training.config import TrainConfig
from kinghill.experiments.training.environments import DIAGNOSTIC_KEYS, make_training_env

DIMS = [13, 3, 4]  # the masked env's slot, speed level and spin level


def _pair(logits: th.Tensor, masks: th.Tensor | None) -> tuple:
    stock = MaskableMultiCategoricalDistribution(DIMS).proba_distribution(logits)
    fused = FusedMaskedMultiCategorical(DIMS).proba_distribution(logits)
    stock.apply_masking(masks)
    fused.apply_masking(masks)
    return stock, fused


@pytest.mark.parametrize("masked", [True, False])
def test_the_fused_distribution_equals_sb3_contribs(masked: bool) -> None:
    generator = th.Generator().manual_seed(0)
    logits = 3 * th.randn(256, sum(DIMS), generator=generator)
    masks = th.rand(256, sum(DIMS), generator=generator) > 0.4
    masks[:, [0, 13, 16]] = True  # every part keeps a choice
    stock, fused = _pair(logits, masks if masked else None)
    actions = stock.sample()
    assert th.allclose(fused.log_prob(actions), stock.log_prob(actions), atol=1e-5)
    assert th.allclose(fused.entropy(), stock.entropy(), atol=1e-5)
    assert th.equal(fused.mode(), stock.mode())
    nudged_logits = logits.clone()
    nudged_logits[:, 0] += 1e-3  # the tolerance sees a change of one logit by 1e-3
    nudged = FusedMaskedMultiCategorical(DIMS).proba_distribution(nudged_logits)
    assert not th.allclose(nudged.log_prob(actions), stock.log_prob(actions), atol=1e-5)


def test_its_draws_follow_the_masked_softmax_and_skip_masked_choices() -> None:
    th.manual_seed(1)
    logits = th.tensor([[1.0, 0.0, -1.0, 2.0, 0.0]]).repeat(100_000, 1)
    masks = th.tensor([[True, True, False, True, True]]).repeat(100_000, 1)
    fused = FusedMaskedMultiCategorical([3, 2]).proba_distribution(logits)
    fused.apply_masking(masks)
    drawn = fused.sample()
    first = th.bincount(drawn[:, 0], minlength=3) / len(drawn)
    second = th.bincount(drawn[:, 1], minlength=2) / len(drawn)
    assert first[2] == 0  # masked out: never drawn
    assert abs(first[0] - th.softmax(th.tensor([1.0, 0.0]), 0)[0]) < 0.01
    assert abs(second[0] - th.softmax(th.tensor([2.0, 0.0]), 0)[0]) < 0.01


def test_the_policy_uses_it_and_its_module_is_the_one_checkpoints_are_read_by() -> None:
    from gymnasium import spaces

    policy = MaskedMenuPolicy(
        spaces.Box(-1, 1, (8,)), spaces.MultiDiscrete(DIMS), lambda _: 3e-4, net_arch=[8]
    )
    assert isinstance(policy.action_dist, FusedMaskedMultiCategorical)
    assert MaskedMenuPolicy.__module__ == MASKED_POLICY_MODULE
    obs = th.zeros(2, 8)
    masks = np.ones((2, sum(DIMS)), bool)
    masks[:, 1:13] = False
    actions, _, _ = policy(obs, action_masks=masks)
    assert actions[:, 0].tolist() == [0, 0]


def test_training_envs_leave_the_diagnostics_in_the_worker(tmp_path) -> None:
    config = TrainConfig(out=tmp_path, algo="maskable-ppo", action="masked", opponent="heuristic")
    env = make_training_env(config, 0, in_worker=False)
    _, info = env.reset(seed=0)
    assert "action_mask" in info and not set(DIAGNOSTIC_KEYS) & set(info)
    rng = np.random.default_rng(0)
    for _ in range(400):
        slots = np.flatnonzero(info["action_mask"][:13])
        _, _, terminated, truncated, info = env.step([rng.choice(slots), 1, 0])
        assert "action_mask" in info and not set(DIAGNOSTIC_KEYS) & set(info)
        if terminated or truncated:
            assert info["won"] in (0.0, 1.0) and "episode" in info  # the Monitor's record
            break
    else:
        pytest.fail("no frame ended in 400 steps")
