"""A stroke net: what the raw net lacks, learnt (docs/training.md, "Where the raw net loses").
Every pot stroke of the narrow set on self-play positions is valued by ``N`` noisy outcomes
(the same deviations for every stroke of a position), and a net is fitted to them that sees
the prior's features of the stroke and the places of the balls, turned into the quarter of the
table where the cue ball lies (the pockets are symmetric about both centre lines), each pot's
strokes centred on their mean: which stroke of a pot is better, not which pot. Then:

- ``evaluate``: the raw net's shot played with the stroke the stroke net rates best, paired
  with ``search``'s choice on the quicker measure's positions (``raw_net_loss.py``'s values);
- ``stroke_policy``: that player, a plug-in agent (``PYTHONPATH=docs/training/position``,
  ``stroke_net:stroke_policy``) for a tournament against ``search``;
- ``stroke_prior``: ``expert-refine`` with the stroke net's centred values added to its pots'
  logits (``WEIGHT`` times: the Gumbel halving weighs a mean about so), a plug-in agent for
  ``decision_quality.py`` (``PYTHONPATH=docs/training/position``,
  ``stroke_net:stroke_prior?net=PATH``).

    python3 docs/training/position/stroke_net.py collect 5000 7000 24 runs/strokes.npz
    python3 docs/training/position/stroke_net.py fit runs/strokes.npz \\
        docs/training/position/stroke-net.npz  # and its report, stroke-net.fit.json
    python3 docs/training/position/stroke_net.py evaluate docs/training/position/stroke-net.npz \\
        100 docs/training/position/stroke-net.json
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from decision_quality import FIRST, positions, shot_values
from raw_net_loss import paired, searched_positions

from kinghill.agents.builtins import data_path
from kinghill.agents.prior import (
    N_FEATURES,
    PriorNet,
    PriorPolicyAgent,
    PriorSearchAgent,
    arm_features,
)
from kinghill.agents.search import NARROW, POT, Candidate, SearchAgent, candidates
from kinghill.envs import FrameView
from kinghill.physics import COLOURED, MAX_SPEED, N_BALLS, TableSpec

if TYPE_CHECKING:
    import torch

STROKES = len(NARROW.speeds) * len(NARROW.spins)
"""The strokes of one pot in the narrow set."""
SEED_OFFSET = 5_000_000
"""Added to a position's seed for its strokes' outcomes (apart from the quicker measure's)."""
OTHERS = N_BALLS - 2
"""The balls besides the cue ball and the object ball, nearest the object ball first."""
WEIGHT = 25.0
"""The stroke net's value against the prior's logits in ``stroke_prior``."""
HELD_OUT = 10
"""Every tenth frame's pots are held out of the fit."""
SPEC = TableSpec()


def shot_rows(pots: Sequence[Candidate]) -> np.ndarray:
    """Each pot stroke's shot as a row: cue ball, object ball, aim, speed, side, tip height and
    the pot's heading."""
    return np.array(
        [
            [c.action.shot.cue_ball, c.pot.object_ball, c.action.shot.phi, c.action.shot.speed]
            + [c.action.shot.a, c.action.shot.b, c.pot.heading]
            for c in pots
            if c.pot is not None
        ],
        dtype=np.float64,
    ).reshape(-1, 7)


def features(arms: np.ndarray, places: np.ndarray, shots: np.ndarray) -> np.ndarray:
    """The stroke net's input, a row a stroke: the prior's features (``arms``), then the cue
    ball, the object ball, the aim, the pot's heading, speed, tip height and side, then the
    other balls (place, on the table, coloured), all turned so that the cue ball lies in the
    table's first quarter. ``places``: the balls' places a stroke (off the table: NaN)."""
    rows = np.arange(len(arms))
    cue, obj = shots[:, 0].astype(int), shots[:, 1].astype(int)
    flip_x = places[rows, cue, 0] > SPEC.length / 2
    flip_y = places[rows, cue, 1] > SPEC.width / 2
    turned = places.copy()
    turned[:, :, 0] = np.where(flip_x[:, None], SPEC.length - places[:, :, 0], places[:, :, 0])
    turned[:, :, 1] = np.where(flip_y[:, None], SPEC.width - places[:, :, 1], places[:, :, 1])
    scale = np.array([SPEC.length, SPEC.width])
    angles = []
    for angle in (shots[:, 2], shots[:, 6]):
        angle = np.where(flip_x, math.pi - angle, angle)
        angles.append(np.where(flip_y, -angle, angle))
    side = np.where(flip_x ^ flip_y, -shots[:, 4], shots[:, 4])
    stroke = [np.cos(angles[0]), np.sin(angles[0]), np.cos(angles[1]), np.sin(angles[1])]
    stroke += [shots[:, 3] / MAX_SPEED, shots[:, 5], side]
    on = ~np.isnan(places[:, :, 0])
    distance = np.linalg.norm(turned - turned[rows, obj][:, None, :], axis=2)
    distance[~on] = np.inf
    distance[rows, cue] = distance[rows, obj] = np.nan  # last, after the balls off the table
    others = []
    for ball in np.argsort(distance, axis=1)[:, :OTHERS].T:
        live = on[rows, ball]
        place = np.where(live[:, None], turned[rows, ball] / scale, 0.0)
        others += [place[:, 0], place[:, 1], live, live & (ball == COLOURED)]
    columns = [turned[rows, cue] / scale, turned[rows, obj] / scale, np.stack(stroke, 1)]
    columns.append(np.stack(others, 1))
    return np.concatenate([arms, *columns], axis=1).astype(np.float32)


def pot_strokes(view: FrameView, agent: SearchAgent) -> list[Candidate]:
    """The pot strokes of the narrow set at ``view``, a pot's strokes together."""
    return [c for c in candidates(view, agent.shots) if c.kind == POT]


def collect(frames: range, samples: int) -> dict[str, np.ndarray]:
    """Every pot stroke of the shot decisions of ``frames`` (a stepped range of seeds of
    :data:`POSITIONS_OF`'s self-play, the quicker measure's player; the docs' seeds 5000-6999
    are apart from its) with its features and its mean value over ``samples`` outcomes, and
    its position's frame (for holding frames out)."""
    agent = SearchAgent(seed=0)
    parts: dict[str, list[np.ndarray]] = {"x": [], "y": [], "frame": []}
    for shot, seed in positions(frames):
        view, pots = shot.view, pot_strokes(shot.view, agent)
        if not pots:
            continue
        actions = agent.prepared_all(view.state, pots)
        values = shot_values(view, actions, samples, seed + SEED_OFFSET)
        places = np.repeat(view.state.positions[None], len(pots), axis=0)
        parts["x"].append(features(arm_features(view, pots), places, shot_rows(pots)))
        parts["y"].append(np.array(values, np.float32))
        parts["frame"].append(np.full(len(pots), shot.frame))
    return {key: np.concatenate(value) for key, value in parts.items()}


@dataclass(frozen=True)
class StrokeNet:
    """A ReLU network over :func:`features` (standardised by ``mean`` and ``scale``) giving a
    stroke's value; only its differences between the strokes of one pot are fitted."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    mean: np.ndarray
    scale: np.ndarray

    def values(self, x: np.ndarray) -> np.ndarray:
        """The value of each row of ``x`` (rows of :func:`features`)."""
        return forward(self.weights, self.biases, (x - self.mean) / self.scale, RELU)

    def centred(self, view: FrameView, pots: Sequence[Candidate]) -> np.ndarray:
        """Each pot stroke's value less the mean of its pot's strokes."""
        places = np.repeat(view.state.positions[None], len(pots), axis=0)
        x = features(arm_features(view, list(pots)), places, shot_rows(pots))
        v = self.values(x)
        ranks = np.array([c.rank for c in pots])
        for rank in set(ranks.tolist()):
            v[ranks == rank] -= v[ranks == rank].mean()
        return v

    def save(self, path: str | Path) -> None:
        """Write the layers and the standardisation to an ``.npz`` file."""
        save_layers(path, self.weights, self.biases, mean=self.mean, scale=self.scale)

    @classmethod
    def load(cls, path: str | Path) -> StrokeNet:
        """The net :meth:`save` wrote at ``path``."""
        weights, biases, others = read_layers(path)
        return cls(weights, biases, others["mean"], others["scale"])


Layers = tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]
"""A small network's weights (inputs x outputs) and biases, layer after layer."""
RELU, TANH = "relu", "tanh"
"""The hidden layers' activations of :func:`forward` and :func:`torch_net`."""


def forward(
    weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], x: np.ndarray, activation: str
) -> np.ndarray:
    """The first output of the network ``weights``, ``biases`` for each row of ``x``, its hidden
    layers through ``activation`` (numpy, at play time)."""
    h = x
    for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
        h = h @ w + b
        if k < len(weights) - 1:
            h = np.maximum(h, 0.0) if activation == RELU else np.tanh(h)
    return h[:, 0]


