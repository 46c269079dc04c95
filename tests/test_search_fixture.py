"""Issue 35 item 3: the search decides as it did before its inner loop was made cheaper.

``tests/data/search_fixture.npz`` (made by ``tests/search_fixture.py``, whose docstring says how
and when to regenerate it) holds what the seeded search chose on 353 positions (shot decisions
and 10.4 choices) at its default budget, and its variants (one shot
deeper, the learnt value, the prior) on a sixth of them: every chosen action must come out the
same, and every arm of the last search must have had the same simulations, scored the same
within 1e-9 (sums of the same scores).
"""

from dataclasses import replace

import numpy as np
import pytest
from search_fixture import PATH, cases, load, positions, record

from kinghill.agents.search import position_value, position_values
from kinghill.envs.planning.candidates import best_chance, best_chances
from kinghill.envs.rules import EndReason, FrameResult
from kinghill.physics import N_BALLS


@pytest.fixture(scope="module")
def recorded() -> dict[str, np.ndarray]:
    return load(PATH)


def test_the_search_chooses_the_recorded_actions(recorded: dict[str, np.ndarray]) -> None:
    chosen = cases()
    assert [name for name, _, _ in chosen] == recorded["agents"].tolist()
    assert [seed for _, seed, _ in chosen] == recorded["seeds"].tolist()
    now = record(chosen)
    differ = [
        f"{recorded['agents'][k]} seed {recorded['seeds'][k]}"
        for k in range(len(chosen))
        if not np.array_equal(now["actions"][k], recorded["actions"][k], equal_nan=True)
        or now["calls"][k] != recorded["calls"][k]
    ]
    assert not differ, f"{len(differ)} of {len(chosen)} decisions differ: {differ[:5]}"
    assert np.array_equal(now["arm_owner"], recorded["arm_owner"])
    assert np.array_equal(now["arm_count"], recorded["arm_count"])
    np.testing.assert_allclose(now["arm_total"], recorded["arm_total"], rtol=0, atol=1e-9)


def test_the_batched_leaf_scores_as_the_leaf_does_one_at_a_time() -> None:
    """The search's leaves scored many at a time (one compiled call for the pot chances) give
    :func:`position_value`'s numbers exactly, for either player, finished frames included; and
    :func:`best_chances` gives :func:`best_chance`'s for any cue and object balls."""
    views = [view for _, view in positions()]
    rng = np.random.default_rng(0)
    finished = [
        (replace(v.frame, result=FrameResult(1, EndReason.SECOND_FOUL)), v.state) for v in views[:5]
    ]
    leaves = [(v.frame, v.state) for v in views] + finished
    for me in (0, 1):
        assert position_values(leaves, me) == [position_value(f, s, me) for f, s in leaves]
    cues = rng.random((len(views), N_BALLS)) < 0.5
    objects = rng.random((len(views), N_BALLS)) < 0.5
    batched = best_chances([v.state for v in views], cues, objects)
    one_by_one = [
        best_chance(v.state, np.flatnonzero(c).tolist(), np.flatnonzero(o).tolist())
        for v, c, o in zip(views, cues, objects, strict=True)
    ]
    assert batched.tolist() == one_by_one and max(one_by_one) > 0
