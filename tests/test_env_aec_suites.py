"""PettingZoo's own test suites on every AEC env of kinghill (issue 23): ``api_test``,
``seed_test`` and ``render_test`` (its ``human`` mode in SDL's dummy video driver, no display),
each module offering ``env()`` and ``raw_env()`` as PettingZoo's own modules do."""

from types import ModuleType

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, render_test, seed_test

from kinghill.envs.rl import aec_env, masked_aec

MODULES = [aec_env, masked_aec]


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


@pytest.mark.parametrize(("module", "cycles"), [(aec_env, 60), (masked_aec, 20)], ids=str)
def test_api_test(module: ModuleType, cycles: int) -> None:
    api_test(module.env(), num_cycles=cycles)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_seed_test(module: ModuleType) -> None:
    seed_test(module.env, num_cycles=10)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_render_test_in_every_mode(module: ModuleType) -> None:
    assert module.raw_env().metadata["render_modes"] == ["human", "rgb_array"]
    render_test(module.env)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_raw_env_is_the_env_without_the_wrappers(module: ModuleType) -> None:
    wrapped, raw = module.env(), module.raw_env()
    assert type(wrapped.unwrapped) is type(raw) and wrapped is not wrapped.unwrapped
    wrapped.reset(seed=5)
    raw.reset(seed=5)
    agent = raw.agent_selection
    assert wrapped.agent_selection == agent
    assert data_equivalence(wrapped.observe(agent), raw.observe(agent))


def test_the_masked_env_keeps_its_name_masked_env() -> None:
    assert masked_aec.masked_env is masked_aec.env


def test_the_human_window_shows_each_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """``render_mode="human"`` draws the table in the window after reset and after each step."""
    shown: list[np.ndarray] = []
    monkeypatch.setattr(
        "kinghill.envs.drawing.render.HumanWindow.show",
        lambda self, picture: shown.append(picture) or True,
    )
    env = aec_env.raw_env(render_mode="human", noise=False)
    env.reset(seed=1)
    assert len(shown) == 1 and shown[0].ndim == 3
    env.step(env.action_space(env.agent_selection).sample(env.action_mask(env.agent_selection)))
    assert len(shown) == 2 and not np.array_equal(shown[0], shown[1])
    env.close()


def test_the_human_window_opens_and_closes() -> None:
    env = masked_aec.raw_env(render_mode="human")
    env.reset(seed=2)
    assert env._display.is_open
    env.close()
    assert not env._display.is_open
