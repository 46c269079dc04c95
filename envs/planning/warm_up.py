"""First use of the compiled planner in a process (:mod:`.pot_kernel`, :mod:`.safety_kernel`),
after the engine's (:func:`kinghill.physics.warm_up`): loaded from numba's on-disk cache, or
compiled once per installation, announced on stderr in one line."""

from __future__ import annotations

import sys
import time

import numpy as np

from kinghill.envs.planning.candidates import best_chances, pots, rolling_speed_needed
from kinghill.envs.planning.pot_kernel import best_chances as best_chances_kernel
from kinghill.envs.planning.pot_kernel import find_pots
from kinghill.envs.planning.safety_kernel import find_safeties
from kinghill.envs.planning.table_arrays import planning_arrays
from kinghill.physics import COLOURED, TableState
from kinghill.physics import warm_up as warm_up_physics
from kinghill.physics.warm_up import cached

_READY: list[bool] = []
"""Non-empty once this process's planning kernels are ready."""


def warm_up() -> float:
    """Load (or compile) the engine's kernels and the planner's; seconds taken (0 once done).
    Worker pools call it in the parent, so that a cold compile happens once, not per worker."""
    seconds = warm_up_physics()
    if _READY:
        return seconds
    start = time.perf_counter()
    cold = not all(cached(k) for k in (find_pots, find_safeties, best_chances_kernel))
    if cold:
        print(
            "kinghill: compiling the shot planner with numba, once per installation "
            "(about 10 s on 2 cores) ...",
            end="",
            file=sys.stderr,
            flush=True,
        )
    state = TableState.rack()
    balls = [int(b) for b in np.flatnonzero(state.on_table)]
    pots(state, balls, balls, doubles=True, abricols=True, min_chance=0.1)
    rolling_speed_needed(1.0, 0.5, 0.1)  # called from Python with floats: its own machine code
    whites = state.on_table.copy()
    whites[COLOURED] = False
    best_chances([state], whites[None], whites[None])
    ids = np.flatnonzero(state.on_table)
    arrays, spec = planning_arrays(state.spec), state.spec
    far = (spec.length - spec.radius, spec.width - spec.radius)
    find_safeties(state.positions[ids], ids, arrays.mouths, arrays.scalars, far, 0.1, 3)
    taken = time.perf_counter() - start
    if cold:
        print(f" done in {taken:.0f} s", file=sys.stderr, flush=True)
    _READY.append(True)
    return seconds + taken
