"""Start positions for ``reset(options=...)``: a frame that begins from a chosen table and frame
situation instead of the rack (curricula, drills, reproducing a position).

``options`` keys (``balls`` is needed, the others are optional):

| key | value | meaning |
|---|---|---|
| `balls` | {ball id: (x, y)} in metres | the balls on the table (ball 0, the coloured ball, must be one; at least two balls); the others are off it |
| `credited` | (learner, opponent) | whites already credited, each at most its required number (5.3); together exactly the whites off the table, since every white off it is credited to someone (default (0, 0): all seven whites on the table) |
| `required` | (learner, opponent) | whites required (R-handicap; default the env's `required`) |
| `fouls` | (learner, opponent) | fouls already this frame, 0 or 1 each (default (0, 0)) |
| `to_move` | "learner" or "opponent" | who shoots first (default "learner"); the frame starts at a shot, not a break |

A bad value raises ``ValueError`` naming the key and what is wrong; the env is then unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from kinghill.envs.rules import Decision, Frame
from kinghill.physics import COLOURED, N_BALLS, WHITES, TableSpec, TableState

OPTION_KEYS = ("balls", "credited", "required", "fouls", "to_move")


def start_position(
    options: Mapping[str, Any],
    spec: TableSpec,
    required: tuple[int, int],
    shot_limit: int,
    no_cushion_foul: bool,
    learner: int = 0,
) -> tuple[TableState, Frame]:
    """The table and the frame that ``options`` describe, validated.

    ``required`` is the env's default, ``learner`` the learning seat (the options speak of
    "learner" and "opponent")."""
    if not isinstance(options, Mapping):
        raise ValueError(f"reset options must be a dict, got {type(options).__name__}")
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise ValueError(f"reset options: unknown keys {unknown}; known: {list(OPTION_KEYS)}")
    if "balls" not in options:
        raise ValueError("reset options need 'balls' {ball id: (x, y)}: the start position")
    seats = (learner, 1 - learner)
    need = _pair(options, "required", _by_seat(required, seats), 0, N_BALLS - 1)
    need_seat = _by_seat(need, seats)
    state = _table(options["balls"], spec)
    off = [b for b in WHITES if not state.on_table[b]]
    credited = _pair(options, "credited", (0, 0), 0, N_BALLS - 1)
    for who, n, r in zip(("learner", "opponent"), credited, need, strict=True):
        if n > r:
            raise ValueError(f"reset options['credited']: {who} {n} exceeds required {r} (5.3)")
    if sum(credited) != len(off):
        raise ValueError(
            f"reset options['credited']: {sum(credited)} whites credited but {len(off)} whites "
            "are off the table (every white off the table is credited to one player)"
        )
    fouls = _pair(options, "fouls", (0, 0), 0, 1)
    to_move = options.get("to_move", "learner")
    if to_move not in ("learner", "opponent"):
        raise ValueError(f"reset options['to_move'] must be 'learner' or 'opponent': {to_move!r}")
    mover = seats[0] if to_move == "learner" else seats[1]
    ids = (tuple(off[: credited[0]]), tuple(off[credited[0] : sum(credited)]))
    frame = Frame(
        required=need_seat,
        credited=_by_seat(ids, seats),
        fouls=_by_seat(fouls, seats),
        to_move=mover,
        decision=Decision.SHOT,
        shot_limit=shot_limit,
        breaker=mover,
        no_cushion_foul=no_cushion_foul,
    )
    return state, frame


def _by_seat(values: tuple[Any, Any], seats: tuple[int, int]) -> tuple[Any, Any]:
    """(learner, opponent) values reordered as (player 0, player 1)."""
    return (values[0], values[1]) if seats[0] == 0 else (values[1], values[0])


def _pair(
    options: Mapping[str, Any], key: str, default: tuple[int, int], low: int, high: int
) -> tuple[int, int]:
    value = options.get(key, default)
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ValueError(f"reset options[{key!r}] must be a pair (learner, opponent)") from None
    for v in (a, b):
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ValueError(f"reset options[{key!r}]: {value!r} must be integers {low}-{high}")
    return (int(a), int(b))


def _table(balls: Any, spec: TableSpec) -> TableState:
    if not isinstance(balls, Mapping):
        raise ValueError("reset options['balls'] must be a dict {ball id: (x, y)}")
    if COLOURED not in balls:
        raise ValueError("reset options['balls']: the coloured ball (0) must be on the table")
    if len(balls) < 2:
        raise ValueError("reset options['balls']: at least two balls must be on the table")
    points = {}
    for ball, xy in balls.items():
        if isinstance(ball, bool) or not isinstance(ball, int) or not 0 <= ball < N_BALLS:
            raise ValueError(f"reset options['balls']: ball id {ball!r} is not 0-7")
        try:
            x, y = (float(v) for v in xy)
        except (TypeError, ValueError):
            raise ValueError(f"reset options['balls'][{ball}] must be (x, y) in metres") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"reset options['balls'][{ball}] = {xy!r} is not finite")
        points[ball] = (x, y)
    try:
        return TableState.of(spec, points)
    except ValueError as error:  # off the cloth, overlapping
        raise ValueError(f"reset options['balls']: {error}") from None
