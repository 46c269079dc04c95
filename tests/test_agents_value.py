"""The learned leaf value (``search-value:PATH``): its features, the net's file, the score from
either side, the search's leaf hook, the agent (legal, seeded, on time) and ``train-value``."""

import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from frame_support import midframe
from net_weights import random_layers

from kinghill.agents import AgentSpecError, SearchAgent, check_agent, make_agent
from kinghill.agents.search import position_value
from kinghill.agents.value import FEATURES, N_FEATURES, LearnedValue, ValueNet, value_features
from kinghill.envs import FrameView, Game
from kinghill.envs.game.decision_clock import DecisionClock
from kinghill.envs.rules import Decision, EndReason, Frame, FrameResult, TimeAllowance, choose
from kinghill.experiments import cli
from kinghill.experiments.training.tasks import played_in_parts
from kinghill.experiments.training.value_training import self_play
from kinghill.physics import NoiseModel, TableState


def random_net(seed: int = 0, hidden: int = 4) -> ValueNet:
    return ValueNet(*random_layers(N_FEATURES, seed, hidden))


@pytest.fixture
def net_file(tmp_path: Path) -> Path:
    path = tmp_path / "value.npz"
    random_net().save(path)
    return path


def test_features_are_seen_from_the_player_to_move() -> None:
    frame, state = midframe()
    row = value_features(frame, state)
    named = dict(zip(FEATURES, row, strict=True))
    assert named["mover_needs_3"] == 1 and named["other_needs_1"] == 1  # 5.3: three whites
    assert named["colour_on"] == 1 and named["whites_on"] == pytest.approx(5 / 7)
    assert sum(row[:4]) == 1 and sum(row[4:8]) == 1
    chances = row[FEATURES.index("mover_chance_0") : FEATURES.index("mover_pots")]
    assert list(chances) == sorted(chances, reverse=True) and 0 <= chances.min() <= 1


def test_net_round_trips_and_bad_files_are_refused(tmp_path: Path, net_file: Path) -> None:
    net = ValueNet.load(net_file)
    row = value_features(*midframe())
    assert net.win_chance(row) == random_net().win_chance(row)
    assert 0 < net.win_chance(row) < 1
    with pytest.raises(FileNotFoundError, match="no value net"):
        ValueNet.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_text("not numpy")
    with pytest.raises(ValueError, match="not a value net .*: not a .npz file$"):
        ValueNet.load(tmp_path / "junk.npz")  # not numpy's advice to unpickle it
    np.savez(tmp_path / "old.npz", w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2, features=["x"])
    with pytest.raises(ValueError, match="features"):
        ValueNet.load(tmp_path / "old.npz")
    with pytest.raises(ValueError, match="do not fit"):
        ValueNet(net.w1[:3], net.b1, net.w2, net.b2)


def test_learned_value_is_zero_sum_and_counts_results_fully() -> None:
    frame, state = midframe()
    leaf = LearnedValue(random_net())
    assert leaf(frame, state, 0) == pytest.approx(-leaf(frame, state, 1))
    assert -1 < leaf(frame, state, 1) < 1
    won = replace(frame, result=FrameResult(0, EndReason.COLOUR_POTTED))
    assert leaf(won, state, 0) == 1.0 and leaf(won, state, 1) == -1.0


@pytest.mark.parametrize("seed", range(4))
def test_a_foul_is_worth_the_choosers_better_option(seed: int) -> None:
    """10.4 (R-foul-choice): after player 0's foul, player 1 plays on or hands the shot back;
    the leaf is the better of the two for player 1, so a foul is never better for the fouler
    than leaving the same position to the opponent."""
    frame, state = midframe()
    leaf = LearnedValue(random_net(seed))
    fouled = replace(frame, decision=Decision.CHOICE, fouled_by=0, fouls=(1, 0))
    play_on = leaf(choose(fouled, play_on=True), state, 1)
    hand_back = leaf(choose(fouled, play_on=False), state, 1)
    assert leaf(fouled, state, 1) == pytest.approx(max(play_on, hand_back))
    assert leaf(fouled, state, 0) <= leaf(replace(frame, fouls=(1, 0)), state, 0) + 1e-9


