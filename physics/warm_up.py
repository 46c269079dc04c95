"""First use of the compiled engine in a process: the kernels loaded from numba's on-disk
cache, or compiled once per installation when there is none yet (announced on stderr in one
line: what happens and how long it took)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.physics.cue import strike
from kinghill.physics.kernel import loop
from kinghill.physics.kernel.batch import play_batch, play_departures
from kinghill.physics.kernel.table import Table
from kinghill.physics.sampling import trajectory_of
from kinghill.physics.shot import Shot
from kinghill.physics.state import TableState

_READY: list[bool] = []
"""Non-empty once this process's kernels are ready."""


def warm_up() -> float:
    """Load (or compile) every kernel the engine's entry points use; seconds taken (0 once
    done). A compile says so on stderr: a cold compile takes tens of seconds, once."""
    if _READY:
        return 0.0
    start = time.perf_counter()
    cold = not cached()
    if cold:
        print(
            "kinghill: compiling the physics engine with numba, once per installation "
            "(about a minute on 2 cores) ...",
            end="",
            file=sys.stderr,
            flush=True,
        )
    state, shot = TableState.rack(), Shot(1, 0.0, 7.0)
    table = Table.of(state.spec)
    motion = strike(shot, state.spec.radius)
    raw = loop.run(table, state.positions, state.on_table, shot.cue_ball, motion, record_paths=True)
    trajectory_of(raw.segments, 30.0)
    radius, cues = state.spec.radius, np.array([1])
    shots = np.array([[shot.phi, shot.speed, shot.a, shot.b]])
    # numba compiles a kernel once for read-only arrays (a TableState's own) and once for
    # writable ones (a batch's copies, or a table unpickled in an agent's process): both here,
    # so that neither is compiled in some agent's first decision, on its clock
    for places, on_table in (
        (state.positions, state.on_table),
        (state.positions.copy(), state.on_table.copy()),
    ):
        play_batch(table, places[None], on_table[None], cues, shots, radius)
        play_departures(table, places, on_table, cues, shots, radius, np.array([2]), 30.0)
    seconds = time.perf_counter() - start
    if cold:
        print(f" done in {seconds:.0f} s", file=sys.stderr, flush=True)
    _READY.append(True)
    return seconds


def cached(kernel: Any = loop.enter_play) -> bool:
    """Whether ``kernel``'s machine code (by default the event loop's) is in numba's cache
    already (or the kernels run uncompiled, ``NUMBA_DISABLE_JIT=1``)."""
    # numba (0.68, 0.69) has no public way to ask this before loading. A dispatcher's public
    # ``stats`` gives the cache's folder (``cache_path``) and counts hits and misses, but only
    # once a call has loaded or compiled, too late to announce a compile; the index file's
    # name inside that folder (function name, source line, Python version) is numba's own.
    # So this reads the index file's path, private (``_cache._cache_file._index_path``), and
    # says "cached" when the path is missing: a numba that moves it costs the one-line
    # notice, never a failure.
    cache = getattr(kernel, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is None or Path(index).exists()
