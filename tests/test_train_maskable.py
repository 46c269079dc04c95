"""Issue 9: ``kinghill train --algo maskable-ppo`` trains a few hundred MaskablePPO steps on the
masked env, evaluates against a fixed opponent during the run (results written, best model
kept, the curve drawn), and its checkpoint plays as ``policy:PATH``."""

import csv
import json
from pathlib import Path

import pytest

from kinghill.agents import make_agent
from kinghill.agents.masked_policy import MaskedMenuPolicy
from kinghill.agents.policy import algorithm_of
from kinghill.envs import Game
from kinghill.experiments.cli.app import main
from kinghill.experiments.cli.train import parse_reward
from kinghill.experiments.tournaments.frame_player import InProcessSeat, play_out


@pytest.mark.slow
def test_maskable_ppo_trains_evaluates_and_loads_as_a_policy(tmp_path: Path) -> None:
    out = tmp_path / "run"
    status = main(
        ["train", "sb3", "--algo", "maskable-ppo", "--opponent", "heuristic", "--out", str(out),
         "--steps", "256", "--envs", "1", "--n-steps", "64", "--batch-size", "32", "--net", "16",
         "--checkpoint-every", "0", "--eval-every", "128", "--eval-frames", "2",
         "--reward", "white=0.2", "--curriculum", "practice", "--no-progress"]
    )  # fmt: skip
    assert status == 0
    assert json.loads((out / "final.json").read_text()) == {
        "algo": "maskable-ppo",
        "action": "masked",
    }
    with (out / "evaluations.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["steps"]) for r in rows] == [0, 128, 256]
    assert all(r["frames"] == "2" and 0.0 <= float(r["win_rate"]) <= 1.0 for r in rows)
    assert (out / "best_model.zip").stat().st_size > 0
    assert (out / "learning_curve.png").read_bytes().startswith(b"\x89PNG")
    with (out / "tb" / "progress.csv").open() as f:
        assert "eval/win_rate" in next(csv.reader(f))
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["reward"]["white"] == 0.2

    assert algorithm_of(out / "final.zip") == "MaskablePPO"
    agent = make_agent(f"policy:{out / 'final.zip'}")
    assert type(agent.policy.model.policy) is MaskedMenuPolicy  # the fused distribution
    game = Game()
    game.reset(seed=0)
    seats = [InProcessSeat(agent), InProcessSeat(make_agent("heuristic", seed=1))]
    decided = list(play_out(game, seats))
    assert game.is_over and all(d.fault is None for d in decided)


@pytest.mark.slow
def test_background_evaluations_play_the_same_frames_as_inline_ones(tmp_path: Path) -> None:
    """``--evaluation background`` plays the evaluations in a worker process on snapshots
    while training goes on: the same rows as inline, the same best model, no snapshot left."""
    import torch

    from kinghill.agents.policy import load_model

    rows, weights = {}, {}
    for mode in ("inline", "background"):
        out = tmp_path / mode
        status = main(
            ["train", "sb3", "--algo", "maskable-ppo", "--opponent", "heuristic", "--out", str(out),
             "--steps", "256", "--envs", "1", "--n-steps", "64", "--batch-size", "32",
             "--net", "16", "--checkpoint-every", "0", "--eval-every", "64", "--eval-frames", "2",
             "--evaluation", mode, "--no-progress"]
        )  # fmt: skip
        assert status == 0
        with (out / "evaluations.csv").open() as f:
            rows[mode] = [(r["steps"], r["wins"]) for r in csv.DictReader(f)]
        weights[mode] = load_model(out / "best_model.zip").policy.state_dict()
        assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert [steps for steps, _ in rows["background"]] == ["0", "64", "128", "192", "256"]
    assert rows["background"] == rows["inline"]
    inline, background = weights["inline"], weights["background"]
    assert background.keys() == inline.keys()
    assert all(torch.equal(background[k], inline[k]) for k in inline)


def test_reward_weights_come_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    weights = parse_reward("white=0.25, foul=-0.5")
    assert (weights.white, weights.foul, weights.win) == (0.25, -0.5, 1.0)
    with pytest.raises(ValueError, match="KEY one of"):
        parse_reward("colour=1")
    with pytest.raises(ValueError, match="not a number"):
        parse_reward("white=lots")
    assert main(["train", "sb3", "--out", str(tmp_path), "--reward", "colour=1"]) == 2
    assert "--reward" in capsys.readouterr().err


def test_maskable_ppo_refuses_a_box_action(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert (
        main(["train", "sb3", "--out", str(tmp_path), "--algo", "maskable-ppo", "--action", "aim"])
        == 2
    )
    assert "--action: maskable-ppo trains the masked action" in capsys.readouterr().err


def test_the_wall_clock_limit_ends_training_once_the_time_is_spent() -> None:
    from kinghill.experiments.training.time_limit import WallClockLimit

    spent, fresh = WallClockLimit(0.0), WallClockLimit(10.0)
    for callback in (spent, fresh):
        callback._on_training_start()
    assert spent._on_step() is False and fresh._on_step() is True
