"""Issue 9: the masked discrete env for MaskablePPO conforms to Gymnasium and SB3, its mask
offers exactly the shots on the menu, and every point of its action space is a valid action."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import kinghill.envs  # noqa: F401  (registers the IDs)
from kinghill.agents import make_agent
from kinghill.envs import FrameView, Game
from kinghill.envs.registration import GYM_IDS
from kinghill.envs.rl.masked import (
    HAND_BACK,
    PLAY_ON,
    POT_SLOTS,
    SLOTS,
    action_space,
    in_action_space,
    masked_observation_space,
    menu_observation,
    shot_menu,
)
from kinghill.envs.rl.wrappers import make_sb3_env
from kinghill.envs.rules import Decision


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_every_registered_gym_id_passes_both_checkers(env_id: str) -> None:
    """Gymnasium's and Stable-Baselines3's ``check_env`` on each id of ``GYM_IDS``, the plain env
    and its wrappers alike."""
    gym_check_env(gym.make(env_id), skip_render_check=True)
    sb3_check_env(gym.make(env_id), skip_render_check=True)


def _views(frames: int = 3) -> list[FrameView]:
    """Decisions of heuristic frames: breaks, shots, 10.4 choices."""
    game, out = Game(), []
    players = [make_agent("heuristic", seed=1), make_agent("heuristic", seed=2)]
    for seed in range(frames):
        game.reset(seed=seed, breaker=seed % 2)
        while not game.is_over and game.frame.shots < 40:
            out.append(game.view())
            game.play(players[game.to_move].act(game.view()))
    return out


def test_every_action_point_of_every_decision_plays_and_the_mask_matches_the_menu() -> None:
    rng = np.random.default_rng(0)
    game = Game()
    space = masked_observation_space()
    for view in _views():
        menu = shot_menu(view)
        mask = menu.action_masks()
        assert mask.shape == (SLOTS + 3 + 4,) and mask[:SLOTS].any()
        if view.decision is Decision.CHOICE:
            assert np.flatnonzero(mask[:SLOTS]).tolist() == [HAND_BACK, PLAY_ON]
        if view.decision is Decision.BREAK:
            assert np.flatnonzero(mask[:SLOTS]).tolist() == [0]
        offered = [s for s in range(SLOTS) if menu.shots[s] is not None]
        if view.decision is Decision.SHOT:
            assert np.flatnonzero(mask[:SLOTS]).tolist() == offered
        obs = menu_observation(view, menu)
        assert space.contains(obs)
        for _ in range(3):  # offered or not, any point decodes to an action the game accepts
            point = [rng.integers(SLOTS), rng.integers(3), rng.integers(4)]
            game.state, game.frame = view.state, view.frame
            game.play(menu.decode(point))


def test_the_pot_slots_hold_the_heuristic_pots_with_their_calls() -> None:
    from kinghill.envs.planning.menu import legal_pots

    for view in _views(2):
        if view.decision is not Decision.SHOT:
            continue
        menu = shot_menu(view)
        expected = legal_pots(view)[:POT_SLOTS]
        got = [menu.shots[s] for s in range(len(expected))]
        assert [(a.shot, a.call) for a in got if a] == [(c.shot, c.call) for c in expected]
        colour = [s for s, c in enumerate(expected) if c.call is not None]
        assert all(menu.features[s, 2] == 1.0 for s in colour)


def test_an_action_outside_the_space_is_refused() -> None:
    env = gym.make("kinghill/KingOfTheHill-Masked-v0")
    env.reset(seed=0)
    for outside in ([SLOTS, 0, 0], [0, -1, 0], [0, 0, 4], [0, 0], [0, 0, 0, 0]):
        with pytest.raises(ValueError, match="outside"):
            env.step(np.array(outside))
    obs, *_ = env.step([0.0, 2, 3])  # whole numbers of any type, as MultiDiscrete.contains takes
    for outside in ([0.5, 0, 0], [np.nan, 0, 0], None, "x"):  # a fraction is no slot
        with pytest.raises(ValueError, match="outside"):
            env.step(outside)


def test_the_menu_follows_a_position_restored_for_look_ahead() -> None:
    """After ``env.unwrapped.restore(snap)`` the mask and the slots are the restored
    position's, not those of the position the look-ahead stepped to."""
    env = make_sb3_env("masked", noise=False)
    env.reset(seed=0, options={"balls": {0: (3.0, 1.4), 3: (2.5, 1.06)}, "credited": (3, 3)})
    snap, mask = env.unwrapped.snapshot(), env.action_masks().copy()
    slot = int(np.flatnonzero(mask[:SLOTS])[-1])
    env.step(np.array([slot, 1, 0]))
    env.unwrapped.restore(snap)
    assert np.array_equal(env.action_masks(), mask)
    for slot in np.flatnonzero(mask[:SLOTS]):  # each offered slot plays from the restored table
        env.unwrapped.restore(snap)
        env.step(np.array([slot, 1, 0]))


@pytest.mark.parametrize("action", ["aim", "flat"])
def test_the_sb3_wrappers_pass_gymnasiums_checker_and_their_spec_remakes_them(action: str) -> None:
    """Gymnasium's ``check_env`` makes a wrapped env again from its spec: the Box wrappers
    record their arguments for it."""
    env = make_sb3_env(action)
    gym_check_env(env, skip_render_check=True)
    again = gym.make(env.spec)
    assert type(again) is type(env)
    assert again.action_space == env.action_space


def test_the_steps_check_agrees_with_multidiscrete_contains() -> None:
    """``in_action_space`` (the check of every step) says what ``action_space().contains``
    says of the integer points around the space and of other shapes."""
    space = action_space()
    points = [np.array(p) for p in np.ndindex(SLOTS + 2, 5, 6)]
    points = [p - 1 for p in points] + [np.zeros(2, int), np.zeros(4, int), np.zeros((1, 3), int)]
    for point in points:
        expected = space.contains(np.asarray(point, dtype=np.int64).reshape(-1))
        assert in_action_space(point) == expected, point
    assert sum(in_action_space(p) for p in points) == SLOTS * 3 * 4 + 1  # and the (1, 3) zeros


def test_is_success_is_set_at_the_end_of_a_frame_only() -> None:
    env = gym.make("kinghill/KingOfTheHill-Masked-v0")
    env.reset(seed=3)
    while True:
        mask = env.get_wrapper_attr("action_masks")()
        slot = int(np.flatnonzero(mask[:SLOTS])[0])
        _, _, terminated, truncated, info = env.step(np.array([slot, 1, 0]))
        if terminated or truncated:
            break
        assert "is_success" not in info
    assert info["is_success"] == (info["frame"].winner == 0)
