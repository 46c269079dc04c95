"""How good each agent's shot choices are, a dozen agents in the time of one 2,000-frame
tournament: every agent decides on the same shot positions (those of ``expert-refine`` playing
itself, noise on), and each chosen shot is scored by ``--samples`` noisy outcomes, the same
deviations of the cue for every agent's shot on a position, each outcome valued by the hand-made
:func:`~kinghill.agents.search.position_value` (``--value NET``: by a position net). An
agent's *gain* is its mean value less the first agent's, with the standard error of the paired
differences; its CPU time a decision is measured on the same positions.

    python3 docs/training/position/decision_quality.py --frames 100 --jobs 2 \
        --out docs/training/position/decision-quality.json SPEC [SPEC ...]

The gain ranks agents as 2,000-frame tournaments against ``search`` do (docs/training.md,
"A quicker measure of a shot choice"), with under half their noise on the score's scale. It
scores choices under the searches' own model of the table and of a position: with the
hand-made score it cannot judge a new leaf value, and nothing a new noise model; with
``--value`` a learnt leaf is placed on its line (r = 0.91 over twenty agents).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.agents import make_agent
from kinghill.agents.position_value import PositionNet, PositionValue
from kinghill.agents.search import LeafValue, leaf_values, position_value
from kinghill.envs import FrameView, ShotAction
from kinghill.envs.game.loop import Rulings, noisy_outcomes
from kinghill.experiments.training.frames import SelfPlayShot, self_play_shots
from kinghill.physics import NoiseModel

POSITIONS_OF = "expert-refine"
"""The agent whose self-play gives the positions."""
FIRST = 700
"""The first frame's seed."""
NET = "docs/training/position/net-16core.npz"
MAKE = "docs/training/position/make-net.npz"
"""The position net and the make net of the agents measured with a learnt leaf or strata."""
CALIBRATION = {
    "expert-gumbel": "distilled-1920-gumbel-2000",
    "expert-refine": "crn-refine12-b60-2000",
    "expert-gumbel?common_noise=true&refine=12": "crn-refine12-2000",
    "expert-refine?refine=24": "expert-refine-r24-2000",
    "expert-refine?budget=240": "expert-refine-b240-2000",
    "expert-refine?budget=240&refine=24": "expert-refine-b240-r24-2000",
    "expert-refine?budget=480&refine=48": "expert-refine-b480-r48-2000",
    "expert-refine?arms=8": "expert-refine-arms8-2000",
    "search?budget=1920": "search-budget1920-2000",
    "variants:refine?grid=side&refine_budget=120": "r2-side-2000",
    "variants:refine?grid=aim&refine_budget=120": "r2-aim-2000",
    "variants:refine?halve=true&budget=120&refine_budget=60": "r2-halve-b120-2000",
    "variants:refine?halve=true&budget=90&refine_budget=80": "r2-halve-b90-2000",
    "expert-refine?arms=12&budget=90&refine=10": "expert-refine-a12-b90-r10-2000",
    f"variants:refine?value={NET}&arms=12&budget=90&refine_budget=90": (
        "refine-value-a12-b90-r10-2000"
    ),
    f"variants:refine?value={NET}&arms=12&budget=60&refine_budget=72": (
        "refine-value-a12-b60-r8-2000"
    ),
    f"variants:refine?value={NET}": "refine-value-2000",
    f"strata:refine_strata?net={MAKE}&arms=12&budget=90&refine_budget=90": (
        "strata-a12-b90-r10-2000"
    ),
    f"strata:refine_strata?net={MAKE}&value={NET}&arms=12&budget=60&refine_budget=72": (
        "strata-value-a12-b60-r8-2000"
    ),
    f"strata:refine_strata?net={MAKE}&value={NET}": "strata-value-2000",
}
"""The agents measured here that also played ``search`` over the same 2,000 frames (seed 2000;
``distilled-1920.npz`` is the bytes of ``expert-gumbel``'s net), by their reports' ids."""
REPORTS = Path(__file__).resolve().parents[2] / "strength" / "position"
"""The ablations' tournament reports, ``ID.json``."""


