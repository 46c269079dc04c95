"""Issue 9: the practice curriculum's positions are valid starts with what each stage promises,
and its mix moves toward full frames as training goes on."""

import gymnasium as gym
import numpy as np

import kinghill.envs  # noqa: F401
from kinghill.envs.planning.menu import legal_pots
from kinghill.envs.rl.curriculum import PRACTICE, Curriculum, colour_position, whites_position
from kinghill.envs.rules import Decision, check_invariants
from kinghill.physics import TableSpec


def test_each_practice_stage_gives_a_valid_start_with_what_it_promises() -> None:
    env = gym.make("kinghill/KingOfTheHill-v0").unwrapped
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.reset(options=colour_position(rng, TableSpec()))
        game = env.game
        check_invariants(game.frame, game.state)
        assert game.frame.whites_needed(0) == 0 and game.frame.decision is Decision.SHOT
        best = legal_pots(game.view(0))
        assert best[0].call is not None and best[0].chance >= 0.3  # a called colour pot is on
        env.reset(options=whites_position(rng, TableSpec()))
        check_invariants(env.game.frame, env.game.state)
        assert env.game.frame.whites_needed(0) in (1, 2)


def test_the_mix_moves_to_full_frames_and_the_wrapper_follows_it() -> None:
    first, last = PRACTICE.weights(0.0), PRACTICE.weights(0.99)
    assert first[0] > last[0] and first[2] < last[2]  # colour drills early, frames late
    env = Curriculum(gym.make("kinghill/KingOfTheHill-v0"), PRACTICE, steps=100)
    stages = []
    for seed in range(30):
        stages.append(env.reset(seed=seed)[1]["stage"])
    assert stages.count("colour") > stages.count("frame")
    env.done = 99  # late in the run
    late = [env.reset(seed=100 + s)[1]["stage"] for s in range(30)]
    assert late.count("frame") > late.count("colour")
    # explicit options win over the curriculum
    _, info = env.reset(seed=1, options=colour_position(np.random.default_rng(1), TableSpec()))
    assert env.unwrapped.game.frame.whites_needed(0) == 0
    assert info["stage"] == ""  # the caller's position is no stage of the curriculum
    assert env.reset(seed=2)[1]["stage"] in {"colour", "whites", "frame"}
