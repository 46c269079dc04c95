"""The masked shot menu for two learning players: a PettingZoo AEC env whose action is one
``Discrete`` index into the menu of :mod:`kinghill.envs.rl.masked` (slot x speed level x spin
level), with a flat action mask, as RLlib's action-masking modules read it.

:func:`menu_inputs` builds a view's menu and observation once per decision; :func:`decode_index`
turns an index into the structured action; :class:`MaskedMenuAEC` is the env, ``env()`` builds
it in PettingZoo's safety wrappers (``masked_env()``, its other name) and ``raw_env()`` without.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kinghill.envs.game.actions import Action, FrameView
from kinghill.envs.rl import aec_env
from kinghill.envs.rl.aec_env import seat_of
from kinghill.envs.rl.masked import (
    SLOTS,
    SPEED_FACTORS,
    SPINS,
    Menu,
    masked_observation_space,
    menu_observation,
    shot_menu,
)
from kinghill.envs.rules import Decision

LEVELS = (SLOTS, len(SPEED_FACTORS), len(SPINS))
"""The menu's axes: slot, speed level, spin level (``MultiDiscrete([13, 3, 4])`` flattened)."""
N_ACTIONS = int(np.prod(LEVELS))
"""156 flat actions: index = (slot x 3 + speed level) x 4 + spin level."""


def action_space() -> spaces.Discrete:
    """``Discrete(156)``: the flat menu index (see :class:`MaskedMenuAEC`)."""
    return spaces.Discrete(N_ACTIONS)


def observation_space() -> spaces.Dict:
    """``{"observation": Box(0, 1, (338,)), "action_mask": MultiBinary(156)}``."""
    return spaces.Dict(
        {
            "observation": masked_observation_space(),
            "action_mask": spaces.MultiBinary(N_ACTIONS),
        }
    )


def flat_mask(menu: Menu) -> np.ndarray:
    """The flat mask of ``menu``: every level of an offered slot; at the 10.4 choice (where the
    levels are ignored) only level (0, 0) of the two options, so no choice is counted 12 times."""
    mask = np.zeros(LEVELS, np.int8)
    offered = menu.offered
    if menu.decision in (Decision.CHOICE, Decision.OVER):
        mask[offered, 0, 0] = 1
    else:
        mask[offered] = 1
    return mask.reshape(-1)


def decode_index(menu: Menu, index: int) -> Action:
    """The structured action of flat ``index``: ``menu.decode`` of its (slot, speed, spin);
    a slot that is not offered plays the first offered one, so every index is valid."""
    return menu.decode(np.unravel_index(int(index), LEVELS))


def menu_inputs(view: FrameView) -> tuple[Menu, dict[str, np.ndarray]]:
    """The menu at ``view``'s decision and the observation the learner sees of it."""
    menu = shot_menu(view)
    return menu, {"observation": menu_observation(view, menu), "action_mask": flat_mask(menu)}


class MaskedMenuAEC(aec_env.raw_env):
    """King of the Hill for two learning players choosing from the shot menu (RLlib PPO, self
    play); PettingZoo AEC: :class:`~kinghill.envs.rl.aec_env.raw_env` with the menu's actions and
    observations.

    ## Action Space
    ``Discrete(156)``: index = (slot x 3 + speed level) x 4 + spin level, i.e.
    ``numpy.unravel_index(index, (13, 3, 4))`` gives the point of
    :class:`~kinghill.envs.rl.masked.MaskedShots`' ``MultiDiscrete([13, 3, 4])``, decoded as there
    (slots 0-7 pots, 8-10 safeties, 11-12 the 10.4 options; speed x (0.7, 1.0, 1.4); spin as
    planned, centre, draw, follow). Every index is a valid action: a slot that is not offered
    plays the first offered one.

    ## Observation Space
    ``Dict(observation=Box(0, 1, (338,)), action_mask=MultiBinary(156))``, from the observing
    player's view: ``observation`` is :class:`~kinghill.envs.rl.masked.MaskedShots`' observation
    (the plain observation flattened, 20 features per slot, the opponent's threat);
    ``action_mask`` is 1 for every level of each offered slot (at the 10.4 choice only level
    (0, 0) of the two options). A player who is not to move (or a finished frame) sees the
    placeholder mask (index 0 only).

    ## Rewards, Episode End, Arguments
    As :class:`~kinghill.envs.rl.aec_env.raw_env` (its keyword arguments pass through): each
    seat's credited whites and fouls, the frame result; terminations on a result, truncations
    at the shot limit, ``infos[agent]["won"]`` when the frame ends. The menu is built once per
    decision.
    """

    metadata = {**aec_env.raw_env.metadata, "name": "kinghill_masked_v0"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._menu_actions = action_space()
        self._menu_observations = observation_space()
        self._current: tuple[Menu, dict[str, np.ndarray]] | None = None
        """The menu of the decision now due and its observation (None: not built yet)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._menu_observations

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._menu_actions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._current = None
        super().reset(seed=seed, options=options)  # the seed and options checked there
        if seed is not None:
            self._menu_actions.seed(seed)

    def _menu(self) -> tuple[Menu, dict[str, np.ndarray]]:
        """The menu of the player to move, built once per decision."""
        if self._current is None:
            self._current = menu_inputs(self.game.view())
        return self._current

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = seat_of(agent)
        if not self.game.is_over and player == self.game.to_move:
            return dict(self._menu()[1])
        placeholder = np.zeros(N_ACTIONS, np.int8)
        placeholder[0] = 1
        view = self.game.view(player)
        return {"observation": menu_observation(view, shot_menu(view)), "action_mask": placeholder}

    def _structured(self, action: Any) -> Action:
        """The menu's action at flat index ``action``; one outside the space raises
        ``ValueError`` (nothing changes)."""
        index = np.asarray(action).reshape(-1)
        if index.size != 1 or not self._menu_actions.contains(int(index[0])):
            raise ValueError(f"action {action!r} is outside {self._menu_actions}")
        menu = self._menu()[0]
        self._current = None  # the shot changes the table: the next decision has its own menu
        return decode_index(menu, int(index[0]))


def raw_env(**kwargs: Any) -> MaskedMenuAEC:
    """:class:`MaskedMenuAEC` with ``kwargs`` (:class:`~kinghill.envs.rl.aec_env.raw_env`'s)."""
    return MaskedMenuAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], Any]:
    """:class:`MaskedMenuAEC` in PettingZoo's safety wrappers."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


masked_env = env
"""The name RLlib training has built it by (:func:`env`)."""
