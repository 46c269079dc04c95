"""Wrappers that make King of the Hill trainable with Stable-Baselines3: a flat ``Box`` action
(:class:`FlatAction`), an aim-assisted ``Box`` action (:class:`AimAssist`), and
:class:`FrozenPolicy`, which lets a trained SB3 model play as an opponent through the same
decoding (the masked discrete action for ``MaskablePPO`` is :mod:`kinghill.envs.rl.masked`).

Both actions are vectors in [-1, 1]; a discrete field is a segment of scores decoded by argmax,
a continuous field one entry mapped linearly (layouts in :data:`FLAT_LAYOUT`, :data:`AIM_LAYOUT`).
Observations are flattened with ``gymnasium.wrappers.FlattenObservation``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import FlattenObservation

from kinghill.envs.game.actions import Action, ChoiceAction, FrameView, ShotAction
from kinghill.envs.planning.aim import ghost_aim
from kinghill.envs.rl.encoding import (
    MIN_SPEED,
    N_TOUCH_VALUES,
    N_VIA,
    decode_action,
    encode_observation,
    house_point,
    nearest_on_table,
    observation_space,
)
from kinghill.envs.rl.masked import MaskedPolicy, make_masked_env
from kinghill.envs.rl.masked import action_space as masked_action_space
from kinghill.envs.rules import MAX_CHAIN, MAX_TOUCHES, Call, Decision
from kinghill.physics import (
    BREAK_BALL,
    COLOURED,
    MAX_SPEED,
    MISCUE_LIMIT,
    N_BALLS,
    Cushion,
    Pocket,
    Shot,
)

FLAT_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cue_ball", N_BALLS),
    ("place", 2),
    ("cue", 4),
    ("call", 2),
    ("pocket", len(Pocket)),
    *((f"via{k}", N_BALLS) for k in range(N_VIA)),
    *((f"touch{k}", N_TOUCH_VALUES) for k in range(MAX_CHAIN * MAX_TOUCHES)),
    ("play_on", 2),
    ("extension", 2),
)
"""Segments of the :class:`FlatAction` vector: scores per value (argmax) for the discrete
fields of ``ACTION_DOC``, ``place`` as (x + 1) / 2, ``cue`` as is."""

AIM_KINDS = ("whites", "plain", "double", "abricol")
"""What an aim-assisted shot declares: whites only, or the coloured ball plain / as a double off
the chosen cushion / as an abricol (the cue ball off the chosen cushion first)."""
AIM_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cue_ball", N_BALLS),
    ("object_ball", N_BALLS),
    ("pocket", len(Pocket)),
    ("kind", len(AIM_KINDS)),
    ("cushion", len(Cushion)),
    ("correction", 4),
    ("place", 2),
    ("play_on", 2),
    ("extension", 2),
)
"""Segments of the :class:`AimAssist` vector. ``correction`` = (dphi, speed, a, b): the aim is
the ghost-ball angle plus ``MAX_AIM_CORRECTION`` * dphi; speed = 0.1 + (c + 1) / 2 (10 - 0.1)
m/s; (a, b) = 0.5 (c_a, c_b) pulled into the miscue disc."""
MAX_AIM_CORRECTION = math.radians(5.0)


def _split(given: np.ndarray, layout: tuple[tuple[str, int], ...]) -> dict[str, np.ndarray]:
    size = sum(n for _, n in layout)
    try:
        vector = np.asarray(given, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"action must be {size} finite numbers, got {given!r}") from None
    if given is None or vector.shape != (size,):
        shape = "None" if given is None else f"shape {np.shape(given)}"
        raise ValueError(f"action must be {size} finite numbers, got {shape}")
    bad = np.flatnonzero(~np.isfinite(vector))
    if bad.size:
        raise ValueError(
            f"action must be {size} finite numbers, got {vector[bad[0]]} at index {bad[0]}"
        )
    out, at = {}, 0
    for name, n in layout:
        out[name] = vector[at : at + n]
        at += n
    return out


def _argmax(scores: np.ndarray) -> int:
    return int(np.argmax(scores))


def _cue(speed_c: float, a_c: float, b_c: float) -> tuple[float, float, float]:
    """Speed and tip offsets from entries in [-1, 1] (clipped), tip pulled into the disc."""
    speed_c, a_c, b_c = (min(max(v, -1.0), 1.0) for v in (speed_c, a_c, b_c))
    a, b = MISCUE_LIMIT * a_c, MISCUE_LIMIT * b_c
    norm = math.hypot(a, b)
    if norm > MISCUE_LIMIT:
        a, b = a * MISCUE_LIMIT / norm, b * MISCUE_LIMIT / norm
    return MIN_SPEED + (speed_c + 1) / 2 * (MAX_SPEED - MIN_SPEED), a, b


def decode_flat(vector: np.ndarray, view: FrameView) -> Action:
    """The action a :class:`FlatAction` vector stands for (see :data:`FLAT_LAYOUT`)."""
    seg = _split(vector, FLAT_LAYOUT)
    point = {
        "cue_ball": _argmax(seg["cue_ball"]),
        "place": ((seg["place"].clip(-1, 1) + 1) / 2).astype(np.float32),
        "cue": seg["cue"].clip(-1, 1).astype(np.float32),
        "call": _argmax(seg["call"]),
        "pocket": _argmax(seg["pocket"]),
        "via": np.array([_argmax(seg[f"via{k}"]) for k in range(N_VIA)]),
        "legs": np.array([_argmax(seg[f"touch{k}"]) for k in range(MAX_CHAIN * MAX_TOUCHES)]),
        "play_on": _argmax(seg["play_on"]),
        "extension": _argmax(seg["extension"]),
    }
    return decode_action(point, view)


def decode_aim(vector: np.ndarray, view: FrameView) -> Action:
    """The action an :class:`AimAssist` vector stands for (see :data:`AIM_LAYOUT`).

    The call is built from the chosen object ball, pocket and kind *before* the shot: the
    coloured ball as object ball with kind plain/double/abricol is called; any other choice is a
    whites-only shot. A cue ball off the table becomes the next ball on it; an object ball off
    the table or equal to the cue ball becomes the next other ball on the table; an abricol
    with the coloured ball as cue ball is played as a plain call.
    """
    seg = _split(vector, AIM_LAYOUT)
    frame, state = view.frame, view.state
    claim = bool(_argmax(seg["extension"]))
    if frame.decision is Decision.CHOICE:
        return ChoiceAction(play_on=bool(_argmax(seg["play_on"])), claim_extension=claim)
    dphi, speed_c, a_c, b_c = seg["correction"].tolist()
    speed, a, b = _cue(speed_c, a_c, b_c)
    pocket = Pocket(_argmax(seg["pocket"]))
    kind = AIM_KINDS[_argmax(seg["kind"])]
    cushion = Cushion(_argmax(seg["cushion"]))
    place = None
    if frame.decision is Decision.BREAK:
        u, v = ((seg["place"].clip(-1, 1) + 1) / 2).tolist()
        place = house_point(state, u, v)
        state = state.place(BREAK_BALL, place)
        cue_ball = BREAK_BALL
    else:
        cue_ball = nearest_on_table(state, _argmax(seg["cue_ball"]))
    obj = _object_ball(state.on_table, cue_ball, _argmax(seg["object_ball"]))
    call = None
    phi = 0.0
    if obj is not None:
        colour = obj == COLOURED and frame.decision is not Decision.BREAK
        double = cushion if colour and kind == "double" else None
        abricol = cushion if colour and kind == "abricol" and cue_ball != COLOURED else None
        phi = ghost_aim(state.xy(cue_ball), state.xy(obj), pocket, state.spec, double, abricol)
        if colour and kind != "whites":
            call = _aim_call(cue_ball, pocket, double, abricol)
    phi += MAX_AIM_CORRECTION * min(max(dphi, -1.0), 1.0)
    return ShotAction(Shot(cue_ball, phi, speed, a, b), call, place, claim)


def _object_ball(on_table: np.ndarray, cue_ball: int, ball: int) -> int | None:
    for k in range(N_BALLS):
        candidate = (ball + k) % N_BALLS
        if candidate != cue_ball and on_table[candidate]:
            return candidate
    return None


def _aim_call(
    cue_ball: int, pocket: Pocket, double: Cushion | None, abricol: Cushion | None
) -> Call:
    if abricol is not None:
        return Call.abricol(cue_ball, pocket, [abricol])
    if double is not None:
        return Call.double(cue_ball, pocket, [double])
    return Call.plain(cue_ball, pocket)


class _VectorAction(gym.ActionWrapper[Any, np.ndarray, Any]):
    """A ``Box`` action in [-1, 1]^n decoded by ``decode(vector, view)`` into a structured one."""

    def __init__(
        self,
        env: gym.Env[Any, Any],
        layout: tuple[tuple[str, int], ...],
        decode: Callable[[np.ndarray, FrameView], Action],
    ) -> None:
        super().__init__(env)
        self.decode = decode
        size = sum(n for _, n in layout)
        self.action_space = spaces.Box(-1.0, 1.0, (size,), np.float32)

    def action(self, action: np.ndarray) -> Action:
        game = self.env.unwrapped.game  # type: ignore[attr-defined]
        return self.decode(action, game.view(game.to_move))


class FlatAction(_VectorAction, gym.utils.RecordConstructorArgs):
    """The full structured action as one ``Box`` (for PPO, SAC, TD3); see :data:`FLAT_LAYOUT`."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # its spec can make it again
        super().__init__(env, FLAT_LAYOUT, decode_flat)


