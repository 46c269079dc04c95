"""Self-play positions in every core of a machine until a deadline, saved in four files (one a
worker where fewer) under ``$OUT`` (how the ablations' 16-core frames were played):

    python3 device_selfplay.py SECONDS FIRST_SEED [AGENT]

Worker w plays frames FIRST_SEED + 100,000 w, + 5, ... in fives of ``AGENT`` (default
``search``) against itself (run with 1000000, then 3000000).
"""

import os
import sys
import time
from multiprocessing import get_context

from kinghill.envs.planning import warm_up
from kinghill.experiments.training.position_data import SelfPlay, self_play
from kinghill.experiments.training.tasks import concatenated

DEADLINE = time.time() + float(sys.argv[1])
FIRST = int(sys.argv[2])
AGENT = sys.argv[3] if len(sys.argv) > 3 else "search"


def work(worker: int) -> tuple[int, int]:
    """Frames of :data:`AGENT` against itself until the deadline, saved to /tmp."""
    parts, played = [], 0
    while time.time() < DEADLINE:
        parts.append(self_play(5, FIRST + 100_000 * worker + played, AGENT))
        played += 5
    positions = concatenated(parts)
    positions.save(f"/tmp/pv-{worker:02d}.npz")
    return len(positions), played


if __name__ == "__main__":
    warm_up()
    self_play(1, 0, AGENT)
    workers = os.cpu_count() or 1
    with get_context("fork").Pool(workers) as pool:
        done = pool.map(work, range(workers))
    print(done, sum(d[0] for d in done), "positions", sum(d[1] for d in done), "frames")
    parts = [SelfPlay.load(f"/tmp/pv-{w:02d}.npz") for w in range(workers)]
    for group in range(min(4, workers)):
        concatenated(parts[group::4]).save(f"{os.environ['OUT']}/dev{FIRST}-{group}.npz")
