"""JSON forms of the game's value objects, exact both ways: positions, shots, calls, events,
rulings, frames and actions.

Floats are written by Python's ``repr`` (what ``json`` does), which reads back to the same
double bit for bit; a ball off the table is ``null``, never NaN. Cushions and pockets are written
by name (``"LEFT_REAR"``), balls by id. Every ``decode_*`` raises ``KeyError``, ``TypeError`` or
``ValueError`` on malformed input; :mod:`kinghill.experiments.records.store` reports those per
record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kinghill.envs import Action, ChoiceAction, ShotAction
from kinghill.envs.rules import (
    Call,
    Decision,
    EndReason,
    Foul,
    Frame,
    FrameResult,
    Route,
    Ruling,
    Touch,
)
from kinghill.physics import (
    N_BALLS,
    BallBall,
    BallCushion,
    CentreLine,
    Cushion,
    Event,
    Pocket,
    Pocketed,
    Shot,
    TableSpec,
    TableState,
)

Json = Any
"""A value ``json`` reads and writes: dict, list, str, int, float, bool or None."""


def encode_state(state: TableState) -> Json:
    """Eight ``[x, y]`` (``null`` for a ball off the table)."""
    return [
        [float(x), float(y)] if on else None
        for (x, y), on in zip(state.positions.tolist(), state.on_table.tolist(), strict=True)
    ]


def decode_state(data: Json, spec: TableSpec) -> TableState:
    """Inverse of :func:`encode_state`."""
    if len(data) != N_BALLS:
        raise ValueError(f"a position holds {N_BALLS} balls, got {len(data)}")
    positions = np.full((N_BALLS, 2), np.nan)
    on_table = np.zeros(N_BALLS, dtype=bool)
    for ball, xy in enumerate(data):
        if xy is not None:
            positions[ball] = (_float(xy[0]), _float(xy[1]))
            on_table[ball] = True
    return TableState(spec, positions, on_table)


def encode_shot(shot: Shot) -> Json:
    """``[cue_ball, phi, speed, a, b]``."""
    return [shot.cue_ball, shot.phi, shot.speed, shot.a, shot.b]


def decode_shot(data: Json) -> Shot:
    """Inverse of :func:`encode_shot`."""
    cue_ball, phi, speed, a, b = data
    return Shot(int(cue_ball), _float(phi), _float(speed), _float(a), _float(b))


def encode_touch(touch: Touch) -> Json:
    """A cushion by name, a ball by id."""
    return touch.name if isinstance(touch, Cushion) else int(touch)


def decode_touch(data: Json) -> Touch:
    """Inverse of :func:`encode_touch`."""
    return Cushion[data] if isinstance(data, str) else int(data)


def _legs(legs: Any) -> Json:
    return [[encode_touch(t) for t in leg] for leg in legs]


def _decode_legs(data: Json) -> tuple[tuple[Touch, ...], ...]:
    return tuple(tuple(decode_touch(t) for t in leg) for leg in data)


def encode_call(call: Call | None) -> Json:
    """``{"pocket", "chain", "legs"}``, or ``null`` for whites only."""
    if call is None:
        return None
    return {"pocket": call.pocket.name, "chain": list(call.chain), "legs": _legs(call.legs)}


def decode_call(data: Json) -> Call | None:
    """Inverse of :func:`encode_call`."""
    if data is None:
        return None
    chain = tuple(int(b) for b in data["chain"])
    return Call(Pocket[data["pocket"]], chain, _decode_legs(data["legs"]))


EVENT_TAGS = {BallBall: "ball", BallCushion: "cushion", Pocketed: "pocketed", CentreLine: "centre"}
"""The first item of an event's JSON form, by event type."""


def encode_event(event: Event) -> Json:
    """``["ball", a, b, t]``, ``["cushion", ball, CUSHION, t]``, ``["pocketed", ball, POCKET,
    t]`` or ``["centre", ball, t]``."""
    if isinstance(event, BallBall):
        return ["ball", event.a, event.b, event.t]
    if isinstance(event, BallCushion):
        return ["cushion", event.ball, event.cushion.name, event.t]
    if isinstance(event, Pocketed):
        return ["pocketed", event.ball, event.pocket.name, event.t]
    return ["centre", event.ball, event.t]


def decode_event(data: Json) -> Event:
    """Inverse of :func:`encode_event`."""
    tag, *rest = data
    if tag == "ball":
        return BallBall(int(rest[0]), int(rest[1]), _float(rest[2]))
    if tag == "cushion":
        return BallCushion(int(rest[0]), Cushion[rest[1]], _float(rest[2]))
    if tag == "pocketed":
        return Pocketed(int(rest[0]), Pocket[rest[1]], _float(rest[2]))
    if tag == "centre":
        return CentreLine(int(rest[0]), _float(rest[1]))
    raise ValueError(f"unknown event {tag!r}; known: {', '.join(EVENT_TAGS.values())}")


def encode_result(result: FrameResult | None) -> Json:
    """``{"winner", "reason"}``, or ``null`` while the frame goes on."""
    return None if result is None else {"winner": result.winner, "reason": result.reason.value}


def decode_result(data: Json) -> FrameResult | None:
    """Inverse of :func:`encode_result`."""
    if data is None:
        return None
    winner = data["winner"]
    return FrameResult(None if winner is None else int(winner), EndReason(data["reason"]))


