"""The data a report page replays frames from: the table as drawn (from the physics' geometry)
and every recorded frame's decisions, each played shot simulated again from its record with its
trajectories sampled, positions in integer tenths of a millimetre to keep the page small.

A shot's ``final`` is the table at rest as the record's shot left it (before the referee spots
or places anything for the next decision, whose ``start`` shows that)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.envs import ChoiceAction
from kinghill.envs.drawing import render
from kinghill.envs.drawing.render import RAIL_WIDTH, cushion_overhang, slate_outline
from kinghill.envs.rules import Call
from kinghill.experiments.records.store import DecisionRecord, FrameShots, iter_frames
from kinghill.physics import COLOURED, TableGeometry, TableSpec, TableState

REPLAY_FPS = 30.0
"""Trajectory samples per simulated second; the page interpolates between them."""
UNITS_PER_METRE = 10_000
"""Positions are inlined as integers of this unit (0.1 mm)."""
STILL_SECONDS = 1.0
"""How long the replay holds a decision that played no shot (a 10.4 choice, a fault)."""


def _units(xy: Iterable[float]) -> list[int]:
    return [round(float(v) * UNITS_PER_METRE) for v in xy]


def _balls(state: TableState) -> list[list[int] | None]:
    """Each ball's position in units, None when off the table."""
    return [
        _units(state.positions[ball]) if state.on_table[ball] else None
        for ball in range(len(state.on_table))
    ]


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def table_drawing(spec: TableSpec) -> dict[str, Any]:
    """The table as the page draws it (units of :data:`UNITS_PER_METRE`, x toward the rear to
    the right, y up), in the colours of :class:`~kinghill.envs.drawing.render.TableRenderer`."""
    geometry = TableGeometry.from_spec(spec)
    border = cushion_overhang(geometry) + RAIL_WIDTH
    return {
        "units_per_metre": UNITS_PER_METRE,
        "view": _units((-border, -border, spec.length + border, spec.width + border)),
        "width": _units((spec.width,))[0],
        "ball_radius": _units((spec.radius,))[0],
        "slate": [_units(p) for p in slate_outline(geometry)],
        "holes": [
            {"centre": _units(p.capture_centre), "radius": _units((p.capture_radius,))[0]}
            for p in geometry.pockets.values()
        ],
        "cushions": [[_units(p) for p in c.outline] for c in geometry.cushions.values()],
        "lines": _units((spec.house_line_x, spec.centre_line_x)),
        "spots": [_units(spec.front_spot), _units(spec.rear_spot)],
        "coloured_ball": COLOURED,
        "colours": {
            name.lower(): _hex(getattr(render, name))
            for name in (
                "WOOD",
                "CLOTH",
                "CUSHION",
                "NOSE",
                "POCKET",
                "MARK",
                "IVORY",
                "NUMBER",
                "COLOURED_FILL",
                "COLOURED_RING",
                "CUE_RING",
            )
        },
    }


def _moves(decision: DecisionRecord) -> tuple[float, list[dict[str, Any]], TableState]:
    """The shot simulated again: its duration, the sampled path of every ball that moved (up to
    its last change; the first sample, then each step from the one before, which keeps the
    numbers short; ``gone`` the sample from which it is off the table) and the table at rest."""
    result = decision.resimulate(REPLAY_FPS)
    trajectory = result.trajectory
    assert trajectory is not None  # asked for
    positions = np.round(trajectory.positions * UNITS_PER_METRE)
    moves = []
    for ball in range(positions.shape[1]):
        path = positions[:, ball]
        on = trajectory.on_table[:, ball]
        gone = int(np.argmin(on)) if not on.all() else None
        if gone == 0:
            continue  # off the table from the start
        kept = path[: gone if gone is not None else len(path)]
        changed = np.flatnonzero(np.any(kept != kept[0], axis=1))
        if gone is None and not len(changed):
            continue  # never moved
        end = int(changed[-1]) + 1 if len(changed) else 1
        steps = np.diff(kept[:end].astype(np.int64), axis=0, prepend=0)  # first: the start
        moves.append({"ball": ball, "xy": steps.ravel().tolist(), "gone": gone})
    return result.duration, moves, result.final


def call_text(call: Call | None) -> str:
    """A shot's call in words: its route and pocket and its kinds (R-type), or whites only."""
    if call is None:
        return "whites only (no call, 5.1)"
    kinds = ", ".join(sorted(kind.value for kind in call.kinds))
    return f"{call} ({kinds})"


def _call_text(decision: DecisionRecord) -> str:
    if decision.call is None and decision.played is None:
        return ""
    return call_text(decision.call)


def _what(decision: DecisionRecord) -> str:
    """The decision in a few words: the shot's cue ball, the 10.4 choice, or the fault."""
    action = decision.action
    if isinstance(action, ChoiceAction):
        return "plays on" if action.play_on else "hands the shot back"
    if decision.played is not None:
        return f"cue ball {decision.played.cue_ball}"
    return f"no playable action: {decision.fault}" if decision.fault else "no shot"


def decision_replay(number: int, decision: DecisionRecord) -> dict[str, Any]:
    """One decision as the page plays it: who, what, the call and the ruling as text, the table
    before, and for a played shot its moves and the table at rest."""
    start = decision.start()
    entry: dict[str, Any] = {
        "number": number,
        "player": decision.player,
        "decision": decision.decision.value,
        "what": _what(decision),
        "call": _call_text(decision),
        "ruling": "" if decision.ruling is None else str(decision.ruling),
        "cue_ball": None if decision.played is None else decision.played.cue_ball,
        "start": _balls(start),
    }
    if decision.played is None:
        entry.update(duration=STILL_SECONDS, moves=[], final=entry["start"])
    else:
        duration, moves, final = _moves(decision)
        entry.update(duration=duration, moves=moves, final=_balls(final))
    return entry


def frame_replay(shots: FrameShots) -> dict[str, Any]:
    """A recorded frame as the page plays it: its agents, result and every decision."""
    return {
        "frame": shots.frame,
        "seed": str(shots.seed),  # as text: JSON.parse rounds integers past 2**53
        "agents": list(shots.agents),
        "result": "not finished" if shots.result is None else str(shots.result),
        "decisions": [decision_replay(n, d) for n, d in enumerate(shots.decisions, start=1)],
    }


def replay_data(folder: Path | None) -> dict[str, Any]:
    """What the page's replay plays: the sampling rate, the table drawing and every frame
    recorded under ``folder`` (its ``records/``); no table and no frames when it holds none."""
    table: dict[str, Any] | None = None
    frames = []
    for shots in iter_frames(folder) if folder is not None else ():
        if table is None:
            table = table_drawing(shots.spec)
        frames.append(frame_replay(shots))
    return {"fps": REPLAY_FPS, "table": table, "frames": frames}
