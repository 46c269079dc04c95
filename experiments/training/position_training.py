"""Fitting the position net (:mod:`kinghill.agents.position_value`) to the results of
self-play (:mod:`.position_data`): features of every position, a held-out share of the frames,
minibatch Adam on the cross-entropy of the mover's result, and a report of how the net and the
hand-made score rank and predict the held-out positions."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kinghill.agents.position_value import PositionNet, chances, position_features
from kinghill.agents.search import FOUL_VALUE, POSITION_VALUE, WHITE_VALUE
from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.tasks import held_out_frames
from kinghill.experiments.training.value_training import HELD_OUT, auc, log_loss
from kinghill.physics import TableSpec

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class FitReport:
    """How the fitted net and the hand-made score rank (AUC) and predict (log loss) the
    held-out positions, and how many positions there were."""

    positions: int
    held_out: int
    net_auc: float
    hand_made_auc: float
    net_log_loss: float
    base_log_loss: float
    seconds: float


def hand_made(data: SelfPlay, spec: TableSpec) -> np.ndarray:
    """The search's hand-made score of each position for its mover (the whites credited
    counted by the whites still needed, the fouls, the mover's best pot chance)."""
    needed = data.needed.astype(np.float64)
    fouls = data.fouls.astype(np.float64)
    mover_chance = chances(data.positions, spec)[:, 0]
    value = WHITE_VALUE * (needed[:, 1] - needed[:, 0]) - FOUL_VALUE * (fouls[:, 0] - fouls[:, 1])
    return np.clip(value + POSITION_VALUE * mover_chance, -0.95, 0.95)


def fit(
    features: np.ndarray,
    results: np.ndarray,
    hidden: tuple[int, int] = (64, 32),
    epochs: int = 30,
    batch: int = 2048,
    rate: float = 2e-3,
    seed: int = 0,
    initial: PositionNet | None = None,
) -> PositionNet:
    """A :class:`PositionNet` fitted to ``results`` (the mover's, 1 won, 0 lost) by
    cross-entropy: minibatch Adam, ``epochs`` passes in a seeded order, light weight decay;
    from ``initial``'s weights (its layers' sizes, not ``hidden``) where given, else from a
    seeded draw."""
    import torch

    torch.manual_seed(seed)
    if initial is not None:
        hidden = (initial.w1.shape[1], initial.w2.shape[1])
    model = two_layers(features.shape[1], hidden)
    if initial is not None:
        with torch.no_grad():
            for param, array in zip(model.parameters(), _torch_order(initial), strict=True):
                param.copy_(torch.as_tensor(array))
    train_bce(model, features, results, epochs, batch, rate, seed)
    weights = [p.detach().numpy().astype(np.float32) for p in model.parameters()]
    w1, b1, w2, b2, w3, b3 = weights
    return PositionNet(w1.T.copy(), b1, w2.T.copy(), b2, w3.T.copy(), b3)


def two_layers(inputs: int, hidden: tuple[int, int]) -> torch.nn.Sequential:
    """The position net's shape in torch: two ReLU layers of ``hidden`` units and one logit,
    on rows of ``inputs`` features (drawn from torch's generator as seeded by the caller)."""
    import torch

    return torch.nn.Sequential(
        torch.nn.Linear(inputs, hidden[0]),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden[0], hidden[1]),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden[1], 1),
    )


def _torch_order(net: PositionNet) -> list[np.ndarray]:
    """``net``'s arrays in the order and shapes of :func:`fit`'s torch parameters."""
    return [net.w1.T, net.b1, net.w2.T, net.b2, net.w3.T, net.b3]


def train_bce(
    model: torch.nn.Module,
    features: np.ndarray,
    targets: np.ndarray,
    epochs: int,
    batch: int,
    rate: float,
    seed: int = 0,
    decay: float = 1e-4,
) -> None:
    """Train ``model`` (rows of ``features`` to one logit each) on the cross-entropy of
    ``targets`` in [0, 1]: minibatch AdamW (weight decay ``decay``) with a cosine schedule,
    ``epochs`` passes in an order seeded by ``seed``."""
    import torch

    x = torch.as_tensor(features, dtype=torch.float32)
    y = torch.as_tensor(targets, dtype=torch.float32)
    optimiser = torch.optim.AdamW(model.parameters(), lr=rate, weight_decay=decay)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), batch):
            rows = order[start : start + batch]
            logits = model(x[rows])[:, 0]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y[rows])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()


def fit_and_report(
    data: SelfPlay,
    spec: TableSpec,
    seed: int = 0,
    hidden: tuple[int, int] = (64, 32),
    epochs: int = 30,
    rate: float = 2e-3,
    initial: PositionNet | None = None,
) -> tuple[PositionNet, FitReport]:
    """Fit a net (:func:`fit`, from ``initial`` where given) on the frames of ``data`` not held
    out and report it on the held-out ones."""
    start = time.perf_counter()
    features = position_features(data.positions, spec)
    test = held_out_frames(data.frames, HELD_OUT, seed)
    net = fit(
        features[~test], data.results[~test], hidden, epochs, rate=rate, seed=seed, initial=initial
    )
    predicted = net.win_chances(features[test])
    base = np.full(int(test.sum()), data.results[~test].mean())
    report = FitReport(
        positions=len(data),
        held_out=int(test.sum()),
        net_auc=auc(predicted, data.results[test]),
        hand_made_auc=auc(hand_made(data, spec)[test], data.results[test]),
        net_log_loss=log_loss(predicted, data.results[test]),
        base_log_loss=log_loss(base, data.results[test]),
        seconds=time.perf_counter() - start,
    )
    return net, report
