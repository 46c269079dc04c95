"""Shot records: every decision of a frame as data, one gzipped JSON file per frame.

``kinghill tournament --record`` writes ``DIR/records/NNNNNN.json.gz`` (the frame's index);
``kinghill play --record DIR`` adds its frame under the next free index
(:func:`write_new_frame`), so that no record is ever replaced, and refuses a tournament's
folder. Each decision keeps the position and frame state before it, the action as the agent
chose it, the shot as played (after execution noise), the call, the event log, the ruling and
the decision time. Floats are stored exactly (:mod:`kinghill.experiments.records.codec`), so
:meth:`DecisionRecord.resimulate` gives the recorded event log back bit for bit.
:func:`load_frame` reads a record back.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from kinghill.envs import Action, Decided, FrameView, ShotAction
from kinghill.envs.rules import Call, Decision, Frame, FrameResult, Ruling
from kinghill.experiments.records import codec
from kinghill.physics import BREAK_BALL, Event, Shot, ShotResult, TableSpec, TableState, simulate

RECORDS_DIR = "records"
"""The folder of shot records inside a tournament's or a play's output folder."""
FORMAT = "kinghill shot record"
VERSION = 1


class RecordError(ValueError):
    """A record that is missing or cannot be read; the message names the file and the fault."""


@dataclass(frozen=True)
class DecisionRecord:
    """One decision as it was played.

    :param player: who decided (0 broke the frame).
    :param view: the position and frame state before the decision, as the agent saw them.
    :param action: the action as chosen (None when the agent gave no playable action).
    :param fault: why the agent gave no playable action, or None.
    :param played: the shot as played, after execution noise (None: no shot was played).
    :param events: the shot's event log (empty when no shot was played).
    :param ruling: the referee's ruling (None for the 10.4 choice).
    :param seconds: the decision time, or None when nobody measured it.
    """

    player: int
    view: FrameView
    action: Action | None
    fault: str | None
    played: Shot | None
    events: tuple[Event, ...]
    ruling: Ruling | None
    seconds: float | None

    @property
    def decision(self) -> Decision:
        return self.view.frame.decision

    @property
    def call(self) -> Call | None:
        """The call of a shot (None: whites only, or not a shot)."""
        return self.action.call if isinstance(self.action, ShotAction) else None

    def start(self) -> TableState:
        """The table the shot was played from: the view's, with white 1 placed on the break."""
        state = self.view.state
        action = self.action
        if self.decision is Decision.BREAK and isinstance(action, ShotAction) and action.place:
            state = state.place(BREAK_BALL, action.place)  # as Game.play places it
        return state

    def resimulate(self, trajectory_fps: float | None = None) -> ShotResult:
        """Play the shot as played again (no noise: the record holds it after noise); with
        ``trajectory_fps``, with trajectories for a replay."""
        if self.played is None:
            raise ValueError(f"player {self.player}'s {self.decision.value} played no shot")
        return simulate(
            self.start(),
            self.played,
            trajectory=trajectory_fps is not None,
            trajectory_fps=trajectory_fps or 60.0,
        )


@dataclass(frozen=True)
class FrameShots:
    """A recorded frame: who played, under which options, every decision and how it ended.

    :param frame: the frame's index in its tournament, or in the folder ``kinghill play`` adds
        its frames to.
    :param seed: the frame's seed.
    :param agents: the agents' specs or names, seat 0 (the breaker) first.
    :param options: how the frame was played (noise, clock, shot limit), as plain data: the
        fields of the player's options (the tournaments' ``FrameOptions``), so that a record
        depends on no player; a handicap is in each decision's frame (``required``).
    :param decisions: every decision in order.
    :param final: the table at the end.
    :param result: the frame's result (None if it was stopped before its end).
    """

    frame: int
    seed: int
    agents: tuple[str, str]
    options: dict[str, Any]
    decisions: tuple[DecisionRecord, ...]
    final: TableState
    result: FrameResult | None

    @property
    def spec(self) -> TableSpec:
        return self.final.spec


