"""Issue 9: the warm start records the heuristic's decisions as masked-env slots and fits the
MaskablePPO policy to them."""

import numpy as np
from sb3_contrib import MaskablePPO

from kinghill.envs.rl.masked import make_masked_env
from kinghill.experiments.training.warm_start import demonstrations, pretrain


def test_the_heuristic_is_imitated_from_its_recorded_slots() -> None:
    data = demonstrations(3, seed=0)
    assert len(data) > 10 and data.observations.shape[0] == len(data)
    assert all(data.masks[k, slot] for k, slot in enumerate(data.actions[:, 0]))  # offered
    assert np.all(np.abs(data.returns) <= 1.0)
    model = MaskablePPO("MlpPolicy", make_masked_env(), seed=0, device="cpu", n_steps=64)
    before = pretrain(model, data, epochs=1)
    after = pretrain(model, data, epochs=20)
    assert after["imitation_loss"] < before["imitation_loss"]
    assert after["agreement"] >= before["agreement"] and after["agreement"] > 0.5
