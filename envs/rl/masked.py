"""A masked discrete action for sb3-contrib's ``MaskablePPO``: at each decision the learner picks
one of the shots on offer (:mod:`kinghill.envs.planning.menu`: the legal pots with their calls, safeties,
the break, the 10.4 options) and a speed and spin level, seeing per-shot features.

:func:`shot_menu` builds the offer for a view once per decision; :func:`menu_observation`
turns a view into the flat observation; :meth:`Menu.decode` turns a point of the action space
into the structured action. :class:`MaskedShots` (Gym ID ``kinghill/KingOfTheHill-Masked-v0``)
is the wrapper; :class:`MaskedPolicy` lets a trained model play from any seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kinghill.envs.game.actions import Action, ChoiceAction, FrameView, ShotAction
from kinghill.envs.planning.candidates import PotCandidate, best_chance, pot_speed
from kinghill.envs.planning.menu import (
    break_action,
    fallback_action,
    legal_pots,
    pot_action,
    safety_actions,
)
from kinghill.envs.planning.object_routes import Point, ball_centres
from kinghill.envs.rl.encoding import encode_observation, flatten_observation, observation_space
from kinghill.envs.rules import Decision
from kinghill.physics import COLOURED, MAX_SPEED, WHITES, Pocket, Shot, TableSpec

POT_SLOTS = 8
"""The best pots offered (by estimated chance); slots 0-7."""
SAFETY_SLOTS = 3
"""The softest safeties offered; slots 8-10 (slot 8 holds the fallback when nothing else is on)."""
HAND_BACK, PLAY_ON = POT_SLOTS + SAFETY_SLOTS, POT_SLOTS + SAFETY_SLOTS + 1
"""The two 10.4 slots, offered only at the 10.4 choice."""
SLOTS = POT_SLOTS + SAFETY_SLOTS + 2
SPEED_FACTORS = (0.7, 1.0, 1.4)
"""Speed levels: the slot's planned speed times this (at most ``MAX_SPEED``)."""
SPINS: tuple[float | None, ...] = (None, 0.0, -0.45, 0.35)
"""Spin levels (tip height b, a fraction of R): as planned, centre, draw, follow."""
FEATURES = (
    "offered",
    "white_pot",
    "colour_pot",
    "safety",
    "break",
    "choice",
    "chance",
    "cut",
    "cue_path",
    "object_path",
    "double",
    "abricol",
    "middle_pocket",
    "speed",
    "colour_cue",
    "cue_x",
    "cue_y",
    "object_x",
    "object_y",
    "leave",
)
"""Per-slot features, in order (see :class:`MaskedShots`)."""
N_FEATURES = len(FEATURES)
N_GLOBAL = 1
"""Global extra features: the opponent's best pot chance in the position as it stands."""
_BASE_SIZE = spaces.flatdim(observation_space())
OBSERVATION_SIZE = _BASE_SIZE + SLOTS * N_FEATURES + N_GLOBAL
_MIDDLES = (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT)


ACTION_SIZES = (SLOTS, len(SPEED_FACTORS), len(SPINS))
"""The choices of each part of an action: slots, speed levels, spin levels."""


class MenuActionSpace(spaces.MultiDiscrete):
    """``MultiDiscrete([slot, speed level, spin level])`` whose :meth:`sample` also takes the
    mask as this env gives it — one flat array, slots then levels, as ``info["action_mask"]``
    and ``action_masks()`` hold it for ``MaskablePPO`` — besides Gymnasium's tuple of one
    array a dimension: ``env.action_space.sample(info["action_mask"])`` works as on the other
    envs."""

    def sample(  # the mask: also one flat array
        self, mask: Any | None = None, probability: Any | None = None
    ) -> np.ndarray:
        if mask is not None and not isinstance(mask, tuple):
            flat = np.asarray(mask, dtype=np.int8)
            sizes = [int(n) for n in self.nvec]
            if flat.shape != (sum(sizes),):
                raise ValueError(
                    f"the mask must be {sum(sizes)} flags (slots, speed and spin levels) or a "
                    f"tuple of {len(sizes)} arrays; got shape {flat.shape}"
                )
            mask = tuple(np.split(flat, np.cumsum(sizes)[:-1]))
        return super().sample(mask, probability)


