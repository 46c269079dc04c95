"""The ladder: the fixed-scale fit (known answers, a cycle), the rows of a candidate played once
and reused, and the zoo's matrix and page built from a tiny zoo with a scripted frame player."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kinghill.experiments.ladder.errors import LadderError
from kinghill.experiments.ladder.html import write_ladder_page
from kinghill.experiments.ladder.matrix import Matrix
from kinghill.experiments.ladder.play import build_zoo, ladder
from kinghill.experiments.ladder.rating import bound, rating_against, stronger, zoo_scale
from kinghill.experiments.ladder.report import ONLY_THE_ANCHOR, ladder_markdown, only_the_anchor
from kinghill.experiments.ladder.tally import time_bin
from kinghill.experiments.ladder.transitivity import cycles, nash_average
from kinghill.experiments.ladder.zoo import ZOO_FILE, load_zoo, matrix_path
from kinghill.experiments.ladder.zoo_page import PAGE, write_zoo_page, zoo_markdown
from kinghill.experiments.tournaments.frames import FrameOutcome, frame_seed
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.experiments.tournaments.stats import ELO_SCALE, Z95, Interval

STRENGTH = {"random@1": 0, "heuristic@1": 2, "middle@1": 1, "strong": 3, "strong@1": 3, "weak": -1}


def _probability(elo: float) -> float:
    return 1.0 / (1.0 + 10 ** (-elo / 400))


def test_the_fit_recovers_a_consistent_matrix_anchored() -> None:
    """Scores exactly as Bradley-Terry with ratings 0, 400, 800 predicts: the maximum
    likelihood is those ratings, with the anchor at its rating whatever its place."""
    truth = np.array([400.0, 0.0, 800.0])
    frames = 1000.0
    wins = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if i != j:
                wins[i, j] = frames * _probability(truth[i] - truth[j])
    ratings = zoo_scale(wins, np.zeros((3, 3)), anchor=1, anchor_rating=1000.0).ratings
    np.testing.assert_allclose([r.estimate for r in ratings], truth + 1000, atol=1e-6)
    assert ratings[1].low == ratings[1].high == 1000.0  # the anchor is the scale's fixed point
    assert ratings[2].low < 1800 < ratings[2].high
    # a candidate rated 600 against that fixed field
    field = truth
    won = frames * _probability(600 - field)
    candidate = rating_against(won, frames - won, np.zeros(3), field, samples=200, prior=0.0)
    assert candidate.estimate == pytest.approx(600, abs=1e-6)
    assert candidate.low < 600 < candidate.high


def test_a_perfect_separation_gives_bounds_and_the_rated_a_known_interval() -> None:
    """Issue 36.4: a and b (the anchor, at 1000) split 1000 frames evenly; c lost all its 100
    frames against each of them, d won all of its. a is rated 1000 exactly, its interval the
    Laplace approximation's: the Fisher information of 1000 frames at p = 1/2 is 250, so the
    difference's sd is 1/sqrt(250) natural-log units. c gets the bound at which losing 200
    frames to agents rated 1000 has probability 5%: (1 - p)^200 = 0.05 (closed form), not a
    number set by a prior; d the mirror lower bound."""
    wins = np.array([[0, 500, 100, 0], [500, 0, 100, 0], [0, 0, 0, 0], [100, 100, 100, 0]], float)
    scale = zoo_scale(wins, np.zeros((4, 4)), anchor=1, anchor_rating=1000.0)
    a, b, c, d = scale.ratings
    assert b == Interval(1000.0, 1000.0, 1000.0) and a.estimate == pytest.approx(1000.0)
    half = Z95 * ELO_SCALE / np.sqrt(250.0)
    assert (a.low, a.high) == pytest.approx((1000 - half, 1000 + half))
    p = 1 - 0.05 ** (1 / 200)
    expected = 1000 + 400 * np.log10(p / (1 - p))
    assert c.high == pytest.approx(expected) and c.low == -np.inf and c.estimate == c.high
    assert d.low == pytest.approx(2000 - expected) and d.high == np.inf
    assert scale.level == (1, 1, 2, 0) and scale.rated == (True, True, False, False)
    chance = stronger(scale)
    assert chance[3, 0] == chance[0, 2] == 1.0 and chance[2, 3] == 0.0
    assert chance[0, 1] == pytest.approx(0.5)


def test_a_clear_head_to_head_is_told_apart_though_the_intervals_overlap() -> None:
    """Issue 36.4: s and t both score 0.9 against the anchor h over 100 frames (wide
    intervals of the difference to h, overlapping) while s beat t 600-400 over 1000: the joint
    posterior says s is stronger with probability above 0.99."""
    wins = np.array([[0, 10, 10], [90, 0, 600], [90, 400, 0]], float)
    scale = zoo_scale(wins, np.zeros((3, 3)), anchor=0, anchor_rating=1000.0)
    _, s, t = scale.ratings
    assert s.estimate > t.estimate and s.low < t.high  # the intervals overlap
    assert stronger(scale)[1, 2] > 0.99
    assert stronger(scale)[2, 1] == pytest.approx(1 - stronger(scale)[1, 2])


def test_a_candidate_that_lost_every_frame_gets_a_bound_and_ranks_last() -> None:
    field = np.array([1000.0, 1200.0])
    rating = rating_against(np.zeros(2), np.array([50.0, 50.0]), np.zeros(2), field)
    assert rating == bound(False, np.array([50.0, 50.0]), field) and rating.low == -np.inf


def test_a_cyclic_matrix_rates_everyone_equal_and_nash_spreads_over_the_cycle() -> None:
    wins = np.array([[0, 30, 10], [10, 0, 30], [30, 10, 0]], float)  # a > b > c > a
    draws = np.zeros((3, 3))
    ratings = zoo_scale(wins, draws, anchor=0).ratings
    np.testing.assert_allclose([r.estimate for r in ratings], 0.0, atol=1e-6)
    assert cycles(["a", "b", "c"], wins, draws) == [("a", "b", "c")]
    nash = nash_average(wins, draws)
    np.testing.assert_allclose(nash.mass, 1 / 3, atol=1e-6)
    np.testing.assert_allclose(nash.skill, 0.0, atol=1e-6)
    transitive = np.array([[0, 30, 30], [10, 0, 30], [10, 10, 0]], float)
    assert cycles(["a", "b", "c"], transitive, draws) == []
    assert nash_average(transitive, draws).mass[0] == pytest.approx(1.0)


class ScriptedPlayer:
    """Frames without physics: the stronger agent (by :data:`STRENGTH`) wins, except in the
    frames whose seed is 1 modulo 4 (three of the zoo's eight); counts every frame it plays."""

    def __init__(self) -> None:
        self.played = 0

    def __call__(
        self, agent_a: str, agent_b: str, seed: int, options: FrameOptions
    ) -> FrameOutcome:
        self.played += 1
        a, b = (STRENGTH[name.partition("?")[0]] for name in (agent_a, agent_b))
        better = 0 if a >= b else 1
        winner = 1 - better if seed % 4 == 1 else better
        return FrameOutcome(
            agents=(agent_a, agent_b), seed=seed, winner=winner, shots=10,
            fouls=(1, 2), visits=(2, 1 if winner == 1 else 0), whites_potted=(1, 0),
            colour_attempts=(2, 2), colour_pots=(1, 0), time_fouls=(0, 0), errors=(0, 0),
            wall_time=0.0, decisions=(3, 2), thinking=(0.3, 0.02),
            decision_seconds=((0.1, 0.1, 0.1), (0.01, 0.01)),
        )  # fmt: skip


def _zoo(tmp_path: Path) -> Path:
    path = tmp_path / "zoo" / "zoo.json"
    path.parent.mkdir()
    agents = [
        {"id": id, "spec": id.partition("@")[0]} for id in ("random@1", "middle@1", "heuristic@1")
    ]
    path.write_text(json.dumps({"frames": 8, "agents": agents, "conditions": [1.0, 5.0]}))
    return path


def test_the_ladders_rows_are_played_once_and_reused(tmp_path: Path) -> None:
    zoo = _zoo(tmp_path)
    with pytest.raises(LadderError, match="no matrix") as error:
        ladder(["strong"], zoo, cache=tmp_path / "cache", player=ScriptedPlayer())
    assert error.value.parameter == "noise_scale"
    player = ScriptedPlayer()
    matrix = build_zoo(zoo, 1.0, tmp_path / "cache", player=player)
    assert player.played == 3 * 8 and len(matrix.rows) == 3 and matrix_path(zoo, 1.0).exists()
    first = ladder(["strong", "weak"], zoo, cache=tmp_path / "cache", player=player, samples=100)
    assert player.played == 3 * 8 + 2 * 3 * 8
    again = ladder(["strong", "weak"], zoo, cache=tmp_path / "cache", player=player, samples=100)
    assert player.played == 3 * 8 + 2 * 3 * 8  # nothing played again
    assert again == first
    strong, weak = first.candidates
    zoo_ratings = {s.id: s.rating.estimate for s in first.zoo}
    assert zoo_ratings["random@1"] == 0.0
    assert zoo_ratings["heuristic@1"] > zoo_ratings["middle@1"] > 0
    assert strong.rank == 1 and weak.rank == 4
    assert strong.rating.estimate > zoo_ratings["heuristic@1"] and weak.rating.estimate < 0
    upsets = sum(frame_seed(0, k) % 4 == 1 for k in range(8))
    assert strong.win_rates["random@1"].estimate == pytest.approx(1 - upsets / 8)
    # rated alone, a candidate gets the same number: the zoo's ratings are held fixed
    alone = ladder(["strong"], zoo, cache=tmp_path / "cache", player=player, samples=100)
    assert alone.candidates[0].rating == strong.rating
    stats = strong.stats
    assert stats.fouls_per_frame == pytest.approx(1.5) and stats.shots_per_frame == 10
    assert stats.decision_mean == pytest.approx(0.32 / 5)
    assert time_bin(0.1) == 30 and stats.decision_p95 == pytest.approx(0.1)
    assert "**strong**" in ladder_markdown(first)
    page = write_ladder_page(first, tmp_path / "ladder.html").read_text(encoding="utf-8")
    assert "Scores, row against column (draws half)" in page and "Standings" in page
    for agent in ("strong", "weak", "random@1", "heuristic@1", "middle@1"):
        assert f"<th>{agent}</th>" in page  # a row of the heat map each
    assert "http://" not in page and "https://" not in page and "<script src" not in page


def test_the_progress_bar_says_which_pair_of_how_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zoo = _zoo(tmp_path)
    build_zoo(zoo, 1.0, tmp_path / "cache", player=ScriptedPlayer(), progress=True)
    shown = capsys.readouterr().err
    for k, (a, b) in enumerate(
        [("random@1", "middle@1"), ("random@1", "heuristic@1"), ("middle@1", "heuristic@1")]
    ):
        assert f"pair {k + 1}/3: {a} v {b}" in shown


def test_a_zoo_whose_anchor_stands_alone_says_so(tmp_path: Path) -> None:
    """An anchor that lost every frame (the default, ``random@1``, against agents that always
    beat it) leaves every other agent a bound: the ladder's text says so and how to mend it,
    and says nothing of the kind for a zoo anchored on an agent with wins and losses."""
    zoo = tmp_path / "alone" / "zoo.json"
    zoo.parent.mkdir()
    agents = [{"id": id, "spec": id.partition("@")[0]} for id in ("random@1", "heuristic@1")]
    zoo.write_text(json.dumps({"frames": 4, "agents": agents}))
    build_zoo(zoo, 1.0, tmp_path / "cache", player=AlwaysStronger())
    alone = ladder(["strong"], zoo, cache=tmp_path / "cache", player=AlwaysStronger())
    assert only_the_anchor(alone) and ONLY_THE_ANCHOR in ladder_markdown(alone)
    mixed = _zoo(tmp_path)  # random@1 wins some frames (ScriptedPlayer's upsets)
    build_zoo(mixed, 1.0, tmp_path / "cache2", player=ScriptedPlayer())
    mended = ladder(["strong"], mixed, cache=tmp_path / "cache2", player=ScriptedPlayer())
    assert not only_the_anchor(mended) and "Only the anchor" not in ladder_markdown(mended)


class AlwaysStronger(ScriptedPlayer):
    """:class:`ScriptedPlayer` without upsets: the stronger agent wins every frame."""

    def __call__(
        self, agent_a: str, agent_b: str, seed: int, options: FrameOptions
    ) -> FrameOutcome:
        played = super().__call__(agent_a, agent_b, seed, options)
        a, b = (STRENGTH[name.partition("?")[0]] for name in (agent_a, agent_b))
        return replace(played, winner=0 if a >= b else 1)


def test_an_agent_added_to_the_zoo_plays_only_its_own_pairs(tmp_path: Path) -> None:
    """Issue 22.1: a model joining the zoo plays its pairs alone; the committed matrix's rows
    of the others are kept (a new cache, as on another machine, plays nothing else)."""
    zoo = _zoo(tmp_path)
    first = build_zoo(zoo, 1.0, tmp_path / "cache", player=ScriptedPlayer())
    data = json.loads(zoo.read_text())
    data["agents"].append({"id": "strong@1", "spec": "strong"})
    zoo.write_text(json.dumps(data))
    player = ScriptedPlayer()
    grown = build_zoo(zoo, 1.0, tmp_path / "other-cache", player=player)
    assert player.played == 3 * 8  # strong@1 against the three others, nothing more
    assert grown.rows[:2] == first.rows[:2] and len(grown.rows) == 6
    assert {frozenset(row.agents) for row in grown.rows} == {
        frozenset((a, b)) for a in load_zoo(zoo).ids for b in load_zoo(zoo).ids if a < b
    }
    data["agents"] = [a for a in data["agents"] if a["id"] != "middle@1"]  # its rows go with it
    zoo.write_text(json.dumps(data))
    assert len(build_zoo(zoo, 1.0, tmp_path / "other-cache", player=player).rows) == 3
    assert player.played == 3 * 8


def test_the_zoo_page_shows_what_is_built(tmp_path: Path) -> None:
    zoo = _zoo(tmp_path)
    assert "Not built yet: `kinghill ladder --build-zoo --noise-scale 1`" in zoo_markdown(zoo)
    build_zoo(zoo, 5.0, tmp_path / "cache", player=ScriptedPlayer())
    page = zoo_markdown(zoo)
    assert "## Noise 5x" in page and "| 1 | heuristic@1 |" in page
    assert "Not built yet: `kinghill ladder --build-zoo --noise-scale 1`" in page


def test_the_shipped_zoo_page_is_what_its_data_gives() -> None:
    """docs/zoo.md is generated (``kinghill ladder --page``): prose and data cannot drift."""
    assert PAGE.read_text(encoding="utf-8") == zoo_markdown(ZOO_FILE)
    zoo = load_zoo()
    assert zoo.anchor in zoo.ids and {"heuristic@1", "random@1"} <= set(zoo.ids)


def test_the_command_line_builds_rates_and_names_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real frames, two a pair, short: ``--build-zoo``, then a candidate twice (the same
    rows: the second run plays nothing); user errors are one line naming the argument."""
    from kinghill.experiments import cli

    zoo = tmp_path / "zoo.json"
    agents = [{"id": "random@1", "spec": "random"}, {"id": "heuristic@1", "spec": "heuristic"}]
    zoo.write_text(json.dumps({"frames": 2, "max_shots": 20, "agents": agents}))
    common = ["ladder", "--zoo", str(zoo), "--cache", str(tmp_path / "cache")]
    assert cli.main(["ladder", "--zoo", str(zoo)]) == 2
    assert "AGENT: give agents to rate" in capsys.readouterr().err
    assert cli.main([*common, "random"]) == 2
    assert "--noise-scale: the zoo has no matrix at 1x noise" in capsys.readouterr().err
    assert cli.main([*common, "--noise-scale", "loud", "random"]) == 2
    assert "--noise-scale" in capsys.readouterr().err
    assert cli.main([*common, "--build-zoo", "--page"]) == 0
    assert (tmp_path / "matrix-1x.json").exists() and (tmp_path / "ratings.png").exists()
    capsys.readouterr()
    assert cli.main([*common, "random", "--json", str(tmp_path / "r.json")]) == 0
    first = capsys.readouterr().out
    (log,) = (tmp_path / "cache" / "1x" / "random@1--random").glob("*/frames.jsonl")
    logged = log.read_bytes()
    assert cli.main([*common, "random"]) == 0
    assert capsys.readouterr().out == first and log.read_bytes() == logged
    assert "| **random** |" in first
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["candidates"][0]["id"] == "random"


def test_a_matrix_that_is_not_the_zoos_is_refused(tmp_path: Path) -> None:
    zoo = _zoo(tmp_path)
    build_zoo(zoo, 1.0, tmp_path / "cache", player=ScriptedPlayer())
    data = json.loads(zoo.read_text())
    data["agents"].append({"id": "strong@1", "spec": "strong"})
    zoo.write_text(json.dumps(data))
    with pytest.raises(LadderError, match="does not hold the zoo's pairs") as error:
        ladder(["weak"], zoo, cache=tmp_path / "cache", player=ScriptedPlayer())
    assert error.value.parameter == "zoo"


def test_two_zoos_in_one_folder_keep_their_own_matrices_and_pages(tmp_path: Path) -> None:
    """Issue 39.3: ``two.json`` beside ``zoo.json`` gets ``two.matrix-1x.json`` (and its page
    and plot), so building one never overwrites the other's."""
    zoo = _zoo(tmp_path)
    two = zoo.with_name("two.json")
    data = json.loads(zoo.read_text())
    data["agents"] = data["agents"][:2]
    two.write_text(json.dumps(data))
    build_zoo(zoo, 1.0, tmp_path / "cache", player=ScriptedPlayer())
    kept = matrix_path(zoo, 1.0).read_bytes()
    build_zoo(two, 1.0, tmp_path / "cache", player=ScriptedPlayer())
    assert matrix_path(zoo, 1.0).name == "matrix-1x.json"  # the layout zoos always had
    assert matrix_path(two, 1.0).name == "two.matrix-1x.json"
    assert matrix_path(zoo, 1.0).read_bytes() == kept
    assert write_zoo_page(zoo).name == "zoo.md" and write_zoo_page(two).name == "two.md"
    assert (tmp_path / "zoo" / "ratings.png").exists()
    assert (tmp_path / "zoo" / "two.ratings.png").exists()
    assert len(ladder(["strong"], two, cache=tmp_path / "cache", player=ScriptedPlayer()).zoo) == 2


def test_a_condition_can_play_fewer_frames(tmp_path: Path) -> None:
    """``frames_at``: the variable condition rated on 4 frames a pair, the others on 8."""
    zoo = _zoo(tmp_path)
    data = json.loads(zoo.read_text())
    data |= {"conditions": [1.0, "variable"], "frames_at": [["variable", 4]]}
    zoo.write_text(json.dumps(data))
    player = ScriptedPlayer()
    assert build_zoo(zoo, "variable", tmp_path / "cache", player=player).frames == 4
    assert player.played == 3 * 4
    data["frames_at"] = [["5x", 4]]
    zoo.write_text(json.dumps(data))
    with pytest.raises(LadderError, match="frames_at names '5x', not a condition"):
        load_zoo(zoo)


def test_the_ladder_plays_on_ray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36.5: ``--ray local`` builds a zoo and rates a candidate on one Ray instance
    started for the whole run (and shut down after), with the rows local processes give."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'kinghill[ray]'")
    from kinghill.experiments import cli

    zoo = tmp_path / "zoo.json"
    agents = [{"id": "random@1", "spec": "random"}, {"id": "heuristic@1", "spec": "heuristic"}]
    zoo.write_text(json.dumps({"frames": 2, "max_shots": 20, "agents": agents}))
    common = ["ladder", "--zoo", str(zoo), "--build-zoo", "random"]

    def played() -> list[tuple[object, ...]]:  # what decides the ratings (not the timings)
        rows = Matrix.load(matrix_path(zoo, 1.0)).rows
        return [
            (row.agents, row.sides[0].wins, row.sides[1].wins, row.sides[0].shots) for row in rows
        ]

    assert cli.main([*common, "--cache", str(tmp_path / "ray"), "--ray", "local"]) == 0
    on_ray = capsys.readouterr().out.partition("## Win rates")[2]
    assert not ray.is_initialized() and on_ray
    matrix = played()
    assert cli.main([*common, "--cache", str(tmp_path / "local"), "--jobs", "2"]) == 0
    assert capsys.readouterr().out.partition("## Win rates")[2] == on_ray
    assert played() == matrix