def torch_net(sizes: Sequence[int], activation: str) -> torch.nn.Sequential:
    """A torch network of linear layers of ``sizes``, ``activation`` between them."""
    import torch

    kind = torch.nn.ReLU if activation == RELU else torch.nn.Tanh
    layers: list[torch.nn.Module] = []
    for k in range(len(sizes) - 1):
        layers += [torch.nn.Linear(sizes[k], sizes[k + 1]), kind()]
    return torch.nn.Sequential(*layers[:-1])


def layer_arrays(net: torch.nn.Sequential) -> Layers:
    """The weights and biases of a :func:`torch_net`, for :func:`forward`."""
    import torch

    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    return (
        tuple(m.weight.detach().numpy().T.copy() for m in linear),
        tuple(m.bias.detach().numpy().copy() for m in linear),
    )


def save_layers(
    path: str | Path, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], **others: Any
) -> None:
    """Write a network's layers (``w0``, ``b0``, ...) and ``others`` to an ``.npz`` file."""
    layers = {f"w{k}": w for k, w in enumerate(weights)}
    layers |= {f"b{k}": b for k, b in enumerate(biases)}
    np.savez(path, **others, **layers)


def read_layers(path: str | Path) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...], dict]:
    """The layers :func:`save_layers` wrote at ``path``, and its other arrays by name."""
    with np.load(path) as f:
        n = sum(1 for key in f.files if key.startswith("w"))
        others = {key: f[key] for key in f.files if key[0] not in "wb"}
        weights = tuple(f[f"w{k}"] for k in range(n))
        return weights, tuple(f[f"b{k}"] for k in range(n)), others


