"""A checkpoint plays with the action it was trained with: ``policy:PATH`` (and ``kinghill
export-policy``) read it from the model's action space (a ``Box`` of the aim or the flat
action's length, the masked action's ``MultiDiscrete``), and an ``?action=`` it was not trained
with is refused in one line (decoded as another action, every decision was refused: a flat
checkpoint played as aim fouled every shot)."""

from pathlib import Path

import numpy as np
import pytest
from gymnasium import spaces

from kinghill.agents import AgentSpecError, make_agent
from kinghill.envs import Game, ShotAction
from kinghill.envs.rl import make_sb3_env
from kinghill.envs.rl.wrappers import BOX_SIZES, action_of
from kinghill.physics import NoiseModel


@pytest.fixture(scope="module")
def flat_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from stable_baselines3 import PPO

    path = tmp_path_factory.mktemp("flat") / "final.zip"
    PPO("MlpPolicy", make_sb3_env("flat"), n_steps=64, batch_size=64, seed=0).save(path)
    return path


def test_the_action_is_read_from_the_models_action_space() -> None:
    assert action_of(make_sb3_env("aim").action_space) == "aim"
    assert action_of(make_sb3_env("flat").action_space) == "flat"
    assert action_of(make_sb3_env("masked").action_space) == "masked"
    assert action_of(spaces.Box(-1, 1, (7,), np.float32)) is None
    assert BOX_SIZES["aim"] != BOX_SIZES["flat"]


def test_a_flat_checkpoint_plays_as_flat_by_default(flat_checkpoint: Path) -> None:
    agent = make_agent(f"policy:{flat_checkpoint}", 0)
    assert agent.policy.action == "flat"
    game = Game(noise=NoiseModel())
    game.reset(seed=3)
    action = agent.act(game.view())
    assert isinstance(action, ShotAction)
    game.play(action)  # the referee takes it: a shot, not "no playable action"
    assert game.frame.shots == 1


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("policy:{flat}?action=aim", "trained with the flat action, not the aim action"),
        ("ppo-aim?action=masked", "trained with the aim action, not the masked action"),
        ("maskable-ppo?action=aim", "trained with the masked action, not the aim action"),
    ],
)
def test_an_action_it_was_not_trained_with_is_refused(
    spec: str, said: str, flat_checkpoint: Path
) -> None:
    with pytest.raises(AgentSpecError, match=said):
        make_agent(spec.format(flat=flat_checkpoint))


def test_export_policy_writes_the_action_it_was_trained_with(
    flat_checkpoint: Path, tmp_path: Path
) -> None:
    pytest.importorskip("onnx", reason="needs the onnx extra")
    pytest.importorskip("onnxscript", reason="needs the onnx extra")
    pytest.importorskip("onnxruntime", reason="needs the onnx extra")
    from kinghill.agents.onnx_policy import OnnxModel
    from kinghill.experiments.training.onnx_export import export_policy

    with pytest.raises(ValueError, match="trained with the flat action, not the aim"):
        export_policy(flat_checkpoint, tmp_path / "aim.onnx", "aim")
    assert not any(tmp_path.iterdir())  # refused before anything was written
    out = export_policy(flat_checkpoint, tmp_path / "flat.onnx")
    assert OnnxModel(out).action == "flat"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flat.onnx"]  # no stray .onnx.data