def test_a_replaced_model_file_is_played_again_never_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39.2: the candidate's spec names a file; replaced by a retrained model, its pairs
    are played again (a new cache key), and put back, the first frames are found again. A zoo
    agent's file replaced makes its committed matrix stale: refused, and rebuilt by playing
    that agent's pairs alone."""
    monkeypatch.chdir(tmp_path)
    zoo = _zoo(tmp_path)
    Path("cand.zip").write_bytes(b"first model")
    player = ScriptedPlayer()
    build_zoo(zoo, 1.0, tmp_path / "cache", player=player)
    ladder(["strong?model=cand.zip"], zoo, cache=tmp_path / "cache", player=player)
    ladder(["strong?model=cand.zip"], zoo, cache=tmp_path / "cache", player=player)
    assert player.played == 3 * 8 + 3 * 8
    Path("cand.zip").write_bytes(b"retrained")
    ladder(["strong?model=cand.zip"], zoo, cache=tmp_path / "cache", player=player)
    assert player.played == 3 * 8 + 2 * 3 * 8  # replayed
    Path("cand.zip").write_bytes(b"first model")
    ladder(["strong?model=cand.zip"], zoo, cache=tmp_path / "cache", player=player)
    assert player.played == 3 * 8 + 2 * 3 * 8
    data = json.loads(zoo.read_text())
    data["agents"][1]["spec"] = "middle?net=cand.zip"
    zoo.write_text(json.dumps(data))
    build_zoo(zoo, 1.0, tmp_path / "cache", player=player)  # records middle's file
    Path("cand.zip").write_bytes(b"retrained")
    with pytest.raises(LadderError, match="other files or code of middle@1 than the zoo names"):
        ladder(["strong"], zoo, cache=tmp_path / "cache", player=player)
    played = player.played
    build_zoo(zoo, 1.0, tmp_path / "cache", player=player)
    assert player.played == played + 2 * 8  # middle@1's two pairs, nothing else