def fit(
    data: dict[str, np.ndarray], hidden: Sequence[int] = (128, 64), epochs: int = 30, seed: int = 0
) -> tuple[StrokeNet, dict[str, float]]:
    """A :class:`StrokeNet` fitted to ``data`` (:func:`collect`'s), each pot's strokes
    centred; with the held-out frames' mean squared error, their centred variance, and the
    centred value of the stroke the net and the prior (``expert-gumbel``'s) would pick."""
    import torch  # the fit alone needs it; the players and the collection run on numpy

    torch.manual_seed(seed)
    if len(data["x"]) % STROKES or np.any(np.diff(data["frame"].reshape(-1, STROKES), axis=1)):
        raise ValueError(f"fit: the strokes must come {STROKES} a pot, a pot's together")
    x = data["x"].reshape(-1, STROKES, data["x"].shape[1])
    y = data["y"].reshape(-1, STROKES)
    y = y - y.mean(axis=1, keepdims=True)
    held = data["frame"].reshape(-1, STROKES)[:, 0] % HELD_OUT == 0
    mean = x[~held].reshape(-1, x.shape[2]).mean(axis=0)
    scale = x[~held].reshape(-1, x.shape[2]).std(axis=0) + 1e-6
    net = torch_net([x.shape[2], *hidden, 1], RELU)
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    train_x, train_y = (torch.as_tensor(a[~held]) for a in ((x - mean) / scale, y))
    test_x, test_y = (torch.as_tensor(a[held]) for a in ((x - mean) / scale, y))

    def centred(batch: torch.Tensor) -> torch.Tensor:
        out = net(batch)[..., 0]
        return out - out.mean(dim=1, keepdim=True)

    for _ in range(epochs):
        order = torch.randperm(len(train_x))
        for start in range(0, len(order), 256):
            pick = order[start : start + 256]
            loss = ((centred(train_x[pick]) - train_y[pick]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    found = StrokeNet(*layer_arrays(net), mean.astype(np.float32), scale.astype(np.float32))
    with torch.no_grad():
        predicted = centred(test_x).numpy()
    truth = test_y.numpy()
    prior = PriorNet.load(data_path("expert-gumbel.npz"))
    logits = prior.logits(x[held].reshape(-1, x.shape[2])[:, :N_FEATURES]).reshape(-1, STROKES)
    rows = np.arange(len(truth))
    report = {
        "pots_fitted": int((~held).sum()),
        "pots_held_out": int(held.sum()),
        "held_out_mse": float(((predicted - truth) ** 2).mean()),
        "held_out_variance": float((truth**2).mean()),
        "net_pick": float(truth[rows, predicted.argmax(axis=1)].mean()),
        "prior_pick": float(truth[rows, logits.argmax(axis=1)].mean()),
    }
    return found, report


def _evaluated(frames: range, net_path: str, samples: int) -> np.ndarray:
    """The values of ``search``'s choice, the raw net's, and :class:`StrokePolicyAgent`'s (the
    raw net's shot at the stroke net's stroke), on the shot decisions of ``frames`` with two
    candidates or more, valued as ``raw_net_loss.py`` values them (the same seeds)."""
    policy, rows = stroke_policy(net=net_path), []
    for view, seed, found, actions, searched in searched_positions(frames, SearchAgent(seed=0)):
        raw = PriorPolicyAgent.choose(policy, view, found)
        played = [actions[searched], actions[raw], actions[policy.choose(view, found)]]
        rows.append(shot_values(view, played, samples, seed))
    return np.array(rows, dtype=float).reshape(-1, 3)


def evaluate(net_path: str, frames: int, samples: int = 300, jobs: int = 2) -> dict[str, Any]:
    """The raw net and the raw net with the stroke net's strokes, each paired with ``search``'s
    choice over ``frames`` frames of the quicker measure's positions."""
    shares = [range(FIRST + j, FIRST + frames, jobs) for j in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(_evaluated, shares, [net_path] * jobs, [samples] * jobs)
        table = np.concatenate(list(parts))
    rules = paired(table, ["search", "raw", "raw shot, stroke net's stroke"])
    return {"positions": len(table), "rules": rules}


class StrokePriorAgent(PriorSearchAgent):
    """``expert-refine`` with :data:`WEIGHT` times the stroke net's centred values added to the
    prior's logits of the pot strokes, before the arms are kept and the halving ranks them."""

    def __init__(self, net: PriorNet, strokes: StrokeNet, seed: int | None, **options: Any) -> None:
        super().__init__(net, seed, **options)
        self.strokes = strokes

    def _logits(self, view: FrameView, found: list[Candidate]) -> np.ndarray:
        logits = super()._logits(view, found)
        pots = [j for j, c in enumerate(found) if c.kind == POT]
        if pots:
            logits[pots] += WEIGHT * self.strokes.centred(view, [found[j] for j in pots])
        return logits


def stroke_prior(
    seed: int | None = None, net: str = "docs/training/position/stroke-net.npz"
) -> StrokePriorAgent:
    """``expert-refine``'s search and settings with the stroke net at ``net`` in its prior."""
    return StrokePriorAgent(
        PriorNet.load(data_path("expert-gumbel.npz")),
        StrokeNet.load(net),
        seed,
        budget=60,
        arms=16,
        halving="gumbel",
        common_noise=True,
        refine=12,
    )


class StrokePolicyAgent(PriorPolicyAgent):
    """The raw net (``expert-policy``) with the stroke net choosing the stroke: the net's best
    candidate, and where it is a pot, that pot's stroke the stroke net rates best. No noisy
    simulation; the aim calibrated as the raw net's is."""

    def __init__(self, path: str | Path, strokes: StrokeNet, seed: int | None = None) -> None:
        super().__init__(path, seed)
        self.strokes = strokes

    def choose(self, view: FrameView, found: list[Candidate]) -> int:
        best = super().choose(view, found)
        if found[best].kind != POT:
            return best
        strokes = [j for j, c in enumerate(found) if c.kind == POT and c.rank == found[best].rank]
        values = self.strokes.centred(view, [found[j] for j in strokes])
        return strokes[int(np.argmax(values))]


def stroke_policy(
    seed: int | None = None, net: str = "docs/training/position/stroke-net.npz"
) -> StrokePolicyAgent:
    """``expert-gumbel``'s prior alone with the stroke net at ``net`` choosing its strokes."""
    return StrokePolicyAgent(data_path("expert-gumbel.npz"), StrokeNet.load(net), seed)


def collected(collect: Callable[[range, int], dict[str, np.ndarray]], args: list[str]) -> None:
    """``FIRST LAST SAMPLES OUT``: ``collect`` over the frames FIRST to LAST in two processes
    (every other frame each), ``SAMPLES`` outcomes a shot, the arrays saved together at OUT."""
    first, last, samples, out = int(args[0]), int(args[1]), int(args[2]), args[3]
    with ProcessPoolExecutor(2) as pool:
        shares = [range(first + j, last, 2) for j in range(2)]
        parts = list(pool.map(collect, shares, [samples] * 2))
    np.savez(out, **{key: np.concatenate([p[key] for p in parts]) for key in parts[0]})


def fitted(
    fit: Callable[[dict[str, np.ndarray]], tuple[Any, dict[str, Any]]], args: list[str], line: str
) -> None:
    """``DATA NET``: ``fit`` to the arrays saved at DATA, the net saved at NET and its report,
    with the command ``line``, beside it as ``.fit.json``."""
    with np.load(args[0]) as f:
        data = {key: f[key] for key in f.files}
    net, report = fit(data)
    net.save(args[1])
    record = {"command": line} | report
    Path(args[1]).with_suffix(".fit.json").write_text(json.dumps(record, indent=1))
    print(json.dumps(report, indent=1))


def main(argv: list[str]) -> None:
    command, *args = argv or ["help"]
    line = "python3 docs/training/position/stroke_net.py " + " ".join(argv)
    if command == "collect":
        collected(collect, args)
    elif command == "fit":
        fitted(fit, args, line)
    elif command == "evaluate":
        record = {"command": line} | evaluate(args[0], int(args[1]))
        Path(args[2]).write_text(json.dumps(record, indent=1) + "\n")
        print(json.dumps(record["rules"], indent=1))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