class AimAssist(_VectorAction, gym.utils.RecordConstructorArgs):
    """Choose cue ball, object ball, pocket and kind; correct a ghost-ball aim; see
    :data:`AIM_LAYOUT` and :func:`decode_aim`."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # its spec can make it again
        super().__init__(env, AIM_LAYOUT, decode_aim)


WRAPPERS: dict[str, Callable[[gym.Env[Any, Any]], _VectorAction]] = {
    "flat": FlatAction,
    "aim": AimAssist,
}
DECODERS: dict[str, Callable[[np.ndarray, FrameView], Action]] = {
    "flat": decode_flat,
    "aim": decode_aim,
}
ACTIONS = ("aim", "flat", "masked")
"""The trainable actions: the two ``Box`` wrappers and the masked discrete one."""
BOX_SIZES = {"aim": sum(n for _, n in AIM_LAYOUT), "flat": sum(n for _, n in FLAT_LAYOUT)}
"""The length of each ``Box`` action's vector."""


def action_of(space: spaces.Space[Any]) -> str | None:
    """The trainable action whose space a model's ``space`` is: ``aim`` or ``flat`` for a
    ``Box`` of their lengths, ``masked`` for the masked action's ``MultiDiscrete``; None for
    another space (a model of another environment)."""
    if isinstance(space, spaces.Box) and len(space.shape) == 1:
        return next((name for name, n in BOX_SIZES.items() if space.shape == (n,)), None)
    if isinstance(space, spaces.MultiDiscrete):
        return "masked" if list(space.nvec) == list(masked_action_space().nvec) else None
    return None


