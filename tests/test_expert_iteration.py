"""Issue 19: the search guided by a learned prior (``expert:PATH``, ``expert-policy:PATH``) and
expert iteration (``kinghill train-expert``): the net's features and file, the guided search
(it searches the shots the net rates best, legal at every kind of decision, on the clock), and
the training loop on a tiny budget end to end (a learnt break every net carries, a net that
loads and plays; resuming continues the same run and plays or learns nothing twice)."""

import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from net_weights import random_layers

from kinghill.agents import AgentSpecError, check_agent, make_agent
from kinghill.agents.builtins import data_path
from kinghill.agents.learned_break import LearnedBreak
from kinghill.agents.prior import (
    ARM_FEATURES,
    FEATURES,
    N_FEATURES,
    PriorNet,
    PriorSearchAgent,
    arm_features,
)
from kinghill.agents.search import KICK, POT, SAFETY, SearchAgent, candidates, position_value
from kinghill.agents.value import LearnedValue
from kinghill.envs import ChoiceAction, FrameView, Game, ShotAction
from kinghill.envs.game.decision_clock import DecisionClock
from kinghill.envs.rules import Decision, Frame, TimeAllowance
from kinghill.experiments import cli
from kinghill.experiments.training.expert_iteration import expert_self_play, fit_prior
from kinghill.physics import COLOURED, NoiseModel, TableState


def random_net(seed: int = 0, hidden: int = 4) -> PriorNet:
    return PriorNet(*random_layers(N_FEATURES, seed, hidden))


@pytest.fixture
def net_file(tmp_path: Path) -> Path:
    path = tmp_path / "prior.npz"
    random_net().save(path)
    return path


def shot_view() -> FrameView:
    """Player 0 to shoot with three whites to go and the colour on."""
    state = TableState.rack().remove(2).remove(3)
    frame = replace(Frame.new(), decision=Decision.SHOT, credited=((2,), (3,)), shots=4)
    return FrameView(state, frame, 0)


def test_features_describe_each_candidate_and_the_position() -> None:
    game = Game(noise=NoiseModel())
    game.reset(seed=3)
    game.play(make_agent("heuristic", 0).act(game.view()))
    view = game.view()
    found = candidates(view)
    rows = arm_features(view, found)
    assert rows.shape == (len(found), N_FEATURES) and len(FEATURES) == N_FEATURES
    assert np.isfinite(rows).all()
    kinds = rows[:, :4]
    assert (kinds.sum(axis=1) == 1).all()  # one kind each: white or colour pot, kick, safety
    for c, row in zip(found, rows, strict=True):
        assert row[ARM_FEATURES.index("safety")] == (c.kind == SAFETY)
        assert row[ARM_FEATURES.index("kick")] == (c.kind == KICK)
        if c.kind == POT and c.pot is not None:
            assert row[ARM_FEATURES.index("chance")] == pytest.approx(c.pot.chance)
            colour = row[ARM_FEATURES.index("colour_pot")]
            assert colour == (c.pot.object_ball == COLOURED)
    assert (rows[:, len(ARM_FEATURES) :] == rows[0, len(ARM_FEATURES) :]).all()  # the position


def test_net_round_trips_and_bad_files_are_refused(tmp_path: Path, net_file: Path) -> None:
    net = PriorNet.load(net_file)
    assert np.array_equal(net.w1, random_net().w1) and net.value is None
    with pytest.raises(FileNotFoundError, match="no prior net"):
        PriorNet.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="not a prior net"):
        PriorNet.load(bad)
    with pytest.raises(ValueError, match="do not fit"):
        PriorNet(np.zeros((3, 2)), np.zeros(2), np.zeros((2, 1)), np.zeros(1))
    with pytest.raises(AgentSpecError, match="missing.npz: nothing there"):
        check_agent("expert:missing.npz")


def test_a_prior_nets_file_carries_a_position_net_for_its_leaves(
    tmp_path: Path, net_file: Path
) -> None:
    """A prior net saved with a position net beside it (``expert-position``'s file) loads with
    it, and ``value=true`` scores the leaves with it rather than with a learnt value the file
    also holds; a position net of other features is refused by name."""
    from kinghill.agents.position_value import FEATURES as POSITION_FEATURES
    from kinghill.agents.position_value import PositionNet, PositionValue

    shipped = PositionNet.load(data_path("position.npz"))
    both = replace(PriorNet.load(net_file), value=fit_value_net(), position=shipped)
    both.save(tmp_path / "both.npz")
    net = PriorNet.load(tmp_path / "both.npz")
    assert net.position is not None and np.array_equal(net.position.w3, shipped.w3)
    leaf = PriorSearchAgent(net, value=True).leaf
    assert isinstance(leaf, PositionValue) and leaf.net is net.position
    assert PriorSearchAgent(net).leaf is position_value
    assert isinstance(PriorSearchAgent(replace(net, position=None), value=True).leaf, LearnedValue)
    with np.load(tmp_path / "both.npz") as data:
        arrays = {k: data[k] for k in data.files}
    arrays["position_features"] = np.array(tuple(reversed(POSITION_FEATURES)))
    np.savez(tmp_path / "other.npz", **arrays)
    with pytest.raises(ValueError, match="position net's features"):
        PriorNet.load(tmp_path / "other.npz")


