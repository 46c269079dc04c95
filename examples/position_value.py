"""The position value in miniature: ``search`` plays a few frames against itself, a net of the
whole position is fitted to their results, and the search scoring its leaves with that net
plays the plain search; then the shipped net scores one position.

    python3 examples/position_value.py [OUT]

A real run plays thousands of frames an iteration (``kinghill train-position``, the training
guide); this one shows the Python API under the command, the run folder it leaves, and a net
that ``search-position:PATH`` loads anywhere an agent is named.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from kinghill.agents import make_agent
from kinghill.envs.rules import Decision, Frame
from kinghill.experiments import evaluate
from kinghill.experiments.training import PositionConfig, train_position
from kinghill.physics import TableState


def main(out: Path) -> None:
    config = PositionConfig(out, iterations=1, frames=6, budget=30, eval_frames=2, epochs=5)
    result = train_position(config)
    print(f"net: {result.model} ({result.extra['positions']} positions)")
    print((out / "iteration-1" / "fit.json").read_text())
    report = evaluate([f"search-position:{result.model}?budget=30", "search:30"], frames=2)
    print(report.markdown())
    shipped = make_agent("search-position").leaf  # the shipped net, by name
    frame = replace(Frame.new(), decision=Decision.SHOT, credited=((1, 2), ()), to_move=0)
    state = TableState.rack().remove(1).remove(2)
    print(f"the shipped net: player 0, two whites in, to shoot: {shipped(frame, state, 0):+.2f}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "runs/position-example"))
