"""Expert iteration in miniature: a break is learnt for the rack, an expert search plays a few
frames against itself, a prior net learns which shots it searched, and the search guided by that
net (breaking with the learnt break) plays the plain search.

    python3 examples/expert_iteration.py [OUT]

A real run plays hundreds of frames an iteration (``kinghill train-expert``, the training
guide); this one shows the pieces: the Python API under the command, the run folder it leaves,
and a net that ``expert:PATH`` loads anywhere an agent is named.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kinghill.experiments import evaluate
from kinghill.experiments.training.expert_iteration import ExpertConfig, train_expert


def main(out: Path) -> None:
    config = ExpertConfig(
        out, iterations=2, frames=4, expert_budget=40, expert_arms=8, budget=40, arms=4,
        eval_frames=2, epochs=5, jobs=2, break_population=200, break_generations=2,
    )  # fmt: skip
    result = train_expert(config)
    print(f"best net: {result.model} (iteration {result.extra['best_iteration']})")
    print(f"learnt break: mean leaf value {result.extra['break_score']:.2f} for the breaker")
    print((out / "evaluations.csv").read_text())
    report = evaluate([f"expert:{result.model}?budget=40,arms=4", "search:40"], frames=4)
    print(report.markdown())


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "runs/expert-example"))
