"""The graded opponents: each level is a named agent that plays as the spec it is listed with,
the beginner's shaky hand is seeded and leaves the break alone, and the ratings the page and
``kinghill agents`` show are those measured on the ladder's scale
(experiments/serve/levels.json, recomputed here from the committed runs), weakest first; and
the handicap of rule 5.3 as ``kinghill play``'s flag."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from kinghill.agents import HeuristicAgent, canonical_id, make_agent
from kinghill.agents.graded import ShakyHand
from kinghill.agents.graded_specs import PLAYS_AS
from kinghill.envs import Game, ShotAction
from kinghill.experiments.cli.app import main
from kinghill.experiments.records.store import load_frame
from kinghill.experiments.serve.levels import (
    LEVELS,
    LEVELS_FILE,
    agent_ratings,
    level_ratings,
)

ROOT = Path(__file__).resolve().parents[1]


def test_each_levels_spec_is_the_one_it_plays_as_in_the_package() -> None:
    """levels.json's specs (what the ratings were measured with) are the graded module's, which
    canonical ids resolve a level to: ``strong`` is ``search`` given twice."""
    committed = json.loads(LEVELS_FILE.read_text())["levels"]
    assert {n: level["spec"] for n, level in committed.items() if n in PLAYS_AS} == PLAYS_AS
    assert set(committed) - set(PLAYS_AS) == {"beginner"}
    for name, spec in PLAYS_AS.items():
        assert canonical_id(name) == canonical_id(spec)


@pytest.mark.parametrize("name", LEVELS)
def test_each_level_is_a_named_agent_that_plays(name: str) -> None:
    game = Game()
    game.reset(seed=0)
    game.play(make_agent("heuristic", 0).act(game.view()))  # the break
    action = make_agent(name, 1).act(game.view())
    game.play(action)  # the referee takes it
    assert game.frame.shots == 2 or game.is_over


@pytest.mark.parametrize("name", LEVELS)
def test_each_level_plays_as_its_spec(name: str) -> None:
    """The spec listed beside a level (levels.json) plays the same decisions as the level, from
    the break on (the club's hand-made break included)."""
    spec = json.loads(LEVELS_FILE.read_text())["levels"][name]["spec"]
    level, same = make_agent(name, 5), make_agent(spec, 5)
    game = Game()
    game.reset(seed=2)
    for _ in range(3):
        if game.is_over:
            break
        view = game.view()
        action = level.act(view)
        assert same.act(view) == action
        game.play(action)


def test_kinghill_agents_lists_each_level_with_its_spec_and_rating(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["agents"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Graded opponents"))
    committed = json.loads(LEVELS_FILE.read_text())
    assert committed["scale"] in lines[start + 1]
    rows = [line.split() for line in lines[start + 2 :]]
    assert rows == [
        [name, entry["spec"], f"{entry['rating']:.0f}"]
        + (
            ["(anchor)"]
            if entry["low"] == entry["high"]
            else [f"[{entry['low']:.0f},", f"{entry['high']:.0f}]"]
        )
        for name, entry in ((n, committed["levels"][n]) for n in LEVELS)
    ]


def test_kinghill_agents_lists_the_levels_without_the_serve_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['starlette'] = sys.modules['uvicorn'] = None  # not installed\n"
        "from kinghill.experiments.cli.app import main\n"
        "sys.exit(main(['agents']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1].split()[:2] == ["master", "expert-position"]


def test_the_shaky_hand_is_seeded_and_leaves_the_break_alone() -> None:
    game = Game()
    game.reset(seed=0)
    view = game.view()
    assert ShakyHand(HeuristicAgent(0), seed=3).act(view) == HeuristicAgent(0).act(view)
    game.play(HeuristicAgent(0).act(view))
    view = game.view()
    steady = HeuristicAgent(0).act(view)
    first, again = (ShakyHand(HeuristicAgent(0), seed=3).act(view) for _ in range(2))
    assert first == again and isinstance(first, ShotAction) and isinstance(steady, ShotAction)
    if steady.shot.cue_ball == first.shot.cue_ball:
        assert first.shot != steady.shot and first.call == steady.call
        assert abs(first.shot.phi - steady.shot.phi) < math.radians(10)
    with pytest.raises(ValueError, match="aim_degrees"):
        ShakyHand(HeuristicAgent(0), aim_degrees=-1)


def _script_levels() -> dict[str, object]:
    spec = importlib.util.spec_from_file_location("levels_script", ROOT / "docs/serve/levels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.levels()


def test_the_ratings_shown_are_the_measured_ones_weakest_first() -> None:
    committed = json.loads(LEVELS_FILE.read_text())
    assert committed == _script_levels()  # rerun docs/serve/levels.py if the zoo moved
    ratings = [committed["levels"][name]["rating"] for name in LEVELS]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)
    shown = level_ratings()
    assert list(shown) == list(LEVELS)
    assert shown["casual"] == "1000 (anchor)"  # the scale's anchor: set, not measured
    assert shown["club"].startswith(f"{committed['levels']['club']['rating']:.0f} [")


def test_the_master_is_the_zoos_strongest_player_at_noise_1x() -> None:
    """``master`` is "the strongest player in the package" (agents/graded.py): the zoo member
    it plays as rates first at noise 1x, the scale the levels are shown on."""
    from kinghill.experiments.ladder.zoo_page import zoo_results

    one_x = next(r for r in zoo_results() if float(r.noise_scale) == 1.0)
    best = max(one_x.zoo, key=lambda standing: standing.rating.estimate)
    master = json.loads(LEVELS_FILE.read_text())["levels"]["master"]
    assert master["source"].endswith(f"({best.id})")  # and it plays as that spec: above


def test_an_agent_that_plays_as_a_level_is_shown_with_its_rating() -> None:
    """``kinghill serve --agents heuristic search:120 random``: the heuristic is ``casual``'s
    player and ``search:120`` ``strong``'s, so they are shown with those ratings (they were
    shown with none); an agent no level plays as has none."""
    levels = level_ratings()
    shown = agent_ratings(["heuristic", "search:120", "expert-position", "master", "random"])
    assert shown == {
        "heuristic": levels["casual"],
        "search:120": levels["strong"],
        "expert-position": levels["master"],
        "master": levels["master"],
    }


def test_the_page_lists_the_levels_with_their_ratings(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="needs the serve extra")
    from starlette.testclient import TestClient

    from kinghill.experiments.serve.app import create_app
    from kinghill.experiments.serve.tables import Tables

    app = create_app(Tables(tmp_path, LEVELS), ratings=level_ratings())
    listed = TestClient(app, base_url="http://127.0.0.1").get("/api/setup").json()["agents"]
    assert [a["name"] for a in listed] == list(LEVELS)
    assert all(a["rating"] == level_ratings()[a["name"]] for a in listed)


def test_play_takes_the_handicap_of_rule_5_3(tmp_path: Path) -> None:
    """``kinghill play A B --handicap 1,7``: A needs one white, B seven (5.3); the record keeps
    them in every decision's frame."""
    assert main(["play", "random", "random", "--handicap", "1,7", "--record", str(tmp_path)]) == 0
    record = load_frame(tmp_path)
    assert {d.view.frame.required for d in record.decisions} == {(1, 7)}


@pytest.mark.parametrize("value", ["0,3", "3", "3,3,3", "a,b", "8,1"])
def test_a_bad_handicap_is_a_one_line_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "random", "random", "--handicap", value]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("kinghill play: error: --handicap:") and "\n" not in error
