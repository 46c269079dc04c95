"""Time of MaskablePPO's policy forward pass on a 2-env rollout step (2 masked-env observations,
64x64 nets, one torch thread): sb3-contrib's ``MaskableActorCriticPolicy`` against kinghill's
``MaskedMenuPolicy`` (the fused masked distribution), taking turns in one run.

    python3 benchmarks/training/policy_forward.py
"""

from __future__ import annotations

import time

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from kinghill.agents.masked_policy import MaskedMenuPolicy
from kinghill.envs.rl.masked import make_masked_env

ROUNDS, CALLS = 3, 2000


def forward_ms(policy: MaskableActorCriticPolicy, obs: torch.Tensor, masks: np.ndarray) -> float:
    """Mean milliseconds of one ``policy(obs, action_masks=masks)`` with the actions read out."""
    with torch.no_grad():
        start = time.perf_counter()
        for _ in range(CALLS):
            actions, _, _ = policy(obs, action_masks=masks)
            actions.numpy()
    return (time.perf_counter() - start) / CALLS * 1e3


def main() -> None:
    torch.set_num_threads(1)
    env = make_masked_env()
    first, info = env.reset(seed=0)
    assert isinstance(env.action_space, spaces.MultiDiscrete)
    obs = torch.as_tensor(np.stack([first, first]), dtype=torch.float32)
    masks = np.stack([info["action_mask"], info["action_mask"]])
    kwargs = {"net_arch": {"pi": [64, 64], "vf": [64, 64]}}
    policies = {
        name: cls(env.observation_space, env.action_space, lambda _: 3e-4, **kwargs)
        for name, cls in (("sb3-contrib", MaskableActorCriticPolicy), ("fused", MaskedMenuPolicy))
    }
    for policy in policies.values():
        forward_ms(policy, obs, masks)  # warm up
    for k in range(ROUNDS):
        row = {name: forward_ms(policy, obs, masks) for name, policy in policies.items()}
        print(f"round {k + 1}: " + ", ".join(f"{n} {ms:.3f} ms" for n, ms in row.items()))


if __name__ == "__main__":
    main()
