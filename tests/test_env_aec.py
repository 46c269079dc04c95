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


def test_a_start_position_of_your_own_as_the_gym_envs() -> None:
    """``reset(options=...)`` as the Gymnasium env takes it, ``learner`` being player_0."""
    e = raw_env(noise=False)
    options = {"balls": {0: (3.0, 1.4), 3: (2.5, 1.06)}, "credited": (3, 3), "to_move": "opponent"}
    e.reset(seed=0, options=options)
    assert e.agent_selection == "player_1"
    assert e.game.state.on_table.sum() == 2 and e.game.frame.whites_needed(0) == 0
    with pytest.raises(ValueError, match=r"reset options: unknown keys \['credit'\]"):
        e.reset(seed=0, options={"balls": {0: (3.0, 1.4)}, "credit": (0, 0)})
    e.reset(seed=0, options={"options": 1})  # no position: PettingZoo's api_test passes it
    assert e.game.state.on_table.all()


def test_no_cue_ball_is_offered_once_the_frame_is_over() -> None:
    """The Gymnasium env's mask is all zeros at the end, as the AEC env's is."""
    import gymnasium as gym

    import kinghill.envs  # noqa: F401

    env = gym.make("kinghill/KingOfTheHill-v0", shot_limit=3, breaker="learner")
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        assert info["action_mask"].any()
        obs, _, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        done = terminated or truncated
    assert not info["action_mask"].any() and not obs["action_mask"].any()


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
