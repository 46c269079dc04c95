"""A policy exported to ONNX (``kinghill export-policy``) as a player, with no torch and no
Stable-Baselines3: onnxruntime runs the network, and the observation and the action are encoded
and decoded by the same code as in training (:class:`~kinghill.envs.rl.FrozenPolicy`).

The file carries what decoding needs in its metadata (``kinghill.action``: ``masked``, ``aim``
or ``flat``). An opponent embedded in a game needs, at run time, numpy, numba, pymunk,
gymnasium (the spaces of the encoding), onnxruntime and kinghill's physics, rules, game and
``envs.rl`` encodings: ``docs/guide/embedded.md`` lists them as measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from kinghill.envs import Action, FrameView
from kinghill.envs.rl import FrozenPolicy

ACTION_KEY = "kinghill.action"
"""The ONNX metadata key naming the action wrapper the policy was trained with."""
ALGORITHM_KEY = "kinghill.algorithm"
"""The ONNX metadata key naming the algorithm of the checkpoint it was exported from."""


class OnnxModel:
    """An exported policy with the ``predict`` of a Stable-Baselines3 model (deterministic
    only): an observation (and, for a masked policy, its action mask) to an action.

    :raises ValueError: the file is not an ONNX policy written by ``kinghill export-policy``.
    """

    def __init__(self, path: str | Path) -> None:
        import onnxruntime

        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"no ONNX policy at {self.path}")
        self.session = onnxruntime.InferenceSession(
            str(self.path), providers=["CPUExecutionProvider"]
        )
        meta = self.session.get_modelmeta().custom_metadata_map
        if ACTION_KEY not in meta:
            raise ValueError(
                f"{self.path}: not a policy of kinghill export-policy (no {ACTION_KEY})"
            )
        self.action = meta[ACTION_KEY]
        self.algorithm = meta.get(ALGORITHM_KEY, "")
        self.inputs = [i.name for i in self.session.get_inputs()]

    def predict(
        self, observation: np.ndarray, deterministic: bool = True, action_masks: Any = None
    ) -> tuple[np.ndarray, None]:
        """The policy's most likely action for one observation (SB3's ``predict``)."""
        if not deterministic:
            raise ValueError("an exported policy plays its most likely action only")
        feed = {"obs": np.asarray(observation, dtype=np.float32).reshape(1, -1)}
        if "mask" in self.inputs:
            if action_masks is None:
                raise ValueError(f"{self.path}: a masked policy needs the action mask")
            feed["mask"] = np.asarray(action_masks, dtype=bool).reshape(1, -1)
        (action,) = self.session.run(None, feed)
        return action[0], None


class OnnxPolicyAgent:
    """An exported policy as a player (``kinghill.agents.onnx_policy:OnnxPolicyAgent?path=P``).

    :param path: the ``.onnx`` file ``kinghill export-policy`` wrote.
    """

    def __init__(self, path: str | Path) -> None:
        self.model = OnnxModel(path)
        self.policy = FrozenPolicy(self.model, action=self.model.action)

    def act(self, view: FrameView) -> Action:
        return self.policy.act(view)
