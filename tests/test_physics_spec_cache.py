"""Per-spec caches stay bounded: a user drawing a new table per episode keeps flat memory."""

import gc
import tracemalloc

from kinghill.physics import Shot, TableSpec, TableState, simulate
from kinghill.physics.geometry import _build
from kinghill.physics.kernel.table import _table_of
from kinghill.physics.spec import SPEC_CACHE_SIZE


def _play_on(spec: TableSpec) -> None:
    simulate(TableState.of(spec, {1: (1.0, 0.8)}), Shot(1, 0.3, 2.0))


def test_many_distinct_specs_keep_memory_flat() -> None:
    """After the caches fill, 150 more distinct specs add less than 1 MB (unbounded caches grew
    ~131 KB per spec: ~20 MB here), and each cache holds at most SPEC_CACHE_SIZE tables."""
    specs = [TableSpec(mu_roll=0.01 + 1e-5 * k) for k in range(2 * SPEC_CACHE_SIZE + 150)]
    for spec in specs[: 2 * SPEC_CACHE_SIZE]:
        _play_on(spec)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for spec in specs[2 * SPEC_CACHE_SIZE :]:
        _play_on(spec)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 1_000_000
    assert _build.cache_info().currsize <= SPEC_CACHE_SIZE
    assert _table_of.cache_info().currsize <= SPEC_CACHE_SIZE