@dataclass(frozen=True)
class Quality:
    """One agent's shot choices on the positions: how many, the mean of their values, its gain
    over the first agent's (paired), that gain's standard error, how often it chose the first
    agent's shot, and its CPU milliseconds a decision."""

    spec: str
    positions: int
    value: float
    gain: float
    gain_se: float
    same: float
    ms: float


def shot_values(
    view: FrameView,
    actions: Sequence[ShotAction],
    samples: int,
    seed: int,
    leaf: LeafValue = position_value,
) -> list[float]:
    """The mean value for the player to move of each of ``actions`` played ``samples`` times
    from ``view``, every action under the same ``samples`` deviations of the cue (drawn from
    ``seed``), each outcome scored by ``leaf`` (the hand-made position value, or a learnt
    one)."""
    rng = np.random.default_rng(seed)
    deviations = rng.standard_normal((samples, 4))
    rulings = Rulings(view.frame)
    found: dict[ShotAction, float] = {}
    for action in actions:
        if action not in found:
            outcomes = noisy_outcomes(
                view.frame, view.state, [action] * samples, rng, NoiseModel(), rulings, deviations
            )
            found[action] = float(np.mean(leaf_values(leaf, outcomes, view.player)))
    return [found[a] for a in actions]


def positions(frames: range) -> Iterator[tuple[SelfPlayShot, int]]:
    """The shot decisions of ``frames`` (seeds of :data:`POSITIONS_OF`'s self-play), each with
    its position's seed, which depends on its frame and its place in it, never on the process
    that plays it (the research scripts beside this one pair their figures by these seeds)."""
    for frame in frames:
        for k, shot in enumerate(self_play_shots(1, frame, POSITIONS_OF)):
            yield shot, frame * 1000 + k


def _measured(
    frames: range, specs: Sequence[str], samples: int, value: str = ""
) -> tuple[np.ndarray, np.ndarray]:
    """The shot positions of ``frames`` (a stepped range): each position's values of the agents'
    choices (scored by the position net at ``value``, else the hand-made score) and whether
    each chose the first agent's shot (2 x positions x agents), and each agent's CPU seconds in
    all (the positions and their seeds: :func:`positions`)."""
    leaf: LeafValue = PositionValue(PositionNet.load(value)) if value else position_value
    agents = [make_agent(spec, seed=0) for spec in specs]
    seconds = np.zeros(len(specs))
    rows: list[list[float]] = []
    for shot, seed in positions(frames):
        chosen = []
        for j, (agent, spec) in enumerate(zip(agents, specs, strict=True)):
            if hasattr(agent, "reset"):  # seeded agents; a net alone has nothing to seed
                agent.reset(seed)
            start = time.process_time()
            action = agent.act(shot.view)
            seconds[j] += time.process_time() - start
            if not isinstance(action, ShotAction):
                raise TypeError(f"{spec}: a shot decision answered with {action!r}")
            chosen.append(action)
        values = shot_values(shot.view, chosen, samples, seed, leaf)
        rows.append(values + [float(a == chosen[0]) for a in chosen])
    table = np.array(rows, dtype=float).reshape(-1, 2, len(specs))
    return table.transpose(1, 0, 2), seconds


