"""Requests as the server reads them: a JSON body of bounded size, every field checked for its
type and range, and a decision built from it (the shot and its call through the human
seat's :class:`~kinghill.agents.human.Controls`, as the pygame window builds and checks them).

Whatever is wrong raises :class:`PayloadError` naming the field (HTTP 400, or 413 for a body
over :data:`MAX_BODY`); nothing reaches the game until the whole request is read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from kinghill.agents.human import KINDS, Controls
from kinghill.agents.human.controls import MIN_SPEED
from kinghill.envs import ChoiceAction, FrameView, ShotAction
from kinghill.envs.rules import MAX_TOUCHES, Decision, Touch
from kinghill.experiments.serve.tables import PERSON, Seating
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.physics import MAX_SPEED, N_BALLS, Cushion, Pocket, Shot

MAX_BODY = 4096
"""The largest request body read (bytes); a decision takes a few hundred."""
MAX_ROUND = 20
"""The highest tournament round a frame may be timed as (12.3: the limit stops falling at 15 s)."""
MAX_SEED = 2**63 - 1
MAX_ROUTE = MAX_TOUCHES + 2
"""The most touches a call's route takes on the page (:class:`Controls`' own limit)."""
MAX_PHI = 4 * math.pi


class PayloadError(ValueError):
    """A request body that cannot be used; ``status`` 400 (malformed) or 413 (too large)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _refuse_constant(name: str) -> Any:
    raise PayloadError(f"{name} is not a number JSON allows (no NaN or Infinity)")


def read_json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object; :class:`PayloadError` when it is too large, not UTF-8, not
    JSON (NaN and Infinity refused), or not an object."""
    if len(body) > MAX_BODY:
        raise PayloadError(f"the body is {len(body)} bytes; at most {MAX_BODY}", 413)
    try:
        data = json.loads(body.decode("utf-8") or "{}", parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise PayloadError("the body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise PayloadError(f"the body is not JSON: {error.msg} at character {error.pos}") from None
    if not isinstance(data, dict):
        raise PayloadError(f"the body must be a JSON object, got {type(data).__name__}")
    return data


def _only(data: Mapping[str, Any], known: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise PayloadError(f"{what}: unknown fields {unknown}; known: {list(known)}")


def _integer(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PayloadError(f"{key} must be a whole number {low}-{high}, got {_shown(value)}")
    return value


def _number(value: Any, key: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PayloadError(f"{key} must be a number, got {_shown(value)}")
    number = float(value)
    if not (math.isfinite(number) and low <= number <= high):
        raise PayloadError(f"{key} must be in [{low:g}, {high:g}], got {_shown(value)}")
    return number


def _flag(data: Mapping[str, Any], key: str, default: bool | None = None) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise PayloadError(f"{key} must be true or false, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def new_frame(data: Mapping[str, Any], default_seed: int) -> Seating:
    """A frame against one of the server's agents: ``{"opponent": NAME, "person_breaks": bool,
    "required": [person, opponent], "round": null | 1-20, "seed": int}`` (all but the opponent
    optional); whether the name is on the list is the server's check."""
    _only(data, ("opponent", "person_breaks", "required", "round", "seed"), "new frame")
    opponent = data.get("opponent")
    if not isinstance(opponent, str):
        raise PayloadError(
            f"opponent must be an agent's name from the list, got {_shown(opponent)}"
        )
    breaks = _flag(data, "person_breaks", True)
    required = data.get("required", [3, 3])
    if not (isinstance(required, list) and len(required) == 2):
        raise PayloadError(f"required must be [person, opponent] whites, got {_shown(required)}")
    mine, theirs = (_integer(r, "required", 1, N_BALLS - 1) for r in required)
    names = (PERSON, opponent) if breaks else (opponent, PERSON)
    need = (mine, theirs) if breaks else (theirs, mine)
    return Seating(names, need, _seed(data, default_seed), _options(data))


def watch_frame(data: Mapping[str, Any], default_seed: int) -> Seating:
    """A frame between two of the server's agents: ``{"agents": [A, B], "seed": int,
    "round": null | 1-20}``; A breaks."""
    _only(data, ("agents", "round", "seed"), "watched frame")
    agents = data.get("agents")
    if not (
        isinstance(agents, list) and len(agents) == 2 and all(isinstance(a, str) for a in agents)
    ):
        raise PayloadError(f"agents must be two names from the list, got {_shown(agents)}")
    return Seating((agents[0], agents[1]), (3, 3), _seed(data, default_seed), _options(data))


