"""Environments of King of the Hill: the rules, the game loop, Gymnasium and PettingZoo envs.

Importing this package registers ``kinghill/KingOfTheHill-v0`` with Gymnasium.
"""

import pettingzoo
from gymnasium.envs.registration import register

from kinghill.envs.actions import (
    Action,
    Agent,
    ChoiceAction,
    FrameView,
    InvalidAction,
    ShotAction,
    check_action,
)
from kinghill.envs.decisions import Answer, ask
from kinghill.envs.game import Decided, Game, GameSnapshot, Turn
from kinghill.envs.gym_env import KingOfTheHillEnv
from kinghill.envs.opponents import RandomOpponent
from kinghill.envs.rewards import RewardWeights

register(
    id="kinghill/KingOfTheHill-v0",
    entry_point="kinghill.envs.gym_env:KingOfTheHillEnv",
    max_episode_steps=None,
)
pettingzoo.register("aec", "kinghill/KingOfTheHill-v0", "kinghill.envs.aec_env:env")

__all__ = [
    "Action",
    "Agent",
    "Answer",
    "ChoiceAction",
    "Decided",
    "FrameView",
    "Game",
    "GameSnapshot",
    "InvalidAction",
    "KingOfTheHillEnv",
    "RandomOpponent",
    "RewardWeights",
    "ShotAction",
    "Turn",
    "ask",
    "check_action",
]
