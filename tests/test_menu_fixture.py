"""Issue 9 item 6: the shot menu gives what it gave when the masked reference model was trained.

``tests/data/menu_fixture.npz`` holds a few hundred recorded decisions (breaks, shots, 10.4
choices, other whites required, balls hanging in mouths) with the menu's outputs then: the masked
observation, the threat, the decoded actions of every slot, the heuristic's action, every legal
pot (identity, chance; cut, paths and heading of the offered ones) and the safeties. Numbers must
agree within 1e-12, everything else exactly.

When the table's constants change (pocket geometry, ``TableSpec``, the windows of
``envs.routes.pocket_window``), the menu changes with them and the first test says so: check
that the change is meant, then regenerate with ``python tests/menu_fixture.py`` and commit
``tests/data/menu_fixture.npz``. Regenerate from a commit whose menu code is known to be right
(the fixture checks an optimisation against the code before it, not the code against itself).
"""

import numpy as np
import pytest
from menu_fixture import PATH, load, record, table_fingerprint

from kinghill.physics import TableSpec

REGENERATE = (
    "the table's constants changed since tests/data/menu_fixture.npz was recorded, so the menu "
    "legitimately changes: if that is meant, regenerate it with `python tests/menu_fixture.py` "
    "and commit the file (see this module's docstring)"
)


@pytest.fixture(scope="module")
def fixture() -> tuple:
    return load(PATH)


def test_the_fixture_was_recorded_on_this_table(fixture: tuple) -> None:
    fingerprint, _, _ = fixture
    now = table_fingerprint(TableSpec())
    assert fingerprint.shape == now.shape and np.array_equal(fingerprint, now), REGENERATE


def test_menus_observations_and_actions_match_the_recording(fixture: tuple) -> None:
    fingerprint, views, recorded = fixture
    if not np.array_equal(fingerprint, table_fingerprint(TableSpec())):
        pytest.skip(REGENERATE)
    assert len(views) >= 300
    now = record(views)
    assert now.keys() == recorded.keys()
    for key, expected in recorded.items():
        got = now[key]
        assert got.shape == expected.shape, key
        if np.issubdtype(expected.dtype, np.floating):
            bad = ~np.isclose(got, expected, rtol=0.0, atol=1e-12, equal_nan=True)
            first = np.argwhere(bad)[0] if bad.any() else None
            assert not bad.any(), f"{key}: {bad.sum()} entries differ, first at {first}"
        else:
            assert np.array_equal(got, expected), key