def _seed(data: Mapping[str, Any], default: int) -> int:
    seed = data.get("seed", default)
    if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 20:
        # seeds travel as text: JavaScript's numbers round them
        seed = int(seed)
    return _integer(seed, "seed", 0, MAX_SEED)


def _options(data: Mapping[str, Any]) -> FrameOptions:
    number = data.get("round")
    return FrameOptions(round=None if number is None else _integer(number, "round", 1, MAX_ROUND))


def nothing(data: Mapping[str, Any], what: str) -> None:
    """A request that takes no fields: ``{}``."""
    _only(data, (), what)


def choice(data: Mapping[str, Any]) -> ChoiceAction:
    """The 10.4 choice: ``{"play_on": bool}``."""
    _only(data, ("play_on",), "choice")
    return ChoiceAction(_flag(data, "play_on"))


def shot(data: Mapping[str, Any], view: FrameView) -> ShotAction:
    """A shot: ``{"cue_ball": 0-7, "phi": rad, "speed": m/s, "tip": [a, b], "call": {"kind":
    KIND, "pocket": NAME, "route": [CUSHION or ball id, ...]}, "place": [x, y] or null}``,
    checked as the pygame seat checks it before it plays (:class:`Controls`: the call's
    builders, then the referee's ``validate_shot``: the cue ball on the table, the break from
    the house, the call possible). A malformed field is a 400; a shot that does not fit the
    position a 422 in the referee's words."""
    _only(data, ("cue_ball", "phi", "speed", "tip", "call", "place"), "shot")
    if view.decision is Decision.CHOICE:
        raise PayloadError("the 10.4 choice is due: play on or hand the shot back", 422)
    cue_ball = _integer(data.get("cue_ball"), "cue_ball", 0, N_BALLS - 1)
    phi = _number(data.get("phi"), "phi", -MAX_PHI, MAX_PHI)
    speed = _number(data.get("speed"), "speed", MIN_SPEED, MAX_SPEED)  # the page's slider
    tip = data.get("tip", [0.0, 0.0])
    if not (isinstance(tip, list) and len(tip) == 2):
        raise PayloadError(f"tip must be [side, height] in ball radii, got {_shown(tip)}")
    a, b = (_number(v, "tip", -0.5, 0.5) for v in tip)
    try:
        Shot(cue_ball, phi, speed, a, b)
    except ValueError as error:
        raise PayloadError(str(error)) from None
    place = data.get("place")
    if place is not None:
        if not (isinstance(place, list) and len(place) == 2):
            raise PayloadError(f"place must be [x, y] in metres or null, got {_shown(place)}")
        spec = view.state.spec
        place = (
            _number(place[0], "place x", 0.0, spec.length),
            _number(place[1], "place y", 0.0, spec.width),
        )
    controls = _controls(data.get("call"), view, cue_ball)
    controls.phi, controls.speed, controls.tip, controls.place = phi, speed, (a, b), place
    controls.command("shoot")
    if not isinstance(controls.done, ShotAction):
        raise PayloadError(controls.message, 422)
    return controls.done


def _controls(data: Any, view: FrameView, cue_ball: int) -> Controls:
    """The human seat's controls with the call ``{"kind": KIND, "pocket": NAME, "route": [...]}``
    (null: whites only) chosen, as the pygame menu would have them."""
    if data is None:
        return Controls(view, cue_ball)
    if not isinstance(data, dict):
        raise PayloadError(f"call must be an object or null, got {_shown(data)}")
    _only(data, ("kind", "pocket", "route"), "call")
    kind = data.get("kind")
    if kind not in KINDS:
        raise PayloadError(f"call kind must be one of {list(KINDS)}, got {_shown(kind)}")
    pocket = data.get("pocket")
    if pocket is not None and pocket not in Pocket.__members__:
        raise PayloadError(
            f"call pocket must be one of {list(Pocket.__members__)}, got {_shown(pocket)}"
        )
    route = data.get("route", [])
    if not isinstance(route, list) or len(route) > MAX_ROUTE:
        raise PayloadError(f"call route must be a list of at most {MAX_ROUTE} touches")
    return Controls(
        view,
        cue_ball,
        kind=kind,
        pocket=None if pocket is None else Pocket[pocket],
        route=[_touch(t) for t in route],
    )


def _touch(value: Any) -> Touch:
    if isinstance(value, str) and value in Cushion.__members__:
        return Cushion[value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_BALLS:
        return value
    raise PayloadError(
        f"a route touch is a cushion {list(Cushion.__members__)} or a ball 0-7, got {_shown(value)}"
    )