def action_space() -> MenuActionSpace:
    """``MultiDiscrete([slot, speed level, spin level])`` (:class:`MenuActionSpace`)."""
    return MenuActionSpace(list(ACTION_SIZES))


def in_action_space(action: Any) -> bool:
    """Whether ``action`` (whole numbers, of any numeric type) is a point of
    :func:`action_space`: what ``action_space().contains`` says, without its cost on every
    step."""
    try:
        point = np.asarray(action, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        return False
    return point.shape == (len(ACTION_SIZES),) and all(
        value.is_integer() and 0 <= value < size
        for value, size in zip(point.tolist(), ACTION_SIZES, strict=True)
    )


def masked_observation_space() -> spaces.Box:
    """The flat observation: the plain env's observation flattened, then the slot features,
    then the global features; every entry in [0, 1]."""
    return spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)


@dataclass(frozen=True)
class Menu:
    """The shots on offer at one decision: one entry per slot (None where nothing is offered),
    their features and the action mask. A pot slot holds its candidate, and its action is built
    only when asked for (one slot is played; building eight calls a decision would cost more
    than the rest of the slot)."""

    decision: Decision
    others: tuple[ShotAction | None, ...]
    """The slots' actions that are not pots (the break, the safeties, the fallback)."""
    pots: tuple[PotCandidate | None, ...]
    """The slots' pots (at a shot decision)."""
    features: np.ndarray
    threat: float

    @property
    def offered(self) -> np.ndarray:
        """Which slots hold an option (bool, one per slot)."""
        return self.features[:, 0] > 0

    def action_masks(self) -> np.ndarray:
        """The ``MultiDiscrete`` mask: offered slots, then every speed and spin level."""
        levels = np.ones(len(SPEED_FACTORS) + len(SPINS), bool)
        return np.concatenate([self.offered, levels])

    def shot_at(self, slot: int) -> ShotAction | None:
        """The action of ``slot`` as planned (the pot with its call), None if it holds none."""
        candidate = self.pots[slot]
        return self.others[slot] if candidate is None else pot_action(candidate)

    @property
    def shots(self) -> tuple[ShotAction | None, ...]:
        """:meth:`shot_at` of every slot."""
        return tuple(self.shot_at(slot) for slot in range(SLOTS))

    def decode(self, action: Any) -> Action:
        """The structured action for a point of :func:`action_space`. A slot that is not
        offered plays the first offered one, so every point is a valid action."""
        slot, level, spin = (int(v) for v in np.asarray(action).reshape(-1)[:3])
        if not self.offered[slot]:
            slot = int(np.flatnonzero(self.offered)[0])
        if self.decision is Decision.CHOICE:
            return ChoiceAction(play_on=slot == PLAY_ON)
        factor, b = SPEED_FACTORS[level], SPINS[spin]
        candidate = self.pots[slot]
        if candidate is not None:  # the speed planned for the spin, so the pot still reaches
            b = candidate.b if b is None else b
            planned = pot_speed(
                candidate.cue_path, candidate.object_path, candidate.cut, candidate.deceleration, b
            )
            shot = Shot(candidate.cue_ball, candidate.phi, min(planned * factor, MAX_SPEED), b=b)
            return ShotAction(shot, candidate.call)
        other = self.others[slot]
        assert other is not None  # an offered slot holds a shot
        shot = other.shot
        speed = min(shot.speed * factor, MAX_SPEED)
        return replace(
            other, shot=Shot(shot.cue_ball, shot.phi, speed, shot.a, shot.b if b is None else b)
        )