class ShotRecorder:
    """Collects the decisions of one frame as they are played; :meth:`finish` gives the record."""

    def __init__(
        self, frame: int, seed: int, agents: tuple[str, str], options: dict[str, Any]
    ) -> None:
        self.frame, self.seed, self.agents, self.options = frame, seed, agents, options
        self.decisions: list[DecisionRecord] = []

    def add(self, before: FrameView, decided: Decided) -> None:
        """Record one settled decision; ``before`` is the view it was made from."""
        turn = decided.turn
        result = turn.result
        self.decisions.append(
            DecisionRecord(
                player=turn.player,
                view=FrameView(before.state, before.frame, before.player),
                action=turn.action,
                fault=decided.fault,
                played=None if result is None else result.shot,
                events=() if result is None else result.events,
                ruling=turn.ruling,
                seconds=turn.seconds,
            )
        )

    def finish(self, final: TableState, frame: Frame) -> FrameShots:
        """The record of the frame, ended in ``final`` / ``frame``."""
        return FrameShots(
            self.frame,
            self.seed,
            self.agents,
            self.options,
            tuple(self.decisions),
            final,
            frame.result,
        )


def record_path(folder: Path, frame: int) -> Path:
    """Where the record of frame ``frame`` lives under a tournament's or play's ``folder``."""
    return Path(folder) / RECORDS_DIR / f"{frame:06d}.json.gz"


TOURNAMENT_MARKS = ("tournament.json", "frames.jsonl")
"""Files that make a folder a tournament's: its records belong to its frame log."""


def write_frame(folder: Path, shots: FrameShots) -> Path:
    """Write the frame's record under ``folder`` atomically (a tournament's frame played again
    replaces it); the bytes depend on the record only (gzip without a time stamp)."""
    path = record_path(folder, shots.frame)
    os.replace(_packed(path, shots), path)
    return path


def write_new_frame(folder: Path, shots: FrameShots) -> FrameShots:
    """Add a frame played alone (``kinghill play --record``) to ``folder`` under the next free
    index, never replacing a record (two writers at once take different indices); the record
    as written, its ``frame`` that index.

    :raises RecordError: ``folder`` holds a tournament (see :func:`check_not_tournament`).
    """
    check_not_tournament(folder)
    while True:
        index = max(frames_in(folder), default=-1) + 1
        numbered = replace(shots, frame=index)
        path = record_path(folder, index)
        temporary = _packed(path, numbered)
        try:
            os.link(temporary, path)  # fails, rather than replaces, when the name is taken
        except FileExistsError:
            continue
        finally:
            temporary.unlink()
        return numbered


def check_not_tournament(folder: Path) -> None:
    """Refuse to add a lone frame to a tournament's folder, whose records are its frame log's.

    :raises RecordError: ``folder`` holds ``tournament.json`` or ``frames.jsonl``.
    """
    found = [name for name in TOURNAMENT_MARKS if (Path(folder) / name).exists()]
    if found:
        raise RecordError(
            f"{folder} holds a tournament ({', '.join(found)}): its records are the "
            "tournament's; record this frame in another folder"
        )


