"""Expert iteration for the search's prior (``kinghill train-expert``): an expert search plays
frames against itself, a network learns which of the candidate shots the expert spent its
simulations on, and the next iteration's expert is the search guided by that network.

First the break is learnt (:mod:`.break_learning`: the cross-entropy method over the break's
parameters under noise, ``break.npz``); every net of the run carries it, so the guided search
breaks with it. Iteration 1's expert is the plain search over every candidate (``expert_budget``
noisy simulations a decision, successive halving: the shots that survive the halving get the
most); iteration k's is :class:`~kinghill.agents.prior.PriorSearchAgent` with the net of
iteration k - 1 over its ``expert_arms`` best candidates. At every shot decision of its
self-play the candidates' features (:func:`~kinghill.agents.prior.arm_features`) and the
simulations each got are kept (the policy target: the expert's visit shares, as AlphaZero's),
with the position's value features and the frame's result for the player to move (the value
target). The prior is fitted to all iterations' decisions so far (cross-entropy, torch, Adam)
and the value net (:func:`~kinghill.experiments.training.value_training.fit`) beside it; each
iteration's net is then played against ``search`` (``eval_frames`` frames, seats swapped) and
the best one kept.

Everything lands in ``out``: ``break.npz``, ``iteration-K/shard-S.npz`` (self-play,
:data:`SHARD_FRAMES` frames from seed S each), ``iteration-K/net.npz``, ``iteration-K/eval/``
(its tournament), ``evaluations.csv``, ``curve.png``, ``best.npz`` and ``run.json``. A run
stopped and started again with the same command continues: finished shards, nets and evaluations
are kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from kinghill.agents.learned_break import LearnedBreak
from kinghill.agents.prior import (
    DEFAULT_ARMS,
    DEFAULT_BUDGET,
    N_FEATURES,
    PriorNet,
    PriorSearchAgent,
    arm_features,
)
from kinghill.agents.search import SearchAgent, candidate_set
from kinghill.agents.value import N_FEATURES as N_VALUE_FEATURES
from kinghill.agents.value import value_features
from kinghill.envs import Game
from kinghill.envs.planning import warm_up
from kinghill.envs.rules import Decision
from kinghill.experiments.tournaments import evaluate
from kinghill.experiments.tournaments.ray_runner import on_ray
from kinghill.experiments.training.break_learning import BreakSearch, learn_break
from kinghill.experiments.training.config import at_least, check_eval_frames
from kinghill.experiments.training.frames import decisions
from kinghill.experiments.training.result import (
    TrainResult,
    begin_run,
    write_run,
)
from kinghill.experiments.training.tasks import (
    concatenated,
    iterate,
    iterated_result,
    on_cluster,
    run_tasks,
)
from kinghill.experiments.training.value_training import fit
from kinghill.physics import NoiseModel

MAX_ARMS = 48
"""Candidates a decision holds at least room for in the data (the narrow set makes at most 41;
a wider set's decisions are padded to its :attr:`~kinghill.agents.search.CandidateSet.most`)."""
BREAK_FILE = "break.npz"


@dataclass(frozen=True)
class ExpertConfig:
    """A run of expert iteration (see the module docstring)."""

    out: Path
    iterations: int = 3
    frames: int = 200
    """Self-play frames an iteration."""
    expert_budget: int = 600
    """Noisy simulations a decision of the expert."""
    expert_arms: int = 16
    """Candidates the guided expert searches (iterations 2 on)."""
    budget: int = DEFAULT_BUDGET
    """Noisy simulations a decision of the agent evaluated (``expert:PATH?budget=``)."""
    arms: int = DEFAULT_ARMS
    value: bool = False
    """Whether the agent evaluated scores its leaves with the learnt value."""
    eval_frames: int = 40
    hidden: int = 32
    epochs: int = 40
    jobs: int = 1
    seed: int = 0
    ray: str | None = None
    """A Ray cluster address ('auto', 'local' to start one here): self-play shards and the
    evaluations' frames run there instead of in local workers."""
    break_population: int = BreakSearch.population
    """Random breaks the break's search starts from (0: no learnt break, the hand-made one)."""
    break_generations: int = BreakSearch.generations
    candidates: str = "narrow"
    """The candidate set of the expert and of the agent it trains (``narrow`` or ``wide``,
    :data:`~kinghill.agents.search.CANDIDATE_SETS`)."""

    def __post_init__(self) -> None:
        at_least(self, 1, "iterations", "frames", "expert_budget", "expert_arms", "budget")
        at_least(self, 1, "hidden", "epochs", "jobs")
        at_least(self, 0, "arms", "seed", "break_population", "break_generations")
        check_eval_frames(self.eval_frames)


@dataclass(frozen=True)
class Decisions:
    """Shot decisions of an expert's self-play: per decision the candidates' features (padded
    to :data:`MAX_ARMS`, ``mask`` saying which rows are real), the simulations the expert gave
    each, the position's value features, and the result for the player to move (1 won, 0 lost,
    0.5 drawn)."""

    features: np.ndarray
    mask: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    results: np.ndarray

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{k: getattr(self, k) for k in _FIELDS})

    @classmethod
    def load(cls, path: Path) -> Decisions:
        with np.load(path) as data:
            return cls(*(data[k] for k in _FIELDS))