def _pot_features(
    row: np.ndarray, c: PotCandidate, spec: TableSpec, centres: dict[int, Point], leave: float
) -> None:
    length, width = spec.length, spec.width
    row[1 if c.object_ball != COLOURED else 2] = 1.0
    row[6] = c.chance
    row[7] = c.cut / (math.pi / 2)
    row[8] = min(c.cue_path / (2 * length), 1.0)
    row[9] = min(c.object_path / (2 * length), 1.0)
    row[10] = c.double is not None
    row[11] = c.abricol is not None
    row[12] = c.pocket in _MIDDLES
    row[13] = pot_speed(c.cue_path, c.object_path, c.cut, c.deceleration, c.b) / MAX_SPEED
    row[14] = c.cue_ball == COLOURED
    ox, oy = centres[c.object_ball]
    row[17], row[18] = ox / length, oy / width
    row[19] = leave


def leave_chance(c: PotCandidate, found: list[PotCandidate]) -> float:
    """What a pot keeps for its shooter if it drops: the best chance of the other pots that use
    neither its cue ball (which moves) nor its object ball (which drops); 1 for the colour."""
    if c.object_ball == COLOURED:
        return 1.0
    used = (c.cue_ball, c.object_ball)
    return next(
        (o.chance for o in found if o.cue_ball not in used and o.object_ball not in used), 0.0
    )


def _threat(view: FrameView, mine: list[PotCandidate]) -> float:
    """The opponent's best pot chance if it were to shoot from this position: from the
    shooter's own pots when both aim at the same target (whites or the colour), else counted."""
    state, frame = view.state, view.frame
    if not state.on_table[COLOURED]:
        return 0.0
    needs_whites = frame.whites_needed(1 - view.player) > 0
    if needs_whites == (frame.whites_needed(view.player) > 0):
        same = (c.chance for c in mine if (c.object_ball != COLOURED) == needs_whites)
        return next(same, 0.0)
    whites = [b for b in WHITES if state.on_table[b]]
    return best_chance(state, whites, whites if needs_whites else [COLOURED])


def shot_menu(view: FrameView) -> Menu:
    """The offer at ``view``'s decision (see :class:`MaskedShots` for the slots)."""
    state, decision = view.state, view.decision
    features = np.zeros((SLOTS, N_FEATURES), np.float32)
    others: list[ShotAction | None] = [None] * SLOTS
    slot_pots: list[PotCandidate | None] = [None] * SLOTS
    threat = 0.0
    if decision is Decision.OVER:
        features[0, 0] = 1.0  # a placeholder, so that the mask is never empty
        return Menu(decision, tuple(others), tuple(slot_pots), features, threat)
    if decision is Decision.BREAK:
        others[0] = opening = break_action(state)
        features[0, [0, 4]] = 1.0
        features[0, 13] = opening.shot.speed / MAX_SPEED
        return Menu(decision, tuple(others), tuple(slot_pots), features, threat)
    spec, centres = state.spec, ball_centres(state)
    found = legal_pots(view)
    for slot, c in enumerate(found[:POT_SLOTS]):
        row = features[slot]
        row[0] = 1.0
        _pot_features(row, c, spec, centres, leave_chance(c, found))
        if decision is Decision.SHOT:
            slot_pots[slot] = c
            x, y = centres[c.cue_ball]
            row[15], row[16] = x / spec.length, y / spec.width
    threat = _threat(view, found)
    if decision is Decision.CHOICE:
        features[:, 0] = 0.0  # the pots are shown, only the 10.4 options are offered
        features[[HAND_BACK, PLAY_ON], 0] = 1.0
        features[[HAND_BACK, PLAY_ON], 5] = 1.0
        return Menu(decision, tuple(others), tuple(slot_pots), features, threat)
    safeties = safety_actions(view, SAFETY_SLOTS) or [fallback_action(view)]
    for k, safety in enumerate(safeties):
        slot = POT_SLOTS + k
        others[slot] = safety
        row = features[slot]
        row[[0, 3]] = 1.0
        row[13] = safety.shot.speed / MAX_SPEED
        row[14] = safety.shot.cue_ball == COLOURED
        x, y = centres[safety.shot.cue_ball]
        row[15], row[16] = x / spec.length, y / spec.width
    return Menu(decision, tuple(others), tuple(slot_pots), features, threat)


