"""Knockout tournaments: the bracket's matches played round by round through the round robin's
frame log, frame runners and frame player, resumable at any frame.

Each bracket round is a tournament round for section 12: rounds 1-2 untimed (12.2), then 35 s
a shot, 5 s less each round, 20 s at least (12.3); ``clock=False`` keeps every round untimed
(12.1). ``first_round`` numbers the bracket's first round (3 for a knockout that follows two
rounds of group play). Every match's frames have fixed places in ``frames.jsonl`` and fixed
seeds, so the frames that the results so far make certain are played in waves (in parallel with
``--jobs``), and a restart replays nothing that was recorded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, cast

from kinghill.envs.rules import ShotClock
from kinghill.experiments.tournaments.agent_content import content_key
from kinghill.experiments.tournaments.bracket import Slot, bracket, bracket_size, champion
from kinghill.experiments.tournaments.config import check_contents, check_handicap, stored_form
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_log import FrameLog, play_into
from kinghill.experiments.tournaments.frames import (
    FrameOutcome,
    FramePlayer,
    FrameTask,
    RecordingFramePlayer,
    frame_seed,
    play_task,
)
from kinghill.experiments.tournaments.json_fields import from_json_object
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.experiments.tournaments.race import Race, RaceScore
from kinghill.experiments.tournaments.runners import FrameRunner, in_process

FORMAT = "knockout"


@dataclass(frozen=True)
class KnockoutConfig:
    """Everything that decides a knockout's results.

    :param agents: the entrants in seed order (seed 1 first).
    :param race: frames a match is played to (a race to N).
    :param seed: the tournament seed; match and frame seeds follow from it.
    :param clock: time control of section 12 by round; False plays every round untimed (12.1).
    :param first_round: the tournament round of the bracket's first round.
    :param options: noise, shot limit and handicap of every frame (its ``round`` must be None:
        the bracket sets it).
    :param seeding: where the seed order came from, for the report ("order" or a report path).
    :param contents: each entrant's content key (:mod:`.agent_content`); :func:`run_knockout`
        fills it in from the specs.
    """

    agents: tuple[str, ...]
    race: int = 1
    seed: int = 0
    clock: bool = True
    first_round: int = 1
    options: FrameOptions = field(default_factory=FrameOptions)
    seeding: str = "order"
    contents: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.agents) < 2 or len(set(self.agents)) != len(self.agents):
            raise TournamentError("give at least two different agents", "agents")
        object.__setattr__(self, "contents", check_contents(self.agents, self.contents))
        check_handicap(self.agents, self.options)
        if self.race < 1:
            raise TournamentError(f"must be at least 1 frame (got {self.race!r})", "race")
        if self.first_round < 1:
            raise TournamentError(f"counts from 1 (got {self.first_round!r})", "first_round")
        if self.options.round is not None:
            raise TournamentError(
                "does not apply to a knockout: its rounds set the clock "
                "(set first_round and clock)",
                "round",
            )

    @property
    def size(self) -> int:
        """Places in the bracket (byes included)."""
        return bracket_size(len(self.agents))

    @property
    def max_frames(self) -> int:
        """Frames reserved in the log for each match."""
        return Race(("a", "b"), self.race, 0).max_frames

    def tournament_round(self, bracket_round: int) -> int:
        """The section-12 round number of a bracket round."""
        return self.first_round + bracket_round - 1

    def round_options(self, bracket_round: int) -> FrameOptions:
        """How the frames of a bracket round are played: its clock, or none (12.1)."""
        clocked = self.tournament_round(bracket_round) if self.clock else None
        return replace(self.options, round=clocked)

    def clock_limit(self, bracket_round: int) -> float | None:
        """Seconds a shot in a bracket round (12.2, 12.3), None without a clock."""
        if not self.clock:
            return None
        return ShotClock(round=self.tournament_round(bracket_round)).limit

    def match(self, slot: Slot) -> Race:
        """The match of a set slot, with its place in the frame log and its seed."""
        a, b = slot.agents
        if a is None or b is None:
            raise ValueError(f"slot {slot.round}.{slot.index} is not set")
        number = self._slot_number(slot.round, slot.index)
        return Race((a, b), self.race, frame_seed(self.seed, number), number * self.max_frames)

    def round_of_frame(self, frame: int) -> int:
        """The bracket round of the frame at index ``frame`` of the log."""
        number, round_number, slots = frame // self.max_frames, 1, self.size // 2
        while number >= slots:
            number -= slots
            slots //= 2
            round_number += 1
        return round_number

    def _slot_number(self, bracket_round: int, index: int) -> int:
        """Slots numbered through the bracket: round 1's first, then round 2's, ..."""
        return self.size - self.size // 2 ** (bracket_round - 1) + index

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as stored in ``tournament.json``."""
        return {"format": FORMAT, **stored_form(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KnockoutConfig:
        """Inverse of :meth:`to_dict`.

        :raises ValueError: ``data`` is not a knockout's config (the message says why).
        """
        if data.get("format") != FORMAT:
            raise ValueError(f"not a knockout (format {data.get('format')!r})")
        try:
            return from_json_object(cls, {k: v for k, v in data.items() if k != "format"})
        except TournamentError as error:
            raise ValueError(str(error)) from None


@dataclass(frozen=True)
class KnockoutState:
    """A knockout after the recorded frames: the bracket so far and the frames now certain."""

    rounds: list[list[Slot]]
    pending: list[FrameTask]

    @property
    def champion(self) -> str | None:
        return champion(self.rounds)


def knockout_state(
    config: KnockoutConfig, records: Sequence[FrameOutcome] | Mapping[int, FrameOutcome]
) -> KnockoutState:
    """The bracket that ``records`` decide, and the frames to play next: for every set match not
    yet decided, the frames it will certainly play that are not recorded.

    A match is scored by its frames recorded without a gap from its first; a frame recorded
    after a gap (logged by one worker while another's earlier frame was lost) is kept when the
    match certainly plays it, and the gap is played again. A record that belongs to no match of
    this bracket, that no match certainly plays, or that is not its frame (other agents or
    another seed) is an error naming the frame.
    """
    by_frame = dict(records) if isinstance(records, Mapping) else {r.frame: r for r in records}
    used: set[int] = set()
    pending: list[FrameTask] = []

    def results(slot: Slot) -> RaceScore:
        match = config.match(slot)
        played = []
        for k in range(match.max_frames):
            record = by_frame.get(match.first_frame + k)
            if record is None:
                break
            played.append(record)
        score = match.score(played)
        used.update(r.frame for r in played)
        for k in range(score.frames, score.frames + score.needed):  # certain to be played
            task, record = match.task(k), by_frame.get(match.first_frame + k)
            if record is None:
                pending.append(task)
            elif (record.agents, record.seed) != (task.agents, task.seed):
                raise TournamentError(f"frame {record.frame} is not frame {k} of {match}", "out")
            else:
                used.add(record.frame)
        return score

    rounds = bracket(config.agents, results)
    stray = sorted(set(by_frame) - used)
    if stray:
        raise TournamentError(
            f"frame {stray[0]} of the log belongs to no match of this knockout "
            "(a frame of a match not yet set, or after the match was decided)",
            "out",
        )
    return KnockoutState(rounds, pending)


@dataclass(frozen=True)
class _RoundPlayer:
    """Plays a frame task with the options of its bracket round (picklable for workers); with
    ``record``, the player writes the frame's shot record there, named by the frame's index."""

    config: KnockoutConfig
    player: FramePlayer
    record: Path | None = None

    def __call__(self, task: FrameTask) -> FrameOutcome:
        options = self.config.round_options(self.config.round_of_frame(task.frame))
        player = self.player
        if self.record is not None:
            recording = cast(RecordingFramePlayer, player)  # run_knockout(record=True) needs one
            player = partial(recording, record=self.record, frame_index=task.frame)
        return play_task(player, options, task)


def run_knockout(
    config: KnockoutConfig,
    out: Path,
    player: FramePlayer,
    runner: FrameRunner = in_process,
    progress: bool | None = None,
    record: bool = False,
) -> KnockoutState:
    """Play the knockout ``config`` in ``out`` to its champion, resuming from the frames already
    recorded there; returns the decided bracket.

    :param progress: show a progress bar; ``None`` shows it on a terminal only.
    :param record: write every frame's shot record to ``out/records``
        (:mod:`kinghill.experiments.records.store`); the player must take ``record=`` and
        ``frame_index=`` as the built-in one does
        (:func:`~kinghill.experiments.tournaments.frame_player.play_frame`).
    """
    if not config.contents:  # the files and code that decide each entrant's play
        config = replace(config, contents=tuple(content_key(a) for a in config.agents))
    log = FrameLog(out)
    log.claim(config)

    def needed(records: Mapping[int, FrameOutcome]) -> list[FrameTask]:
        return knockout_state(config, records).pending

    def describe(tasks: Sequence[FrameTask]) -> str:
        return f"round {config.round_of_frame(tasks[0].frame)}"

    played = play_into(
        log,
        _RoundPlayer(config, player, out if record else None),
        needed,
        runner,
        progress,
        describe,
    )
    return knockout_state(config, played)


def seeds_from_ratings(agents: Sequence[str], report: Path) -> tuple[str, ...]:
    """``agents`` ordered by the Bradley-Terry ratings of an earlier round robin's
    ``report.json`` (best first; ties keep the given order)."""
    try:
        rated = json.loads(report.read_text())["agents"]
        ratings = {name: rated[name]["bradley_terry_elo"]["estimate"] for name in rated}
    except FileNotFoundError:
        raise TournamentError(f"no report at {report}", "ratings") from None
    except (OSError, ValueError) as error:
        raise TournamentError(
            f"{report} is not a round robin's report.json ({error})", "ratings"
        ) from None
    except (KeyError, TypeError):  # another report (a knockout's), or hand-made
        raise TournamentError(
            f"{report} is not a round robin's report.json (it holds no agents' ratings)",
            "ratings",
        ) from None
    unrated = [name for name in agents if name not in ratings]
    if unrated:
        raise TournamentError(f"{report} has no rating for {', '.join(unrated)}", "ratings")
    return tuple(sorted(agents, key=lambda name: -ratings[name]))
