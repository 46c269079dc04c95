"""A warm start for ``MaskablePPO`` on the masked env: before reinforcement learning, the policy
imitates the heuristic agent (behaviour cloning) and the value net learns the frames' outcomes,
so that learning starts from the heuristic's play instead of from random slots.

``kinghill train sb3 --algo maskable-ppo --warm-start FRAMES``: FRAMES frames of heuristic against
heuristic (execution noise on) are played; at every decision of either seat the masked
observation, the action mask and the slot the heuristic chose (speed level x1.0, spin "as
planned") are recorded, with the frame's result from the decider's seat discounted by the
decisions it had left (+1 won, -1 lost, 0 truncated). :func:`pretrain` then fits the policy
(cross-entropy of the masked distribution) and the value net (squared error) to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kinghill.agents import make_agent
from kinghill.envs import ChoiceAction, Game, ShotAction
from kinghill.envs.game.actions import Action
from kinghill.envs.rl.masked import HAND_BACK, PLAY_ON, Menu, menu_observation, shot_menu
from kinghill.experiments.training.frames import decisions
from kinghill.physics import NoiseModel

AS_PLANNED = (1, 0)
"""The speed and spin levels of a heuristic shot: x1.0, as planned."""


@dataclass(frozen=True)
class Demonstrations:
    """Decisions of the heuristic as the masked env sees them: observations, action masks,
    actions (slot, speed level, spin level) and discounted frame results."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def slot_of(menu: Menu, action: Action) -> int:
    """The slot of ``menu`` that holds ``action`` (the heuristic's shots are the menu's)."""
    if isinstance(action, ChoiceAction):
        return PLAY_ON if action.play_on else HAND_BACK
    assert isinstance(action, ShotAction)
    for slot, offered in enumerate(menu.shots):
        if offered is not None and offered.shot == action.shot and offered.call == action.call:
            return slot
    raise ValueError(f"the heuristic's shot {action.shot} is not on the menu")


def demonstrations(frames: int, seed: int = 0, gamma: float = 0.99) -> Demonstrations:
    """Play ``frames`` heuristic frames (seeds ``seed``, ``seed + 1``, ...) and record them."""
    obs, masks, actions, returns = [], [], [], []
    for k in range(frames):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed + k, breaker=k % 2)
        players = [
            make_agent("heuristic", seed=2 * (seed + k)),
            make_agent("heuristic", seed=2 * (seed + k) + 1),
        ]
        seats: list[int] = []
        for view, decided in decisions(game, players):
            menu = shot_menu(view)
            assert decided.turn.action is not None  # no fault: the heuristic's action was played
            obs.append(menu_observation(view, menu))
            masks.append(menu.action_masks())
            actions.append((slot_of(menu, decided.turn.action), *AS_PLANNED))
            seats.append(view.player)
        winner = game.frame.winner
        for i, seat in enumerate(seats):
            left = sum(1 for s in seats[i + 1 :] if s == seat)
            result = 0.0 if winner is None else (1.0 if winner == seat else -1.0)
            returns.append(result * gamma**left)
    return Demonstrations(
        np.array(obs, np.float32),
        np.array(masks, bool),
        np.array(actions, np.int64),
        np.array(returns, np.float32),
    )


def pretrain(
    model: Any, data: Demonstrations, epochs: int = 5, batch_size: int = 256, seed: int = 0
) -> dict[str, float]:
    """Fit ``model``'s (a ``MaskablePPO``) policy to imitate ``data`` and its value net to the
    returns, with the model's own optimiser; returns the last epoch's mean losses and the
    share of demonstrated slots the policy now picks."""
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    obs = torch.as_tensor(data.observations)
    masks = torch.as_tensor(data.masks)
    actions = torch.as_tensor(data.actions)
    returns = torch.as_tensor(data.returns)
    rng = np.random.default_rng(seed)
    last: dict[str, float] = {}
    for _ in range(epochs):
        order = rng.permutation(len(data))
        sums = {"imitation_loss": 0.0, "value_loss": 0.0}
        for start in range(0, len(order), batch_size):
            idx = torch.as_tensor(order[start : start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], masks[idx])
            imitation = -log_prob.mean()
            value = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = imitation + 0.5 * value
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            sums["imitation_loss"] += imitation.item() * len(idx)
            sums["value_loss"] += value.item() * len(idx)
        last = {k: v / len(data) for k, v in sums.items()}
    policy.set_training_mode(False)
    with torch.no_grad():
        chosen, _, _ = policy.forward(obs, deterministic=True, action_masks=masks.numpy())
    last["agreement"] = float((chosen[:, 0] == actions[:, 0]).float().mean())
    return last