def menu_observation(view: FrameView, menu: Menu) -> np.ndarray:
    """The flat observation of ``view`` with ``menu``'s features (see :class:`MaskedShots`)."""
    return _observation(encode_observation(view), menu)


def _observation(obs: dict[str, Any], menu: Menu) -> np.ndarray:
    out = np.empty(OBSERVATION_SIZE, np.float32)
    flatten_observation(obs, out[:_BASE_SIZE])
    out[_BASE_SIZE:-N_GLOBAL] = menu.features.reshape(-1)
    out[-1] = menu.threat
    np.clip(out, 0.0, 1.0, out=out)
    return out


class MaskedShots(gym.Wrapper[Any, Any, Any, Any]):
    """King of the Hill as a choice among the shots a ghost-ball player sees, for
    ``MaskablePPO``: Gym ID ``kinghill/KingOfTheHill-Masked-v0``.

    ## Description
    The env of :class:`~kinghill.envs.KingOfTheHillEnv` (one learning seat against an
    opponent); at each learner decision the position's shots are enumerated once
    (:func:`shot_menu`): the legal pots of :func:`kinghill.envs.planning.menu.legal_pots` (whites while
    whites are needed, the coloured ball with its call once they are in, early doubles of it that
    R-early permits), soft safeties, the break, the 10.4 options. The learner picks a slot and a
    speed and spin level; :meth:`action_masks` tells ``MaskablePPO`` which slots are offered.

    ## Action Space
    ``MultiDiscrete([13, 3, 4])``: (slot, speed level, spin level).

    | slot | holds |
    |---|---|
    | 0-7 | the 8 most likely pots, best first (ghost-ball aim, the call built in); slot 0 is the break on the break |
    | 8-10 | the 3 softest safeties (a full-ball hit sending a white to a cushion); slot 8 is a firm shot at the nearest ball when there is neither pot nor safety |
    | 11 | 10.4: hand the shot back (offered only at the 10.4 choice) |
    | 12 | 10.4: play on (likewise) |

    Speed level k multiplies the slot's planned speed by (0.7, 1.0, 1.4)[k] (at most 10 m/s).
    Spin level: 0 as planned (draw on straight pots, centre otherwise), 1 centre, 2 draw
    (b = -0.45 R), 3 follow (b = +0.35 R); a pot's planned speed is recomputed for the spin so
    that it still reaches the pocket. At the 10.4 choice the levels are ignored. A slot that is
    not offered plays the first offered slot: every point of the space is a valid action, and
    with the mask none is wasted.

    ## Observation Space
    ``Box(0, 1, (N,))``, N = 77 + 13 x 20 + 1 = 338: the plain env's observation flattened
    (``gymnasium.spaces.flatten``: ball positions, on-table flags, credits, required, fouls,
    decision, extensions, shots, cue-ball mask), then 20 features for each slot, then one
    global feature.

    | slot feature | meaning |
    |---|---|
    | offered | 1 if the slot can be chosen now |
    | white_pot, colour_pot, safety, break, choice | what the slot is (colour_pot: a called pot of the coloured ball, a winning shot if it drops legally) |
    | chance | estimated pot chance under execution noise (:func:`kinghill.envs.planning.candidates.pot_chance`) |
    | cut | cut angle / (pi/2) |
    | cue_path, object_path | distance the cue ball and the object ball travel / (2L), capped at 1 |
    | double, abricol, middle_pocket | the pot's route: off a cushion (object ball / cue ball first), into a middle pocket |
    | speed | planned cue speed / 10 m/s |
    | colour_cue | the coloured ball is the cue ball |
    | cue_x, cue_y, object_x, object_y | the balls' positions / (L, W) |
    | leave | for a pot: the best chance among the other pots that use neither its cue ball nor its object ball (what the shooter keeps if it drops); 1 for the colour |

    At the 10.4 choice the pot slots show the pots the learner would have if it played on
    (not offered). The global feature is the opponent's best straight pot chance if it shot
    from the position as it stands (its own target: whites or the colour).

    ## Rewards, Starting State, Episode End, Arguments
    As :class:`~kinghill.envs.KingOfTheHillEnv` (its arguments pass through ``gym.make``);
    ``reset(options=...)`` takes its start positions. ``info`` as there, plus
    ``is_success`` at the end of a frame and ``action_mask``, the mask of the decision the
    observation shows (what :meth:`action_masks` returns; a vector env's workers hand it over
    with the step instead of a second call, :mod:`kinghill.experiments.training.masks`).

    ## Example
    >>> import gymnasium as gym
    >>> import kinghill.envs
    >>> env = gym.make("kinghill/KingOfTheHill-Masked-v0", opponent=None)
    >>> obs, info = env.reset(seed=0)
    >>> mask = env.get_wrapper_attr("action_masks")()
    >>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

    Training: ``MaskablePPO("MlpPolicy", env).learn(1000)`` (sb3-contrib), or
    ``kinghill train sb3 --algo maskable-ppo``.
    """

    def __init__(
        self, env: gym.Env[Any, Any], menu: Callable[[FrameView], Menu] | None = None
    ) -> None:
        super().__init__(env)
        self.action_space = action_space()
        self.observation_space = masked_observation_space()
        self.shot_menu = menu or shot_menu
        """What builds each decision's menu (default :func:`shot_menu`; a benchmark passes a
        timed one)."""
        self._built: tuple[Any, Any, Menu] | None = None  # the table, the frame, their menu

    @property
    def menu(self) -> Menu:
        """The offer at the game's position now, built again whenever the table or the frame
        is another: after a step, a reset or the env's ``restore()`` of a look-ahead."""
        game = self.env.unwrapped.game  # type: ignore[attr-defined]
        built = self._built
        if built is None or built[0] is not game.state or built[1] is not game.frame:
            menu = self.shot_menu(FrameView(game.state, game.frame, 0))
            built = self._built = (game.state, game.frame, menu)
        return built[2]

    def _observe(self, obs: dict[str, Any]) -> np.ndarray:
        return _observation(obs, self.menu)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        observed = self._observe(obs)
        return observed, self._with_mask(info)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if not in_action_space(action):
            raise ValueError(f"action {action!r} is outside {self.action_space}")
        obs, reward, terminated, truncated, info = self.env.step(self.menu.decode(action))
        observed = self._observe(obs)
        return observed, reward, terminated, truncated, self._with_mask(info)

    def _with_mask(self, info: dict[str, Any]) -> dict[str, Any]:
        """``info`` with the new decision's mask as ``info["action_mask"]``."""
        info["action_mask"] = self.menu.action_masks()
        return info

    def action_masks(self) -> np.ndarray:
        """The mask of the current decision (sb3-contrib's ``MaskablePPO`` reads it)."""
        return self.menu.action_masks()


@dataclass
class MaskedPolicy:
    """A trained ``MaskablePPO`` model as an agent or opponent, from any seat: it sees the masked
    observation of the player to move and its action is decoded as in training."""

    model: Any
    deterministic: bool = True

    def act(self, view: FrameView) -> Action:
        menu = shot_menu(view)
        obs = menu_observation(view, menu)
        action, _ = self.model.predict(
            obs, deterministic=self.deterministic, action_masks=menu.action_masks()
        )
        return menu.decode(action)


def make_masked_env(**kwargs: Any) -> MaskedShots:
    """``KingOfTheHillEnv(**kwargs)`` wrapped in :class:`MaskedShots` (the Gym ID's entry)."""
    from kinghill.envs.rl.gym_env import KingOfTheHillEnv

    return MaskedShots(KingOfTheHillEnv(**kwargs))
