"""Does the position net lack what the table offers beyond each player's best pot? Fits nets
as ``net-16core`` was fitted (64 and 32 units, the same held-out frames) to self-play positions
with three sets of features, and prints each one's held-out log loss against the results:

- the score alone: the first 13 of :data:`~kinghill.agents.position_value.FEATURES` (the whites
  needed, the fouls, each player's best pot chance, the share of whites on the table);
- the 36 features of the shipped net;
- those 36 and each player's pot chances ball by ball (:func:`target_chances`): the best three,
  and how many of its targets it pots with a chance above 0.2 and above 0.5.

    python3 docs/training/position/chance_features.py --out OUT.json FRAMES.npz [...]
"""

import argparse
import json
from pathlib import Path

import numpy as np

from kinghill.agents.position_value import Positions, position_features
from kinghill.envs.planning.candidates import best_chances_at
from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.position_training import train_bce, two_layers
from kinghill.experiments.training.tasks import concatenated, held_out_frames
from kinghill.experiments.training.value_training import HELD_OUT, log_loss
from kinghill.physics import COLOURED, N_BALLS, WHITES, TableSpec

SCORE = 13
"""The position features that are the score and the best chances, not the balls' places."""
THRESHOLDS = (0.2, 0.5)


def target_chances(positions: Positions, spec: TableSpec) -> np.ndarray:
    """n x 2 x 8: for (mover, other), the best straight pot chance of each ball as its object
    ball (any other white the cue ball), 0 where the ball is not that player's target (the
    whites while it needs whites, else the coloured ball) or is off the table."""
    whites = positions.needed > 0
    cues = positions.on_table & np.isin(np.arange(N_BALLS), WHITES)
    found = np.zeros((len(positions.needed), 2, N_BALLS))
    for side in range(2):
        for ball in range(N_BALLS):
            wanted = ~whites[:, side] if ball == COLOURED else whites[:, side]
            rows = np.flatnonzero(wanted & positions.on_table[:, ball])
            if not len(rows):
                continue
            objects = np.zeros((len(rows), N_BALLS), bool)
            objects[:, ball] = True
            cue_balls = cues[rows].copy()
            cue_balls[:, ball] = False
            found[rows, side, ball] = best_chances_at(
                positions.places[rows], positions.on_table[rows], cue_balls, objects, spec
            )
    return found


def chance_features(found: np.ndarray) -> np.ndarray:
    """:func:`target_chances` as 10 features: each player's best three chances, then the share
    of the seven whites' worth of targets it pots above each of :data:`THRESHOLDS`."""
    best = -np.sort(-found, axis=2)[:, :, :3].reshape(len(found), 6)
    counts = [(found > t).sum(axis=2) / len(WHITES) for t in THRESHOLDS]
    return np.concatenate([best, *counts], axis=1).astype(np.float32)


def fitted_chances(
    features: np.ndarray, results: np.ndarray, test: np.ndarray, epochs: int
) -> np.ndarray:
    """The held-out rows' (``test``) win chances by a net of ``net-16core``'s shape (ReLU
    layers of 64 and 32) fitted to the other rows as :func:`~kinghill.experiments.training.
    position_training.fit` fits one (:func:`two_layers`, :func:`train_bce`, seed 0), of any
    width."""
    import torch

    torch.manual_seed(0)
    model = two_layers(features.shape[1], (64, 32))
    train_bce(model, features[~test], results[~test], epochs, batch=2048, rate=2e-3)
    with torch.no_grad():
        logits = model(torch.as_tensor(features[test], dtype=torch.float32))[:, 0]
    return torch.sigmoid(logits).numpy().astype(np.float64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("frames", nargs="+", help="self-play positions (SelfPlay .npz files)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=10, help="passes (net-16core: 10)")
    args = parser.parse_args()
    spec = TableSpec()
    data = concatenated([SelfPlay.load(path) for path in args.frames])
    test = held_out_frames(data.frames, HELD_OUT)
    base = position_features(data.positions, spec)
    sets = {
        "score alone (13)": base[:, :SCORE],
        "net-16core's features (36)": base,
        "with the ball-by-ball chances (46)": np.concatenate(
            [base, chance_features(target_chances(data.positions, spec))], axis=1
        ),
    }
    mean = np.full(int(test.sum()), data.results[~test].mean())
    losses = {}
    for name, features in sets.items():
        chances = fitted_chances(features, data.results, test, args.epochs)
        losses[name] = log_loss(chances, data.results[test])
        print(f"{name:40s} {losses[name]:.4f}", flush=True)
    record = {
        "command": f"python3 docs/training/position/chance_features.py {' '.join(args.frames)} "
        f"--epochs {args.epochs} --out {args.out}",
        "positions": len(data.results),
        "held_out": int(test.sum()),
        "constant": log_loss(mean, data.results[test]),
        "log_loss": losses,
    }
    args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
