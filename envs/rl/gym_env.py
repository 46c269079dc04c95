"""The Gymnasium environment ``kinghill/KingOfTheHill-v0``: one learning seat against an opponent."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from kinghill.envs.game.actions import Action, ChoiceAction, ShotAction
from kinghill.envs.game.decisions import ask
from kinghill.envs.game.loop import Game, GameSnapshot, Turn
from kinghill.envs.game.noise import NoiseScale
from kinghill.envs.game.start import start_position
from kinghill.envs.rl.encoding import (
    ACTION_DOC,
    FLAT_OBSERVATION_DOC,
    OBSERVATION_DOC,
    action_space,
    cue_ball_mask,
    decode_action,
    encode_observation,
    observation_space,
)
from kinghill.envs.rl.env_options import noise_model
from kinghill.envs.rl.env_options import reward_weights as checked_weights
from kinghill.envs.rl.opponents import RandomOpponent, as_decide, as_opponent, reseed
from kinghill.envs.rl.rewards import RewardWeights
from kinghill.envs.rl.table_display import TableDisplay
from kinghill.envs.rules import ShotClock
from kinghill.physics import NoiseModel, TableSpec

LEARNER = 0
"""The learning seat is player 0; the opponent is player 1."""
REDRAWS = 100
"""A frame the opponent finishes before the learner's first decision (a run-out from its break)
is drawn again, with new noise, up to this many times."""
Breaker = Literal["random", "learner", "opponent", "alternate"]
AUTORESET_MODE = AutoresetMode.NEXT_STEP
"""How the env's Gymnasium vector envs start a new frame (Gymnasium's default, declared: the
env's ``metadata["autoreset_mode"]``): the step after a frame ends returns the new frame's
first observation, with reward 0, neither terminated nor truncated, and ignores its action.
``kinghill train sb3 --vectorization gymnasium`` makes its vector env ``SAME_STEP`` instead (SB3's
convention, :mod:`kinghill.experiments.training.vector`)."""


class KingOfTheHillEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    __doc__ = f"""King of the Hill («Царь горы») pyramid billiards, one learning seat (player 0)
    against an opponent (player 1).

    ## Description
    Eight 68 mm balls (ball 0 coloured, 1-7 white) on a 12-ft table. Any ball may be the
    cue ball; each player must pot their required whites (3 by default) and then the coloured
    ball on a route declared in advance; a second foul loses the frame. Shots are played by
    :mod:`kinghill.physics`, an event-driven engine compiled with numba (the table's cushions and
    jaws are Pymunk shapes, read once per table spec for the bounding boxes its broad phase
    checks); the referee of :mod:`kinghill.envs.rules` judges every shot from the engine's event
    log. One ``step`` is one decision of the learner (a break, a shot, or the 10.4 choice after
    the opponent's foul), followed by the opponent's decisions until it is the learner's turn
    again or the frame ends.

    ## Action Space
    A ``Dict``; every point of it is a valid action for the current position by construction.
    ``step`` also takes a structured :class:`ShotAction` / :class:`ChoiceAction` (checked by the
    referee; a wrong one raises ``ValueError`` and changes nothing).
{ACTION_DOC}
    ## Observation Space
    A ``Dict`` from the learner's view (wrap with ``gymnasium.wrappers.FlattenObservation`` for
    one flat ``Box``: the keys in alphabetical order, discrete entries one-hot).
{OBSERVATION_DOC}
    Flattened (``FlattenObservation``, as ``make_sb3_env`` does; slices by key from
    :func:`~kinghill.envs.rl.encoding.flat_observation_index`):
{FLAT_OBSERVATION_DOC}
    ## Rewards
    :class:`RewardWeights` (defaults): +0.1 for each white legally credited to the learner,
    -0.3 for each learner foul (time fouls included), +1 for a won frame, -1 for a lost one
    (also when lost on the opponent's shot). The opponent's credits and fouls are not rewarded.

    ## Starting State
    The opening rack (R-rack); who breaks follows ``breaker`` ("random": drawn from the seed).
    When the opponent breaks, ``reset`` plays its break before returning; a frame it finishes
    before the learner's first decision (a run-out from the break) is drawn again with new noise,
    so every episode has a learner decision.
    ``reset(options={{"balls": {{0: (x, y), ...}}, "credited": (me, opp), "required": (me, opp),
    "fouls": (me, opp), "to_move": "learner" | "opponent"}})`` starts instead from that position
    at a shot (:mod:`kinghill.envs.game.start`; a bad value is a ``ValueError`` naming it).

    ## Episode End
    - Termination: the frame has a winner (a legal colour pot 3.2, a second foul 10.5).
    - Truncation: the shot limit (``shot_limit``, default 200) is reached (R-truncate).

    ## Arguments
    - ``opponent``: an agent (``act(view) -> Action``), a callable with that signature, a
      frozen SB3 policy in :class:`kinghill.envs.rl.wrappers.FrozenPolicy`, or an agent spec
      (``"heuristic"``, ``"policy:PATH"``) once ``kinghill.agents`` is imported; default a
      :class:`RandomOpponent`. An opponent that raises (``SystemExit`` and its own
      ``KeyboardInterrupt`` included) or returns anything but a valid action is charged a
      foul as a shot not played (12.4; a 10.4 choice not made is taken as playing on) and the
      frame goes on; the reason is in ``info["turns"]``. A Ctrl-C still interrupts.
    - ``render_mode``: ``"rgb_array"`` (a top-down picture) or ``"human"`` (a pygame window).
    - ``breaker``: "random", "learner", "opponent" or "alternate" (alternates over resets).
    - ``required``: whites required (learner, opponent), R-handicap.
    - ``reward_weights``: a :class:`RewardWeights`.
    - ``noise``: True for the default :class:`~kinghill.physics.NoiseModel`, a model, or
      False/None for exact shots.
    - ``noise_scale``: the noise condition, a multiple of the sigmas (1, the default; 5) or
      ``"variable"`` (a scale drawn for each shot, uniform in [0, 5]); see
      :mod:`kinghill.envs.game.noise`.
    - ``time_round``: the tournament round for section-12 time control (None: off). The
      learner's decision time is the wall time between the observation and the next ``step``.
    - ``shot_limit``, ``no_cushion_foul`` (R-fouls b), ``spec`` (a :class:`TableSpec`),
      ``record_replay`` (keep trajectories; then :meth:`save_replay` writes the frame).

    ``info`` holds ``ruling`` (the learner's last shot, one readable line), ``turns`` (every
    decision since the last step, the opponent's included, one line each), ``rulings`` ((player,
    :class:`~kinghill.envs.rules.Ruling`) for each shot since the last step), ``events`` (their
    event logs), ``frame`` (the :class:`~kinghill.envs.rules.Frame`) and ``action_mask``; at
    the end of a frame also ``is_success`` (True when the learner won it).

    ## Example
    >>> import gymnasium as gym
    >>> import kinghill.envs
    >>> env = gym.make("kinghill/KingOfTheHill-v0")
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

    ## Vectorized environment
    ``gymnasium.make_vec("kinghill/KingOfTheHill-v0", num_envs=4, vectorization_mode="async",
    vector_kwargs={{"autoreset_mode": AUTORESET_MODE}})``: the mode is declared in ``metadata``
    (:data:`AUTORESET_MODE`, ``NEXT_STEP``): the step after a frame ends returns the next
    frame's first observation with reward 0, neither terminated nor truncated; its action is
    not played.
    """

    metadata = {
        "render_modes": ["human", "rgb_array"],
        "render_fps": 30,
        "autoreset_mode": AUTORESET_MODE,
    }

    def __init__(
        self,
        opponent: Any = None,
        render_mode: str | None = None,
        breaker: Breaker = "random",
        required: tuple[int, int] = (3, 3),
        reward_weights: RewardWeights | None = None,
        noise: bool | NoiseModel | None = True,
        noise_scale: NoiseScale = 1.0,
        time_round: int | None = None,
        shot_limit: int = 200,
        no_cushion_foul: bool = True,
        spec: TableSpec | None = None,
        record_replay: bool = False,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if breaker not in ("random", "learner", "opponent", "alternate"):
            raise ValueError(f"breaker must be random/learner/opponent/alternate, got {breaker!r}")
        if not isinstance(record_replay, bool):
            raise ValueError(f"record_replay must be True or False, got {record_replay!r}")
        if breaker == "opponent" and shot_limit == 1:
            raise ValueError("shot_limit=1 with breaker='opponent': the learner would never shoot")
        self.render_mode = render_mode
        self.breaker = breaker
        self.weights = checked_weights(reward_weights)
        self.opponent = RandomOpponent() if opponent is None else as_opponent(opponent)
        self._decide = as_decide(self.opponent)
        self.game = Game(
            spec=spec,
            noise=noise_model(noise, noise_scale),
            required=required,
            shot_limit=shot_limit,
            clock=None if time_round is None else ShotClock(round=time_round),
            no_cushion_foul=no_cushion_foul,
            trajectory_fps=self.metadata["render_fps"] if record_replay else None,
        )
        self._actions = action_space()
        self.action_space = self._actions
        self.observation_space = observation_space()
        self._display = TableDisplay(render_mode, self.metadata["render_fps"])
        self._last_mine = ""
        self._resets = 0
        self._was_reset = False
        self._obs_time = time.perf_counter()

    # ---- Gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        start = None
        if options:  # validated before anything changes
            start = start_position(
                options,
                self.game.spec,
                self.game.required,
                self.game.shot_limit,
                self.game.no_cushion_foul,
                LEARNER,
            )
        super().reset(seed=seed)
        breaker = self._first_breaker()
        for _ in range(REDRAWS):  # an episode must give the learner a decision
            self.game.reset(seed=int(self.np_random.integers(2**63 - 1)), breaker=breaker)
            if start is not None:
                self.game.restore(GameSnapshot(*start, self.game.rng.bit_generator.state))
            reseed(self.opponent, self.np_random)
            self._display.clear()
            self._last_mine = ""
            turns = self._opponent_turns()
            if not self.game.is_over:
                break
        else:
            raise RuntimeError(
                f"the opponent ended {REDRAWS} frames before the learner's turn "
                f"(shot_limit={self.game.shot_limit}, breaker={self.breaker!r})"
            )
        self._was_reset = True
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info(turns)

    def step(
        self, action: dict[str, Any] | Action
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if not self._was_reset:
            raise RuntimeError("no frame yet: call reset() before step()")
        if self.game.is_over:
            raise RuntimeError("the frame is over: call reset() before step()")
        seconds = time.perf_counter() - self._obs_time
        if isinstance(action, ShotAction | ChoiceAction):
            decision: Action = action
        else:
            self._actions.check(action)
            decision = decode_action(action, self.game.view(LEARNER))
        self._last_mine = ""
        before = self.game.state.positions
        turns = [self._record(self.game.play(decision, seconds), before)]
        turns += self._opponent_turns()
        frame = self.game.frame
        reward = self.weights.of_turns(turns, LEARNER) + self.weights.of_result(frame, LEARNER)
        obs = self._observe()
        if self.render_mode == "human":
            self.render()
        return (
            obs,
            reward,
            frame.is_over and not frame.is_truncated,
            frame.is_truncated,
            self._info(turns),
        )

    # The Gymnasium the rllib extra pins types the frame as a bare TypeVar (newer: an alias that
    # admits an array), so the override is checked as incompatible there only.
    def render(self) -> np.ndarray | None:  # type: ignore[override, unused-ignore]
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode to make()")
            return None
        return self._display.draw(self.game)

    def close(self) -> None:
        self._display.close()

    # ---- look-ahead and replays ---------------------------------------------------------------
    def snapshot(self) -> GameSnapshot:
        """The frame, the table and the noise generator as they are, for :meth:`restore`
        (look-ahead, search); an opponent's own random state is not part of it."""
        return self.game.snapshot()

    def restore(self, snap: GameSnapshot) -> None:
        """Put the frame and table back to ``snap`` (a frame to step on, as after a reset)."""
        self.game.restore(snap)
        self._was_reset = True

    def save_replay(self, path: str | Path, fps: float | None = None) -> Path:
        """Write the shots of the frame so far as a GIF or MP4 (needs ``record_replay=True``)."""
        return self._display.save_replay(path, self.game, fps)

    # ---- inside -------------------------------------------------------------------------------
    def _first_breaker(self) -> int:
        if self.breaker == "learner":
            return LEARNER
        if self.breaker == "opponent":
            return 1 - LEARNER
        if self.breaker == "alternate":
            self._resets += 1
            return (self._resets - 1) % 2
        return int(self.np_random.integers(2))

    def _opponent_turns(self) -> list[Turn]:
        turns: list[Turn] = []
        game = self.game
        while not game.is_over and game.to_move != LEARNER:
            before = game.state.positions
            decided = game.settle(
                ask(self._decide, game.timed_view())
            )  # faults charged by the rules
            turns.append(self._record(decided.turn, before))
        return turns

    def _record(self, turn: Turn, before: np.ndarray) -> Turn:
        """Keep the learner's last ruling (``info["ruling"]``) and what pictures and replays
        show of a turn; ``before``: the balls as it began."""
        if turn.ruling is not None and turn.player == LEARNER:
            self._last_mine = turn.ruling.text
        self._display.record(turn, before, self.game)
        return turn

    def _observe(self) -> dict[str, Any]:
        self._obs_time = time.perf_counter()
        return encode_observation(self.game.view(LEARNER))

    def _info(self, turns: list[Turn]) -> dict[str, Any]:
        frame = self.game.frame
        info = {
            "ruling": self._last_mine,
            "turns": [str(t) for t in turns],
            "rulings": [(t.player, t.ruling) for t in turns if t.ruling is not None],
            "events": [t.result.events for t in turns if t.result is not None],
            "action_mask": cue_ball_mask(self.game.view(LEARNER)),
            "frame": frame,
        }
        if frame.is_over:  # SB3's convention: evaluation and Monitor read it
            info["is_success"] = frame.winner == LEARNER
        return info
