"""The Gymnasium spaces of King of the Hill and the documented mapping between them and the
structured actions and views (:mod:`kinghill.envs.game.actions`).

Every point of :func:`action_space` decodes to a valid action for the current position
(:func:`decode_action`); the rules of that mapping are listed in :data:`ACTION_DOC`.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
from gymnasium import spaces

from kinghill.envs.game.actions import Action, ChoiceAction, FrameView, ShotAction
from kinghill.envs.rules import MAX_CHAIN, MAX_TOUCHES, Call, Decision, Touch
from kinghill.physics import (
    BREAK_BALL,
    COLOURED,
    MAX_SPEED,
    MISCUE_LIMIT,
    N_BALLS,
    Cushion,
    Pocket,
    Shot,
    TableState,
)

MIN_SPEED = 0.1
"""Slowest cue-ball speed the encoded action reaches (m/s)."""
N_VIA = MAX_CHAIN - 2
"""Intermediate chain balls between the cue ball and the coloured ball."""
N_TOUCH_VALUES = 1 + len(Cushion) + N_BALLS
"""A touch code: 0 none, 1-6 a cushion (Cushion value + 1), 7-14 a ball (id + 7)."""
DECISIONS = (Decision.BREAK, Decision.SHOT, Decision.CHOICE, Decision.OVER)
HOUSE_MARGIN = 1e-4
"""Distance kept from the house line and the cushions when placing the break ball (m)."""

ACTION_DOC = """\
| key | space | meaning and decoding |
|---|---|---|
| `cue_ball` | Discrete(8) | ball struck (1.4); a ball not on the table becomes the next ball on the table in id order (cyclic); on the break always white 1 (1.3) |
| `place` | Box(0, 1, (2,)) | break only: white 1 at x = R + u (L/4 - R - 0.1 mm), y = R + v (W - 2R), inside the house |
| `cue` | Box(-1, 1, (4,)) | phi = pi c0; speed = 0.1 + (c1 + 1)/2 (10 - 0.1) m/s; (a, b) = 0.5 (c2, c3), pulled radially into the miscue disc a^2 + b^2 <= 0.25 |
| `call` | Discrete(2) | 0 whites only; 1 the coloured ball is called (ignored on the break and while the coloured ball is off the table) |
| `pocket` | Discrete(6) | the called pocket (`Pocket` value) |
| `via` | MultiDiscrete([8, 8]) | intermediate chain balls in order, 0 = none, k = white k; read up to the first 0; the cue ball, repeats and balls off the table are skipped; ignored when the coloured ball is the cue ball |
| `legs` | MultiDiscrete([15] * 12) | 3 touches for each of up to 4 chain balls (cue ball first, the coloured ball's leg last): 0 none, 1-6 cushion (`Cushion` value + 1), 7-14 ball (id + 7); each leg is read up to its first 0; touches of the leg's own ball, of later chain balls and of balls off the table are skipped |
| `play_on` | Discrete(2) | the 10.4 choice: 1 play on, 0 hand the shot back (used only then) |
| `extension` | Discrete(2) | 1 claims the once-per-frame 15 s extension (12.5) |
"""


class ActionSpace(spaces.Dict):
    """The ``Dict`` action space; ``sample(mask)`` also takes the observation's cue-ball mask
    (an int8 array of 8), as PettingZoo's and Gymnasium's masked sampling pass it, and
    :meth:`check` names the key of an action that is outside the space."""

    def __init__(self, entries: dict[str, spaces.Space[Any]]) -> None:
        super().__init__(entries)
        self._limits: dict[str, tuple[float, float]] = {}
        for key, sub in self.spaces.items():
            if isinstance(sub, spaces.Box):
                self._limits[key] = (float(sub.low.min()), float(sub.high.max()))
            elif isinstance(sub, spaces.MultiDiscrete):
                self._limits[key] = (0.0, float(sub.nvec.max()) - 1)

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        if isinstance(mask, np.ndarray):
            mask = {key: None for key in self.spaces} | {"cue_ball": mask.astype(np.int8)}
        return super().sample(mask=mask, probability=probability)

    def check(self, action: Any) -> None:
        """Raise ``ValueError`` naming the key that is outside the space (NaN, shape, range).

        Plain Python comparisons per entry: ``contains`` on the whole ``Dict`` costs more than
        the rest of an env step's bookkeeping.
        """
        if not isinstance(action, dict):
            raise ValueError(
                f"action must be a dict with keys {sorted(self.spaces)}, got {action!r}"
            )
        missing = self.spaces.keys() - action.keys()
        if missing:
            raise ValueError(f"action is missing keys {sorted(missing)}")
        unknown = action.keys() - self.spaces.keys()
        if unknown:  # a misspelt key would otherwise be ignored, and its value with it
            raise ValueError(
                f"action has unknown keys {sorted(map(str, unknown))}; "
                f"the keys are {sorted(self.spaces)}"
            )
        for key, sub in self.spaces.items():
            value = action[key]
            if isinstance(sub, spaces.Discrete):
                ok = _is_int(value) and 0 <= int(value) < int(sub.n)
            else:
                arr = np.asarray(value)
                kind = arr.dtype.kind
                numbers = arr.ravel().tolist()
                if kind == "f" and not all(math.isfinite(v) for v in numbers):
                    raise ValueError(f"action[{key!r}] holds NaN or infinity: {value!r}")
                low, high = self._limits[key]
                kinds = "fiu" if isinstance(sub, spaces.Box) else "iu"
                ok = arr.shape == sub.shape and kind in kinds
                ok = ok and low <= min(numbers) and max(numbers) <= high
            if not ok:
                raise ValueError(f"action[{key!r}] = {value!r} is outside {sub}")


def _is_int(value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    return isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu"


def action_space() -> ActionSpace:
    """The structured action space (see :data:`ACTION_DOC`)."""
    return ActionSpace(
        {
            "cue_ball": spaces.Discrete(N_BALLS),
            "place": spaces.Box(0.0, 1.0, (2,), np.float32),
            "cue": spaces.Box(-1.0, 1.0, (4,), np.float32),
            "call": spaces.Discrete(2),
            "pocket": spaces.Discrete(len(Pocket)),
            "via": spaces.MultiDiscrete([N_BALLS] * N_VIA),
            "legs": spaces.MultiDiscrete([N_TOUCH_VALUES] * (MAX_CHAIN * MAX_TOUCHES)),
            "play_on": spaces.Discrete(2),
            "extension": spaces.Discrete(2),
        }
    )


def decode_action(action: dict[str, Any], view: FrameView) -> Action:
    """The structured action that a point of :func:`action_space` stands for, valid for ``view``."""
    frame, state = view.frame, view.state
    claim = bool(int(action["extension"]))
    if frame.decision is Decision.CHOICE:
        return ChoiceAction(play_on=bool(int(action["play_on"])), claim_extension=claim)
    c = np.asarray(action["cue"], dtype=np.float64)
    a, b = MISCUE_LIMIT * c[2], MISCUE_LIMIT * c[3]
    norm = math.hypot(a, b)
    if norm > MISCUE_LIMIT:
        a, b = a * MISCUE_LIMIT / norm, b * MISCUE_LIMIT / norm
    speed = MIN_SPEED + (float(c[1]) + 1.0) / 2.0 * (MAX_SPEED - MIN_SPEED)
    phi = math.pi * float(c[0])
    if frame.decision is Decision.BREAK:
        u, v = np.asarray(action["place"], dtype=np.float64)
        return ShotAction(
            Shot(BREAK_BALL, phi, speed, a, b),
            None,
            house_point(state, float(u), float(v)),
            claim,
        )
    cue_ball = nearest_on_table(state, int(action["cue_ball"]))
    called = int(action["call"]) and state.on_table[COLOURED]
    call = decode_call(action, state, cue_ball) if called else None
    return ShotAction(Shot(cue_ball, phi, speed, a, b), call, None, claim)


def house_point(state: TableState, u: float, v: float) -> tuple[float, float]:
    """The house position for unit coordinates (u, v) in [0, 1]^2."""
    spec = state.spec
    r = spec.radius
    u, v = min(max(u, 0.0), 1.0), min(max(v, 0.0), 1.0)
    x = r + u * (spec.house_line_x - r - HOUSE_MARGIN)
    y = r + v * (spec.width - 2 * r)
    return (x, y)


def nearest_on_table(state: TableState, ball: int) -> int:
    """``ball`` if it is on the table, else the next ball on the table in id order (cyclic)."""
    for k in range(N_BALLS):
        candidate = (ball + k) % N_BALLS
        if state.on_table[candidate]:
            return candidate
    raise ValueError("no ball is on the table")


def decode_call(action: dict[str, Any], state: TableState, cue_ball: int) -> Call:
    """The call encoded by ``pocket``, ``via`` and ``legs`` (rules in :data:`ACTION_DOC`)."""
    chain = [cue_ball]
    if cue_ball != COLOURED:
        for code in np.asarray(action["via"]).tolist():
            if code == 0:
                break
            if code not in chain and state.on_table[code]:
                chain.append(int(code))
        chain.append(COLOURED)
    codes = np.asarray(action["legs"]).reshape(MAX_CHAIN, MAX_TOUCHES).tolist()
    legs: list[tuple[Touch, ...]] = []
    for k, ball in enumerate(chain):
        leg: list[Touch] = []
        for code in codes[k]:
            if code == 0:
                break
            if code <= len(Cushion):
                leg.append(Cushion(code - 1))
                continue
            touched = code - 1 - len(Cushion)
            if touched != ball and touched not in chain[k + 1 :] and state.on_table[touched]:
                leg.append(touched)
        legs.append(tuple(leg))
    return Call(Pocket(int(action["pocket"])), tuple(chain), tuple(legs))


def encode_call(call: Call | None) -> dict[str, Any]:
    """The ``call``, ``pocket``, ``via`` and ``legs`` entries that decode to ``call``."""
    via = np.zeros(N_VIA, dtype=np.int64)
    legs = np.zeros((MAX_CHAIN, MAX_TOUCHES), dtype=np.int64)
    if call is None:
        return {"call": 0, "pocket": 0, "via": via, "legs": legs.reshape(-1)}
    inner = call.chain[1:-1] if call.cue_ball != COLOURED else ()
    via[: len(inner)] = inner
    for k, leg in enumerate(call.legs):
        for j, t in enumerate(leg):
            legs[k, j] = int(t) + 1 if isinstance(t, Cushion) else int(t) + 1 + len(Cushion)
    return {"call": 1, "pocket": int(call.pocket), "via": via, "legs": legs.reshape(-1)}


def encode_action(action: Action, view: FrameView) -> dict[str, Any]:
    """A point of :func:`action_space` that decodes to ``action`` (up to float rounding)."""
    spec = view.state.spec
    point: dict[str, Any] = {
        "cue_ball": 0,
        "place": np.zeros(2, np.float32),
        "cue": np.zeros(4, np.float32),
        "play_on": 1,
        "extension": int(action.claim_extension),
        **encode_call(None),
    }
    if isinstance(action, ChoiceAction):
        point["play_on"] = int(action.play_on)
        return point
    s = action.shot
    point["cue_ball"] = s.cue_ball
    phi = math.remainder(s.phi, 2 * math.pi)
    speed01 = (s.speed - MIN_SPEED) / (MAX_SPEED - MIN_SPEED)
    point["cue"] = np.array(
        [phi / math.pi, 2 * speed01 - 1, s.a / MISCUE_LIMIT, s.b / MISCUE_LIMIT], np.float32
    ).clip(-1, 1)
    if action.place is not None:
        r = spec.radius
        u = (action.place[0] - r) / (spec.house_line_x - r - HOUSE_MARGIN)
        v = (action.place[1] - r) / (spec.width - 2 * r)
        point["place"] = np.array([u, v], np.float32).clip(0, 1)
    point.update(encode_call(action.call))
    return point


# ---- observations -------------------------------------------------------------------------------
OBSERVATION_DOC = """\
| key | space | meaning (from the view of the player to decide, "me") |
|---|---|---|
| `balls` | Box(-0.05, 1.05, (8, 2)) | ball centres as (x/L, y/W); ball 0 is the coloured ball; (0, 0) when off the table; a ball hanging in a pocket's mouth lies a little outside [0, 1] |
| `on_table` | MultiBinary(8) | 1 for each ball on the table |
| `credited` | MultiDiscrete([8, 8]) | whites credited: me, opponent |
| `required` | MultiDiscrete([8, 8]) | whites required (handicap): me, opponent |
| `fouls` | MultiDiscrete([3, 3]) | fouls this frame: me, opponent |
| `decision` | Discrete(4) | 0 break, 1 shot, 2 the 10.4 choice, 3 frame over |
| `extension` | MultiBinary(2) | the 15 s extension still available: me, opponent |
| `shots` | Box(0, 1, (1,)) | shots played / shot limit |
| `action_mask` | MultiBinary(8) | balls that may be the cue ball now (on the break: white 1 only) |
"""


HANGING_REACH = 0.05
"""How far outside [0, 1] a normalised ball position may lie: a ball hanging in a pocket's
mouth has its centre up to about a ball's radius beyond the cushion line (0.02 of the width on
the default table); the bound leaves room for other tables."""


def observation_space() -> spaces.Dict:
    """The structured observation space (see :data:`OBSERVATION_DOC`)."""
    return spaces.Dict(
        {
            "balls": spaces.Box(-HANGING_REACH, 1.0 + HANGING_REACH, (N_BALLS, 2), np.float32),
            "on_table": spaces.MultiBinary(N_BALLS),
            "credited": spaces.MultiDiscrete([N_BALLS, N_BALLS]),
            "required": spaces.MultiDiscrete([N_BALLS, N_BALLS]),
            "fouls": spaces.MultiDiscrete([3, 3]),
            "decision": spaces.Discrete(len(DECISIONS)),
            "extension": spaces.MultiBinary(2),
            "shots": spaces.Box(0.0, 1.0, (1,), np.float32),
            "action_mask": spaces.MultiBinary(N_BALLS),
        }
    )


FLAT_OBSERVATION_DOC = """\
| indices | key | what each index holds |
|---|---|---|
| 0-7 | `action_mask` | index k: 1 if ball k may be the cue ball now |
| 8-23 | `balls` | index 8 + 2k: ball k's x/L; 9 + 2k: its y/W (ball 0 the coloured ball) |
| 24-31 | `credited` (me) | one-hot: index 24 + n is 1 when I have n whites credited |
| 32-39 | `credited` (opponent) | one-hot, the same for the opponent |
| 40-43 | `decision` | one-hot: 40 break, 41 shot, 42 the 10.4 choice, 43 frame over |
| 44-45 | `extension` | 44: my 15 s extension still available; 45: the opponent's |
| 46-48 | `fouls` (me) | one-hot: index 46 + n is 1 after n fouls (n = 0, 1, 2) |
| 49-51 | `fouls` (opponent) | one-hot, the same for the opponent |
| 52-59 | `on_table` | index 52 + k: 1 if ball k is on the table |
| 60-67 | `required` (me) | one-hot: index 60 + n is 1 when I need n whites |
| 68-75 | `required` (opponent) | one-hot, the same for the opponent |
| 76 | `shots` | shots played / shot limit |
"""
"""Which index of ``FlattenObservation``'s ``Box(77)`` holds what: Gymnasium flattens the
``Dict`` key by key in alphabetical order, ``Box`` entries row by row, ``Discrete`` and each
``MultiDiscrete`` entry one-hot, ``MultiBinary`` as it is (see :func:`flat_observation_index`)."""


def flat_observation_index() -> dict[str, slice]:
    """Each observation key's slice of the flattened observation (``FlattenObservation``),
    computed from the space as Gymnasium flattens it: ``flat[index["balls"]].reshape(8, 2)``."""
    index, start = {}, 0
    for key, space in observation_space().spaces.items():  # a Dict keeps its keys sorted
        size = spaces.flatdim(space)
        index[key] = slice(start, start + size)
        start += size
    return index


@cache
def _flat_parts() -> tuple[tuple[str, slice, np.ndarray | None], ...]:
    """Per observation key: its slice of the flattened observation and, for the one-hot keys
    (``Discrete``, ``MultiDiscrete``), each entry's offset within it."""
    index, parts = flat_observation_index(), []
    for key, space in observation_space().spaces.items():
        offsets = None
        if isinstance(space, spaces.Discrete):
            offsets = np.zeros(1, np.intp)
        elif isinstance(space, spaces.MultiDiscrete):
            offsets = np.concatenate([[0], np.cumsum(space.nvec)[:-1]]).astype(np.intp)
        parts.append((key, index[key], offsets))
    return tuple(parts)


