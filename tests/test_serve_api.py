"""``kinghill serve``'s JSON API through an HTTP client (Starlette's TestClient): every endpoint,
every bad input refused with a 4xx naming what is wrong and the frame left as it was, the
limits (frames at once, idle frames), and every frame's record on disk after every decision."""

from __future__ import annotations

import dataclasses
import math
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the serve extra")
from starlette.testclient import TestClient  # noqa: E402

from kinghill.agents import make_agent  # noqa: E402
from kinghill.envs import Agent, FrameView, ShotAction  # noqa: E402
from kinghill.envs.rules import (  # noqa: E402
    Decision,
    EndReason,
    FrameResult,
    TimeAllowance,
)
from kinghill.experiments.htmlreport.replays import replay_data  # noqa: E402
from kinghill.experiments.records.dataset import export_dataset  # noqa: E402
from kinghill.experiments.records.store import load_frame  # noqa: E402
from kinghill.experiments.serve.app import CONTENT_SECURITY, create_app  # noqa: E402
from kinghill.experiments.serve.payloads import MAX_BODY  # noqa: E402
from kinghill.experiments.serve.tables import Tables  # noqa: E402
from kinghill.physics import Shot  # noqa: E402

BREAK = {"cue_ball": 1, "phi": 0.0, "speed": 7.0}


class Gated:
    """An agent that waits for the test to let it decide, then misses (a foul, R-fouls(a)):
    its turn lasts as long as the test needs."""

    def __init__(self) -> None:
        self.go = threading.Event()

    def act(self, view: FrameView) -> ShotAction:
        self.go.wait(10)
        cue = next(b for b in view.state.balls_on_table() if b != 0)
        return ShotAction(
            Shot(cue, math.pi / 2 if view.state.xy(cue)[1] < 0.9 else -math.pi / 2, 0.2)
        )


class Server:
    """A client on a fresh server whose list is random, search and a gated agent."""

    def __init__(self, folder: Path, **options: Any) -> None:
        self.gated = Gated()

        def build(name: str, seed: int) -> Agent:
            return self.gated if name == "gated" else make_agent(name, seed)

        self.tables = Tables(folder, ("random", "search", "gated"), build=build, **options)
        self.client = TestClient(create_app(self.tables), base_url="http://127.0.0.1")
        self.folder = folder

    def new(self, opponent: str = "gated", **body: Any) -> dict[str, Any]:
        # seed 0: the person's break (BREAK) passes the turn (a seedless frame may pot a white)
        response = self.client.post("/api/games", json={"opponent": opponent, "seed": 0, **body})
        assert response.status_code == 201, response.text
        return response.json()

    def state(self, key: str) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{key}")
        assert response.status_code == 200, response.text
        return response.json()

    def past_the_break(self, **body: Any) -> tuple[str, dict[str, Any]]:
        """A new frame in which the person broke and the gated agent answered (a foul, played
        on): the person's shot is due. Its key and state."""
        key = self.new(**body)["game"]
        self.client.post(f"/api/games/{key}/shot", json=BREAK)
        self.gated.go.set()
        state = self.wait_turn(key)
        if state["decision"] == "choice":
            self.client.post(f"/api/games/{key}/choice", json={"play_on": True})
            state = self.state(key)
        return key, state

    def wait_turn(self, key: str) -> dict[str, Any]:
        """The frame once the person is to decide or it is over."""
        for _ in range(400):
            state = self.state(key)
            if state["your_turn"] or state["result"]:
                return state
            time.sleep(0.025)
        raise AssertionError("the agent never finished its turn")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    made = Server(tmp_path)
    yield made
    made.gated.go.set()


