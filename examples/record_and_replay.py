"""Record frames, read a recorded frame back, simulate a shot again bit for bit, write the
frame's replay as a GIF and export every decision as a data set for imitation learning.

    python3 examples/record_and_replay.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from kinghill.experiments import evaluate
from kinghill.experiments.records.dataset import export_dataset
from kinghill.experiments.records.replay import replay
from kinghill.experiments.records.store import load_frame


def main(out: Path) -> None:
    evaluate(["heuristic", "random"], frames=2, max_shots=20, out=out, record=True)
    frame = load_frame(out, frame=1)
    for decision in frame.decisions[:4]:
        print(decision.player, decision.decision.value, decision.played, decision.ruling)
    shot = next(d for d in frame.decisions if d.played is not None)
    assert shot.resimulate().events == shot.events  # the recorded shot, bit for bit
    gif = replay(out, out / "frame1.gif", frame=1, width_px=400)
    summary = export_dataset([out], out / "data.npz")
    print(f"replay: {gif}")
    print(f"data set: {summary}")


if __name__ == "__main__":  # evaluate spawns agent processes: the guard is required
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("runs/examples/records"))
