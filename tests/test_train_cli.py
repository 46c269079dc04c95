"""Issue 5: ``kinghill train`` runs a few hundred steps and leaves a model, a checkpoint, logs
and the learning curve; self-play keeps a pool of snapshots that the opponents play."""

import json
from pathlib import Path

import pytest

from kinghill.experiments.cli.app import main
from kinghill.experiments.training.selfplay import snapshots


@pytest.mark.slow
def test_train_writes_model_checkpoint_and_learning_curve(tmp_path: Path) -> None:
    out = tmp_path / "run"
    status = main(
        ["train", "sb3", "--out", str(out), "--steps", "256", "--envs", "1", "--n-steps", "64",
         "--batch-size", "32", "--net", "16", "--checkpoint-every", "128", "--no-progress"]
    )  # fmt: skip
    assert status == 0
    assert (out / "final.zip").stat().st_size > 0
    assert json.loads((out / "final.json").read_text()) == {"algo": "ppo", "action": "aim"}
    assert sorted(p.name for p in (out / "checkpoints").glob("*.zip")) == [
        "ppo_128_steps.zip",
        "ppo_256_steps.zip",
    ]
    assert (out / "learning_curve.png").read_bytes().startswith(b"\x89PNG")
    assert (out / "tb" / "progress.csv").exists()
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["steps"] == 256
    assert run["result"]["episodes"] > 0

    again = tmp_path / "again"  # a run can go on from a saved model
    status = main(
        ["train", "sb3", "--out", str(again), "--init", str(out / "final.zip"), "--steps", "64",
         "--envs", "1", "--checkpoint-every", "0", "--no-progress"]
    )  # fmt: skip
    assert status == 0
    assert (again / "final.zip").exists()


@pytest.mark.slow
def test_train_self_play_refreshes_the_pool(tmp_path: Path) -> None:
    out = tmp_path / "self"
    status = main(
        ["train", "sb3", "--out", str(out), "--opponent", "self", "--steps", "256", "--envs", "2",
         "--n-steps", "32", "--batch-size", "32", "--net", "16", "--refresh", "64",
         "--pool-size", "2", "--checkpoint-every", "0", "--no-progress"]
    )  # fmt: skip
    assert status == 0
    names = [p.name for p in snapshots(out / "pool")]
    assert names[0] == "snapshot_0000000000.zip"  # saved before the first episode
    assert len(names) >= 4  # one every 64 steps
    assert not (out / "checkpoints").exists()


def test_train_rejects_an_unknown_opponent(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["train", "sb3", "--out", str(tmp_path), "--opponent", "nobody"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kinghill train sb3: error: --opponent: unknown agent 'nobody'")
