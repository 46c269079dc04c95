"""A leaf value for the search, learnt from frames of self-play (``kinghill train-value``).

Frames of an agent against itself (the heuristic by default; execution noise on) are played;
at every shot of either seat after the break (the position a shot leaves, as the search's
leaves are; a 10.4 choice is valued through its two options instead) the features of
:func:`kinghill.agents.value.value_features` are recorded with the frame's result
for the player to move (1 won, 0 lost, 0.5 drawn). A two-layer net is fitted to them by
cross-entropy (torch, Adam, full-batch epochs on a seeded split) and saved as ``.npz`` for
``search-value:PATH``. The held-out log loss and ranking (AUC) of the net and of the search's
hand-made :func:`~kinghill.agents.search.position_value` on the same positions are reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kinghill.agents.search import position_value
from kinghill.agents.value import N_FEATURES, ValueNet, value_features
from kinghill.experiments.training.config import check_count
from kinghill.experiments.training.frames import self_play_shots
from kinghill.experiments.training.tasks import held_out_frames, played_in_parts

HELD_OUT = 0.2
"""Share of the frames kept out of the fit to measure it (whole frames, so that positions of
one frame are not on both sides)."""


@dataclass(frozen=True)
class Positions:
    """Positions of self-play: features, the hand-made score for the mover, the mover's result
    (1 won, 0 lost, 0.5 drawn) and the seed of the frame each came from."""

    features: np.ndarray
    hand_made: np.ndarray
    results: np.ndarray
    frames: np.ndarray


def self_play(frames: int, seed: int = 0, agent: str = "heuristic") -> Positions:
    """Play ``frames`` frames of ``agent`` against itself (:func:`~kinghill.experiments.training.
    frames.self_play_shots`) and record every shot's position. Frames played in pieces
    (:func:`~kinghill.experiments.training.tasks.played_in_parts`) give the same positions."""
    features, hand_made, results, frame_ids = [], [], [], []
    for shot in self_play_shots(frames, seed, agent):
        view = shot.view
        features.append(value_features(view.frame, view.state))
        hand_made.append(position_value(view.frame, view.state, view.player))
        results.append(shot.result)
        frame_ids.append(shot.frame)
    return Positions(
        np.array(features, np.float32).reshape(-1, N_FEATURES),
        np.array(hand_made, np.float32),
        np.array(results, np.float32),
        np.array(frame_ids, np.int64),
    )


def held_out(positions: Positions, seed: int = 0) -> np.ndarray:
    """Which positions are held out: those of a seeded ``HELD_OUT`` share of the frames."""
    return held_out_frames(positions.frames, HELD_OUT, seed)


def fit(
    features: np.ndarray,
    results: np.ndarray,
    hidden: int = 16,
    epochs: int = 400,
    rate: float = 0.01,
    seed: int = 0,
    init: ValueNet | None = None,
) -> ValueNet:
    """A net with ``hidden`` tanh units fitted to ``results`` by cross-entropy (full-batch Adam,
    ``epochs`` steps, light weight decay), from weights seeded with ``seed``, or from ``init``'s
    weights (and its hidden size) to fine-tune a net learnt from other frames."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    x = torch.as_tensor(features)
    y = torch.as_tensor(results)
    if init is None:
        start = [
            torch.randn(N_FEATURES, hidden, generator=generator) / N_FEATURES**0.5,
            torch.zeros(hidden),
            torch.randn(hidden, 1, generator=generator) / hidden**0.5,
            torch.zeros(1),
        ]
    else:
        start = [torch.tensor(w) for w in (init.w1, init.b1, init.w2, init.b2)]
    params = [w.clone().requires_grad_() for w in start]
    w1, b1, w2, b2 = params
    optimiser = torch.optim.Adam(params, lr=rate, weight_decay=1e-4)
    for _ in range(epochs):
        logits = (torch.tanh(x @ w1 + b1) @ w2 + b2).flatten()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    w1n, b1n, w2n, b2n = (p.detach().numpy().astype(np.float32) for p in params)
    return ValueNet(w1n, b1n, w2n, b2n)


def log_loss(chances: np.ndarray, results: np.ndarray) -> float:
    """Mean cross-entropy of predicted chances against results (lower is better)."""
    p = np.clip(chances, 1e-6, 1 - 1e-6)
    return float(-np.mean(results * np.log(p) + (1 - results) * np.log(1 - p)))


def auc(scores: np.ndarray, results: np.ndarray) -> float:
    """How often a position that was won scores above one that was lost (ties half; draws
    left out): the area under the ROC curve."""
    won, lost = scores[results == 1.0], scores[results == 0.0]
    if not len(won) or not len(lost):
        return float("nan")
    order = np.sort(lost)
    below = np.searchsorted(order, won, side="left")
    ties = np.searchsorted(order, won, side="right") - below
    return float((below + 0.5 * ties).sum() / (len(won) * len(lost)))


@dataclass(frozen=True)
class Report:
    """How the fitted net and the hand-made score rank and predict the held-out positions."""

    positions: int
    held_out: int
    net_auc: float
    hand_made_auc: float
    net_log_loss: float
    seconds: float


def train_value(
    frames: int,
    out: Path,
    seed: int = 0,
    agent: str = "heuristic",
    hidden: int = 16,
    jobs: int = 1,
    init: ValueNet | None = None,
) -> Report:
    """Self-play ``frames`` frames, fit a net on the frames not held out (from ``init`` when
    given), save it to ``out`` and report it on the held-out ones.

    :raises ConfigError: ``frames`` below 2 (one is held out), ``hidden`` or ``jobs`` below 1.
    """
    check_count(frames, 2, "frames")
    check_count(hidden, 1, "hidden")
    check_count(jobs, 1, "jobs")
    start = time.perf_counter()
    positions = played_in_parts(self_play, frames, seed, agent, jobs)
    test = held_out(positions, seed)
    train = ~test
    net = fit(positions.features[train], positions.results[train], hidden, seed=seed, init=init)
    net.save(out)
    chances = np.array([net.win_chance(row) for row in positions.features[test]])
    return Report(
        positions=len(positions.results),
        held_out=int(test.sum()),
        net_auc=auc(chances, positions.results[test]),
        hand_made_auc=auc(positions.hand_made[test], positions.results[test]),
        net_log_loss=log_loss(chances, positions.results[test]),
        seconds=time.perf_counter() - start,
    )
