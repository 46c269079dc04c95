"""A fuzz of ``kinghill serve``'s API (hypothesis): random and hostile bodies, near-valid
decisions among them, sent to every endpoint of a live frame against ``random``. The server never
fails (no 5xx, no exception), a refused request leaves the frame as it was, and after every
request the record on disk holds exactly the frame's decisions."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the serve extra")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kinghill.experiments.records.store import load_frame  # noqa: E402
from kinghill.experiments.serve.app import create_app  # noqa: E402
from kinghill.experiments.serve.tables import Tables  # noqa: E402
from kinghill.physics import Cushion, Pocket  # noqa: E402

HOSTILE_TEXT = st.sampled_from(
    ["", "<script>alert(1)</script>", "../../etc/passwd", "os:system", "\u0000", "ü" * 50, "NaN"]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    HOSTILE_TEXT,
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
TOUCH = st.one_of(st.sampled_from([c.name for c in Cushion]), st.integers(-2, 9))
CALL = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(
                ["whites", "plain", "double", "abricol", "combination", "carom", "x"]
            ),
            "pocket": st.one_of(st.none(), st.sampled_from([p.name for p in Pocket])),
            "route": st.lists(TOUCH, max_size=4),
        }
    ),
)
SHOT = st.fixed_dictionaries(
    {
        "cue_ball": st.integers(-1, 8),
        "phi": st.floats(-7, 7),
        "speed": st.floats(-1, 11),
        "tip": st.lists(st.floats(-0.6, 0.6), min_size=2, max_size=2),
    },
    optional={
        "call": CALL,
        "place": st.lists(st.floats(-0.5, 4), min_size=2, max_size=2),
    },
)
BODY = st.one_of(
    SHOT.map(lambda d: json.dumps(d).encode()),
    st.fixed_dictionaries({"play_on": st.one_of(st.booleans(), SCALARS)}).map(
        lambda d: json.dumps(d).encode()
    ),
    JSONISH.map(lambda d: json.dumps(d).encode()),
    st.binary(max_size=64),
    st.sampled_from([b"{", b'{"phi": NaN}', b"[]", b"null", b"1e999", b'{"cue_ball": 1e400}']),
)
PATHS = st.sampled_from(["shot", "choice", "preview", "extension", "../games", "nope"])


class Fuzzed:
    def __init__(self, folder: Path) -> None:
        self.tables = Tables(folder, ("random",), max_games=2)
        self.client = TestClient(create_app(self.tables), base_url="http://127.0.0.1")
        self.folder = folder
        self.key = ""
        self.fresh()

    def fresh(self) -> None:
        if self.key:
            self.client.delete(f"/api/games/{self.key}")
        self.key = self.client.post("/api/games", json={"opponent": "random"}).json()["game"]

    def settled(self) -> dict[str, Any]:
        """The frame once the agent has finished its turn."""
        for _ in range(200):
            state = self.client.get(f"/api/games/{self.key}").json()
            if state["your_turn"] or state["result"]:
                return state
            time.sleep(0.02)
        raise AssertionError("the agent never finished")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(requests=st.lists(st.tuples(PATHS, BODY, st.booleans()), min_size=1, max_size=6))
def test_hostile_requests_never_break_or_corrupt_a_frame(
    tmp_path_factory: pytest.TempPathFactory, requests: list[tuple[str, bytes, bool]]
) -> None:
    fuzzed = Fuzzed(tmp_path_factory.mktemp("fuzz"))
    for path, body, as_json in requests:
        before = fuzzed.settled()
        if before["result"]:
            fuzzed.fresh()
            before = fuzzed.settled()
        headers = {"Content-Type": "application/json" if as_json else "text/plain"}
        response = fuzzed.client.post(
            f"/api/games/{fuzzed.key}/{path}", content=body, headers=headers
        )
        assert response.status_code < 500
        if response.status_code >= 400:
            error = response.json()["error"] if path not in ("nope", "../games") else ""
            assert isinstance(error, str)
            after = fuzzed.client.get(f"/api/games/{fuzzed.key}").json()
            for key in ("count", "position", "to_move", "decision", "fouls", "result"):
                assert after[key] == before[key], (path, body, key)
        state = fuzzed.settled()
        record = load_frame(fuzzed.folder, state["number"])
        assert len(record.decisions) == state["count"]
        for decision in record.decisions:
            state_before = decision.view.state
            assert all(
                math.isfinite(v) for v in state_before.positions[state_before.on_table].ravel()
            )