def _same(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("count", "position", "to_move", "decision", "credited", "fouls", "result"):
        assert before[key] == after[key], key


def test_the_page_is_self_contained_and_says_what_it_may_load(server: Server) -> None:
    response = server.client.get("/")
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == CONTENT_SECURITY
    page = response.text
    assert "src=" not in page and "href=" not in page  # nothing loaded from anywhere
    assert "window.kinghillTable" in page  # the report's painter, the one drawing code


def test_setup_names_only_the_servers_agents(server: Server) -> None:
    data = server.client.get("/api/setup").json()
    assert [a["name"] for a in data["agents"]] == ["random", "search", "gated"]
    assert {k["kind"] for k in data["kinds"]} >= {"whites", "plain", "double", "carom"}
    assert len(data["pockets"]) == 6 and len(data["cushions"]) == 6


def test_a_frame_against_an_agent_is_recorded_after_every_decision(server: Server) -> None:
    """A server killed mid-frame keeps every finished shot: the record is on disk after the
    person's break while the agent still thinks, and grows with each decision."""
    state = server.new(required=[2, 3])
    key = state["game"]
    assert state["your_turn"] and state["decision"] == "break" and state["required"] == [2, 3]
    played = server.client.post(f"/api/games/{key}/shot", json=BREAK).json()
    assert played["count"] == 1 and played["decisions"][0]["ruling"]
    record = load_frame(server.folder, 0)
    assert len(record.decisions) == 1 and record.result is None
    assert record.agents == ("person", "gated")
    assert record.decisions[0].view.frame.required == (2, 3)  # the handicap, 5.3
    server.gated.go.set()
    state = server.wait_turn(key)
    record = load_frame(server.folder, 0)
    assert len(record.decisions) == state["count"] >= 2
    assert [str(d.ruling) for d in record.decisions if d.ruling] == [
        d["ruling"] for d in server.state(key)["decisions"] if d["ruling"]
    ]


def test_the_person_breaks_second_when_asked_and_the_agent_breaks(server: Server) -> None:
    state = server.new(opponent="random", person_breaks=False, required=[3, 1])
    assert state["agents"] == ["random", "person"] and state["person"] == 1
    assert state["required"] == [1, 3]
    state = server.wait_turn(state["game"])
    assert state["count"] >= 1 and state["decisions"][0]["player"] == 0


def test_a_watched_frame_is_played_to_its_end_and_kept(server: Server) -> None:
    response = server.client.post("/api/watch", json={"agents": ["random", "random"], "seed": 3})
    assert response.status_code == 201
    key = response.json()["game"]
    state = server.wait_turn(key)
    assert state["result"] and state["person"] is None
    record = load_frame(server.folder, 0)
    assert str(record.result) == state["result"] and len(record.decisions) == state["count"]
    shot = server.client.post(f"/api/games/{key}/shot", json=BREAK)
    assert shot.status_code == 409 and "over" in shot.json()["error"]
    # the record replays in report.html as it was shown live, and exports as a data set
    replayed = replay_data(server.folder)["frames"][0]["decisions"]
    assert replayed == server.state(key)["decisions"]
    summary = export_dataset([server.folder], server.folder / "shots.npz")
    assert summary.rows == state["count"]


def test_the_10_4_choice_after_the_opponents_foul(server: Server) -> None:
    """The gated agent breaks with a ball that is not white 1: no valid shot, a foul charged
    (12.4, R-fault), and the person's 10.4 choice is due."""
    key = server.new(person_breaks=False)["game"]
    server.gated.go.set()
    state = server.wait_turn(key)
    assert state["decision"] == "choice" and state["fouls"] == [1, 0]
    wrong = server.client.post(f"/api/games/{key}/shot", json={**BREAK, "cue_ball": 2})
    assert wrong.status_code == 422 and "10.4 choice is due" in wrong.json()["error"]
    bad = server.client.post(f"/api/games/{key}/choice", json={"play_on": "yes"})
    assert bad.status_code == 400 and "play_on" in bad.json()["error"]
    _same(state, server.state(key))
    good = server.client.post(f"/api/games/{key}/choice", json={"play_on": True})
    assert good.status_code == 200 and good.json()["decision"] == "shot"


def test_the_preview_says_the_call_in_words_and_what_does_not_fit(server: Server) -> None:
    key = server.new()["game"]
    ok = server.client.post(f"/api/games/{key}/preview", json=BREAK)
    assert ok.json() == {"call": "whites only (no call, 5.1)", "problem": None}
    called = server.client.post(
        f"/api/games/{key}/preview",
        json={**BREAK, "call": {"kind": "plain", "pocket": "REAR_LEFT", "route": []}},
    )
    assert called.status_code == 200 and "break" in called.json()["problem"], called.text
    malformed = server.client.post(f"/api/games/{key}/preview", json={**BREAK, "speed": -1})
    assert malformed.status_code == 400 and "speed" in malformed.json()["error"]


def test_the_section_12_clock_and_its_extension(server: Server) -> None:
    key, state = server.past_the_break(round=3)
    assert state["clock"]["limit"] == 35 and state["clock"]["extension"] == 15  # 12.3, 12.5
    first = server.client.post(f"/api/games/{key}/extension", json={}).json()
    second = server.client.post(f"/api/games/{key}/extension", json={}).json()
    assert first["granted"] and not second["granted"]  # once a frame (12.5)
    assert server.state(key)["clock"]["claimed"]


def test_a_person_who_lets_the_time_run_out_is_charged_then_without_a_request(
    server: Server,
) -> None:
    """12.4 at the moment the time runs out, not at the page's next request (a page closed or
    reloaded makes none): the table's timer charges the foul and the frame goes on. The
    break's clock is cut to 0.3 s here; nothing asks the server meanwhile."""
    key = server.new(round=3)["game"]
    table = server.tables.tables[key]
    with table.lock:
        table.game.allowance = lambda: TimeAllowance(0.3)  # type: ignore[method-assign]
        table._start_clock()
    for _ in range(100):
        with table.lock:
            if table.recorder.decisions:
                break
        time.sleep(0.05)
    with table.lock:
        (decision,) = table.recorder.decisions
        frame = table.game.frame
    assert frame.fouls[0] == 1 and decision.action is None  # the person's break: timed out
    assert 0.3 <= decision.seconds < 1.0  # charged when the time ran out


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"{not json", 400, "not JSON"),
        (b'{"cue_ball": 1, "phi": NaN, "speed": 7}', 400, "NaN"),
        (b'{"cue_ball": 1, "phi": 0, "speed": Infinity}', 400, "Infinity"),
        (b"[1, 2]", 400, "JSON object"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 70}', 400, "speed"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 0}', 400, "speed must be in [0.1, 10], got 0"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 0.05}', 400, "speed must be in [0.1, 10]"),
        (b'{"cue_ball": 9, "phi": 0, "speed": 7}', 400, "cue_ball"),
        (b'{"cue_ball": true, "phi": 0, "speed": 7}', 400, "cue_ball"),
        (b'{"cue_ball": 1, "phi": "left", "speed": 7}', 400, "phi"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 7, "tip": [0.5, 0.5]}', 400, "miscue"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 7, "place": [-1, 0]}', 400, "place"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 7, "place": [2.5, 0.9]}', 422, "house"),
        (b'{"cue_ball": 3, "phi": 0, "speed": 7}', 422, "break"),
        (b'{"cue_ball": 1, "phi": 0, "speed": 7, "call": {"kind": "x"}}', 400, "kind"),
        (
            b'{"cue_ball": 1, "phi": 0, "speed": 7, "call": {"kind": "double", "pocket": "NOPE"}}',
            400,
            "pocket",
        ),
        (
            b'{"cue_ball": 1, "phi": 0, "speed": 7, "call": '
            b'{"kind": "double", "pocket": "REAR_LEFT", "route": [9]}}',
            400,
            "touch",
        ),
        (b'{"cue_ball": 1, "phi": 0, "speed": 7, "evil": 1}', 400, "unknown fields"),
        (b"\xff\xfe", 400, "UTF-8"),
    ],
)
def test_a_bad_shot_is_refused_and_changes_nothing(
    server: Server, body: bytes, status: int, words: str
) -> None:
    key = server.new()["game"]
    before = server.state(key)
    response = server.client.post(
        f"/api/games/{key}/shot", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status, response.text
    assert words in response.json()["error"]
    _same(before, server.state(key))
    assert load_frame(server.folder, 0).decisions == ()


def test_a_ball_that_is_not_on_the_table_cannot_be_the_cue_ball(server: Server) -> None:
    key, _ = server.past_the_break()
    table = server.tables.tables[key]
    with table.lock:
        table.game.state = table.game.state.remove(5)
    before = server.state(key)
    response = server.client.post(f"/api/games/{key}/shot", json={**BREAK, "cue_ball": 5})
    assert response.status_code == 422 and "5" in response.json()["error"]
    _same(before, server.state(key))


def test_a_place_on_a_shot_after_the_break_is_refused(server: Server) -> None:
    """Only the break places a ball (4.1): a shot with a place mid-frame is a 422, and nothing
    of it reaches the record (an exported data set would hold a place never played)."""
    key, before = server.past_the_break()
    cue = next(b for b, at in enumerate(before["position"]) if at is not None and b != 0)
    response = server.client.post(
        f"/api/games/{key}/shot", json={**BREAK, "cue_ball": cue, "place": [0.3, 0.8]}
    )
    assert response.status_code == 422 and "for the break only" in response.json()["error"]
    _same(before, server.state(key))


def test_an_action_out_of_turn_is_refused(server: Server) -> None:
    key = server.new()["game"]
    server.client.post(f"/api/games/{key}/shot", json=BREAK)
    before = server.state(key)
    for path, body in (("shot", BREAK), ("choice", {"play_on": True}), ("extension", {})):
        response = server.client.post(f"/api/games/{key}/{path}", json=body)
        assert response.status_code == 409 and "not your turn" in response.json()["error"]
    _same(before, server.state(key))


def test_unknown_games_agents_and_specs_are_refused(server: Server) -> None:
    assert server.client.get("/api/games/nope").status_code == 404
    assert server.client.post("/api/games/nope/shot", json=BREAK).status_code == 404
    assert server.client.delete("/api/games/nope").status_code == 404
    assert server.client.get("/api/games/x?since=-1").status_code in (400, 404)
    spec = "os:system?command=true"
    for body in ({"opponent": spec}, {"opponent": "heuristic"}, {"opponent": 3}):
        response = server.client.post("/api/games", json=body)
        assert (
            response.status_code == 400 and "opponent" in response.text or "agent" in response.text
        )
    watch = server.client.post("/api/watch", json={"agents": ["random", "mypkg.evil:Agent"]})
    assert watch.status_code == 400 and "unknown agent" in watch.json()["error"]
    assert "mypkg" not in sys.modules  # a request never imports a module
    assert not server.tables.tables


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"opponent": "random", "required": [0, 3]}, "required"),
        ({"opponent": "random", "required": [3]}, "required"),
        ({"opponent": "random", "round": 0}, "round"),
        ({"opponent": "random", "round": 1.5}, "round"),
        ({"opponent": "random", "seed": -1}, "seed"),
        ({"opponent": "random", "seed": "²"}, "seed"),
        ({"opponent": "random", "seed": "9" * 30}, "seed"),
        ({"opponent": "random", "person_breaks": "no"}, "person_breaks"),
        ({"opponent": "random", "colour": "red"}, "unknown fields"),
    ],
)
def test_a_bad_new_frame_is_refused(server: Server, body: dict[str, Any], words: str) -> None:
    response = server.client.post("/api/games", json=body)
    assert response.status_code == 400 and words in response.json()["error"]
    assert not server.tables.tables