def measure(
    specs: Sequence[str], frames: int = 100, samples: int = 300, jobs: int = 1, value: str = ""
) -> list[Quality]:
    """:class:`Quality` of each agent of ``specs`` on the shot positions of ``frames`` frames of
    :data:`POSITIONS_OF`'s self-play (seeds from :data:`FIRST`), ``jobs`` processes, the
    outcomes scored by the position net at ``value`` (default: the hand-made score)."""
    if not specs:
        raise ValueError("specs: at least one agent")
    for spec in specs:
        make_agent(spec)  # a bad spec fails here, before any work
    shares = [range(FIRST + j, FIRST + frames, jobs) for j in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_measured, shares, [specs] * jobs, [samples] * jobs, [value] * jobs))
    values = np.concatenate([p[0][0] for p in parts])
    same = np.concatenate([p[0][1] for p in parts])
    seconds = sum(p[1] for p in parts)
    n = len(values)
    return [
        Quality(spec, n, value, gain, se, float(same[:, k].mean()), 1000 * float(seconds[k]) / n)
        for k, (spec, (value, gain, se)) in enumerate(zip(specs, paired_gains(values), strict=True))
    ]


def paired_gains(values: np.ndarray) -> list[tuple[float, float, float]]:
    """For each column of ``values`` (positions x choices, the baseline's first): its mean, its
    mean gain over the baseline's on the same positions, and that gain's standard error (NaN
    with one position)."""
    n = len(values)
    found = []
    for k in range(values.shape[1]):
        diff = values[:, k] - values[:, 0]
        se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        found.append((float(values[:, k].mean()), float(diff.mean()), se))
    return found


def compare(record: dict[str, Any], reports: dict[str, str]) -> list[dict[str, Any]]:
    """Each agent of ``record`` (a ``--out`` file) that ``reports`` maps to a tournament report
    against ``search`` (``ID``: :data:`REPORTS`/``ID.json``): its gain beside its score there and
    its time a decision as a multiple of ``search``'s in that tournament."""
    rows = []
    for q in record["agents"]:
        if q["spec"] not in reports:
            continue
        played = json.loads((REPORTS / f"{reports[q['spec']]}.json").read_text())["agents"]
        mine = next(a for name, a in played.items() if name != "search")
        rows.append(
            {
                "spec": q["spec"],
                "report": reports[q["spec"]],
                "gain": q["gain"],
                "score": mine["score"]["estimate"],
                "time": mine["seconds_per_decision"] / played["search"]["seconds_per_decision"],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", help="agents; the first is the baseline")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--value",
        default="",
        metavar="NET",
        help="score the outcomes by this position net (default: the hand-made score)",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="RECORD",
        help="a --out file: each agent's gain beside its 2,000-frame score against search "
        "(the reports of CALIBRATION), and the correlation",
    )
    args = parser.parse_args()
    if args.compare:
        rows = compare(json.loads(args.compare.read_text()), CALIBRATION)
        for row in rows:
            print(
                f"{row['spec']:56s} gain {row['gain']:+.4f}  score {row['score']:.3f}  "
                f"time {row['time']:.2f}x  ({row['report']})"
            )
        if len(rows) < 3:
            print(f"{len(rows)} agents with reports: too few for a correlation")
            return
        gains, scores = (np.array([row[k] for row in rows]) for k in ("gain", "score"))
        slope, intercept = np.polyfit(gains, scores, 1)
        r = float(np.corrcoef(gains, scores)[0, 1])
        print(f"{len(rows)} agents: r = {r:.2f}, score = {intercept:.3f} + {slope:.1f} x gain")
        return
    found = measure(args.specs, args.frames, args.samples, args.jobs, args.value)
    base = found[0].ms
    for q in found:
        print(
            f"{q.spec:56s} {q.ms:7.2f} ms ({q.ms / base:.2f}x)  "
            f"gain {q.gain:+.4f} ± {q.gain_se:.4f}  same {q.same:.2f}"
        )
    if args.out:
        record = {
            "command": "python3 docs/training/position/decision_quality.py "
            f"--frames {args.frames} --samples {args.samples} --jobs {args.jobs} "
            + (f"--value {args.value} " if args.value else "")
            + " ".join(f"'{s}'" for s in args.specs),
            "positions_of": POSITIONS_OF,
            "first_seed": FIRST,
            "agents": [asdict(q) for q in found],
        }
        args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
