"""Issue 35 item 3: the search decides as it did before its inner loop was made cheaper.

``tests/data/search_fixture.npz`` (made by ``tests/search_fixture.py``, whose docstring says how
and when to regenerate it) holds what the seeded search chose on 353 positions (shot decisions
and 10.4 choices) at its default budget, and its variants (one shot
deeper, the learnt value, the prior) on a sixth of them: every chosen action must come out the
same, and every arm of the last search must have had the same simulations, scored the same
within 1e-9 (sums of the same scores).
"""

import numpy as np
import pytest
from search_fixture import PATH, cases, load, record


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