def encode_frame(frame: Frame) -> Json:
    """Every field of the frame state (credits, fouls, whose decision, the result, ...)."""
    return {
        "required": list(frame.required),
        "credited": [list(c) for c in frame.credited],
        "fouls": list(frame.fouls),
        "extension_used": list(frame.extension_used),
        "to_move": frame.to_move,
        "decision": frame.decision.value,
        "fouled_by": frame.fouled_by,
        "shots": frame.shots,
        "shot_limit": frame.shot_limit,
        "breaker": frame.breaker,
        "no_cushion_foul": frame.no_cushion_foul,
        "result": encode_result(frame.result),
    }


def decode_frame(data: Json) -> Frame:
    """Inverse of :func:`encode_frame`."""
    return Frame(
        required=_pair(data["required"], int),
        credited=_pair(data["credited"], lambda balls: tuple(int(b) for b in balls)),
        fouls=_pair(data["fouls"], int),
        extension_used=_pair(data["extension_used"], bool),
        to_move=int(data["to_move"]),
        decision=Decision(data["decision"]),
        fouled_by=None if data["fouled_by"] is None else int(data["fouled_by"]),
        shots=int(data["shots"]),
        shot_limit=int(data["shot_limit"]),
        breaker=int(data["breaker"]),
        no_cushion_foul=bool(data["no_cushion_foul"]),
        result=decode_result(data["result"]),
    )


def encode_route(route: Route | None) -> Json:
    """The observed route ``{"chain", "legs", "pocket"}``, or ``null``."""
    if route is None:
        return None
    pocket = None if route.pocket is None else route.pocket.name
    return {"chain": list(route.chain), "legs": _legs(route.legs), "pocket": pocket}


def decode_route(data: Json) -> Route | None:
    """Inverse of :func:`encode_route`."""
    if data is None:
        return None
    pocket = None if data["pocket"] is None else Pocket[data["pocket"]]
    return Route(tuple(int(b) for b in data["chain"]), _decode_legs(data["legs"]), pocket)


def encode_ruling(ruling: Ruling) -> Json:
    """Every field of the ruling, and its text for people."""
    return {
        "text": ruling.text,
        "shooter": ruling.shooter,
        "cue_ball": ruling.cue_ball,
        "call": encode_call(ruling.call),
        "is_break": ruling.is_break,
        "potted": list(ruling.potted),
        "fouls": [{"rules": list(f.rules), "reason": f.reason} for f in ruling.fouls],
        "credited": list(ruling.credited),
        "legal_colour_pot": ruling.legal_colour_pot,
        "void": ruling.void,
        "to_spot": list(ruling.to_spot),
        "next_to_move": ruling.next_to_move,
        "next_decision": ruling.next_decision.value,
        "result": encode_result(ruling.result),
        "route": encode_route(ruling.route),
        "notes": list(ruling.notes),
        "shot_played": ruling.shot_played,
    }


def decode_ruling(data: Json) -> Ruling:
    """Inverse of :func:`encode_ruling`."""
    ruling = Ruling(
        shooter=int(data["shooter"]),
        cue_ball=None if data["cue_ball"] is None else int(data["cue_ball"]),
        call=decode_call(data["call"]),
        is_break=bool(data["is_break"]),
        potted=tuple(int(b) for b in data["potted"]),
        fouls=tuple(Foul(tuple(f["rules"]), str(f["reason"])) for f in data["fouls"]),
        credited=tuple(int(b) for b in data["credited"]),
        legal_colour_pot=bool(data["legal_colour_pot"]),
        void=bool(data["void"]),
        to_spot=tuple(int(b) for b in data["to_spot"]),
        next_to_move=int(data["next_to_move"]),
        next_decision=Decision(data["next_decision"]),
        result=decode_result(data["result"]),
        route=decode_route(data["route"]),
        notes=tuple(str(n) for n in data["notes"]),
        shot_played=bool(data["shot_played"]),
    )
    if ruling.text != data["text"]:
        raise ValueError(f"the ruling reads {ruling.text!r}, the record says {data['text']!r}")
    return ruling


def encode_action(action: Action | None) -> Json:
    """``{"shot", "call", "place", "claim_extension"}`` or ``{"play_on", "claim_extension"}``;
    ``null`` when the agent gave no playable action."""
    if action is None:
        return None
    if isinstance(action, ChoiceAction):
        return {"play_on": action.play_on, "claim_extension": action.claim_extension}
    place = None if action.place is None else [float(action.place[0]), float(action.place[1])]
    return {
        "shot": encode_shot(action.shot),
        "call": encode_call(action.call),
        "place": place,
        "claim_extension": action.claim_extension,
    }


def decode_action(data: Json) -> Action | None:
    """Inverse of :func:`encode_action`."""
    if data is None:
        return None
    if "play_on" in data:
        return ChoiceAction(bool(data["play_on"]), bool(data["claim_extension"]))
    place = data["place"]
    return ShotAction(
        decode_shot(data["shot"]),
        decode_call(data["call"]),
        None if place is None else (_float(place[0]), _float(place[1])),
        bool(data["claim_extension"]),
    )


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {value!r}")
    return float(value)


def _pair(data: Json, kind: Callable[[Any], Any]) -> Any:
    first, second = data
    return (kind(first), kind(second))
