"""Environments of King of the Hill: the rules, the game loop, Gymnasium and PettingZoo envs.

Importing this package registers with Gymnasium ``kinghill/KingOfTheHill-v0`` and its trainable
wrappers: ``kinghill/KingOfTheHill-Aim-v0`` (:class:`~kinghill.envs.wrappers.AimAssist`),
``kinghill/KingOfTheHill-Flat-v0`` (:class:`~kinghill.envs.wrappers.FlatAction`) and
``kinghill/KingOfTheHill-Masked-v0`` (:class:`~kinghill.envs.masked.MaskedShots`, for
``MaskablePPO``).
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
for _name, _entry in (
    ("Aim", "kinghill.envs.wrappers:make_aim_env"),
    ("Flat", "kinghill.envs.wrappers:make_flat_env"),
    ("Masked", "kinghill.envs.masked:make_masked_env"),
):
    register(id=f"kinghill/KingOfTheHill-{_name}-v0", entry_point=_entry, max_episode_steps=None)
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
