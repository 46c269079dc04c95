"""The masked shot menu for two learning players: a PettingZoo AEC env whose action is one
``Discrete`` index into the menu of :mod:`kinghill.envs.rl.masked` (slot x speed level x spin
level), with a flat action mask, as RLlib's action-masking modules read it.

:func:`menu_inputs` builds a view's menu and observation once per decision; :func:`decode_flat`
turns an index into the structured action; :class:`MaskedMenuAEC` is the env
(``masked_env()`` builds it in PettingZoo's safety wrappers).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers import BaseWrapper

from kinghill.envs.game.actions import Action, FrameView
from kinghill.envs.rl.aec_env import AGENTS, raw_env
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
    """``{"observations": Box(0, 1, (338,)), "action_mask": MultiBinary(156)}``."""
    return spaces.Dict(
        {
            "observations": masked_observation_space(),
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


def decode_flat(menu: Menu, index: int) -> Action:
    """The structured action of flat ``index``: ``menu.decode`` of its (slot, speed, spin);
    a slot that is not offered plays the first offered one, so every index is valid."""
    return menu.decode(np.unravel_index(int(index), LEVELS))


def menu_inputs(view: FrameView) -> tuple[Menu, dict[str, np.ndarray]]:
    """The menu at ``view``'s decision and the observation the learner sees of it."""
    menu = shot_menu(view)
    return menu, {"observations": menu_observation(view, menu), "action_mask": flat_mask(menu)}


class MaskedMenuAEC(BaseWrapper[str, dict[str, Any], Any]):
    """King of the Hill for two learning players choosing from the shot menu (RLlib PPO, self
    play); PettingZoo AEC, on top of :class:`~kinghill.envs.rl.aec_env.raw_env`.

    ## Action Space
    ``Discrete(156)``: index = (slot x 3 + speed level) x 4 + spin level, i.e.
    ``numpy.unravel_index(index, (13, 3, 4))`` gives the point of
    :class:`~kinghill.envs.rl.masked.MaskedShots`' ``MultiDiscrete([13, 3, 4])``, decoded as there
    (slots 0-7 pots, 8-10 safeties, 11-12 the 10.4 options; speed x (0.7, 1.0, 1.4); spin as
    planned, centre, draw, follow). Every index is a valid action: a slot that is not offered
    plays the first offered one.

    ## Observation Space
    ``Dict(observations=Box(0, 1, (338,)), action_mask=MultiBinary(156))``, from the observing
    player's view: ``observations`` is :class:`~kinghill.envs.rl.masked.MaskedShots`' observation
    (the plain observation flattened, 20 features per slot, the opponent's threat);
    ``action_mask`` is 1 for every level of each offered slot (at the 10.4 choice only level
    (0, 0) of the two options). A player who is not to move (or a finished frame) sees the
    placeholder mask (index 0 only).

    ## Rewards, Episode End, Arguments
    As :class:`~kinghill.envs.rl.aec_env.raw_env` (its keyword arguments pass through): each
    seat's credited whites and fouls, the frame result; terminations on a result, truncations
    at the shot limit. When the frame ends, ``infos[agent]["won"]`` is 1 for the winner, 0 for
    the loser, 0.5 for both when the shot limit ends it. The menu is built once per decision.
    """

    def __init__(self, env: raw_env) -> None:
        super().__init__(env)
        self.raw = env
        self._action_space = action_space()
        self._observation_space = observation_space()
        self._current: tuple[Menu, dict[str, np.ndarray]] | None = None
        """The menu of the decision now due and its observation (None: not built yet)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._action_space.seed(seed)
        self._current = None
        self.raw.reset(seed=seed, options=options)

    def _menu(self) -> tuple[Menu, dict[str, np.ndarray]]:
        """The menu of the player to move, built once per decision."""
        if self._current is None:
            self._current = menu_inputs(self.raw.game.view())
        return self._current

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.raw.game
        player = AGENTS.index(agent)
        if not game.is_over and player == game.to_move:
            return dict(self._menu()[1])
        placeholder = np.zeros(N_ACTIONS, np.int8)
        placeholder[0] = 1
        view = game.view(player)
        return {"observations": menu_observation(view, shot_menu(view)), "action_mask": placeholder}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self.raw.step(action)  # the dead agent's step, as PettingZoo asks (action None)
            return
        index = np.asarray(action).reshape(-1)
        if index.size != 1 or not self._action_space.contains(int(index[0])):
            raise ValueError(f"action {action!r} is outside {self._action_space}")
        self.raw.step(decode_flat(self._menu()[0], int(index[0])))
        self._current = None
        frame = self.raw.game.frame
        if frame.is_over:  # the result for the learners' logs: 1 won, 0 lost, 0.5 no winner
            for seat, name in enumerate(AGENTS):
                won = 0.5 if frame.winner is None else float(frame.winner == seat)
                self.raw.infos[name]["won"] = won

    def action_mask(self, agent: str) -> np.ndarray:
        """The flat mask ``agent`` sees now."""
        return self.observe(agent)["action_mask"]


def masked_env(**kwargs: Any) -> AECEnv[str, dict[str, Any], Any]:
    """:class:`MaskedMenuAEC` on ``raw_env(**kwargs)``, in PettingZoo's safety wrappers."""
    return wrappers.OrderEnforcingWrapper(MaskedMenuAEC(raw_env(**kwargs)))
