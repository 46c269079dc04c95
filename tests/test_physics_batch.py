"""The batch entry points (``simulate_many``, ``simulate_noisy``) give what one ``simulate`` call
per shot gives, bit for bit, noise drawn in the same order; bad input is refused up front."""

from __future__ import annotations

import numpy as np
import pytest
from physics_fixture import case_of, load

from kinghill.physics import (
    NoiseModel,
    Shot,
    ShotResult,
    TableSpec,
    TableState,
    simulate,
    simulate_many,
    simulate_noisy,
)
from kinghill.physics.kernel.workspace import _WORKSPACES, Workspace


def same(a: ShotResult, b: ShotResult) -> bool:
    return (
        a.shot == b.shot
        and a.final == b.final
        and a.events == b.events
        and a.duration == b.duration
        and a.steps == b.steps
    )


def test_many_shots_equal_one_call_each_on_the_default_table() -> None:
    specs, a = load()
    ks = [k for k in range(0, 3000, 7) if int(a["spec"][k]) == 0]
    cases = [case_of(specs[0], a["positions"][k], a["shot"][k]) for k in ks]
    states, shots = [c[0] for c in cases], [c[1] for c in cases]
    batch = simulate_many(states, shots)
    assert len(batch) == len(ks) > 100
    assert all(same(b, simulate(s, t)) for b, s, t in zip(batch, states, shots, strict=True))


def test_noisy_samples_equal_the_same_noisy_calls_in_turn() -> None:
    state = TableState.rack()
    shot = Shot(1, 0.0, 7.0)
    noise = NoiseModel(sigma_phi=0.01)
    batch = simulate_noisy(state, shot, np.random.default_rng(5), 40, noise=noise)
    rng = np.random.default_rng(5)
    single = [simulate(state, shot, rng, noise=noise) for _ in range(40)]
    assert all(same(b, s) for b, s in zip(batch, single, strict=True))
    assert len({b.final.positions.tobytes() for b in batch}) == 40  # the noise differs


def test_a_batch_outgrowing_its_buffers_is_resumed_with_the_same_results() -> None:
    """A thread's workspace too small for a break's records is grown mid-batch."""
    _WORKSPACES.work = Workspace(events=4, segments=16)
    state, shot = TableState.rack(), Shot(1, 0.0, 7.0)
    batch = simulate_many([state] * 3, [shot] * 3)
    assert all(same(b, simulate(state, shot)) for b in batch)
    assert len(batch[0].events) > 4


def test_bad_batches_are_refused_before_anything_is_played() -> None:
    state = TableState.rack()
    with pytest.raises(ValueError, match="2 states but 1 shots"):
        simulate_many([state, state], [Shot(1, 0.0, 1.0)])
    with pytest.raises(ValueError, match=r"states\[1\] is on another table spec"):
        simulate_many([state, TableState.rack(TableSpec(mu_roll=0.02))], [Shot(1, 0.0, 1.0)] * 2)
    with pytest.raises(ValueError, match="ball 3 is not on the table"):
        simulate_many([state.remove(3)], [Shot(3, 0.0, 1.0)])
    with pytest.raises(TypeError, match="shot must be a Shot"):
        simulate_many([state], ["shot"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="n must be a whole number"):
        simulate_noisy(state, Shot(1, 0.0, 1.0), np.random.default_rng(), -1)
    assert simulate_many([], []) == []


def test_given_deviations_play_as_the_same_draws_from_a_generator() -> None:
    from kinghill.physics import simulate_batch

    state, noise = TableState.rack(), NoiseModel()
    shots = [Shot(1, 0.1 * k, 2.0, 0.0, 0.2) for k in range(6)]
    drawn = simulate_batch([state] * 6, shots, np.random.default_rng(9), noise=noise)
    deviations = np.random.default_rng(9).standard_normal((6, 4))
    given = simulate_batch([state] * 6, shots, None, noise=noise, deviations=deviations)
    assert np.array_equal(drawn.shots, given.shots)  # the shots as executed, bit for bit
    assert all(drawn.final(k) == given.final(k) for k in range(6))
    assert not np.array_equal(drawn.shots[:, 0], [s.phi for s in shots])  # noise was applied


def test_bad_deviations_are_refused_by_name() -> None:
    from kinghill.physics import simulate_batch

    state, shots = TableState.rack(), [Shot(1, 0.0, 2.0)] * 2
    with pytest.raises(ValueError, match="without a noise model"):
        simulate_batch([state] * 2, shots, deviations=np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"shape \(3, 4\), expected \(2, 4\)"):
        simulate_batch([state] * 2, shots, noise=NoiseModel(), deviations=np.zeros((3, 4)))
    bad = np.zeros((2, 4))
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="finite"):
        simulate_batch([state] * 2, shots, noise=NoiseModel(), deviations=bad)