def trained_action(space: spaces.Space[Any], asked: str | None = None) -> str:
    """The action a model whose actions are ``space`` was trained with (:func:`action_of`),
    which must be ``asked`` where given: decoded as another action, every decision it made
    would be refused.

    :raises ValueError: ``space`` is no trainable action's, or the action is not ``asked``.
    """
    trained = action_of(space)
    if trained is None:
        raise ValueError(f"the model's action space {space} is no kinghill action's")
    if asked is not None and asked != trained:
        raise ValueError(f"the model was trained with the {trained} action, not the {asked} action")
    return trained


def make_aim_env(**kwargs: Any) -> gym.Env[Any, Any]:
    """``KingOfTheHillEnv(**kwargs)`` with flat observations and :class:`AimAssist` (the entry
    of the Gym ID ``kinghill/KingOfTheHill-Aim-v0``)."""
    from kinghill.envs.rl.gym_env import KingOfTheHillEnv

    return AimAssist(FlattenObservation(KingOfTheHillEnv(**kwargs)))


def make_flat_env(**kwargs: Any) -> gym.Env[Any, Any]:
    """``KingOfTheHillEnv(**kwargs)`` with flat observations and :class:`FlatAction` (the entry
    of the Gym ID ``kinghill/KingOfTheHill-Flat-v0``)."""
    from kinghill.envs.rl.gym_env import KingOfTheHillEnv

    return FlatAction(FlattenObservation(KingOfTheHillEnv(**kwargs)))


def make_sb3_env(action: str = "aim", **kwargs: Any) -> gym.Env[Any, Any]:
    """``KingOfTheHill-v0`` with flat observations and the ``"flat"`` or ``"aim"`` action, or
    the masked discrete action of :class:`~kinghill.envs.rl.masked.MaskedShots` (``"masked"``)."""
    if action == "masked":
        return make_masked_env(**kwargs)
    if action not in WRAPPERS:
        raise ValueError(f"action must be one of {sorted(ACTIONS)}, got {action!r}")
    env = gym.make("kinghill/KingOfTheHill-v0", **kwargs)
    return WRAPPERS[action](FlattenObservation(env))


@dataclass
class FrozenPolicy:
    """A trained SB3 model as an opponent or agent: it sees the observation of the player to
    move and its action is decoded as during training (``action`` "flat", "aim" or "masked";
    a masked model, from ``MaskablePPO``, also gets the action mask)."""

    model: Any
    action: str = "aim"
    deterministic: bool = True

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"action must be one of {sorted(ACTIONS)}, got {self.action!r}")
        space = getattr(self.model, "action_space", None)  # an ONNX policy names its action
        if space is not None:
            trained_action(space, self.action)
        self._space = observation_space()
        self._masked = MaskedPolicy(self.model, self.deterministic)

    def act(self, view: FrameView) -> Action:
        if self.action == "masked":
            return self._masked.act(view)
        obs = spaces.flatten(self._space, encode_observation(view))
        vector, _ = self.model.predict(obs, deterministic=self.deterministic)
        return DECODERS[self.action](vector, view)
