"""A prior fitted to the value of every candidate shot rather than to which shots a search kept
(issue 35's raw net): self-play in which each shot decision simulates every candidate of the
narrow set ``N`` times under noise (no halving), records the candidates' features
(:func:`~kinghill.agents.prior.arm_features`) and each one's mean leaf score, and plays the
best; then a prior net fitted to those means, centred on each decision's mean (what choosing
among one decision's shots needs), its logit ``SCALE`` times the predicted score:

    python3 docs/training/position/q_selfplay.py FRAMES N OUT.npz NET.npz [HIDDEN] [EPOCHS]

``q-values.npz`` of docs/training.md's ablations: ``6000 16 OUT.npz q-values.npz 32 20`` (67,315
decisions in 1,013 s on 2 cores; the decisions, 0.5 GB, are not committed; a second call with
``OUT.npz`` there fits again without playing).

The net plays alone as ``expert-policy:NET.npz`` (its best candidate) or guides the search as
``expert:NET.npz``; with ``halving=gumbel`` a logit of ``SCALE * v`` weighs as ``2 * SCALE``
samples of mean ``v``.
"""

import sys
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from kinghill.agents.prior import N_FEATURES, PriorNet, arm_features
from kinghill.agents.search import SearchAgent
from kinghill.envs import Action, FrameView, Game
from kinghill.envs.planning import warm_up
from kinghill.envs.planning.menu import fallback_action
from kinghill.envs.rules import Decision
from kinghill.experiments.training.frames import decisions
from kinghill.physics import NoiseModel

FIRST = 700_000
"""The first frame seed (apart from the other scripts' frames)."""
SHARD = 10
WIDTH = 48
SCALE = 25.0
HELD_OUT = 10
"""Every tenth frame's decisions are held out of the fit."""


class Exhaustive(SearchAgent):
    """Every candidate shot simulated ``n`` times, the best mean played; each shot decision's
    features and means recorded in :attr:`rows`."""

    def __init__(self, seed: int, n: int) -> None:
        super().__init__(seed)
        self.n = n
        self.rows: list[tuple[np.ndarray, np.ndarray]] = []

    def act(self, view: FrameView) -> Action:
        if view.decision is not Decision.SHOT:
            return super().act(view)
        arms = self._arms(view)  # every candidate of the narrow set, the pots' aim calibrated
        if not arms:
            return fallback_action(view)
        self._score(view, [(arm, self.n) for arm in arms])
        means = np.array([arm.mean for arm in arms], np.float32)
        self.rows.append((arm_features(view, self.last_candidates), means))
        return arms[int(np.argmax(means))].action


@dataclass
class Shots:
    """Shot decisions: candidates' features, which rows are real, their mean scores, the frame."""

    features: np.ndarray
    mask: np.ndarray
    means: np.ndarray
    frames: np.ndarray


def play(arguments: tuple[int, int]) -> Shots:
    """Frames ``first`` to ``first + SHARD - 1`` of :class:`Exhaustive` against itself."""
    first, n = arguments
    warm_up()
    rows, frames = [], []
    for seed in range(first, first + SHARD):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed, breaker=seed % 2)
        players = [Exhaustive(2 * seed + seat, n) for seat in (0, 1)]
        for _ in decisions(game, players):
            pass
        for player in players:
            rows += player.rows
            frames += [seed] * len(player.rows)
    k = len(rows)
    features = np.zeros((k, WIDTH, N_FEATURES), np.float32)
    mask = np.zeros((k, WIDTH), bool)
    means = np.zeros((k, WIDTH), np.float32)
    for i, (x, m) in enumerate(rows):
        a = min(len(m), WIDTH)
        features[i, :a], means[i, :a], mask[i, :a] = x[:a], m[:a], True
    return Shots(features, mask, means, np.array(frames, np.int64))


def fit_q(data: Shots, hidden: int, epochs: int, seed: int = 0) -> tuple[PriorNet, float, float]:
    """A prior net whose output, centred on each decision, fits the centred mean scores (masked
    squared error, Adam); returns it (logits scaled by :data:`SCALE`), the held-out error and
    how often its best shot is the held-out decision's best."""
    import torch

    torch.manual_seed(seed)
    test = data.frames % HELD_OUT == 0
    x = torch.as_tensor(data.features)
    mask = torch.as_tensor(data.mask)
    q = torch.as_tensor(data.means)
    w1 = (torch.randn(N_FEATURES, hidden) / N_FEATURES**0.5).requires_grad_()
    b1 = torch.zeros(hidden, requires_grad=True)
    w2 = (torch.randn(hidden, 1) / hidden**0.5).requires_grad_()
    b2 = torch.zeros(1, requires_grad=True)
    optimiser = torch.optim.Adam([w1, b1, w2, b2], lr=3e-3, weight_decay=1e-5)

    def centred(values: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        values = values.masked_fill(~m, 0.0)
        mean = values.sum(dim=1, keepdim=True) / m.sum(dim=1, keepdim=True)
        return (values - mean).masked_fill(~m, 0.0)

    def loss_of(rows: torch.Tensor) -> torch.Tensor:
        out = (torch.tanh(x[rows] @ w1 + b1) @ w2 + b2).squeeze(-1)
        error = centred(out, mask[rows]) - centred(q[rows], mask[rows])
        return (error**2).sum() / mask[rows].sum()

    train = torch.as_tensor(np.flatnonzero(~test))
    held = torch.as_tensor(np.flatnonzero(test))
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in train[torch.randperm(len(train), generator=generator)].split(256):
            loss = loss_of(batch)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    with torch.no_grad():
        error = float(loss_of(held))
        out = (torch.tanh(x[held] @ w1 + b1) @ w2 + b2).squeeze(-1).masked_fill(~mask[held], -9)
        best = q[held].masked_fill(~mask[held], -9)
        agree = float((out.argmax(dim=1) == best.argmax(dim=1)).float().mean())
    a, b, c, d = (w.detach().numpy().astype(np.float32) for w in (w1, b1, w2, b2))
    return PriorNet(a, b, c * SCALE, d * SCALE), error, agree


def load(path: str) -> Shots:
    with np.load(path) as f:
        return Shots(f["features"], f["mask"], f["means"], f["frames"])


if __name__ == "__main__":
    frames, n, out, net_out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    hidden = int(sys.argv[5]) if len(sys.argv) > 5 else 32
    epochs = int(sys.argv[6]) if len(sys.argv) > 6 else 20
    if Path(out).exists():
        data = load(out)
    else:
        starts = [(s, n) for s in range(FIRST, FIRST + frames, SHARD)]
        with get_context("spawn").Pool(2) as pool:
            parts = pool.map(play, starts)
        data = Shots(
            *(np.concatenate([getattr(p, f) for p in parts]) for f in Shots.__annotations__)
        )
        np.savez(out, **vars(data))
    net, error, agree = fit_q(data, hidden, epochs)
    print(
        f"{len(data.frames)} decisions; held-out squared error {error:.4f}; "
        f"best shot agrees {agree:.3f}"
    )
    net.save(net_out)
