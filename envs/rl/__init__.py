"""The reinforcement-learning environments: Gymnasium's ``kinghill/KingOfTheHill-v0``
(:class:`KingOfTheHillEnv`, one learning seat against an opponent) with its spaces
(:mod:`.encoding`), rewards and options; the trainable wrappers for Stable-Baselines3 (flat and
aim-assisted ``Box`` actions, :mod:`.wrappers`; the masked shot menu for ``MaskablePPO``,
:mod:`.masked`, whose :class:`Menu` of a position :func:`shot_menu` builds); PettingZoo AEC envs
for two learning seats, each module with PettingZoo's ``env()`` and ``raw_env()`` (:mod:`.aec_env`,
:mod:`.masked_aec`: not imported here, so that this face loads no PettingZoo); curricula of start
positions (:mod:`.curriculum`); what the envs draw of a frame and replay (:mod:`.table_display`).
"""

from kinghill.envs.registration import register_envs
from kinghill.envs.rl.curriculum import CURRICULA, Curriculum
from kinghill.envs.rl.gym_env import KingOfTheHillEnv
from kinghill.envs.rl.masked import MaskedShots, Menu, make_masked_env, shot_menu
from kinghill.envs.rl.opponents import RandomOpponent
from kinghill.envs.rl.rewards import RewardWeights
from kinghill.envs.rl.wrappers import (
    ACTIONS,
    WRAPPERS,
    AimAssist,
    FlatAction,
    FrozenPolicy,
    make_sb3_env,
)

register_envs()

__all__ = [
    "ACTIONS",
    "CURRICULA",
    "WRAPPERS",
    "AimAssist",
    "Curriculum",
    "FlatAction",
    "FrozenPolicy",
    "KingOfTheHillEnv",
    "MaskedShots",
    "Menu",
    "RandomOpponent",
    "RewardWeights",
    "make_masked_env",
    "make_sb3_env",
    "shot_menu",
]
