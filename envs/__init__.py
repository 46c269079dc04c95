"""Environments of King of the Hill, in four parts:

- :mod:`kinghill.envs.rules`: the referee, pure functions over event logs;
- :mod:`kinghill.envs.game`: one frame played decision by decision (:class:`Game`);
- :mod:`kinghill.envs.planning`: shot planning (ghost-ball aims, routes, candidate pots, menus);
- :mod:`kinghill.envs.drawing`: pictures of the table, a window, replays;
- :mod:`kinghill.envs.rl`: the Gymnasium and PettingZoo environments and their wrappers.

Importing this package registers ``kinghill/KingOfTheHill-v0`` and its trainable wrappers
(``-Aim-v0``, ``-Flat-v0``, ``-Masked-v0``) with Gymnasium and the AEC env with PettingZoo
(:mod:`kinghill.envs.registration`) without importing either: the names below are loaded on
first use, so ``import kinghill.envs.rules`` loads neither framework.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kinghill.envs.registration import register_envs

if TYPE_CHECKING:
    from kinghill.envs.game import (
        Action,
        Agent,
        Answer,
        ChoiceAction,
        Decided,
        FrameView,
        Game,
        GameSnapshot,
        InvalidAction,
        ShotAction,
        Turn,
        ask,
        check_action,
    )
    from kinghill.envs.rl import KingOfTheHillEnv, RandomOpponent, RewardWeights

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

_RL = frozenset({"KingOfTheHillEnv", "RandomOpponent", "RewardWeights"})
_HOMES = {name: "kinghill.envs.rl" if name in _RL else "kinghill.envs.game" for name in __all__}
"""Where each name of this face lives: the RL environments' three, the game's the rest."""

register_envs()


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'kinghill.envs' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