def test_the_guided_search_simulates_only_the_shots_its_net_rates_best(net_file: Path) -> None:
    view = shot_view()
    net = PriorNet.load(net_file)
    agent = PriorSearchAgent(net, seed=1, budget=24, arms=3)
    action = agent.act(view)
    found = agent.last_candidates
    logits = net.logits(arm_features(view, found))
    assert agent.last_kept == sorted(np.argsort(-logits, kind="stable")[:3].tolist())
    assert len(agent.last_arms) == 3 and sum(a.count for a in agent.last_arms) >= 24
    assert action in [arm.action for arm in agent.last_arms]
    everything = PriorSearchAgent(net, seed=1, budget=24, arms=0)
    everything.act(view)
    assert everything.last_kept == list(range(len(found)))
    plain = SearchAgent(seed=1, budget=24)  # the plain search records what it searched too
    plain.act(view)
    assert plain.last_candidates == found and plain.last_kept == list(range(len(found)))
    assert len(plain.last_arms) == len(found)
    with pytest.raises(ValueError, match="arms"):
        PriorSearchAgent(net, arms=-1)
    with pytest.raises(ValueError, match="holds no learnt value"):
        PriorSearchAgent(net, value=True)  # the file has no value: refused, not played without
    with pytest.raises(AgentSpecError, match="holds no learnt value"):
        make_agent(f"expert:{net_file}?value=true", 0)
    valued = replace(net, value=fit_value_net())
    assert isinstance(PriorSearchAgent(valued, value=True).leaf, LearnedValue)
    assert not isinstance(PriorSearchAgent(valued).leaf, LearnedValue)


def fit_value_net():  # noqa: ANN201  (a small ValueNet fitted to two made-up positions)
    from kinghill.agents.value import N_FEATURES as N_VALUE
    from kinghill.experiments.training.value_training import fit

    x = np.eye(2, N_VALUE, dtype=np.float32)
    return fit(x, np.array([1.0, 0.0], np.float32), hidden=2, epochs=5)


BOTH_SPECS = [
    "expert:{}?budget=16,arms=4",
    "expert-policy:{}",
    "expert:{}?budget=16,arms=4,lookahead=true",
    "search?budget=16,lookahead=true",
]


@pytest.mark.parametrize("spec", BOTH_SPECS)
def test_both_specs_play_legal_seeded_decisions_of_every_kind(net_file: Path, spec: str) -> None:
    """Break, shots and the 10.4 choice (a frame of fouls against the random agent)."""
    spec = spec.format(net_file)
    check_agent(spec)
    seen = set()
    for seed in (4, 5, 6):
        game = Game(noise=NoiseModel(), shot_limit=14)
        game.reset(seed=seed, breaker=0)
        agents = (make_agent(spec, 1), make_agent("random", 2))
        twin = make_agent(spec, 1)
        while not game.is_over:
            view = game.view()
            action = agents[game.to_move].act(view)
            if game.to_move == 0:
                seen.add(view.decision)
                assert twin.act(view) == action  # the same seed, the same decisions
                assert isinstance(
                    action, ChoiceAction if view.decision is Decision.CHOICE else ShotAction
                )
            game.play(action)  # raises on an action the game cannot play
    assert {Decision.BREAK, Decision.SHOT} <= seen
    fouled = replace(shot_view().frame, decision=Decision.CHOICE, fouled_by=1, fouls=(0, 1))
    choice = FrameView(shot_view().state, fouled, 0)
    assert isinstance(make_agent(spec, 0).act(choice), ChoiceAction)


def test_the_guided_search_honours_the_clock(net_file: Path) -> None:
    view = shot_view()
    agent = make_agent(f"expert:{net_file}?time_budget=1.0", 0)
    start = time.perf_counter()
    agent.act(view)
    assert 0.9 <= time.perf_counter() - start < 2.0
    clock = DecisionClock(TimeAllowance(1.5, 0.0))
    make_agent(f"expert:{net_file}?time_budget=10.0,margin=0.5", 0).act(
        FrameView(view.state, view.frame, 0, clock)
    )
    assert clock.elapsed() < 1.5


