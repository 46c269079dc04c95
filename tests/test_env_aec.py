"""The PettingZoo AEC environment (issue 4): turn order by the rules, both rewards (PettingZoo's
own tests: test_env_aec_suites.py)."""

import numpy as np
import pytest

from kinghill.envs import ChoiceAction, ShotAction
from kinghill.envs.rl.aec_env import env, raw_env
from kinghill.physics import BREAK_BALL, Shot


def test_registered_for_pettingzoo_make() -> None:
    import pettingzoo

    import kinghill.envs  # noqa: F401

    made = pettingzoo.make("aec", "kinghill/KingOfTheHill-v0")
    made.reset(seed=1)
    assert made.agent_selection in ("player_0", "player_1")


def test_pettingzoo_make_needs_kinghill_envs_imported_as_documented() -> None:
    """README and the module say so: PettingZoo cannot import the package on demand. Should it
    ever work without the import, this fails and the documentation is to be updated."""
    import subprocess
    import sys

    make = "import pettingzoo; pettingzoo.make('aec', 'kinghill/KingOfTheHill-v0')"
    bare = subprocess.run([sys.executable, "-c", make], capture_output=True, text=True)
    assert bare.returncode != 0 and "not found in registry" in bare.stderr
    imported = subprocess.run([sys.executable, "-c", "import kinghill.envs; " + make])
    assert imported.returncode == 0


def test_mask_only_for_the_player_to_move() -> None:
    e = raw_env(noise=False)
    e.reset(seed=2)
    mover = e.agent_selection
    other = "player_1" if mover == "player_0" else "player_0"
    assert e.observe(mover)["action_mask"].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]  # break: white 1
    assert not e.observe(other)["action_mask"].any()


def test_foul_gives_opponent_the_choice_and_both_rewards() -> None:
    """R-foul-choice and 10.5 through the AEC turn order; rewards reach both seats."""
    e = raw_env(noise=False)
    e.reset(seed=4)
    breaker = e.agent_selection
    other = "player_1" if breaker == "player_0" else "player_0"
    e.step(ShotAction(Shot(BREAK_BALL, np.pi, 0.3), place=(0.4, 0.9)))  # a miss: foul
    assert e.rewards[breaker] == pytest.approx(-0.3) and e.rewards[other] == 0.0
    assert e.agent_selection == other
    e.step(ChoiceAction(play_on=False))  # hand back to the breaker
    assert e.agent_selection == breaker
    e.step(ShotAction(Shot(BREAK_BALL, np.pi, 0.3)))  # second foul: the frame is lost
    assert all(e.terminations.values())
    assert e.rewards[breaker] == pytest.approx(-0.3 - 1.0)
    assert e.rewards[other] == pytest.approx(1.0)


def test_render_rings_the_last_shots_cue_ball_and_names_it() -> None:
    from kinghill.envs.drawing.render import CUE_RING

    game = env(render_mode="rgb_array")
    game.reset(seed=1)
    agent = game.agent_selection
    game.step(game.action_space(agent).sample(game.observe(agent)["action_mask"]))
    picture = game.render()
    assert picture is not None
    assert (np.abs(picture.astype(int) - CUE_RING).max(-1) <= 30).sum() > 5
    shot = game.unwrapped._display.overlay(game.unwrapped.game)[1]
    assert shot.startswith("P0 shoots cue ball 1")  # the break
