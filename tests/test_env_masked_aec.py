"""Issue 12: the two-seat shot-menu AEC env (RLlib's input): its flat ``Discrete(156)`` index
decodes to the masked env's (slot, speed, spin), every index is a valid action, and its mask
offers exactly the menu (each 10.4 option once). PettingZoo's own tests: test_env_aec_suites.py."""

import numpy as np
import pytest

from kinghill.agents import make_agent
from kinghill.envs import Game, check_action
from kinghill.envs.rl.masked import HAND_BACK, PLAY_ON, SLOTS, shot_menu
from kinghill.envs.rl.masked_aec import LEVELS, N_ACTIONS, decode_index, flat_mask, masked_env
from kinghill.envs.rules import Decision


def test_the_flat_index_is_slot_speed_spin_in_row_major_order() -> None:
    assert LEVELS == (SLOTS, 3, 4) and N_ACTIONS == 156
    game = Game()
    game.reset(seed=4, breaker=0)
    game.play(make_agent("heuristic", seed=0).act(game.view()))  # past the break
    menu = shot_menu(game.view())
    assert menu.decision is Decision.SHOT
    for slot, speed, spin in [(0, 0, 0), (0, 2, 3), (8, 1, 2)]:
        index = (slot * 3 + speed) * 4 + spin
        assert decode_index(menu, index) == menu.decode([slot, speed, spin])


def test_every_index_plays_and_the_mask_matches_the_menu() -> None:
    game, players = Game(), [make_agent("heuristic", seed=1), make_agent("heuristic", seed=2)]
    seen = set()
    for seed in range(3):
        game.reset(seed=seed, breaker=seed % 2)
        while not game.is_over and game.frame.shots < 40:
            view = game.view()
            menu, mask = shot_menu(view), None
            mask = flat_mask(menu).reshape(LEVELS)
            seen.add(menu.decision)
            offered = np.flatnonzero(menu.offered)
            if menu.decision is Decision.CHOICE:  # levels ignored: each option once
                assert set(offered) == {HAND_BACK, PLAY_ON}
                assert mask.sum() == 2 and all(mask[s, 0, 0] for s in offered)
            else:
                assert (mask.any(axis=(1, 2)) == menu.offered).all()
                assert (mask[offered] == 1).all()
            for index in range(N_ACTIONS):  # unmasked indices too: each a valid action
                slot, speed, spin = np.unravel_index(index, LEVELS)
                played = slot if menu.offered[slot] else offered[0]  # the first offered one
                action = check_action(decode_index(menu, index))
                assert action == menu.decode([played, speed, spin])
            game.play(players[game.to_move].act(view))
    assert {Decision.BREAK, Decision.SHOT} <= seen


def test_a_frame_of_masked_choices_ends_with_both_results_and_an_index_outside_is_refused() -> None:
    env = masked_env()
    env.reset(seed=3)
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step(N_ACTIONS)
    rng, results = np.random.default_rng(0), {}
    for agent in env.agent_iter(max_iter=2_000):
        obs, _, terminated, truncated, info = env.last()
        assert obs["observation"].shape == (338,) and obs["action_mask"].dtype == np.int8
        if terminated or truncated:
            results[agent] = info["won"]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents  # the frame ended: each seat got its result, 1 and 0 (or 0.5 each)
    assert set(results) == {"player_0", "player_1"} and sum(results.values()) == 1.0
    assert set(results.values()) <= {0.0, 0.5, 1.0}
