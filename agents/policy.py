"""A Stable-Baselines3 (or sb3-contrib MaskablePPO) policy loaded from a checkpoint, playing
through the training decoding."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from kinghill.envs import Action, FrameView
from kinghill.envs.rl import FrozenPolicy
from kinghill.envs.rl.wrappers import trained_action

ALGORITHMS = ("PPO", "SAC", "MaskablePPO")
"""The algorithms a checkpoint may come from (MaskablePPO: sb3-contrib, the masked action)."""
MASKED_POLICY_MODULE = "kinghill.agents.masked_policy"
"""Where ``kinghill train``'s MaskablePPO policy lives (named, not imported: torch loads late)."""


def algorithm_of(path: Path) -> str | None:
    """The algorithm a checkpoint was saved by, read from its policy class (None if unknown):
    SAC's policies live in ``stable_baselines3.sac``, PPO's actor-critic in ``common``,
    MaskablePPO's in ``sb3_contrib.common.maskable`` (or :mod:`kinghill.agents.masked_policy`)."""
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    module = str(data.get("policy_class", {}).get("__module__", ""))
    if module.startswith("stable_baselines3.sac."):
        return "SAC"
    if module == "stable_baselines3.common.policies":
        return "PPO"
    if module.startswith("sb3_contrib.common.maskable") or module == MASKED_POLICY_MODULE:
        return "MaskablePPO"
    return None


def find_checkpoint(path: str | Path) -> Path:
    """The checkpoint file ``path`` names: ``path`` itself, or ``path.zip`` as SB3 saves it.

    :raises FileNotFoundError: neither exists (or it is a directory).
    :raises ValueError: the file is not a zip archive, so not an SB3 checkpoint.
    """
    path = Path(path)
    if not path.is_file() and Path(f"{path}.zip").is_file():
        path = Path(f"{path}.zip")
    if not path.is_file():
        raise FileNotFoundError(f"no policy checkpoint at {path}")
    if not zipfile.is_zipfile(path):
        raise ValueError(f"{path} is not a Stable-Baselines3 checkpoint (not a zip file)")
    return path


def _algorithm_class(name: str) -> Any:
    if name == "MaskablePPO":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    import stable_baselines3

    return getattr(stable_baselines3, name)


def load_model(path: str | Path) -> Any:
    """The model saved at ``path`` (PPO, SAC or MaskablePPO; detected from the zip, else each
    tried)."""
    path = find_checkpoint(path)
    detected = algorithm_of(path)
    order = [detected] if detected else list(ALGORITHMS)
    errors = []
    for name in order:
        try:
            return _algorithm_class(name).load(path, device="cpu")
        except Exception as error:  # a checkpoint of another algorithm: try the next
            errors.append(f"{name}: {error}")
    raise ValueError(f"{path} is not a PPO, SAC or MaskablePPO checkpoint ({'; '.join(errors)})")


class PolicyAgent:
    """An SB3 checkpoint as a player.

    :param path: the checkpoint (``.zip``) saved by ``kinghill train`` or SB3's ``model.save``.
    :param action: the action wrapper it was trained with, ``"aim"``, ``"flat"`` or
        ``"masked"``; by default the one whose action space the checkpoint's is.
    :param deterministic: play the policy's most likely action (default); False samples it
        (``policy:PATH?deterministic=false``), from torch's generator seeded with ``seed``.
    :param seed: seeds the sampling (the frame's seed in tournaments), so frames replay.
    """

    def __init__(
        self,
        path: str | Path,
        action: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        self.path = Path(path)
        model = load_model(path)
        action = trained_action(model.action_space, action)
        if not deterministic and seed is not None:
            import torch

            torch.manual_seed(seed)
        self.policy = FrozenPolicy(model, action=action, deterministic=deterministic)

    def act(self, view: FrameView) -> Action:
        return self.policy.act(view)