def test_a_huge_body_and_a_body_that_is_not_json_are_refused(server: Server) -> None:
    key = server.new()["game"]
    huge = server.client.post(
        f"/api/games/{key}/shot",
        content=b"{" + b" " * (MAX_BODY * 10) + b"}",
        headers={"Content-Type": "application/json"},
    )
    assert huge.status_code == 413 and "bytes" in huge.json()["error"]
    form = server.client.post(f"/api/games/{key}/shot", data={"cue_ball": "1"})
    assert form.status_code == 415 and "JSON" in form.json()["error"]


def test_at_most_n_frames_at_once_and_leaving_frees_one(tmp_path: Path) -> None:
    made = Server(tmp_path, max_games=2)
    first = made.new()["game"]
    made.new()
    full = made.client.post("/api/games", json={"opponent": "random"})
    assert full.status_code == 429 and "2 frames at once" in full.json()["error"]
    assert made.client.delete(f"/api/games/{first}").status_code == 204
    assert made.client.get(f"/api/games/{first}").status_code == 404
    made.new()
    assert sorted(p.name for p in (tmp_path / "records").iterdir()) == [
        "000000.json.gz",
        "000001.json.gz",
        "000002.json.gz",
    ]


def test_a_full_server_lets_a_finished_frame_go_before_refusing(tmp_path: Path) -> None:
    """A finished frame holds no seat at the table: when the server is full, the finished
    ones are let go (the least recently looked at first) and the new frame starts."""
    made = Server(tmp_path, max_games=2)
    first, second = made.new()["game"], made.new()["game"]
    table = made.tables.tables[first]
    with table.lock:  # the frame ended (its person lost on a second foul)
        ended = FrameResult(1, EndReason.SECOND_FOUL)
        table.game.frame = dataclasses.replace(table.game.frame, result=ended)
    third = made.new()["game"]
    assert made.client.get(f"/api/games/{first}").status_code == 404
    assert made.client.get(f"/api/games/{second}").status_code == 200
    full = made.client.post("/api/games", json={"opponent": "random"})  # both in play: full
    assert full.status_code == 429 and made.client.get(f"/api/games/{third}").status_code == 200


