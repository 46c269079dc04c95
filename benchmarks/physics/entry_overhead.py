"""The cost of entering the compiled event loop from Python: microseconds of process time a
call of a shot in which nothing moves (the kernel returns at once), on the tree this runs in,
before the kernel's split (``kinghill.physics.stepper._play``, 15 arguments) or after it
(``kinghill.physics.kernel.loop``: ``play`` taking NamedTuples, ``enter_play`` plain tuples).

    python3 benchmarks/physics/entry_overhead.py   (in each tree, as before_after.sh runs it)
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

import kinghill.physics as physics

CALLS, REPEATS = 20000, 7
STILL = (0.0, 0.0, 0.0, 0.0, 0.0)


def per_call(call: Callable[[], object]) -> float:
    """The least process time of ``REPEATS`` runs of ``CALLS`` calls, in microseconds a call."""
    call()
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        for _ in range(CALLS):
            call()
        best = min(best, time.process_time() - start)
    return best / CALLS * 1e6


def main() -> None:
    """Print the entry cost of each way into the loop the tree has."""
    physics.warm_up()
    state = physics.TableState.rack()
    pos = np.asarray(state.positions, dtype=np.float64)
    on = np.asarray(state.on_table, dtype=np.bool_)
    calls: dict[str, Callable[[], object]] = {}
    try:
        from kinghill.physics import stepper  # type: ignore[attr-defined]
    except ImportError:
        stepper = None
    if stepper is not None:
        table, w = stepper.Table.of(state.spec).kernel, stepper.workspace()
        args = (w.balls, w.flags, w.pairs, w.records, table, pos, on, 1, *STILL, False, False)
        calls["stepper._play (flat arguments)"] = lambda: stepper._play(*args)
    else:
        from kinghill.physics.kernel import layout, loop, table, workspace

        arrays, w = table.Table.of(state.spec), workspace.workspace()
        start = (pos, on, 1, STILL)
        named = layout.Start(*start)
        calls["loop.play (NamedTuples)"] = lambda: loop.play(
            w.work, arrays.arrays, named, False, False
        )
        calls["loop.enter_play (plain tuples)"] = lambda: loop.enter_play(
            w.plain, arrays.plain, start, False, False
        )
    for name, call in calls.items():
        print(f"{name}: {per_call(call):.2f} us a call")


if __name__ == "__main__":
    main()
