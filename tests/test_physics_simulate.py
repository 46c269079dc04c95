"""simulate(): purity, errors, noise, trajectories, and determinism across processes (test 8)."""

import math
import subprocess
import sys

import numpy as np
import pytest

from kinghill.physics import NoiseModel, Pocketed, Shot, TableState, simulate

DIGEST = """
import numpy as np
from kinghill.physics import NoiseModel, Shot, TableState, simulate
out = []
state = TableState.rack()
for k in range(6):
    rng = np.random.default_rng(k)
    res = simulate(state, Shot(1, 0.01 * k, 3.0 + k, 0.1, -0.2), rng, noise=NoiseModel())
    out.append(repr([float(v).hex() for v in res.final.positions.ravel()]))
    out.append(repr([(type(e).__name__, float(e.t).hex()) for e in res.events]))
    state = res.final if res.final.on_table[1] else state
print("\\n".join(out))
"""


def test_same_state_shot_and_seed_are_bit_identical_across_processes() -> None:
    """Test 8: two fresh processes give bit-identical positions and event times."""
    runs = [
        subprocess.run([sys.executable, "-c", DIGEST], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout
    assert len(runs[0].stdout.splitlines()) == 12


def test_state_is_not_mutated_and_result_is_repeatable() -> None:
    state = TableState.rack()
    before = state.positions.copy()
    a = simulate(state, Shot(1, 0.0, 7.0))
    b = simulate(state, Shot(1, 0.0, 7.0))
    assert np.array_equal(state.positions, before)
    assert a.final == b.final and a.events == b.events


def test_cue_ball_not_on_table_is_a_value_error_naming_it() -> None:
    state = TableState.rack().remove(3)
    with pytest.raises(ValueError, match="ball 3"):
        simulate(state, Shot(3, 0.0, 1.0))


def test_noise_is_drawn_from_rng_and_the_played_shot_is_returned() -> None:
    state = TableState.rack()
    shot = Shot(1, 0.0, 5.0)
    r1 = simulate(state, shot, np.random.default_rng(7), noise=NoiseModel())
    r2 = simulate(state, shot, np.random.default_rng(7), noise=NoiseModel())
    r3 = simulate(state, shot, np.random.default_rng(8), noise=NoiseModel())
    assert r1.shot == r2.shot and r1.shot != shot and r3.shot != r1.shot
    assert r1.final == r2.final
    assert simulate(state, shot).shot == shot


def test_trajectory_is_sampled_at_the_requested_rate_and_ends_at_the_final_state() -> None:
    state = TableState.rack()
    res = simulate(state, Shot(1, 0.0, 7.0), trajectory=True, trajectory_fps=30)
    tr = res.trajectory
    assert tr is not None
    assert tr.positions.shape == (len(tr.times), 8, 2)
    assert np.allclose(np.diff(tr.times[:-1]), 1 / 30)
    assert np.allclose(
        tr.positions[-1][res.final.on_table], res.final.positions[res.final.on_table]
    )
    for e in res.events:
        if isinstance(e, Pocketed):
            assert not tr.on_table[-1, e.ball]
    assert math.isclose(tr.times[0], 0.0)
    assert np.allclose(tr.positions[0], state.positions, equal_nan=True)