def test_idle_frames_are_let_go_and_records_never_overwritten(tmp_path: Path) -> None:
    made = Server(tmp_path, idle=0.2)
    key = made.new()["game"]
    time.sleep(0.3)
    assert made.client.get(f"/api/games/{key}").status_code == 404
    again = Server(tmp_path)  # a second server on the same folder takes the next free number
    assert again.new()["number"] == 1
    assert made.new()["number"] == 2  # and so does the first, though it counted to 0
    assert load_frame(tmp_path, 0).agents == ("person", "gated")


def test_another_host_header_is_refused(server: Server) -> None:
    """A web site that points its own name at 127.0.0.1 (DNS rebinding) gets nothing."""
    assert server.client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_the_person_sees_the_decision_the_game_took(server: Server) -> None:
    key = server.new()["game"]
    server.client.post(f"/api/games/{key}/shot", json=BREAK)
    state = server.state(key)
    record = load_frame(server.folder, 0)
    assert record.decisions[0].decision is Decision.BREAK
    assert state["decisions"][0]["ruling"] == str(record.decisions[0].ruling)


def test_an_engine_error_stops_the_frame_and_says_so(tmp_path: Path) -> None:
    made = Server(tmp_path)
    key = made.new(person_breaks=False)["game"]  # the gated agent waits to break
    table = made.tables.tables[key]

    def fail(*args: object) -> None:
        raise RuntimeError("the kernel broke")

    table.game.settle = fail  # type: ignore[method-assign]
    made.gated.go.set()
    for _ in range(200):
        state = made.state(key)
        if state["fault"]:
            break
        time.sleep(0.02)
    assert "the kernel broke" in state["fault"] and state["count"] == 0