def flatten_observation(obs: dict[str, Any], out: np.ndarray) -> None:
    """Write ``obs`` into ``out`` (77 numbers) as ``gymnasium.spaces.flatten`` flattens it (see
    :data:`FLAT_OBSERVATION_DOC`), without its dispatch per key: the masked env does this at
    every step."""
    for key, part, offsets in _flat_parts():
        value = obs[key]
        if offsets is None:
            out[part] = np.ravel(value)
        else:
            out[part] = 0.0
            out[part.start + offsets + np.ravel(value)] = 1.0


def cue_ball_mask(view: FrameView) -> np.ndarray:
    """Which balls may be the cue ball now (int8, one per ball; none once the frame is over)."""
    if view.frame.decision is Decision.OVER:
        return np.zeros(N_BALLS, np.int8)
    if view.frame.decision is Decision.BREAK:
        mask = np.zeros(N_BALLS, np.int8)
        mask[BREAK_BALL] = 1
        return mask
    return view.state.on_table.astype(np.int8)


def encode_observation(view: FrameView) -> dict[str, Any]:
    """The observation of ``view`` (see :data:`OBSERVATION_DOC`)."""
    state, frame, me = view.state, view.frame, view.player
    other = 1 - me
    spec = state.spec
    on = state.on_table
    balls = np.zeros((N_BALLS, 2), np.float32)
    balls[on] = state.positions[on] / (spec.length, spec.width)
    np.clip(balls, -HANGING_REACH, 1.0 + HANGING_REACH, out=balls)
    return {
        "balls": balls,
        "on_table": on.astype(np.int8),
        "credited": np.array([len(frame.credited[me]), len(frame.credited[other])], np.int64),
        "required": np.array([frame.required[me], frame.required[other]], np.int64),
        "fouls": np.array([min(frame.fouls[me], 2), min(frame.fouls[other], 2)], np.int64),
        "decision": np.int64(DECISIONS.index(frame.decision)),
        "extension": np.array(
            [not frame.extension_used[me], not frame.extension_used[other]], np.int8
        ),
        "shots": np.array([min(frame.shots / frame.shot_limit, 1.0)], np.float32),
        "action_mask": cue_ball_mask(view),
    }
