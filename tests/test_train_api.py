"""Issue 20: the training library under the command line. ``kinghill.experiments.training``
exports ``train`` (both backends) and ``train_value``; the library never imports the CLI, and
its errors name parameters, which ``kinghill train`` reports as the flags they came from."""

from __future__ import annotations

import argparse
import ast
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from stable_baselines3 import PPO

from kinghill.experiments import training
from kinghill.experiments.cli.app import build_parser, main
from kinghill.experiments.training import ConfigError, RLlibConfig, TrainConfig, train
from kinghill.experiments.training.expert_iteration import ExpertConfig
from kinghill.experiments.training.position_iteration import PositionConfig


def test_the_python_api_is_exported() -> None:
    assert callable(training.train) and callable(training.train_value)
    assert {"train", "train_value", "TrainConfig", "RLlibConfig", "TrainingError"} <= set(
        training.__all__
    )


def test_the_training_library_does_not_import_the_command_line() -> None:
    """No module of the library names the CLI, lazily or not (the layers' import-linter
    contract covers what they import in turn)."""
    folder = Path(training.__file__).parent
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not [n for n in names if n.startswith("kinghill.experiments.cli")], path.name


def test_configuration_errors_name_the_parameter(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="maskable-ppo trains the masked action") as caught:
        TrainConfig(out=tmp_path, algo="maskable-ppo", action="aim")
    assert caught.value.parameter == "action" and "--" not in str(caught.value)
    with pytest.raises(ConfigError, match="masked action alone; leave it 0") as caught:
        TrainConfig(out=tmp_path, algo="ppo", warm_start=100)
    assert caught.value.parameter == "warm_start"
    with pytest.raises(ConfigError, match=r"frames of imitation, >= 0 \(got -1\)"):
        TrainConfig(out=tmp_path, algo="maskable-ppo", action="masked", warm_start=-1)
    with pytest.raises(ConfigError, match="needs positive layer sizes") as caught:
        TrainConfig(out=tmp_path, net=(64, "x"))  # type: ignore[arg-type]
    assert caught.value.parameter == "net"
    with pytest.raises(ConfigError, match=r"\(got sac with masked; ppo, sac train aim or flat\)"):
        TrainConfig(out=tmp_path, algo="sac", action="masked")  # says what each one trains
    with pytest.raises(ConfigError) as caught:
        RLlibConfig(out=tmp_path, batch_steps=64, minibatch_size=128)
    assert caught.value.parameter == "minibatch_size"
    assert caught.value.related == ("batch_steps",) and "--" not in str(caught.value)
    with pytest.raises(ConfigError, match="must be a whole number of at least 1") as caught:
        TrainConfig(out=tmp_path, steps=0)
    assert caught.value.parameter == "steps"


@pytest.mark.parametrize(
    ("make", "parameter"),
    [
        (lambda out: TrainConfig(out=out, steps="100"), "steps"),  # was a raw TypeError
        (lambda out: TrainConfig(out=out, steps=1.5), "steps"),  # was accepted
        (lambda out: TrainConfig(out=out, envs=True), "envs"),
        (lambda out: TrainConfig(out=out, seed=-1), "seed"),  # numpy refused it mid-run
        (lambda out: RLlibConfig(out=out, seed=1.5), "seed"),
        (
            lambda out: TrainConfig(
                out=out, algo="maskable-ppo", action="masked", vectorization="gymnasium"
            ),
            "vectorization",  # was a KeyError once the envs started
        ),
        (lambda out: PositionConfig(out, iterations=0), "iterations"),
        (lambda out: PositionConfig(out, jobs=0), "jobs"),
        (lambda out: PositionConfig(out, eval_frames=3), "eval_frames"),  # failed after the fit
        (lambda out: PositionConfig(out, hidden=(0, 4)), "hidden"),
        (lambda out: PositionConfig(out, budget=0), "budget"),
        (lambda out: ExpertConfig(out, eval_frames=1), "eval_frames"),
        (lambda out: ExpertConfig(out, hidden=0), "hidden"),
    ],
)
def test_each_training_config_refuses_what_it_cannot_run_naming_it(
    make: Any, parameter: str, tmp_path: Path
) -> None:
    """The Python API's configurations check what the command lines check, when they are made,
    and name the setting (they failed deep inside the run, or trained a broken net)."""
    with pytest.raises(ConfigError) as caught:
        make(tmp_path)
    assert caught.value.parameter == parameter