def test_a_listed_agent_that_cannot_be_built_is_a_503(tmp_path: Path) -> None:
    def build(name: str, seed: int) -> Agent:
        raise OSError("the model file is gone")

    tables = Tables(tmp_path, ("random",), build=build)
    client = TestClient(create_app(tables), base_url="http://127.0.0.1")
    response = client.post("/api/games", json={"opponent": "random"})
    assert response.status_code == 503 and "the model file is gone" in response.json()["error"]
    assert not tables.tables


def test_a_claim_and_a_shot_before_the_clock_starts_count_from_zero(server: Server) -> None:
    """The person's clock starts when the shots before the decision have been shown; a claim
    (12.5) and a shot made while they still play are in time, not an error."""
    key = server.new(round=3)["game"]
    table = server.tables.tables[key]
    assert table.clock is not None
    table.clock.started = time.perf_counter() + 30  # as if shots still played on the page
    assert server.client.post(f"/api/games/{key}/extension", json={}).json()["granted"]
    shot = server.client.post(f"/api/games/{key}/shot", json=BREAK)
    assert shot.status_code == 200, shot.text
    assert shot.json()["extension_used"][0] and "12.4" not in shot.json()["decisions"][0]["ruling"]


def test_a_person_out_of_time_is_charged_a_foul(server: Server) -> None:
    """12.4: the person's shot not played within the round's limit (and the extension, unclaimed
    once the base time is over, 12.7) is a foul, charged when the page next asks."""
    key = server.new(round=3)["game"]
    table = server.tables.tables[key]
    assert table.clock is not None
    table.clock.started = time.perf_counter() - 36  # 35 s in round 3 (12.3), and one more
    state = server.state(key)
    assert state["count"] == 1 and state["fouls"] == [1, 0]
    assert "12.4" in state["decisions"][0]["ruling"]
    assert load_frame(server.folder, state["number"]).decisions[0].played is None
