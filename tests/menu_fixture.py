"""The recorded shot menus of ``tests/data/menu_fixture.npz`` (issue 9 item 6): a few hundred
varied decisions (frames of heuristic and random players: breaks, shots, 10.4 choices; the same
tables with other whites required; balls hanging in mouths) and, for each, what the menu code gives:
the masked observation, the menu's threat, its shots and decoded actions, the heuristic's
action, the legal pots (identity and chance of all, the top ones in full) and the safeties.

The masked env's reference model was trained on these outputs, so a speed-up of the menu must
reproduce them (``tests/test_menu_fixture.py``). Regenerate the file only when the menu is meant
to change (new pocket constants, a new feature): ``python tests/menu_fixture.py``, then commit
``tests/data/menu_fixture.npz``; the recorded table constants (:func:`table_fingerprint`) tell
the test when that is due.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.agents import make_agent
from kinghill.agents.heuristic import HeuristicAgent
from kinghill.envs import FrameView, Game
from kinghill.envs.game.actions import Action, ChoiceAction, ShotAction
from kinghill.envs.planning.menu import legal_pots, safety_actions
from kinghill.envs.planning.object_routes import WINDOW, pocket_aims
from kinghill.envs.rl.masked import POT_SLOTS, SAFETY_SLOTS, SLOTS, menu_observation, shot_menu
from kinghill.envs.rules import Decision, Frame
from kinghill.physics import N_BALLS, Pocket, TableSpec, TableState
from kinghill.physics.geometry import TableGeometry

PATH = Path(__file__).parent / "data" / "menu_fixture.npz"
MATCHUPS = (("heuristic", "random"), ("heuristic", "heuristic"), ("random", "random"))
FRAMES = 10
"""Seeded frames of each matchup whose decisions are recorded."""
MAX_SHOTS = 30
REQUIRED_VARIANTS = ((0, 0), (0, 3), (3, 0), (1, 2))
"""Other whites required, applied to every third shot decision (the colour's calls, the threat
counted for an opponent with the other target)."""
ACTION_WIDTH = 8
"""An action as numbers: kind (0 shot, 1 choice), cue ball, phi, speed, a, b, place x, y."""


def table_fingerprint(spec: TableSpec) -> np.ndarray:
    """The table constants the menu depends on: the spec's numbers, each pocket's aim point,
    axis and mouth centre, and the pocket windows."""
    numbers = [float(v) for v in dataclasses.astuple(spec) if isinstance(v, int | float)]
    geometry = TableGeometry.from_spec(spec)
    for pocket, (aim, axis) in pocket_aims(spec).items():
        numbers += [*aim, *axis, *geometry.pockets[pocket].mouth_centre]
    for half, closes in WINDOW.values():
        numbers += [half, closes]
    return np.array(numbers)


def _frame_json(frame: Frame) -> str:
    fields = dataclasses.asdict(frame)
    fields["decision"] = frame.decision.value
    if frame.result is not None:
        raise ValueError("a finished frame has no menu to record")
    return json.dumps(fields)


def frame_from_json(text: str) -> Frame:
    """The frame :func:`_frame_json` wrote."""
    fields = json.loads(text)
    fields["decision"] = Decision(fields["decision"])
    for key in ("required", "fouls", "extension_used"):
        fields[key] = tuple(fields[key])
    fields["credited"] = tuple(tuple(c) for c in fields["credited"])
    return Frame(**fields)


def _hanging_variants(view: FrameView) -> list[FrameView]:
    """``view`` with one ball moved into each pocket's mouth where it can stand there."""
    state, geometry = view.state, TableGeometry.from_spec(view.state.spec)
    out = []
    balls = [int(b) for b in np.flatnonzero(state.on_table)]
    for k, pocket in enumerate(Pocket):
        shape = geometry.pockets[pocket]
        ball = balls[k % len(balls)]
        for depth in (0.0, 0.005, 0.01, 0.015):
            x = shape.mouth_centre[0] + depth * shape.axis[0]
            y = shape.mouth_centre[1] + depth * shape.axis[1]
            if geometry.hanging_in(x, y) is not pocket:
                continue
            positions = state.positions.copy()
            positions[ball] = (x, y)
            try:
                moved = TableState(state.spec, positions, state.on_table)
            except ValueError:
                continue  # it would overlap another ball
            out.append(FrameView(moved, view.frame, view.player))
            break
    return out


