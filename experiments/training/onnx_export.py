"""Export a trained Stable-Baselines3 PPO or sb3-contrib MaskablePPO policy to ONNX, so that a
game can play it with onnxruntime and without torch
(:class:`~kinghill.agents.onnx_policy.OnnxPolicyAgent`), and check that the exported model
chooses the same actions as the original (:func:`agreement`).

The exported graph is the policy's deterministic action: for MaskablePPO, the observation and
the action mask in, each part's masked argmax out (masked choices at sb3-contrib's -1e8); for
PPO with a ``Box`` action, the mean action clipped to the space as ``predict`` clips it; with a
discrete action, the argmax. The action wrapper (``masked``, ``aim``, ``flat``) travels in the
file's metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from kinghill.agents import HeuristicAgent, RandomAgent
from kinghill.agents.onnx_policy import ACTION_KEY, ALGORITHM_KEY, OnnxModel
from kinghill.agents.policy import load_model
from kinghill.envs import FrameView, Game, ask
from kinghill.envs.rl import FrozenPolicy
from kinghill.envs.rl.wrappers import trained_action
from kinghill.physics import NoiseModel

MASKED_LOGIT = -1e8
"""The logit of a masked-out choice (sb3-contrib's, :mod:`kinghill.agents.masked_policy`)."""
OPSET = 18


@dataclass(frozen=True)
class Agreement:
    """How the exported model and the original chose on the same observations: ``same`` of
    ``observations`` actions equal (a discrete action exactly, a ``Box`` one within
    ``tolerance``), and the largest difference of a ``Box`` action."""

    observations: int
    same: int
    largest_difference: float
    tolerance: float

    @property
    def all_same(self) -> bool:
        return self.same == self.observations


def export_policy(checkpoint: str | Path, out: str | Path, action: str | None = None) -> Path:
    """Write the policy of ``checkpoint`` (PPO or MaskablePPO) to ``out`` as ONNX.

    :param action: the action wrapper it was trained with (default: the one whose action space
        the checkpoint's is, as ``policy:PATH`` plays it).
    :raises ValueError: a SAC checkpoint, an action space the exporter does not know, or an
        ``action`` the checkpoint was not trained with (before anything is written).
    """
    import onnx

    model = load_model(checkpoint)
    algorithm = type(model).__name__
    if algorithm == "SAC":
        raise ValueError(f"{checkpoint}: SAC policies are not exported yet (PPO and MaskablePPO)")
    masked = algorithm == "MaskablePPO"
    try:
        action = trained_action(model.action_space, action)
    except ValueError as error:
        raise ValueError(f"{checkpoint}: {error}") from None
    graph = _ActionGraph(model.policy, model.action_space, masked).eval()
    size = int(np.prod(model.observation_space.shape))
    example: tuple[Any, ...] = (torch.zeros((1, size)),)
    names = ["obs"]
    if masked:
        example += (torch.ones((1, sum(graph.sizes)), dtype=torch.bool),)
        names.append("mask")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        graph,
        example,
        str(out),
        input_names=names,
        output_names=["action"],
        dynamic_shapes=[{0: torch.export.Dim("batch")} for _ in names],
        opset_version=OPSET,
        dynamo=True,
        verbose=False,
    )
    exported = onnx.load(str(out))
    for key, value in ((ACTION_KEY, action), (ALGORITHM_KEY, algorithm)):
        entry = exported.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(exported, str(out), save_as_external_data=False)
    out.with_name(f"{out.name}.data").unlink(missing_ok=True)  # the export's, now inlined
    return out


class _ActionGraph(torch.nn.Module):
    """The policy's deterministic action as a torch module to trace."""

    def __init__(self, policy: Any, space: Any, masked: bool) -> None:
        super().__init__()
        self.policy = policy
        self.masked = masked
        nvec = getattr(space, "nvec", None)
        n = getattr(space, "n", None)
        self.sizes = [int(v) for v in nvec] if nvec is not None else ([int(n)] if n else [])
        self.box = None if self.sizes else (np.asarray(space.low), np.asarray(space.high))

    def forward(self, obs: Any, mask: Any = None) -> Any:
        policy = self.policy
        features = policy.extract_features(obs, policy.pi_features_extractor)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        if self.box is not None:
            low, high = (torch.as_tensor(b, dtype=logits.dtype) for b in self.box)
            return torch.clamp(logits, low, high)
        if mask is not None:
            logits = torch.where(mask, logits, torch.full_like(logits, MASKED_LOGIT))
        parts = logits.split(self.sizes, dim=1)
        return torch.stack([part.argmax(dim=1) for part in parts], dim=1)


class _Recorder:
    """A model that notes every input it is asked about (what ``FrozenPolicy`` feeds it)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.inputs: list[tuple[np.ndarray, Any]] = []

    def predict(
        self, obs: np.ndarray, deterministic: bool = True, action_masks: Any = None
    ) -> tuple[np.ndarray, None]:
        self.inputs.append((np.array(obs, copy=True), action_masks))
        if action_masks is None:
            return self.model.predict(obs, deterministic=deterministic)
        return self.model.predict(obs, deterministic=deterministic, action_masks=action_masks)


def policy_inputs(model: Any, action: str, count: int, seed: int = 0) -> list[tuple[Any, Any]]:
    """``count`` observations (with their masks) as the policy meets them in play: every
    decision of frames between the heuristic and random (noise on), encoded by the policy's own
    wrapper."""
    recorder = _Recorder(model)
    policy = FrozenPolicy(recorder, action=action)
    frame = 0
    while len(recorder.inputs) < count:
        game = Game(noise=NoiseModel())
        game.reset(seed=seed + frame)
        players = (HeuristicAgent(), RandomAgent(seed=seed + frame))
        while not game.is_over and len(recorder.inputs) < count:
            view: FrameView = game.view()
            policy.act(view)
            game.settle(_answer(players[game.to_move], view))
        frame += 1
    return recorder.inputs[:count]


def _answer(agent: Any, view: FrameView) -> Any:
    return ask(agent.act, view)


def agreement(
    checkpoint: str | Path, exported: str | Path, count: int = 300, tolerance: float = 1e-4
) -> Agreement:
    """Play ``count`` observations (:func:`policy_inputs`) to the original policy and to the
    exported one, and count the actions they agree on."""
    model = load_model(checkpoint)
    onnx_model = OnnxModel(exported)
    same, largest = 0, 0.0
    inputs = policy_inputs(model, onnx_model.action, count)
    for obs, mask in inputs:
        kwargs = {} if mask is None else {"action_masks": mask}
        want, _ = model.predict(obs, deterministic=True, **kwargs)
        got, _ = onnx_model.predict(obs, action_masks=mask)
        want, got = np.asarray(want), np.asarray(got)
        if np.issubdtype(want.dtype, np.integer):
            same += bool(np.array_equal(want.astype(np.int64), got.astype(np.int64)))
        else:
            difference = float(np.max(np.abs(want - got)))
            largest = max(largest, difference)
            same += difference <= tolerance
    return Agreement(len(inputs), same, largest, tolerance)
