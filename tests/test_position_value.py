"""The value of the whole position (``search-position:PATH``, issue 35): its features (seen from
the player to move, the same for mirror images and for whites in any order), the net's file,
the leaf score (results, the 10.4 choice, batched as one at a time), the self-play it learns
from, the fit, and ``kinghill train-position`` end to end with its resume."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from frame_support import midframe

from kinghill.agents import check_agent, make_agent
from kinghill.agents.position_value import (
    FEATURES,
    N_FEATURES,
    PositionNet,
    Positions,
    PositionValue,
    position_features,
)
from kinghill.agents.search import SearchAgent, _best_chance
from kinghill.envs import FrameView, Game
from kinghill.envs.rules import Decision, EndReason, FrameResult
from kinghill.experiments import cli
from kinghill.experiments.training.frames import decisions
from kinghill.experiments.training.position_data import SelfPlay, self_play
from kinghill.experiments.training.position_training import fit
from kinghill.experiments.training.tasks import held_out_frames, played_in_parts
from kinghill.experiments.training.value_training import HELD_OUT
from kinghill.physics import WHITES, TableSpec, TableState

SPEC = TableSpec()


def random_net(seed: int = 0, hidden: tuple[int, int] = (6, 4)) -> PositionNet:
    rng = np.random.default_rng(seed)
    sizes = [(N_FEATURES, hidden[0]), (hidden[0],), hidden, (hidden[1],), (hidden[1], 1), (1,)]
    return PositionNet(*(rng.normal(size=s).astype(np.float32) for s in sizes))


def as_positions(state: TableState, needed: tuple[int, int], fouls: tuple[int, int]) -> Positions:
    return Positions(
        state.positions[None].copy(),
        state.on_table[None].copy(),
        np.array([needed]),
        np.array([fouls]),
    )


def scattered(seed: int = 3) -> TableState:
    """Six balls in random places on the table (two whites off it)."""
    rng = np.random.default_rng(seed)
    places = rng.uniform([0.2, 0.2], [SPEC.length - 0.2, SPEC.width - 0.2], size=(8, 2))
    on = np.ones(8, bool)
    on[[2, 5]] = False
    return TableState(SPEC, places, on)


def test_features_are_seen_from_the_player_to_move() -> None:
    frame, state = midframe()
    value = PositionValue(random_net())
    row = position_features(as_positions(state, (3, 1), (0, 1)), SPEC)[0]
    named = dict(zip(FEATURES, row, strict=True))
    assert named["mover_needs_3"] == 1 and named["other_needs_1"] == 1  # 5.3: three whites
    assert sum(row[:4]) == 1 and sum(row[4:8]) == 1
    assert named["mover_fouls"] == 0 and named["other_fouls"] == 1
    assert named["whites_on"] == pytest.approx(5 / 7)
    assert named["mover_chance"] == pytest.approx(_best_chance(state, frame, 1))
    assert named["other_chance"] == pytest.approx(_best_chance(state, frame, 0))
    assert [named[f"white_{k}_on"] for k in range(7)] == [1, 1, 1, 1, 1, 0, 0]  # off ones last
    xs = [named[f"white_{k}_x"] for k in range(5)]
    assert xs == sorted(xs) and named["colour_x"] <= 0.5 and named["colour_y"] <= 0.5
    assert value.many([(frame, state)], 1) == [value(frame, state, 1)]


def test_mirror_images_and_renumbered_whites_have_the_same_features() -> None:
    """The pockets are symmetric about both centre lines, and any ball may be the cue ball
    (1.4): a position turned over either axis, or with its whites' numbers swapped, is the
    same position."""
    state = scattered()
    rows = [position_features(as_positions(state, (1, 2), (0, 0)), SPEC)[0]]
    for axes in ([0], [1], [0, 1]):
        places = state.positions.copy()
        for axis in axes:
            places[:, axis] = (SPEC.length, SPEC.width)[axis] - places[:, axis]
        turned = TableState(SPEC, np.nan_to_num(places), state.on_table)
        rows.append(position_features(as_positions(turned, (1, 2), (0, 0)), SPEC)[0])
    order = np.arange(8)
    order[list(WHITES)] = np.roll(WHITES, 3)
    swapped = TableState(SPEC, np.nan_to_num(state.positions[order]), state.on_table[order])
    rows.append(position_features(as_positions(swapped, (1, 2), (0, 0)), SPEC)[0])
    for row in rows[1:]:
        np.testing.assert_allclose(row, rows[0], atol=1e-5)


def test_whites_level_in_length_come_in_ball_order_on_any_machine() -> None:
    """Racked whites that have not moved lie level in length; ``np.argsort`` orders equal keys
    by the CPU's vector instructions (AVX-512 or not), so the features order them by ball
    number: the same rows, and the same search, on every machine."""
    rack = TableState.rack()
    rows = position_features(as_positions(rack, (7, 7), (0, 0)), SPEC)
    row = dict(zip(FEATURES, rows[0], strict=True))
    shares = rack.positions / (SPEC.length, SPEC.width)
    shares = np.where(shares[0] > 0.5, 1.0 - shares, shares)  # the quarter the features turn to
    whites = sorted(WHITES, key=lambda b: (shares[b, 0], b))  # those level by number
    for k, ball in enumerate(whites):
        assert (row[f"white_{k}_x"], row[f"white_{k}_y"]) == pytest.approx(tuple(shares[ball]))
    assert len({round(x, 9) for x in rack.positions[list(WHITES), 0]}) < len(WHITES)  # ties


def test_net_round_trips_and_bad_files_are_refused(tmp_path: Path) -> None:
    net = random_net()
    net.save(tmp_path / "net.npz")
    rows = position_features(as_positions(scattered(), (0, 0), (0, 0)), SPEC)
    assert np.array_equal(
        PositionNet.load(tmp_path / "net.npz").win_chances(rows), net.win_chances(rows)
    )
    with pytest.raises(FileNotFoundError, match="no position net"):
        PositionNet.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_text("not numpy")
    with pytest.raises(ValueError, match="not a position net"):
        PositionNet.load(tmp_path / "junk.npz")
    np.savez(
        tmp_path / "other.npz", **{k: net.w1 for k in ("w1", "b1", "w2", "b2")}, features=["x"]
    )
    with pytest.raises(ValueError, match="features"):
        PositionNet.load(tmp_path / "other.npz")
    with pytest.raises(ValueError, match="do not fit"):
        PositionNet(net.w1[:3], net.b1, net.w2, net.b2, net.w3, net.b3)


def test_leaf_counts_results_fully_is_zero_sum_and_takes_the_better_104_option() -> None:
    """3.2/10.5: a frame won or lost counts 1 or -1; otherwise the net's chance seen from either
    side; after a foul the opponent's 10.4 choice (R-foul-choice) is the better of playing on
    and handing the shot back."""
    frame, state = midframe()
    leaf = PositionValue(random_net())
    assert leaf(frame, state, 0) == pytest.approx(-leaf(frame, state, 1))
    assert abs(leaf(frame, state, 0)) <= 0.95
    won = replace(frame, result=FrameResult(0, EndReason.COLOUR_POTTED))
    assert leaf(won, state, 0) == 1.0 and leaf(won, state, 1) == -1.0
    choice = replace(frame, decision=Decision.CHOICE, fouled_by=0, to_move=1)
    on = leaf(replace(choice, decision=Decision.SHOT), state, 1)  # player 1 plays on
    back = leaf(replace(choice, decision=Decision.SHOT, to_move=0), state, 1)  # 0 shoots again
    assert leaf(choice, state, 1) == pytest.approx(max(on, back))
    leaves = [(frame, state), (won, state), (choice, state)]
    assert leaf.many(leaves, 1) == [leaf(f, s, 1) for f, s in leaves]


def test_self_play_keeps_every_shot_decision_from_the_movers_side() -> None:
    data = self_play(2, seed=4, agent="search?budget=8")
    again = self_play(2, seed=4, agent="search?budget=8")
    assert all(np.array_equal(getattr(data, k), getattr(again, k), equal_nan=True) for k in
               ("places", "on_table", "needed", "fouls", "results", "frames"))  # fmt: skip
    assert len(data) > 2 and set(np.unique(data.frames)) == {4, 5}
    assert set(np.unique(data.results)) <= {0.0, 0.5, 1.0}
    assert (data.needed >= 0).all() and (data.needed <= 3).all()
    assert np.isnan(data.places[~data.on_table]).all()
    first = data.frames == 4
    winner_rows = data.results[first]
    assert len(set(winner_rows.tolist())) <= 2  # one result per frame, from each side
    pieces = played_in_parts(self_play, 2, 4, "search?budget=8", jobs=2)
    assert np.array_equal(pieces.results, data.results)


def test_fit_learns_the_result_from_the_features() -> None:
    """A net fitted to results that follow the whites needed ranks those positions apart."""
    data = self_play(3, seed=10, agent="search?budget=8")
    features = position_features(data.positions, SPEC)
    results = (data.needed[:, 0] <= data.needed[:, 1]).astype(np.float32)
    net = fit(features, results, hidden=(8, 4), epochs=60, batch=64, rate=1e-2)
    chances = net.win_chances(features)
    assert chances[results == 1].mean() > chances[results == 0].mean() + 0.3
    test = held_out_frames(data.frames, HELD_OUT, seed=0)
    assert 0 < test.sum() < len(test) and len(np.unique(data.frames[test])) == 1


def test_a_fit_goes_on_from_a_starting_nets_weights() -> None:
    """From ``start`` at a rate of zero the fit keeps its weights (each array where it was,
    whatever ``hidden`` asks); at a positive rate it moves them."""
    data = self_play(2, seed=10, agent="search?budget=8")
    features = position_features(data.positions, SPEC)
    start = fit(features, data.results, hidden=(6, 3), epochs=1, batch=64, seed=1)
    kept = fit(features, data.results, hidden=(8, 4), epochs=1, batch=64, rate=0.0, initial=start)
    moved = fit(features, data.results, epochs=1, batch=64, rate=1e-2, initial=start)
    for name in ("w1", "b1", "w2", "b2", "w3", "b3"):
        assert np.array_equal(getattr(kept, name), getattr(start, name)), name
    assert moved.w1.shape == start.w1.shape and not np.array_equal(moved.w1, start.w1)


def test_search_position_plays_legal_shots_by_its_spec(tmp_path: Path) -> None:
    random_net().save(tmp_path / "net.npz")
    agent = make_agent(f"search-position:{tmp_path / 'net.npz'}?budget=12", seed=1)
    assert isinstance(agent, SearchAgent) and isinstance(agent.leaf, PositionValue)
    check_agent(f"search-position:{tmp_path / 'net.npz'}?budget=12")
    game = Game()
    game.reset(seed=2)
    played = list(decisions(game, [agent, make_agent("heuristic")]))  # raises on a fault
    assert game.is_over and len(played) > 1
    view = FrameView(*reversed(midframe()), 1)
    assert agent.act(view) == make_agent(
        f"search-position:{tmp_path / 'net.npz'}?budget=12", seed=1
    ).act(view)


def test_train_position_end_to_end_and_resumed(tmp_path: Path) -> None:
    """The documented command's loop: self-play shards, a fit, an evaluation against search,
    the best net kept; run again, nothing is played or fitted again."""
    from kinghill.experiments.training.position_iteration import PositionConfig, train_position

    out = tmp_path / "run"
    config = PositionConfig(out, iterations=2, frames=3, budget=8, eval_frames=2, epochs=2)
    result = train_position(config)
    assert result.model == out / "best.npz" and PositionNet.load(result.model)
    rows = (out / "evaluations.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,positions,score_vs_search") and len(rows) == 3
    assert json.loads((out / "iteration-1" / "fit.json").read_text())["positions"] > 0
    assert (out / "iteration-2" / "shard-3.npz").exists()  # seeds go on from iteration 1's
    shard = SelfPlay.load(out / "iteration-1" / "shard-0.npz")
    assert set(np.unique(shard.frames)) == {0, 1, 2}
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*/*.npz")}
    best = result.model.read_bytes()
    train_position(config)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*/*.npz")} == stamps
    assert result.model.read_bytes() == best
    assert (out / "evaluations.csv").read_text().splitlines() == rows
    assert json.loads((out / "run.json").read_text())["sessions"] == 2


def test_a_run_folder_resumes_only_its_own_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resuming with other frames, budget or net would mix two runs' shards and nets in one
    folder: refused in one line naming the flag; more --iterations go on."""
    out = tmp_path / "run"
    base = ["train-position", "--frames", "2", "--budget", "8", "--eval-frames", "2"]
    args = [*base, "--epochs", "1", "--out", str(out)]
    assert cli.main([*args, "--iterations", "1"]) == 0
    capsys.readouterr()
    assert cli.main([*args[:2], "3", *args[3:], "--iterations", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "--frames" in error and "made with frames 2, not 3" in error
    assert cli.main([*args, "--iterations", "2"]) == 0
    assert (out / "iteration-2" / "net.npz").exists()


def test_train_position_on_ray_gives_the_local_runs_data(tmp_path: Path) -> None:
    """--ray local: the self-play shards played as Ray tasks hold what local workers play."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'kinghill[ray]'")
    from kinghill.experiments.training.position_iteration import PositionConfig, train_position

    settings = {"iterations": 1, "frames": 2, "budget": 8, "eval_frames": 2, "epochs": 1}
    train_position(PositionConfig(tmp_path / "ray", ray="local", **settings))
    assert not ray.is_initialized()
    train_position(PositionConfig(tmp_path / "local", **settings))
    here = SelfPlay.load(tmp_path / "local" / "iteration-1" / "shard-0.npz")
    there = SelfPlay.load(tmp_path / "ray" / "iteration-1" / "shard-0.npz")
    for name in ("places", "on_table", "needed", "fouls", "results", "frames"):
        assert np.array_equal(getattr(here, name), getattr(there, name), equal_nan=True), name
