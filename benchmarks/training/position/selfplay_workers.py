"""How ``kinghill train-position``'s self-play scales with workers: the same shards (frames of
``search`` against itself) played by 1 local worker, 2 local workers and Ray (``--ray local``:
one task a core), interleaved 1, 2, ray, ray, 2, 1; frames a second for each, as JSON.

    python3 benchmarks/training/position/selfplay_workers.py [FRAMES] > OUT.json

Ray on one machine shows the runner's overhead; a cluster's speed-up is its cores' (each shard
is independent: no data passes between tasks but the shard's file).
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from kinghill.experiments.tournaments.ray_runner import import_ray
from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.position_iteration import SHARD_FRAMES, _shard
from kinghill.experiments.training.tasks import run_tasks


def timed(frames: int, jobs: int, ray: str | None) -> float:
    """Frames a second for ``frames`` self-play frames in shards, as train-position plays them."""
    with tempfile.TemporaryDirectory() as folder:
        todo = [
            ("search", start, SHARD_FRAMES, Path(folder) / f"shard-{start}.npz")
            for start in range(0, frames, SHARD_FRAMES)
        ]
        began = time.perf_counter()
        paths = list(run_tasks(_shard, todo, jobs, ray))
        seconds = time.perf_counter() - began
        assert sum(len(SelfPlay.load(p)) for p in paths) > 0
    return frames / seconds


if __name__ == "__main__":
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    ray = import_ray()
    ray.init(log_to_driver=False)
    rates: dict[str, list[float]] = {"1 worker": [], "2 workers": [], "ray local": []}
    for name in ["1 worker", "2 workers", "ray local", "ray local", "2 workers", "1 worker"]:
        jobs, cluster = {"1 worker": (1, None), "2 workers": (2, None)}.get(name, (0, "local"))
        rates[name].append(timed(frames, jobs, cluster))
    ray.shutdown()
    base = sum(rates["1 worker"]) / 2
    summary = {
        "frames": frames,
        "cores": os.cpu_count(),
        "frames_per_second": rates,
        "speed_up_over_1_worker": {k: sum(v) / 2 / base for k, v in rates.items()},
    }
    print(json.dumps(summary, indent=2))
