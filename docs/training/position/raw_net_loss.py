"""Where the raw net loses to the search, and what it would need: on the quicker measure's
positions (``decision_quality.py``), every candidate of the narrow set is valued by the same
noisy outcomes (``shot_values``), and the shots chosen by these rules are compared with
``search``'s, paired:

- ``raw``: the prior net's best candidate (what ``expert-policy`` plays);
- ``raw shot, best stroke``: the best stroke (speed and tip height; a safety's speed) of the
  shot the net chose: what the net loses in choosing the stroke rather than the shot;
- ``raw shot, exact stroke``: of the net's shot, the stroke whose outcome played once without
  noise is worth most (one exact simulation a stroke: no longer a raw net);
- ``raw + W x exact``: the net's logits plus ``W`` times each candidate's value played once
  without noise (one exact simulation a candidate);
- ``best``: the best candidate.

The best stroke and the best candidate are chosen on other outcomes than those that value them
(:data:`CHOOSING`), so that the luck of a maximum does not count as skill.

    python3 docs/training/position/raw_net_loss.py --frames 100 --jobs 2 \\
        --out docs/training/position/raw-net-loss.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from decision_quality import FIRST, paired_gains, positions, shot_values

from kinghill.agents.builtins import data_path
from kinghill.agents.prior import PriorNet, arm_features
from kinghill.agents.search import Candidate, SearchAgent, candidates, position_values
from kinghill.envs import FrameView, ShotAction
from kinghill.envs.game.loop import Rulings, noisy_outcomes
from kinghill.physics import NoiseModel

WEIGHTS = (1.0, 3.0, 10.0)
"""The weights ``W`` of the exact values added to the logits."""
CHOOSING = 1_000_000
"""Added to a position's seed for the outcomes that choose the best stroke and the best
candidate (a position's own seed is below it)."""


def exact_values(view: FrameView, actions: Sequence[ShotAction]) -> np.ndarray:
    """Each of ``actions`` played once without noise (no deviation of the cue) from ``view``,
    the position it leaves valued for the player to move by the hand-made score."""
    zero = np.zeros((len(actions), 4))
    plays = noisy_outcomes(
        view.frame,
        view.state,
        actions,
        np.random.default_rng(0),
        NoiseModel(),
        Rulings(view.frame),
        zero,
    )
    return np.array(position_values([(p.frame, p.state) for p in plays], view.player))


def searched_positions(
    frames: range, agent: SearchAgent
) -> Iterator[tuple[FrameView, int, list[Candidate], list[ShotAction], int]]:
    """The quicker measure's shot decisions of ``frames`` (a stepped range) with two candidates
    or more: each view, its seed, its candidates of the narrow set and their actions as played
    (the aim calibrated), and which of them ``agent`` (a plain search) plays there, seeded by
    the position's seed (:func:`~decision_quality.positions`)."""
    for shot, seed in positions(frames):
        view = shot.view
        found = candidates(view, agent.shots)
        if len(found) < 2:
            continue
        actions = agent.prepared_all(view.state, found)
        agent.reset(seed)
        yield view, seed, found, actions, actions.index(agent.act(view))


def choices(frames: range, net_path: str, samples: int) -> np.ndarray:
    """One row per shot decision of ``frames`` (a stepped range) with two candidates or more: the
    value of each rule's choice (``search``, ``raw``, ``raw shot, best stroke``, ``raw shot,
    exact stroke``, each weight of :data:`WEIGHTS`, ``best``), then whether the net chose the
    shot (not the stroke) the search did (:func:`searched_positions`)."""
    net = PriorNet.load(net_path)
    agent = SearchAgent(seed=0)
    rows = []
    for view, seed, found, actions, searched in searched_positions(frames, agent):
        values = np.array(shot_values(view, actions, samples, seed))
        choosing = np.array(shot_values(view, actions, samples, seed + CHOOSING))
        logits = net.logits(arm_features(view, found))
        raw = int(np.argmax(logits))
        shots = [(c.kind, c.rank) for c in found]
        strokes = [j for j, s in enumerate(shots) if s == shots[raw]]
        exact = exact_values(view, actions)
        best_stroke = strokes[int(np.argmax(choosing[strokes]))]
        exact_stroke = strokes[int(np.argmax(exact[strokes]))]
        mixed = [values[int(np.argmax(logits + w * exact))] for w in WEIGHTS]
        best = int(np.argmax(choosing))
        rows.append(
            [values[searched], values[raw], values[best_stroke], values[exact_stroke]]
            + [*mixed, values[best], float(shots[raw] == shots[searched])]
        )
    return np.array(rows, dtype=float).reshape(-1, 6 + len(WEIGHTS))


def measure(frames: int, net_path: str, samples: int = 300, jobs: int = 1) -> dict:
    """Each rule's mean value and its paired difference from the search's choice (with the
    standard error), on the shot decisions of ``frames`` frames of the quicker measure's
    positions, and how often the net chose the search's shot."""
    shares = [range(FIRST + j, FIRST + frames, jobs) for j in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        table = np.concatenate(list(pool.map(choices, shares, [net_path] * jobs, [samples] * jobs)))
    names = ["search", "raw", "raw shot, best stroke", "raw shot, exact stroke"]
    names += [*(f"raw + {w:g} x exact" for w in WEIGHTS), "best"]
    same = float(table[:, -1].mean())
    return {"positions": len(table), "same_shot_as_search": same, "rules": paired(table, names)}


def paired(table: np.ndarray, names: Sequence[str]) -> list[dict[str, Any]]:
    """Each rule of ``names`` (a column of ``table``, the search's first): its mean value, and
    its gain over the search's choice on the same positions with that gain's standard error
    (:func:`~decision_quality.paired_gains`)."""
    gains = paired_gains(table[:, : len(names)])
    return [
        {"rule": name, "value": value, "gain": gain, "gain_se": se}
        for name, (value, gain, se) in zip(names, gains, strict=True)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--net", default=str(data_path("expert-gumbel.npz")), help="the prior net")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    found = measure(args.frames, args.net, args.samples, args.jobs)
    same = found["same_shot_as_search"]
    print(f"{found['positions']} positions; the net chose the search's shot at {same:.2f}")
    for rule in found["rules"]:
        gain = f"{rule['gain']:+.4f} ± {rule['gain_se']:.4f}"
        print(f"{rule['rule']:24s} value {rule['value']:.4f}  gain {gain}")
    if args.out:
        command = (
            "python3 docs/training/position/raw_net_loss.py "
            f"--frames {args.frames} --samples {args.samples} --jobs {args.jobs}"
        )
        net = Path(args.net)
        found = {"command": command, "net": net.name, **found}
        args.out.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
