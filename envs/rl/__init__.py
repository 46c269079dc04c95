"""The reinforcement-learning environments: Gymnasium's ``kinghill/KingOfTheHill-v0``
(:class:`KingOfTheHillEnv`, one learning seat against an opponent) with its spaces
(:mod:`.encoding`), rewards and options; the trainable wrappers for Stable-Baselines3 (flat and
aim-assisted ``Box`` actions, :mod:`.wrappers`; the masked shot menu for ``MaskablePPO``,
:mod:`.masked`); PettingZoo AEC envs for two learning seats (:mod:`.aec_env`, :mod:`.masked_aec`);
curricula of start positions (:mod:`.curriculum`).
"""

from kinghill.envs.registration import register_envs
from kinghill.envs.rl.gym_env import KingOfTheHillEnv
from kinghill.envs.rl.masked import MaskedShots, make_masked_env
from kinghill.envs.rl.opponents import RandomOpponent
from kinghill.envs.rl.rewards import RewardWeights
from kinghill.envs.rl.wrappers import AimAssist, FlatAction, FrozenPolicy, make_sb3_env

register_envs()

__all__ = [
    "AimAssist",
    "FlatAction",
    "FrozenPolicy",
    "KingOfTheHillEnv",
    "MaskedShots",
    "RandomOpponent",
    "RewardWeights",
    "make_masked_env",
    "make_sb3_env",
]
