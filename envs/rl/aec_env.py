"""King of the Hill as a PettingZoo AEC environment for two learning players.

``env()`` builds it wrapped in PettingZoo's safety wrappers, ``raw_env()`` without them, as
PettingZoo's own env modules do. ``pettingzoo.make("aec",
"kinghill/KingOfTheHill-v0")`` works once ``kinghill.envs`` is imported (importing this module
does it): the package registers the id, and PettingZoo has no plugin mechanism that would
import it on demand.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kinghill.envs.game.decisions import Answer
from kinghill.envs.game.loop import Game, GameSnapshot
from kinghill.envs.game.noise import NoiseScale
from kinghill.envs.game.start import start_position
from kinghill.envs.rl.encoding import (
    action_space,
    cue_ball_mask,
    decode_action,
    encode_observation,
    observation_space,
)
from kinghill.envs.rl.env_options import noise_model
from kinghill.envs.rl.env_options import reward_weights as checked_weights
from kinghill.envs.rl.rewards import RewardWeights
from kinghill.envs.rl.table_display import TableDisplay
from kinghill.envs.rules import is_whole
from kinghill.physics import NoiseModel, TableSpec

AGENTS = ("player_0", "player_1")


def seat_of(agent: str) -> int:
    """The seat of ``agent`` (``"player_0"`` or ``"player_1"``)."""
    if agent not in AGENTS:
        raise ValueError(f"no agent {agent!r}; the agents are {list(AGENTS)}")
    return AGENTS.index(agent)


class raw_env(AECEnv[str, dict[str, Any], dict[str, Any]]):
    """Two learning players take turns; ``agent_selection`` is the player to decide (a break, a
    shot, or the 10.4 choice), which is not simply alternating: a player who pots a white plays
    again (R-turn).

    Observation: ``{"observation": <the Gymnasium env's observation without its mask>,
    "action_mask": <cue balls allowed, int8 (8,)>}`` from the observing player's view. Actions:
    the Gymnasium env's ``Dict`` action space (every point valid), or a structured action.
    Rewards (:class:`RewardWeights`) for both seats: each seat's credited whites and fouls, and
    the frame result (+win / loss). Terminations on a frame result, truncations at the shot limit;
    when the frame ends, ``infos[agent]["won"]`` is 1 for the winner, 0 for the loser, 0.5 for
    both when the shot limit ends it. ``render_mode``: ``"rgb_array"`` (a top-down picture) or
    ``"human"`` (a pygame window drawn after every reset and step, the Gymnasium env's).

    ``reset(options=...)`` with ``"balls"`` starts from a position of your own, as the Gymnasium
    env's does, its ``"learner"`` being ``player_0`` and ``"opponent"`` ``player_1``; options
    without ``"balls"`` are not a position and change nothing (PettingZoo's ``api_test`` passes
    some).

    A ``dict`` action outside the space raises ``ValueError`` naming the key (nothing changes).
    Any other action is the player's own: one that cannot be played (not an action, malformed,
    or not fitting the position) is charged as a shot not played (a foul, 12.4; a 10.4 choice
    not made is taken as playing on), ``infos[agent]["fault"]`` says why, and play goes on.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "rgb_array"],
        "name": "kinghill_v0",
        "is_parallelizable": False,
        "render_fps": 30,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        required: tuple[int, int] = (3, 3),
        reward_weights: RewardWeights | None = None,
        noise: bool | NoiseModel | None = True,
        noise_scale: NoiseScale = 1.0,
        shot_limit: int = 200,
        spec: TableSpec | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.weights = checked_weights(reward_weights)
        self.game = Game(
            spec=spec,
            noise=noise_model(noise, noise_scale),
            required=required,
            shot_limit=shot_limit,
        )
        self.possible_agents = list(AGENTS)
        inner = observation_space()
        self._obs_inner = spaces.Dict({k: v for k, v in inner.spaces.items() if k != "action_mask"})
        self._observation_space = spaces.Dict(
            {"observation": self._obs_inner, "action_mask": spaces.MultiBinary(8)}
        )
        self._action_space = action_space()
        self._display = TableDisplay(render_mode, self.metadata["render_fps"])
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        start = None
        if options and "balls" in options:  # a start position, validated before anything changes
            game = self.game
            start = start_position(
                options, game.spec, game.required, game.shot_limit, game.no_cushion_foul
            )
        if seed is not None:
            if not is_whole(seed) or seed < 0:
                raise ValueError(f"reset: seed must be a whole number from 0 or None, got {seed!r}")
            self._rng = np.random.default_rng(seed)
            self._action_space.seed(seed)
        breaker = int(self._rng.integers(2))
        self.game.reset(seed=int(self._rng.integers(2**63 - 1)), breaker=breaker)
        if start is not None:
            self.game.restore(GameSnapshot(*start, self.game.rng.bit_generator.state))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.game.to_move]
        self._display.clear()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        view = self.game.view(seat_of(agent))
        obs = encode_observation(view)
        mask = obs.pop("action_mask")
        if view.player != self.game.to_move or self.game.is_over:
            mask = np.zeros_like(mask)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        before = self.game.state.positions
        decided = self.game.settle(Answer(self._structured(action)))
        turn = decided.turn
        self._display.record(turn, before, self.game)
        self._cumulative_rewards[agent] = 0.0
        frame = self.game.frame
        for seat, name in enumerate(AGENTS):
            self.rewards[name] = self.weights.of_turns([turn], seat) + self.weights.of_result(
                frame, seat
            )
            self.infos[name] = {
                "ruling": str(turn),
                "events": turn.result and turn.result.events,
                "fault": decided.fault,
            }
        if frame.is_over:
            done = dict.fromkeys(self.agents, True)
            if frame.is_truncated:
                self.truncations = done
            else:
                self.terminations = done
            for seat, name in enumerate(AGENTS):  # for the learners' logs: 0.5 no winner
                won = 0.5 if frame.winner is None else float(frame.winner == seat)
                self.infos[name]["won"] = won
        else:
            self.agent_selection = AGENTS[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _structured(self, action: Any) -> Any:
        """What the player to move plays for ``action``: a point of the action space decoded
        (one outside it raises ``ValueError``: nothing changes), anything else as it is."""
        if isinstance(action, dict):  # a point of the space: outside it is the caller's bug
            self._action_space.check(action)
            return decode_action(action, self.game.view())
        return action  # a structured action from an agent: one that cannot be played is its fault

    def action_mask(self, agent: str) -> np.ndarray:
        """The cue balls ``agent`` may strike now (all zero when it is not to move)."""
        return self.observe(agent)["action_mask"]

    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            return None
        return self._display.draw(self.game)

    def close(self) -> None:
        self._display.close()


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], dict[str, Any]]:
    """The AEC environment in PettingZoo's standard safety wrappers."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["cue_ball_mask", "env", "raw_env"]