_FIELDS = ("features", "mask", "visits", "values", "results")


def _expert(net: Path | None, seed: int, budget: int, arms: int, shots: str) -> SearchAgent:
    """The self-play expert over the candidate set ``shots``: it breaks with the run's own learnt
    break (the one its nets carry), the hand-made break where the run has none yet (iteration 1)
    or learns none."""
    if net is None:
        return SearchAgent(seed, budget, learned_break=False, candidates=shots)
    prior = PriorNet.load(net)
    learnt = prior.break_shot is not None
    return PriorSearchAgent(prior, seed, budget, arms, learned_break=learnt, candidates=shots)


def expert_self_play(
    net: Path | None, first: int, frames: int, budget: int, arms: int, shots: str = "narrow"
) -> Decisions:
    """Frames ``first``, ``first + 1``, ... of the expert (the plain search when ``net`` is
    None, else the search guided by it over ``arms`` candidates) against itself, noise on,
    seat ``s % 2`` breaking frame ``s``, both searching the candidate set ``shots``; every shot
    decision recorded."""
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    results: list[float] = []
    for seed in range(first, first + frames):
        game = Game(noise=NoiseModel())
        game.reset(seed=seed, breaker=seed % 2)
        players = [_expert(net, 2 * seed + seat, budget, arms, shots) for seat in (0, 1)]
        movers = []
        for view, _ in decisions(game, players):
            expert = players[view.player]
            if view.decision is not Decision.SHOT or not expert.last_arms:
                continue
            found = expert.last_candidates
            visits = np.zeros(len(found), np.float32)
            visits[expert.last_kept] = [arm.count for arm in expert.last_arms]
            rows.append((arm_features(view, found), visits, value_features(view.frame, view.state)))
            movers.append(view.player)
        winner = game.frame.winner
        results += [0.5 if winner is None else float(winner == m) for m in movers]
    n, width = len(rows), max(MAX_ARMS, candidate_set(shots).most)
    features = np.zeros((n, width, N_FEATURES), np.float32)
    mask = np.zeros((n, width), bool)
    visits = np.zeros((n, width), np.float32)
    for k, (x, v, _) in enumerate(rows):
        a = min(len(v), width)
        features[k, :a], visits[k, :a], mask[k, :a] = x[:a], v[:a], True
    values = np.array([r[2] for r in rows], np.float32).reshape(n, N_VALUE_FEATURES)
    return Decisions(features, mask, visits, values, np.array(results, np.float32))


