"""Issue 9: ``kinghill bench-env`` times the masked env beside the plain one: the steps it
played, the share of its time spent building shot menus (no timing is asserted)."""

from kinghill.experiments.bench_env import _play_masked


def test_the_masked_run_plays_its_steps_and_splits_its_time() -> None:
    run = _play_masked(30, seed=0)
    assert run.steps == 30
    assert 0 < run.menu_seconds < run.seconds
    assert 0 < run.simulate_seconds < run.seconds
    assert run.menu_seconds + run.simulate_seconds < run.seconds