def test_a_zoo_agent_that_cannot_be_built_here_is_skipped_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36.1: a zoo member that needs an extra not installed (here a plug-in whose import
    fails as rllib-selfplay@1's does without the rllib extra) is not played by the candidate,
    said in one line; the candidate is rated against the others (real frames)."""
    from kinghill.experiments import cli

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "needs_extra.py").write_text("raise ImportError('pip install kinghill[x]')\n")
    zoo = _zoo(tmp_path)
    data = json.loads(zoo.read_text())
    data["agents"][1]["spec"] = "needs_extra:Agent"  # middle@1
    data["max_shots"] = 20
    zoo.write_text(json.dumps(data))
    build_zoo(zoo, 1.0, tmp_path / "cache", player=ScriptedPlayer())
    argv = ["ladder", "random", "--zoo", str(zoo), "--cache", str(tmp_path / "cache")]
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    (line,) = err.strip().splitlines()
    assert line.startswith("kinghill ladder: not played: zoo agent middle@1")
    assert "kinghill[x]" in line
    assert "Not played: zoo agent middle@1" in out
    assert (tmp_path / "cache" / "1x" / "heuristic@1--random").is_dir()
    assert not (tmp_path / "cache" / "1x" / "middle@1--random").exists()


def test_the_anchor_reads_as_set_and_a_bound_as_a_bound() -> None:
    """The anchor's rating is the scale's choice, not a measurement: no zero-width interval."""
    from kinghill.experiments.ladder.report import rating_text
    from kinghill.experiments.tournaments.stats import Interval

    assert rating_text(Interval(1000.0, 1000.0, 1000.0)) == "1000 (anchor)"
    assert rating_text(Interval(1131.2, 1105.8, 1156.6)) == "1131 [1106, 1157]"
    assert rating_text(Interval(-216.0, -216.0, math.inf)) == "≥ -216"