def test_self_play_records_the_experts_visits() -> None:
    data = expert_self_play(None, 7, 2, 24, 0)
    n = len(data.results)
    assert n > 0 and data.features.shape[:2] == data.mask.shape == data.visits.shape
    assert ((data.visits > 0) <= data.mask).all()  # visits only on real candidates
    assert (data.visits.sum(axis=1) >= 24).all()  # the whole budget, every decision
    assert set(np.unique(data.results)) <= {0.0, 0.5, 1.0}
    again = expert_self_play(None, 7, 2, 24, 0)
    assert np.array_equal(again.visits, data.visits)  # seeded
    net = fit_prior(data, hidden=4, epochs=300, seed=0)
    logits = net.logits(data.features[0][data.mask[0]])
    assert logits.shape == (data.mask[0].sum(),)
    # it learns the expert's preference: the most visited shots rank above the average one
    hits = []
    for k in range(n):
        real = data.mask[k]
        scores = net.logits(data.features[k][real])
        hits.append(scores[np.argmax(data.visits[k][real])] >= np.median(scores))
    assert np.mean(hits) > 0.6


def test_train_expert_runs_end_to_end_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = [
        "train-expert", "--iterations", "2", "--frames", "2", "--expert-budget", "16",
        "--expert-arms", "6", "--budget", "16", "--arms", "4", "--eval-frames", "2",
        "--epochs", "2", "--hidden", "4", "--break-population", "20", "--break-generations",
        "1", "--out", str(out),
    ]  # fmt: skip
    assert cli.main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert Path(result["model"]) == out / "best.npz" and result["extra"]["best_iteration"] in (1, 2)
    assert result["episodes"] == 2 * 2  # self-play frames (issue 39 item 7), not decisions
    assert result["extra"]["decisions"] > result["episodes"]
    assert json.loads((out / "run.json").read_text())["result"] == result
    for name in ("run.json", "curve.png", "evaluations.csv", "iteration-2/net.npz"):
        assert (out / name).exists(), name
    rows = (out / "evaluations.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,") and len(rows) == 3
    make_agent(f"expert:{out / 'best.npz'}?budget=8", 0).act(shot_view())
    learnt = LearnedBreak.read(out / "break.npz")
    assert learnt is not None and result["extra"]["break_score"] == learnt.score
    for net_path in (out / "best.npz", *out.glob("iteration-*/net.npz")):
        carried = PriorNet.load(net_path).break_shot
        assert carried is not None and carried.parameters == learnt.parameters  # every net's
    shards = sorted(out.glob("iteration-*/shard-*.npz"))
    stamps = [p.stat().st_mtime_ns for p in [*shards, out / "break.npz"]]
    net = (out / "iteration-2" / "net.npz").read_bytes()
    (out / "iteration-2" / "net.npz").unlink()  # as if stopped before iteration 2's fit
    assert cli.main(args) == 0
    capsys.readouterr()
    assert [p.stat().st_mtime_ns for p in [*shards, out / "break.npz"]] == stamps  # nor learnt
    assert (out / "iteration-2" / "net.npz").read_bytes() == net  # the same fit again
    again = (out / "evaluations.csv").read_text().splitlines()
    assert again[:2] == rows[:2]  # iteration 1 kept as it was
    assert again[2].split(",")[:3] == rows[2].split(",")[:3]  # 2 scored again, the same
    assert json.loads((out / "run.json").read_text())["sessions"] == 2


def test_train_expert_on_ray_gives_the_local_runs_data(tmp_path: Path) -> None:
    """--ray local: the self-play shards played as Ray tasks hold what local workers play."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'kinghill[ray]'")
    from kinghill.experiments.training.expert_iteration import ExpertConfig, train_expert

    settings = {"iterations": 1, "frames": 2, "expert_budget": 12, "budget": 12, "arms": 4}
    small = {"eval_frames": 2, "epochs": 2, "hidden": 4, "break_population": 0}
    train_expert(ExpertConfig(tmp_path / "ray", ray="local", **settings, **small))
    assert not ray.is_initialized()
    train_expert(ExpertConfig(tmp_path / "local", **settings, **small))
    for shard in (tmp_path / "local" / "iteration-1").glob("shard-*.npz"):
        there = np.load(tmp_path / "ray" / "iteration-1" / shard.name)
        here = np.load(shard)
        assert all(np.array_equal(there[k], here[k]) for k in here.files)


def test_an_old_run_json_that_counted_decisions_as_episodes_reads_in_todays_terms(
    tmp_path: Path,
) -> None:
    """Issue 39 item 7: train-expert's run.json once said ``"episodes": 17172`` for 1,200
    self-play frames (the decisions); read_run gives frames as episodes and the decisions
    apart; today's files read as written."""
    from kinghill.experiments.training.result import read_run

    config = {"out": "runs/expert2", "iterations": 6, "frames": 200, "expert_budget": 600}
    old = {"config": config, "result": {"episodes": 17172, "extra": {"best_iteration": 4}}}
    (tmp_path / "run.json").write_text(json.dumps(old))
    result = read_run(tmp_path)["result"]
    assert result["episodes"] == 1200 and result["extra"]["decisions"] == 17172
    assert result["extra"]["best_iteration"] == 4
    new = {"config": config, "result": {"episodes": 1200, "extra": {"decisions": 17172}}}
    (tmp_path / "run.json").write_text(json.dumps(new))
    assert read_run(tmp_path) == new
