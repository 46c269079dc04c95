"""A tournament's frames: the task of one (its index, seats and seed), the record of what it
produced, and the frame player protocol that turns one into the other."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.json_fields import from_json_object
from kinghill.experiments.tournaments.options import FrameOptions


@dataclass(frozen=True)
class FrameOutcome:
    """What one frame produced; per-seat pairs are (seat 0 = breaker, seat 1).

    The runner sets ``frame`` (the tournament frame index); a frame player may leave it at -1.
    ``winner`` is the winning seat, ``None`` for a truncated frame. ``errors`` counts the times
    an agent raised or returned an unusable action (each charged a foul by the environment).
    ``extensions``: the 12.5 extension taken (0 or 1 a frame); ``decisions`` and ``thinking``:
    decisions made and their total seconds; ``decision_seconds``: each decision's seconds, in
    order (to 0.1 ms; empty in logs from before it was kept); ``first_faults``: why each seat's
    first failed decision failed (``"raised RuntimeError: boom"``; ``""`` none, and in logs
    from before it was kept).
    """

    agents: tuple[str, str]
    seed: int
    winner: int | None
    shots: int
    fouls: tuple[int, int]
    visits: tuple[int, int]
    whites_potted: tuple[int, int]
    colour_attempts: tuple[int, int]
    colour_pots: tuple[int, int]
    time_fouls: tuple[int, int]
    errors: tuple[int, int]
    wall_time: float
    frame: int = -1
    extensions: tuple[int, int] = (0, 0)
    decisions: tuple[int, int] = (0, 0)
    thinking: tuple[float, float] = (0.0, 0.0)
    decision_seconds: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    first_faults: tuple[str, str] = ("", "")

    def to_json(self) -> str:
        """One JSONL line (without the newline); ``decision_seconds`` and ``first_faults``
        are left out when empty, so that a frame logged before they were kept is written back
        as it was."""
        data = asdict(self)
        for name in ("decision_seconds", "first_faults"):
            if not any(data[name]):
                del data[name]
        return json.dumps(data)

    @classmethod
    def from_json(cls, line: str | bytes) -> FrameOutcome:
        """Inverse of :meth:`to_json`.

        :raises ValueError: the line is not a frame record (the message says which field).
        """
        record = from_json_object(cls, json.loads(line))
        if record.winner not in (None, 0, 1):
            raise ValueError(f"field 'winner': a seat is 0 or 1 (got {record.winner})")
        return record


SEAT_FIELDS = (
    "fouls",
    "visits",
    "whites_potted",
    "colour_attempts",
    "colour_pots",
    "time_fouls",
    "errors",
    "extensions",
    "decisions",
    "thinking",
)
"""The per-seat pairs of a :class:`FrameOutcome` (seat 0, seat 1)."""


def seat_totals(outcomes: Iterable[FrameOutcome], agents: Sequence[str]) -> dict[str, list[float]]:
    """Each per-seat count of ``outcomes`` (:data:`SEAT_FIELDS`) summed per agent, whichever
    seat it sat in: ``totals[field][i]`` is ``agents[i]``'s; counts stay ints, ``thinking`` is
    seconds."""
    index = {name: i for i, name in enumerate(agents)}
    totals: dict[str, list[float]] = {field: [0] * len(agents) for field in SEAT_FIELDS}
    for outcome in outcomes:
        for seat, name in enumerate(outcome.agents):
            side = index[name]
            for field in SEAT_FIELDS:
                totals[field][side] += getattr(outcome, field)[seat]
    return totals


class FramePlayer(Protocol):
    """Plays one frame between two registry agents; ``agent_a`` sits in seat 0 and breaks."""

    def __call__(
        self, agent_a: str, agent_b: str, seed: int, options: FrameOptions
    ) -> FrameOutcome: ...


class RecordingFramePlayer(Protocol):
    """A frame player that can also write the frame's shot record in a folder, named by the
    frame's index, as :func:`~kinghill.experiments.tournaments.frame_player.play_frame` does."""

    def __call__(
        self,
        agent_a: str,
        agent_b: str,
        seed: int,
        options: FrameOptions,
        *,
        record: Path | None = None,
        frame_index: int = 0,
    ) -> FrameOutcome: ...


@dataclass(frozen=True)
class FrameTask:
    """One scheduled frame: its index, the agents in seat order and its seed."""

    frame: int
    agents: tuple[str, str]
    seed: int


def frame_seed(tournament_seed: int, frame: int) -> int:
    """The seed of frame ``frame``: a function of the tournament seed and the index only."""
    state = np.random.SeedSequence(tournament_seed, spawn_key=(frame,)).generate_state(2)
    return int(state[0]) << 31 | int(state[1]) >> 1


def play_task(player: FramePlayer, options: FrameOptions, task: FrameTask) -> FrameOutcome:
    """Play one scheduled frame and stamp it with its index (runs in any worker)."""
    record = player(task.agents[0], task.agents[1], task.seed, options)
    if (record.agents, record.seed) != (task.agents, task.seed):
        raise TournamentError(f"frame player returned {record.agents}/{record.seed} for {task}")
    return replace(record, frame=task.frame)