def fit_prior(data: Decisions, hidden: int, epochs: int, seed: int) -> PriorNet:
    """A net with ``hidden`` tanh units whose softmax over each decision's candidates fits the
    expert's visit shares (cross-entropy; minibatch Adam, ``epochs`` passes, seeded)."""
    import torch

    torch.manual_seed(seed)
    keep = data.visits.sum(axis=1) > 0
    x = torch.as_tensor(data.features[keep])
    mask = torch.as_tensor(data.mask[keep])
    target = torch.as_tensor(data.visits[keep])
    target = target / target.sum(dim=1, keepdim=True)
    w1 = (torch.randn(N_FEATURES, hidden) / N_FEATURES**0.5).requires_grad_()
    b1 = torch.zeros(hidden, requires_grad=True)
    w2 = (torch.randn(hidden, 1) / hidden**0.5).requires_grad_()
    b2 = torch.zeros(1, requires_grad=True)
    optimiser = torch.optim.Adam([w1, b1, w2, b2], lr=3e-3, weight_decay=1e-5)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in torch.randperm(len(x), generator=generator).split(256):
            logits = (torch.tanh(x[batch] @ w1 + b1) @ w2 + b2).squeeze(-1)
            logits = logits.masked_fill(~mask[batch], -1e9)
            loss = -(target[batch] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    value = fit(data.values, data.results, hidden=16, seed=seed)
    a, b, c, d = (w.detach().numpy().astype(np.float32) for w in (w1, b1, w2, b2))
    return PriorNet(a, b, c, d, value=value)


SHARD_FRAMES = 10
"""Self-play frames a shard holds (a worker's task; what a resumed run may lose)."""


def _shard(arguments: tuple[Path | None, int, int, int, int, str, Path]) -> Path:
    """Play one shard into its file (a worker's or a Ray task; the kernels loaded first)."""
    net, first, frames, budget, arms, shots, path = arguments
    warm_up()
    expert_self_play(net, first, frames, budget, arms, shots).save(path)
    return path


def _shards(config: ExpertConfig, folder: Path, net: Path | None, first: int) -> list[Decisions]:
    """The iteration's self-play: shards of :data:`SHARD_FRAMES` consecutive frame seeds from
    ``first``, played in ``config.jobs`` workers unless their files are there already."""
    starts = range(first, first + config.frames, SHARD_FRAMES)
    paths = [folder / f"shard-{start}.npz" for start in starts]
    todo = [
        (net, start, min(SHARD_FRAMES, first + config.frames - start), config.expert_budget,
         config.expert_arms, config.candidates, path)
        for start, path in zip(starts, paths, strict=True)
        if not path.exists()
    ]  # fmt: skip
    if todo:
        bar = tqdm(  # on a terminal only, as a tournament's
            total=len(todo), desc=f"{folder.name} self-play", unit="shard", disable=None
        )
        for _ in run_tasks(_shard, todo, config.jobs, config.ray):
            bar.update()
        bar.close()
    return [Decisions.load(path) for path in paths]


def _score(config: ExpertConfig, net: Path, folder: Path) -> float:
    """The guided search with ``net`` against ``search``: its score over the evaluation's
    frames (a tournament in ``folder``, resumed if it is there)."""
    spec = (
        f"expert:{net}?budget={config.budget},arms={config.arms},value={str(config.value).lower()}"
    )
    if config.candidates != "narrow":  # the narrow set's spec as earlier runs stored it
        spec += f",candidates={config.candidates}"
    report = evaluate(
        {"expert": spec, "search": "search"},
        config.eval_frames,
        jobs=config.jobs,
        seed=config.seed + 1_000_003,
        out=folder,
        rating_samples=100,
        runner=None if config.ray is None else on_ray(config.ray),
    )
    return report.win_rates["expert"]["search"].win_rate.estimate


def train_expert(config: ExpertConfig) -> TrainResult:
    """Run expert iteration as ``config`` says (resuming what ``config.out`` holds) and return
    where the best net is, with the evaluation curve. With ``config.ray``, one Ray instance
    serves the whole run (started here for 'local' or an address not yet connected)."""
    return on_cluster(config.ray, lambda: _train_expert(config))


def _train_expert(config: ExpertConfig) -> TrainResult:
    out = Path(config.out)
    sessions = begin_run(out, config)
    start = time.perf_counter()
    warm_up()
    learnt = _learnt_break(config, out)
    data: list[Decisions] = []

    def play(iteration: int, folder: Path, net: Path | None) -> int:
        data.extend(_shards(config, folder, net, config.seed + (iteration - 1) * config.frames))
        return sum(len(d.results) for d in data)

    def fit(iteration: int, folder: Path, net: Path) -> None:
        fitted = fit_prior(
            concatenated(data), config.hidden, config.epochs, config.seed + iteration
        )
        replace(fitted, break_shot=learnt).save(net)

    def evaluated(net: Path, folder: Path) -> list[float]:
        return [_score(config, net, folder)]

    header = ["iteration", "decisions", "score_vs_search", "seconds"]
    title = "Expert iteration: the guided search against search"
    rows = iterate(out, config.iterations, play, fit, evaluated, header, title)
    result = iterated_result(
        out,
        rows,
        config.frames * config.iterations,
        time.perf_counter() - start,
        decisions=sum(len(d.results) for d in data),
        break_score=None if learnt is None else learnt.score,
    )
    write_run(out, config, result, sessions)
    return result


def _learnt_break(config: ExpertConfig, out: Path) -> LearnedBreak | None:
    """The run's learnt break: read from ``out`` when it is there, else learnt and saved;
    None when the run learns none (``break_population`` 0)."""
    path = out / BREAK_FILE
    if config.break_population == 0:
        return None
    if path.exists():
        return LearnedBreak.read(path)
    search = BreakSearch(config.break_population, config.break_generations, config.seed)
    learnt = learn_break(search)
    arrays: dict[str, Any] = learnt.arrays()
    np.savez(path, **arrays)
    return learnt
