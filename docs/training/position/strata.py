"""The halving's pots estimated by strata (docs/training.md, "A learnt make chance in the
halving"): in ``expert-refine``'s halving an arm has one to seven noisy samples, and whether
its pot dropped is most of their spread. So each pot's value is estimated by strata: its make
rate, shrunk towards a learnt chance of making it (``alpha`` samples' worth), times the mean
value of its samples that made it, plus the missed ones' (each mean shrunk towards the
decision's pooled mean of its stratum by one sample's worth). The chance is a net over the
prior's 36 features of the shot and the position (:class:`MakeNet`), fitted to the make rates
of every pot of the narrow set on self-play positions (40 noisy samples each, every tenth
frame held out; two tanh layers of 64):

    python3 docs/training/position/strata.py collect 2000 2480 40 runs/makes.npz
    python3 docs/training/position/strata.py fit runs/makes.npz \\
        docs/training/position/make-net.npz  # and its report, make-net.fit.json

The player is a plug-in (``PYTHONPATH=docs/training/position``,
``strata:refine_strata?net=docs/training/position/make-net.npz``, with ``variants.refine``'s
options, ``value=PATH`` among them).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from decision_quality import positions
from stroke_net import (
    HELD_OUT,
    TANH,
    collected,
    fitted,
    forward,
    layer_arrays,
    read_layers,
    save_layers,
    torch_net,
)
from variants import RefineSearchAgent, refine

import kinghill.agents.search as search
from kinghill.agents.prior import N_FEATURES, arm_features
from kinghill.envs import FrameView, ShotAction
from kinghill.envs.game.loop import Rulings, noisy_outcomes
from kinghill.envs.rules import Frame
from kinghill.experiments.training.position_training import train_bce
from kinghill.physics import NoiseModel, TableState

SEED_OFFSET = 7_000_000
"""Added to a position's seed for its pots' outcomes (apart from the quicker measure's and the
stroke net's)."""
BETA = 1.0
"""Samples' worth of the decision's pooled stratum mean in each arm's stratum mean."""


def made(before: Frame, after: Frame, me: int) -> bool:
    """Whether ``me``'s shot from ``before`` potted: a white credited, or the frame won."""
    won = after.result is not None and after.result.winner == me
    return won or after.credit_counts[me] > before.credit_counts[me]


def pots(view: FrameView) -> list[search.Candidate]:
    """The candidates of the narrow set at ``view`` that play a pot (kicks included)."""
    return [c for c in search.candidates(view) if c.kind != search.SAFETY and c.pot is not None]


def collect(frames: range, samples: int) -> dict[str, np.ndarray]:
    """Every pot of the narrow set on the shot decisions of ``frames`` (a stepped range of
    seeds of the quicker measure's self-play), its aim calibrated, with the prior's features
    and the share of ``samples`` noisy outcomes that potted, and its position's frame."""
    agent = search.SearchAgent(seed=0)
    parts: dict[str, list[np.ndarray]] = {"x": [], "y": [], "frame": []}
    for shot, seed in positions(frames):
        view, found = shot.view, pots(shot.view)
        if not found:
            continue
        rng = np.random.default_rng(seed + SEED_OFFSET)
        rulings, rates = Rulings(view.frame), []
        for action in agent.prepared_all(view.state, found):
            outcomes = noisy_outcomes(
                view.frame, view.state, [action] * samples, rng, NoiseModel(), rulings
            )
            rates.append(np.mean([made(view.frame, o.frame, view.player) for o in outcomes]))
        parts["x"].append(arm_features(view, found))
        parts["y"].append(np.array(rates, np.float32))
        parts["frame"].append(np.full(len(found), shot.frame))
    return {key: np.concatenate(value) for key, value in parts.items()}


@dataclass(frozen=True)
class MakeNet:
    """The chance that a pot drops, from the prior's features of the shot and the position: a
    tanh network (``weights[k]``: inputs x outputs) giving its logit."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def chances(self, x: np.ndarray) -> np.ndarray:
        """The chance of each row of ``x`` (rows of the prior's features)."""
        return 1.0 / (1.0 + np.exp(-forward(self.weights, self.biases, x, TANH)))

    def save(self, path: str | Path) -> None:
        """Write the layers to an ``.npz`` file."""
        save_layers(path, self.weights, self.biases)

    @classmethod
    def load(cls, path: str | Path) -> MakeNet:
        """The net :meth:`save` wrote at ``path``."""
        weights, biases, _ = read_layers(path)
        return cls(weights, biases)


def fit(
    data: dict[str, np.ndarray], hidden: tuple[int, ...] = (64, 64), epochs: int = 200
) -> tuple[MakeNet, dict[str, float]]:
    """A net fitted to ``data`` (:func:`collect`'s) by cross-entropy on the make rates
    (:func:`~kinghill.experiments.training.position_training.train_bce`), every tenth frame
    held out; with the held-out mean squared error of its chances and of the
    planner's own chance (the ``chance`` feature), and the rates' variance."""
    import torch  # the fit alone needs it; the player runs on numpy

    torch.manual_seed(0)
    x, y = data["x"].astype(np.float32), data["y"].astype(np.float32)
    if x.shape[1] != N_FEATURES:
        raise ValueError(f"fit: rows of {N_FEATURES} features, got {x.shape[1]}")
    held = data["frame"] % HELD_OUT == 0
    net = torch_net([N_FEATURES, *hidden, 1], TANH)
    train_bce(net, x[~held], y[~held], epochs, 1024, 3e-3, decay=0.0)
    found = MakeNet(*layer_arrays(net))
    truth = y[held]
    report = {
        "pots_fitted": int((~held).sum()),
        "pots_held_out": int(held.sum()),
        "held_out_mse": float(((found.chances(x[held]) - truth) ** 2).mean()),
        "planner_chance_mse": float(((x[held, 4] - truth) ** 2).mean()),
        "held_out_variance": float(truth.var()),
    }
    return found, report


class StrataAgent(RefineSearchAgent):
    """``variants.refine``'s search whose halving values each pot by strata (the module says
    how) with ``alpha`` samples' worth of :attr:`make_net`'s chance; safeties, and the
    refinement (variants of one pot, compared under the same noise), by their means."""

    make_net: MakeNet | None = None
    alpha = 16.0

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self._strata: dict[int, np.ndarray] | None = None
        """Each halving arm's samples (made, their total, missed, their total), by ``id``,
        while a shot is searched."""
        self._chance: dict[int, float] = {}
        self._halving: list[search.Arm] = []

    def _search(
        self, view: FrameView, budget: int, deadline: float | None
    ) -> tuple[ShotAction, float]:
        self._strata = {}
        try:
            return super()._search(view, budget, deadline)
        finally:
            self._strata = None

    def _arms(self, view: FrameView) -> list[search.Arm]:
        arms = self._halving = super()._arms(view)
        kept = [self.last_candidates[k] for k in self.last_kept]
        self._chance = {}
        if kept and self.make_net is not None:
            chances = self.make_net.chances(arm_features(view, kept))
            for arm, candidate, chance in zip(arms, kept, chances, strict=True):
                if candidate.kind != search.SAFETY and candidate.pot is not None:
                    self._chance[id(arm)] = float(chance)
        return arms

    def _refined(self, view: FrameView, arms: list[search.Arm], best: search.Arm) -> search.Arm:
        strata, self._strata = self._strata, None
        try:
            return super()._refined(view, arms, best)
        finally:
            self._strata = strata

    def _score(
        self, view: FrameView, work: list[tuple[search.Arm, int]], common: bool = False
    ) -> int:
        if self._strata is None:
            return super()._score(view, work, common)
        leaf, recording = self.leaf, Recording(self.leaf, view.frame)
        self.leaf = recording
        try:
            spent = super()._score(view, work, common)
        finally:
            self.leaf = leaf
        k = 0
        for arm, n in work:  # made, their total, missed, their total
            row = self._strata.setdefault(id(arm), np.zeros(4))
            for value, hit in zip(
                recording.values[k : k + n], recording.made[k : k + n], strict=True
            ):
                row[0 if hit else 2] += 1
                row[1 if hit else 3] += value
            k += n
        self._estimate()
        return spent

    def _estimate(self) -> None:
        """Each pot arm's mean replaced by its strata's estimate (:func:`stratified`)."""
        assert self._strata is not None
        pooled = np.sum(list(self._strata.values()), axis=0)
        if pooled[0] == 0 or pooled[2] == 0:
            return  # one stratum unseen in the whole decision: the means as they are
        for arm in self._halving:
            row, chance = self._strata.get(id(arm)), self._chance.get(id(arm))
            if row is not None and chance is not None:
                arm.total = stratified(row, pooled, chance, self.alpha) * arm.count


def stratified(row: np.ndarray, pooled: np.ndarray, chance: float, alpha: float) -> float:
    """A pot's value from its samples ``row`` (made, their total, missed, their total): the
    make rate shrunk towards ``chance`` by ``alpha`` samples' worth, each stratum's mean
    towards ``pooled``'s (the decision's rows summed) by :data:`BETA`."""
    rate = (row[0] + alpha * chance) / (row[0] + row[2] + alpha)
    hit = (row[1] + BETA * pooled[1] / pooled[0]) / (row[0] + BETA)
    miss = (row[3] + BETA * pooled[3] / pooled[2]) / (row[2] + BETA)
    return float(rate * hit + (1 - rate) * miss)


class Recording:
    """A leaf that scores as ``base`` and keeps, of its last batch, each leaf's value and
    whether the shot from ``before`` potted (:func:`made`)."""

    def __init__(self, base: search.LeafValue, before: Frame) -> None:
        self.base, self.before = base, before
        self.values: list[float] = []
        self.made: list[bool] = []

    def __call__(self, frame: Frame, state: TableState, me: int) -> float:
        return self.many([(frame, state)], me)[0]

    def many(self, positions: list[tuple[Frame, TableState]], me: int) -> list[float]:
        plays = [_Leaf(frame, state) for frame, state in positions]
        self.values = search.leaf_values(self.base, plays, me)
        self.made = [made(self.before, frame, me) for frame, _ in positions]
        return self.values


@dataclass(frozen=True)
class _Leaf:
    """A position as :func:`kinghill.agents.search.leaf_values` reads a play."""

    frame: Frame
    state: TableState


def refine_strata(
    seed: int | None = None, net: str = "", alpha: float = 16.0, **options: str
) -> RefineSearchAgent:
    """``variants.refine`` with ``options`` (``value=PATH`` among them), its halving by strata
    with the make chance of the net at ``net`` worth ``alpha`` samples."""
    if not net:
        raise ValueError("net: the make net's file (strata.py fit), e.g. make-net.npz")
    agent = refine(seed, agent_class=StrataAgent, **options)  # type: ignore[arg-type]
    assert isinstance(agent, StrataAgent)
    agent.make_net, agent.alpha = MakeNet.load(net), float(alpha)
    return agent


def main(argv: list[str]) -> None:
    command, *args = argv or ["help"]
    if command == "collect":
        collected(collect, args)
    elif command == "fit":
        fitted(fit, args, "python3 docs/training/position/strata.py " + " ".join(argv))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