def decision_views() -> list[FrameView]:
    """The recorded decisions, in a fixed order (seeded play: the same on every run)."""
    views: list[FrameView] = []
    game = Game()
    for seed in range(len(MATCHUPS) * FRAMES):
        players = [make_agent(name, seed=seed) for name in MATCHUPS[seed % len(MATCHUPS)]]
        if seed % 2:
            players.reverse()
        game.reset(seed=seed, breaker=seed % 2)
        while not game.is_over and game.frame.shots < MAX_SHOTS:
            view = game.view()
            views.append(view)
            if view.decision is Decision.SHOT and game.frame.shots % 3 == 0:
                required = REQUIRED_VARIANTS[game.frame.shots // 3 % len(REQUIRED_VARIANTS)]
                frame = dataclasses.replace(view.frame, required=required, credited=((), ()))
                views.append(FrameView(view.state, frame, view.player))
            if view.decision is Decision.SHOT and game.frame.shots % 7 == 3:
                views += _hanging_variants(view)
            game.play(players[game.to_move].act(view))
    return views


def _action_row(action: Action) -> tuple[list[float], str]:
    """An action as :data:`ACTION_WIDTH` numbers and its call's text."""
    if isinstance(action, ChoiceAction):
        return [1.0, float(action.play_on), *[math.nan] * (ACTION_WIDTH - 2)], ""
    assert isinstance(action, ShotAction)
    s = action.shot
    place = action.place or (math.nan, math.nan)
    row = [0.0, float(s.cue_ball), s.phi, s.speed, s.a, s.b, *place]
    return row, repr(action.call)


def record(views: list[FrameView]) -> dict[str, np.ndarray]:
    """What the menu code gives for each of ``views``, as arrays (see the module docstring)."""
    obs, threat, actions, calls, action_owner = [], [], [], [], []
    pot_ids, pot_chance, pot_top, pot_owner, safeties, safety_count = [], [], [], [], [], []
    rng = np.random.default_rng(0)
    for i, view in enumerate(views):
        menu = shot_menu(view)
        obs.append(menu_observation(view, menu))
        threat.append(menu.threat)
        points = [(slot, int(rng.integers(3)), int(rng.integers(4))) for slot in range(SLOTS)]
        taken = [HeuristicAgent(seed=i).act(view)] + [menu.decode(p) for p in points]
        for action in taken:
            row, call = _action_row(action)
            actions.append(row)
            calls.append(call)
            action_owner.append(i)
        if view.decision is not Decision.SHOT:
            continue
        found = legal_pots(view)
        for rank, c in enumerate(found):
            pocket, double, abricol = int(c.pocket), c.double, c.abricol
            kicks = [-1 if w is None else int(w) for w in (double, abricol)]
            pot_ids.append([c.cue_ball, c.object_ball, pocket, *kicks])
            pot_chance.append(c.chance)
            pot_owner.append(i)
            if rank < POT_SLOTS:
                pot_top.append([c.cut, c.cue_path, c.object_path, c.heading])
        found_safeties = safety_actions(view)
        safety_count.append(len(found_safeties))
        for safety in found_safeties[:SAFETY_SLOTS]:
            safeties.append(_action_row(safety)[0])
    return {
        "observation": np.array(obs, np.float32),
        "threat": np.array(threat),
        "actions": np.array(actions).reshape(-1, ACTION_WIDTH),
        "calls": np.array(calls, dtype=str),
        "action_owner": np.array(action_owner, np.int16),
        "pot_ids": np.array(pot_ids, np.int8).reshape(-1, 5),
        "pot_chance": np.array(pot_chance),
        "pot_top": np.array(pot_top).reshape(-1, 4),
        "pot_owner": np.array(pot_owner, np.int16),
        "safeties": np.array(safeties).reshape(-1, ACTION_WIDTH),
        "safety_count": np.array(safety_count, np.int16),
    }


def save_views(views: list[FrameView]) -> dict[str, np.ndarray]:
    """The decisions themselves: positions, on-table flags, frames, who is to decide."""
    return {
        "positions": np.array([v.state.positions for v in views]),
        "on_table": np.array([v.state.on_table for v in views]),
        "frames": np.array([_frame_json(v.frame) for v in views], dtype=str),
        "player": np.array([v.player for v in views], np.int8),
    }


def load(path: Path = PATH) -> tuple[np.ndarray, list[FrameView], dict[str, np.ndarray]]:
    """The fixture: the table fingerprint, the decisions and their recorded outputs."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    spec = TableSpec()
    views = [
        FrameView(TableState(spec, pos, on), frame_from_json(str(text)), int(player))
        for pos, on, text, player in zip(
            arrays.pop("positions"),
            arrays.pop("on_table"),
            arrays.pop("frames"),
            arrays.pop("player"),
            strict=True,
        )
    ]
    return arrays.pop("fingerprint"), views, arrays


def main(path: Path = PATH) -> dict[str, Any]:
    """Record the fixture afresh with the code as it is now."""
    views = decision_views()
    assert all(v.state.positions.shape == (N_BALLS, 2) for v in views)
    arrays = {"fingerprint": table_fingerprint(TableSpec()), **save_views(views), **record(views)}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    decisions = [v.decision.value for v in views]
    return {
        "views": len(views),
        "decisions": {d: decisions.count(d) for d in sorted(set(decisions))},
        "pots": len(arrays["pot_chance"]),
        "bytes": path.stat().st_size,
    }


if __name__ == "__main__":
    print(main())