def test_a_foul_standing_costs_its_price() -> None:
    """10.5: a foul standing is one foul from losing; it costs ``foul_cost`` a foul."""
    frame, state = midframe()
    free, priced = LearnedValue(random_net(), foul_cost=0.0), LearnedValue(random_net(), 0.2)
    clean = replace(frame, fouls=(0, 0))
    assert priced(clean, state, 1) == pytest.approx(free(clean, state, 1))
    one = replace(frame, fouls=(0, 1))
    assert priced(one, state, 1) == pytest.approx(np.clip(free(one, state, 1) - 0.2, -0.95, 0.95))
    assert priced(one, state, 0) == pytest.approx(np.clip(free(one, state, 0) + 0.2, -0.95, 0.95))


def test_self_play_in_pieces_gives_the_same_positions() -> None:
    whole = self_play(4, seed=6)
    pieces = played_in_parts(self_play, 4, 6, "heuristic", jobs=2)
    for name in ("features", "hand_made", "results", "frames"):
        assert np.array_equal(getattr(whole, name), getattr(pieces, name))
    assert set(whole.frames) == {6, 7, 8, 9} and set(whole.results) <= {0.0, 0.5, 1.0}


def test_the_search_scores_every_simulation_with_its_leaf() -> None:
    """The hook: the default leaf is the hand-made score; an injected one is called once per
    noisy simulation and decides the shot (a leaf that scores everything alike keeps the
    first candidate)."""
    assert SearchAgent(seed=0).leaf is position_value
    game = Game(noise=NoiseModel())
    game.reset(seed=2)
    game.play(SearchAgent(seed=0).act(game.view()))  # the break
    view = game.view()
    calls: list[int] = []

    def flat(frame: Frame, state: TableState, me: int) -> float:
        calls.append(me)
        return 0.0

    agent = SearchAgent(seed=0, budget=40, leaf=flat)
    first = agent._candidates(view)[0]
    assert agent.act(view) == first
    assert 40 <= len(calls) <= 80 and set(calls) == {view.player}


def test_search_value_spec_plays_legal_seeded_decisions(net_file: Path) -> None:
    spec = f"search-value:{net_file}?budget=16"
    check_agent(spec)
    with pytest.raises(AgentSpecError, match="missing.npz: nothing there"):
        check_agent("search-value:missing.npz")
    game = Game(noise=NoiseModel(), shot_limit=12)
    game.reset(seed=4)
    agents = (make_agent(spec, 1), make_agent("heuristic", 2))
    twin = make_agent(spec, 1)
    while not game.is_over:
        view = game.view()
        action = agents[game.to_move].act(view)
        if game.to_move == 0:
            assert twin.act(view) == action  # the same seed, the same decisions
        game.play(action)  # raises on an action the game cannot play


def test_search_value_honours_its_time_and_the_clock(net_file: Path) -> None:
    state = TableState.rack().remove(2).remove(3).remove(4)
    frame = replace(Frame.new(), credited=((2, 3, 4), ()), decision=Decision.SHOT, shots=3)
    view = FrameView(state, frame, 0)
    agent = make_agent(f"search-value:{net_file}?time_budget=1.0", 0)
    start = time.perf_counter()
    agent.act(view)
    assert 0.9 <= time.perf_counter() - start < 2.0
    clock = DecisionClock(TimeAllowance(1.5, 0.0))
    make_agent(f"search-value:{net_file}?time_budget=10.0,margin=0.5", 0).act(
        FrameView(state, replace(frame, credited=((2,), ())), 0, clock)
    )
    assert clock.elapsed() < 1.5


def test_train_value_writes_a_net_the_agent_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "v.npz"
    assert cli.main(["train-value", "--frames", "6", "--hidden", "4", "--out-file", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] > report["held_out"] > 0
    assert 0 <= report["net_auc"] <= 1 and report["net_log_loss"] > 0
    ValueNet.load(out)
    make_agent(f"search-value:{out}?budget=8", 0)
    tuned = tmp_path / "tuned.npz"
    args = [
        "train-value",
        "--frames",
        "6",
        "--seed",
        "40",
        "--init",
        str(out),
        "--out-file",
        str(tuned),
    ]
    assert cli.main(args) == 0
    capsys.readouterr()
    assert ValueNet.load(tuned).w1.shape == (N_FEATURES, 4)  # the hidden size of the net it tuned
    assert cli.main(["train-value", "--frames", "2", "--out-file", str(tmp_path / "v.pt")]) == 2
    assert "must end in .npz" in capsys.readouterr().err
    args = [
        "train-value",
        "--frames",
        "2",
        "--init",
        str(tmp_path / "v.pt"),
        "--out-file",
        str(out),
    ]
    (tmp_path / "v.pt").write_text("not a net")
    assert cli.main(args) == 2
    assert "--init: " in capsys.readouterr().err
