"""The Stable-Baselines3 algorithms a run trains, by name."""

from __future__ import annotations

from typing import Any

SAVED_BY = {"PPO": "ppo", "SAC": "sac", "MaskablePPO": "maskable-ppo"}
"""The ``algo`` of each algorithm class a checkpoint may be saved by."""


def algorithm(name: str) -> Any:
    """The SB3 class of ``name`` ("ppo", "sac", or "maskable-ppo" from sb3-contrib)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO, SAC

    return {"ppo": PPO, "sac": SAC, "maskable-ppo": MaskablePPO}[name]