def _packed(path: Path, shots: FrameShots) -> Path:
    """The record gzipped into a temporary file beside ``path`` (its folder made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(encode_frame_shots(shots), separators=(",", ":"), allow_nan=False)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed:
        packed.write(text.encode())
    return temporary


def load_frame(source: str | Path, frame: int | None = None) -> FrameShots:
    """Read a frame's record: ``source`` is a record file, or the output folder of a
    tournament or ``kinghill play`` (``frame`` then picks the frame; it may be left out when
    the folder holds one record).

    :raises RecordError: no such record, or a file that is not a readable record.
    """
    path = _find(Path(source), frame)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, EOFError, ValueError) as error:
        raise RecordError(f"{path}: not a readable shot record ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path}: not a kinghill shot record")
    if data.get("version") != VERSION:
        raise RecordError(f"{path}: record version {data.get('version')!r}, expected {VERSION}")
    return decode_frame_shots(data, path)


def frames_in(folder: str | Path) -> list[int]:
    """The indices of the frames recorded under ``folder``, ascending."""
    records = Path(folder) / RECORDS_DIR
    found = []
    for path in records.glob("*.json.gz") if records.is_dir() else ():
        stem = path.name.removesuffix(".json.gz")
        if stem.isdigit():
            found.append(int(stem))
    return sorted(found)


def iter_frames(folder: str | Path) -> Iterator[FrameShots]:
    """Every frame recorded under ``folder``, in index order."""
    for frame in frames_in(folder):
        yield load_frame(folder, frame)


def _find(source: Path, frame: int | None) -> Path:
    if source.is_file():
        return source
    if not source.is_dir():
        raise RecordError(f"{source}: no such record file or folder")
    recorded = frames_in(source)
    if not recorded:
        raise RecordError(
            f"{source} holds no shot records ({RECORDS_DIR}/); play with --record to keep them"
        )
    if frame is None:
        if len(recorded) > 1:
            raise RecordError(f"{source} holds {len(recorded)} frames: choose one with --frame")
        frame = recorded[0]
    if frame not in recorded:
        shown = ", ".join(map(str, recorded[:10])) + (", ..." if len(recorded) > 10 else "")
        raise RecordError(f"{source}: no record of frame {frame} (recorded: {shown})")
    return record_path(source, frame)


# ---- the JSON form ------------------------------------------------------------------------
def _options(data: object) -> dict[str, Any]:
    """A record's options: an object of named JSON scalars."""
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and (v is None or isinstance(v, (bool, int, float, str)))
        for k, v in data.items()
    ):
        raise TypeError(f"options must be an object of named numbers, flags or null, got {data!r}")
    return dict(data)


def encode_frame_shots(shots: FrameShots) -> codec.Json:
    """The record as JSON (see :mod:`kinghill.experiments.records.codec` for each part)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "frame": shots.frame,
        "seed": shots.seed,
        "agents": list(shots.agents),
        "options": dict(shots.options),
        "spec": asdict(shots.spec),
        "decisions": [_encode_decision(d) for d in shots.decisions],
        "final": codec.encode_state(shots.final),
        "result": codec.encode_result(shots.result),
    }


def _encode_decision(d: DecisionRecord) -> codec.Json:
    return {
        "player": d.player,
        "seconds": d.seconds,
        "position": codec.encode_state(d.view.state),
        "frame": codec.encode_frame(d.view.frame),
        "action": codec.encode_action(d.action),
        "fault": d.fault,
        "played": None if d.played is None else codec.encode_shot(d.played),
        "events": [codec.encode_event(e) for e in d.events],
        "ruling": None if d.ruling is None else codec.encode_ruling(d.ruling),
    }


def decode_frame_shots(data: codec.Json, path: Path | str = "record") -> FrameShots:
    """Inverse of :func:`encode_frame_shots`; ``path`` names the record in errors."""
    where = "header"
    try:
        known = {f.name for f in fields(TableSpec)}
        spec = TableSpec(**{k: v for k, v in data["spec"].items() if k in known})
        decisions = []
        for index, item in enumerate(data["decisions"]):
            where = f"decision {index}"
            decisions.append(_decode_decision(item, spec))
        where = "final position"
        return FrameShots(
            frame=int(data["frame"]),
            seed=int(data["seed"]),
            agents=(str(data["agents"][0]), str(data["agents"][1])),
            options=_options(data["options"]),
            decisions=tuple(decisions),
            final=codec.decode_state(data["final"], spec),
            result=codec.decode_result(data["result"]),
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        what = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise RecordError(f"{path}: broken record, {where}: {what}") from None


def _decode_decision(data: codec.Json, spec: TableSpec) -> DecisionRecord:
    state = codec.decode_state(data["position"], spec)
    frame = codec.decode_frame(data["frame"])
    player = int(data["player"])
    seconds = data["seconds"]
    return DecisionRecord(
        player=player,
        view=FrameView(state, frame, player),
        action=codec.decode_action(data["action"]),
        fault=data["fault"],
        played=None if data["played"] is None else codec.decode_shot(data["played"]),
        events=tuple(codec.decode_event(e) for e in data["events"]),
        ruling=None if data["ruling"] is None else codec.decode_ruling(data["ruling"]),
        seconds=None if seconds is None else float(seconds),
    )