def test_an_init_checkpoint_that_is_not_there_is_named(tmp_path: Path) -> None:
    config = TrainConfig(out=tmp_path / "run", init=tmp_path / "nowhere.zip", steps=64)
    with pytest.raises(ConfigError, match="no checkpoint at .*nowhere.zip$"):  # not .zip.zip
        train(config)


def test_the_help_says_what_train_trains() -> None:
    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {choice.dest: choice.help for choice in commands._choices_actions}
    assert (
        helps["train"] == "train PPO, SAC, MaskablePPO on Stable-Baselines3, or self-play on RLlib"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--resume", "nowhere"], "--resume: nowhere holds no run.json of a training run"),
        (["--resume", "run", "--envs", "4"], "--envs: --resume keeps the run's settings; only"),
        (["--resume", "run", "--seed=3"], "--seed: --resume keeps the run's settings"),
        (["--resume", "run", "sb3", "--seed", "3"], "sb3: --resume keeps the run's settings"),
        ([], "BACKEND: give a backend (kinghill train sb3|rllib ... --out DIR), or --resume"),
    ],
)
def test_resume_errors_are_one_line(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["train", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kinghill train: error: {message}") and err.count("\n") == 1


def test_a_time_limit_is_the_sessions_own_and_says_when_it_stopped_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--time-limit`` stops this session, says so with how to go on, and a resume without
    one is not cut short by it (the limit was kept in the run's config and could not be
    removed)."""
    out = tmp_path / "run"
    argv = ["train", "sb3", "--algo", "ppo", "--steps", "100000", "--n-steps", "32",
            "--batch-size", "32", "--envs", "1", "--net", "8", "--checkpoint-every", "0",
            "--eval-every", "0", "--no-progress", "--time-limit", "0.0001",
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert f"of 100000 steps; go on with: kinghill train --resume {out}" in said
    learnt = json.loads((out / "run.json").read_text())["result"]["extra"]["time_limit_stop"][0]
    assert main(["train", "--resume", str(out), "--steps", str(learnt + 64), "--no-progress"]) == 0
    assert "stopped at the time limit" not in capsys.readouterr().out
    model = PPO.load(out / "final.zip")
    assert model.num_timesteps >= learnt + 64


def test_a_python_resume_with_other_settings_is_refused_naming_the_first(
    tmp_path: Path,
) -> None:
    """``train(config, resume=True)`` goes on with the run's own settings: more steps (or
    another time limit, or no progress bar) are taken; another setting is a ConfigError that
    names it, before anything is trained or written (it was taken silently, run.json's record
    overwritten, or failed inside SB3)."""
    config = TrainConfig(
        out=tmp_path / "run", algo="ppo", steps=64, n_steps=32, batch_size=32, envs=1,
        net=(8,), checkpoint_every=0, eval_every=0, progress=False,
    )  # fmt: skip
    training.train(config)
    record = (config.out / "run.json").read_text()
    for change in (
        {"envs": 2},
        {"learning_rate": 0.1},
        {"action": "flat"},
        {"opponent": "heuristic"},
    ):
        with pytest.raises(ConfigError, match="a resume changes only steps") as caught:
            training.train(replace(config, steps=128, **change), resume=True)
        assert caught.value.parameter == next(iter(change))
        assert (config.out / "run.json").read_text() == record
    files = sorted(p.relative_to(config.out) for p in config.out.rglob("*"))
    with pytest.raises(ConfigError, match="learnt 64 steps already; ask for more"):
        training.train(config, resume=True)  # no more steps: refused, the folder left alone
    assert sorted(p.relative_to(config.out) for p in config.out.rglob("*")) == files
    assert (config.out / "run.json").read_text() == record  # its sessions not counted
    result = training.train(replace(config, steps=128, time_limit=5.0), resume=True)
    assert PPO.load(result.model).num_timesteps >= 128


def test_a_resume_does_not_evaluate_again_the_step_the_last_session_ended_on(
    tmp_path: Path,
) -> None:
    """evaluations.csv holds one row a step: a resumed session starts from the step the last
    one evaluated as it ended, and does not evaluate it twice (the curve drew both)."""
    config = TrainConfig(
        out=tmp_path / "run", algo="ppo", steps=64, n_steps=32, batch_size=32, envs=1,
        net=(8,), checkpoint_every=0, eval_every=32, eval_frames=2, evaluation="inline",
        opponent="random", eval_opponent="random", progress=False,
    )  # fmt: skip
    training.train(config)
    training.train(replace(config, steps=128), resume=True)
    with (config.out / "evaluations.csv").open() as rows:
        steps = [int(row.split(",")[0]) for row in list(rows)[1:]]
    assert steps == sorted(set(steps)) and steps[0] == 0 and steps[-1] >= 128, steps


def test_a_new_run_in_a_folder_holding_a_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second run without --resume in the first one's folder would append its evaluations to
    the first's and keep the first's best model: refused, naming --resume, the folder left as
    it was; a fresh folder trains."""
    out = tmp_path / "run"
    argv = ["train", "sb3", "--algo", "ppo", "--steps", "64", "--n-steps", "32",
            "--batch-size", "32", "--envs", "1", "--net", "8", "--checkpoint-every", "0",
            "--no-progress"]  # fmt: skip
    assert main([*argv, "--out", str(out)]) == 0
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    capsys.readouterr()
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out: {out} holds a run already (run.json, final.zip" in err
    assert f"--resume {out} goes on with it" in err and err.count("\n") == 1
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before
    with pytest.raises(ConfigError, match="holds a run already") as caught:
        training.train(TrainConfig(out=out, steps=64, envs=1, progress=False))
    assert caught.value.parameter == "out"


def test_a_failed_start_leaves_the_folder_usable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39 item 6: a run whose opponent cannot be built fails at its start; it takes back
    its run.json and logs (what the folder held before stays), and the corrected command
    trains in the same folder instead of being refused with "holds a run already"."""
    (tmp_path / "brokenopponent.py").write_text(
        "class Agent:\n"
        "    def __init__(self, seed=None):\n"
        "        raise RuntimeError('this opponent cannot start')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "run"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    argv = ["train", "sb3", "--algo", "ppo", "--steps", "64", "--n-steps", "32",
            "--batch-size", "32", "--envs", "1", "--net", "8", "--checkpoint-every", "0",
            "--no-progress", "--eval-every", "0", "--out", str(out)]  # fmt: skip
    config = TrainConfig(out=out, steps=64, envs=1, opponent="brokenopponent:Agent", progress=False)
    with pytest.raises(Exception, match="this opponent cannot start"):
        training.train(config)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert main([*argv, "--opponent", "random"]) == 0
    assert (out / "run.json").exists() and (out / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("command", ["train-position", "train-expert"])
def test_an_odd_eval_frames_is_refused_before_the_run_starts(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It failed with a traceback after the self-play and the fit, its run.json written: the
    folder then refused the corrected command."""
    out = tmp_path / "run"
    assert main([command, "--eval-frames", "3", "--out", str(out)]) == 2
    assert "--eval-frames: must be even and at least 2 (got 3)" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("settings", "parameter"),
    [
        ({"frames": 0}, "frames"),
        ({"frames": 4, "hidden": 0}, "hidden"),
        ({"frames": 4, "jobs": 0}, "jobs"),
    ],
)
def test_train_value_refuses_what_it_cannot_fit(
    settings: dict[str, int], parameter: str, tmp_path: Path
) -> None:
    """A zero-unit net trained (AUC 0.5) and no frames or workers failed inside multiprocessing."""
    with pytest.raises(ConfigError) as caught:
        training.train_value(out=tmp_path / "value.npz", **settings)  # type: ignore[arg-type]
    assert caught.value.parameter == parameter and not (tmp_path / "value.npz").exists()
