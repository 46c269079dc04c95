"""Issue 4: Stable-Baselines3's own ``check_env`` passes on both SB3 wrappers."""

import pytest
from stable_baselines3.common.env_checker import check_env

from kinghill.envs.rl.wrappers import make_sb3_env


@pytest.mark.parametrize("action", ["aim", "flat"])
def test_sb3_check_env_passes_on_wrapped_env(action: str) -> None:
    env = make_sb3_env(action)
    check_env(env, warn=True, skip_render_check=True)
    env.close()
