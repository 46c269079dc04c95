"""Issue 12: ``kinghill train --backend rllib`` trains PPO by self-play on a local Ray instance,
leaves the SB3 path's run folder, and its checkpoint plays a tournament as ``rllib:PATH``; the
module honours the action mask; misuse is a one-line error."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "ray.rllib", reason="RLlib is not installed: the rllib extra (pip install 'kinghill[rllib]')"
)

import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

from kinghill.agents import AgentSpecError, check_agent, make_agent  # noqa: E402
from kinghill.agents.rllib_agent import RLlibAgent  # noqa: E402
from kinghill.agents.rllib_module import MaskedMenuModule  # noqa: E402
from kinghill.envs import Game  # noqa: E402
from kinghill.envs.rl.masked_aec import N_ACTIONS, action_space, observation_space  # noqa: E402
from kinghill.experiments.cli.app import main  # noqa: E402
from kinghill.experiments.training.config import RLlibConfig  # noqa: E402
from kinghill.experiments.training.rllib_train import algorithm_config  # noqa: E402


def test_train_then_tournament_with_the_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    status = main(
        ["train", "rllib", "--out", str(out), "--iterations", "2",
         "--iteration-steps", "128", "--batch-size", "64", "--epochs", "1", "--net", "16",
         "--envs", "1", "--checkpoint-every", "1", "--eval-every", "2", "--eval-frames", "2",
         "--seed", "3", "--no-progress"]
    )  # fmt: skip
    assert status == 0, capsys.readouterr().err
    assert json.loads((out / "final.json").read_text())["agent"] == f"rllib:{out / 'final'}"
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["iter_000001", "iter_000002"]
    with (out / "tb" / "progress.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["iteration"] for r in rows] == ["1", "2"]
    steps = [float(r["env_steps"]) for r in rows]
    assert 128 <= steps[0] < steps[1]  # each iteration samples its steps
    with (out / "evaluations.csv").open() as f:
        evaluations = list(csv.DictReader(f))
    assert [float(r["steps"]) for r in evaluations] == [0.0, steps[1]]  # before and after
    assert all(r["frames"] == "2" for r in evaluations)
    assert (out / "learning_curve.png").read_bytes().startswith(b"\x89PNG")
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["iterations"] == 2 and run["result"]["extra"]["iterations"] == 2

    monkeypatch.chdir(tmp_path)  # a relative PATH, as typed
    status = main(
        ["tournament", "--agents", "rllib:run/final", "random", "--frames", "2",
         "--jobs", "2", "--out", str(tmp_path / "t")]
    )  # fmt: skip
    assert status == 0, capsys.readouterr().err
    frames = [json.loads(line) for line in (tmp_path / "t" / "frames.jsonl").open()]
    assert len(frames) == 2

    agent = make_agent(f"rllib:{out / 'checkpoints' / 'iter_000001'}", seed=0)
    game = Game()
    game.reset(seed=5, breaker=0)
    first = [agent.act(game.view()) for _ in range(2)]
    assert first[0] == first[1]  # the argmax: deterministic
    with pytest.raises(AgentSpecError, match="has no module 'player_0'.*shared"):
        check_agent(f"rllib:{out / 'final'}?module=player_0")

    # a session stopped by its time limit says so, as an SB3 run's does (it looked finished)
    capsys.readouterr()
    argv = ["train", "--resume", str(out), "--iterations", "4", "--time-limit", "0.0001"]
    assert main([*argv, "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "stopped at the time limit after 3 of 4 iterations; go on with: kinghill train " in said
    assert f"--resume {out}" in said


def test_the_module_never_samples_nor_plays_a_masked_action() -> None:
    module = RLModuleSpec(
        module_class=MaskedMenuModule,
        observation_space=observation_space(),
        action_space=action_space(),
        model_config={"fcnet_hiddens": [16]},
    ).build()
    rng = np.random.default_rng(0)
    mask = np.zeros((64, N_ACTIONS), np.int8)
    for row in mask:
        row[rng.choice(N_ACTIONS, size=rng.integers(1, 13), replace=False)] = 1
    obs = {
        "observations": torch.from_numpy(rng.random((64, 338), dtype=np.float32)),
        "action_mask": torch.from_numpy(mask),
    }
    for forward in (module.forward_inference, module.forward_exploration):
        logits = forward({Columns.OBS: dict(obs)})[Columns.ACTION_DIST_INPUTS]
        best = logits.argmax(dim=1).numpy()
        assert mask[np.arange(64), best].all()
        drawn = torch.distributions.Categorical(logits=logits).sample((20,)).numpy()
        assert mask[np.arange(64), drawn].all()
    values = module.compute_values({Columns.OBS: dict(obs)})
    assert values.shape == (64,)


def test_one_policy_per_seat_maps_each_seat_to_its_own_module(tmp_path: Path) -> None:
    config = algorithm_config(RLlibConfig(out=tmp_path, policies="per-seat"))
    assert set(config.rl_module_spec.rl_module_specs) == {"player_0", "player_1"}
    assert [config.policy_mapping_fn(seat, None) for seat in ("player_0", "player_1")] == [
        "player_0",
        "player_1",
    ]
    shared = algorithm_config(RLlibConfig(out=tmp_path))
    assert shared.policy_mapping_fn("player_1", None) == "shared"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--opponent", "heuristic"], "unrecognized arguments: --opponent heuristic"),
        (["--algo", "sac"], "unrecognized arguments: --algo sac"),
        (["--steps", "100"], "unrecognized arguments: --steps 100"),
        (["--iteration-steps", "64", "--batch-size", "128"], "--batch-size: a minibatch of 128"),
        (["--ray", "127.0.0.1:9"], "--ray: no Ray cluster answers at 127.0.0.1:9"),
        (["--ray", "nowhere"], "--ray: 'nowhere' is not auto, local or HOST:PORT"),
    ],
)
def test_sb3_options_with_rllib_are_one_line_errors(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", "rllib", "--out", str(tmp_path / "r"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kinghill train rllib: error: {message}") and err.count("\n") == 1
    assert not (tmp_path / "r").exists()  # refused before anything is written


def test_an_rllib_path_without_a_checkpoint_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="no RLlib checkpoint"):
        check_agent(f"rllib:{tmp_path}")
    with pytest.raises(FileNotFoundError, match="no RLlib checkpoint"):
        RLlibAgent(tmp_path)


def test_the_reference_agent_loads_without_ray_and_plays_a_frame_deterministically() -> None:
    import ray

    spec = "rllib-selfplay"  # the shipped model, by name
    frames = []
    for _ in range(2):
        game = Game()
        game.reset(seed=11, breaker=0)
        players = [make_agent(spec, seed=0), make_agent("heuristic", seed=1)]
        while not game.is_over:
            game.play(players[game.to_move].act(game.view()))
        frames.append((game.frame.winner, game.frame.shots))
    assert frames[0] == frames[1]  # same seed, same frame: the agent adds no randomness
    assert not ray.is_initialized()  # inference needs no Ray instance
