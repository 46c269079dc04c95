"""Issue 9: ``kinghill bench-env`` times the masked env beside the plain one: the steps it
played, the share of its time spent building shot menus, the two envs run in alternating
rounds (no timing is asserted)."""

from kinghill.experiments.bench.env import _play_masked, _rounds


def test_the_masked_run_plays_its_steps_and_splits_its_time() -> None:
    run = _play_masked(30, seed=0)
    assert run.steps == 30
    assert 0 < run.menu_seconds < run.seconds
    assert 0 < run.simulate_seconds < run.seconds
    assert run.menu_seconds + run.simulate_seconds < run.seconds


def test_the_plain_and_masked_rounds_add_up_to_the_steps_asked_for() -> None:
    run, masked = _rounds(12, seed=0)
    assert run.steps == masked.steps == 12
    assert run.shots and 0 < run.simulate_seconds < run.seconds
    assert 0 < masked.menu_seconds < masked.seconds
