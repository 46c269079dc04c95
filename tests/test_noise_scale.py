"""Noise conditions (``noise_scale``): a scale multiplies the noise drawn and changes nothing
else; ``variable`` draws a scale for each shot from the frame's generator; every layer that
plays frames (the game, the envs, the tournaments' options, the command line) takes it."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

from kinghill.envs.game import Game, ShotAction
from kinghill.envs.game.noise import VARIABLE, VariableNoise, check_noise_scale, scaled
from kinghill.envs.rl.env_options import noise_model
from kinghill.experiments.cli.frame_options import add_frame_options, frame_options
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.physics import BREAK_BALL, NoiseModel, Shot

SHOT = Shot(BREAK_BALL, np.pi, 2.0, 0.1, -0.1)


def _played(scale: float | str, seed: int = 3) -> tuple[Shot, dict]:
    """The break as executed at ``scale`` and the game's generator state after it."""
    game = Game(noise=scaled(NoiseModel(), scale))
    game.reset(seed=seed)
    turn = game.play(ShotAction(SHOT))
    assert turn.result is not None
    return turn.result.shot, game.rng.bit_generator.state


def _deviation(shot: Shot) -> np.ndarray:
    return np.array(
        [shot.phi - SHOT.phi, shot.speed - SHOT.speed, shot.a - SHOT.a, shot.b - SHOT.b]
    )


def test_a_scale_multiplies_the_noise_drawn_and_nothing_else() -> None:
    once, state_once = _played(1.0)
    five, state_five = _played(5.0)
    np.testing.assert_allclose(_deviation(five), 5 * _deviation(once), rtol=1e-9, atol=1e-15)
    assert state_once == state_five  # the same draws, in the same order
    none, _ = _played(0.0)
    np.testing.assert_allclose(_deviation(none), 0.0, atol=1e-15)


def test_the_variable_scale_is_drawn_per_shot_from_the_frames_generator() -> None:
    first, _ = _played(VARIABLE, seed=4)
    again, _ = _played(VARIABLE, seed=4)
    assert first == again  # fixed by the seed
    rng = np.random.default_rng(0)
    scale = np.random.default_rng(0).uniform(0.0, 5.0)
    executed = VariableNoise().perturb(SHOT, rng, 0.034)
    expected = scaled(NoiseModel(), float(scale)).perturb(
        SHOT, _after_one_uniform(np.random.default_rng(0)), 0.034
    )
    assert executed == expected


def _after_one_uniform(rng: np.random.Generator) -> np.random.Generator:
    rng.uniform(0.0, 5.0)
    return rng


def test_scaled_models() -> None:
    model = scaled(NoiseModel(), 5)
    assert model.sigma_speed == pytest.approx(5 * NoiseModel().sigma_speed)
    assert scaled(NoiseModel(), 1) == NoiseModel()
    assert isinstance(scaled(NoiseModel(), VARIABLE), VariableNoise)
    for bad in (-1, float("nan"), "loud", True):
        with pytest.raises(ValueError, match="noise_scale"):
            check_noise_scale(bad)


def test_the_envs_take_the_option() -> None:
    assert noise_model(True, 5).sigma_phi == pytest.approx(5 * NoiseModel().sigma_phi)  # type: ignore[union-attr]
    assert noise_model(False, 5) is None
    from kinghill.envs.rl.gym_env import KingOfTheHillEnv

    env = KingOfTheHillEnv(noise_scale=VARIABLE)
    assert isinstance(env.game.noise, VariableNoise)


def test_frame_options_check_the_scale_and_old_configs_load() -> None:
    with pytest.raises(TournamentError) as error:
        FrameOptions(noise_scale=-2)
    assert error.value.parameter == "noise_scale"
    assert FrameOptions(noise_scale=5).noise_scale == 5.0
    old = {"agents": ["a", "b"], "frames": 2, "seed": 0, "options": {"round": None}}
    assert TournamentConfig.from_dict(old).options.noise_scale == 1.0
    stored = TournamentConfig(("a", "b"), 2, options=FrameOptions(noise_scale=VARIABLE))
    assert TournamentConfig.from_dict(stored.to_dict()) == stored


def test_the_command_line_option() -> None:
    parser = argparse.ArgumentParser()
    add_frame_options(parser)
    assert frame_options(parser.parse_args(["--noise-scale", "5"])).noise_scale == 5.0
    assert frame_options(parser.parse_args(["--noise-scale", "variable"])).noise_scale == VARIABLE
    assert frame_options(parser.parse_args([])).noise_scale == 1.0
    with pytest.raises(SystemExit):
        parser.parse_args(["--noise-scale", "-1"])


def test_training_takes_the_scale_to_its_envs(tmp_path: Path) -> None:
    from kinghill.experiments.cli.app import build_parser
    from kinghill.experiments.cli.train import config_from_args
    from kinghill.experiments.training import ConfigError, TrainConfig
    from kinghill.experiments.training.environments import make_training_env

    args = build_parser().parse_args(["train", "sb3", "--out", str(tmp_path), "--noise-scale", "5"])
    config = config_from_args(args)
    assert isinstance(config, TrainConfig) and config.noise_scale == 5.0
    env = make_training_env(config, 0, in_worker=False)
    assert env.unwrapped.game.noise.sigma_speed == pytest.approx(5 * NoiseModel().sigma_speed)  # type: ignore[attr-defined]
    env.close()
    with pytest.raises(ConfigError) as error:
        TrainConfig(tmp_path, noise_scale="loud")
    assert error.value.parameter == "noise_scale"
