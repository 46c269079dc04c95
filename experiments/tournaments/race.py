"""Races: a knockout's match, a race to N frames between two agents, played frame by frame.

The break alternates frame by frame, the higher seed breaking the first; every frame is a new
frame of the rules, so fouls (and the 12.5 extension) start again from nothing (10.5). Frame
``k``'s seed follows from the match's seed and ``k`` alone, so a match's frames are the same
whenever and wherever they are played, and an interrupted match resumes from its recorded
frames. A truncated frame (R-truncate) counts for nobody; so that drawn frames cannot prolong a
match for ever, a match ends after :attr:`Race.max_frames` frames, won by whoever leads (then
by fewer fouls, then by the higher seed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameOutcome, FrameTask, frame_seed, seat_totals

FRAMES_PER_RACE = 3
"""A match of a race to N ends after at most this many times N frames (drawn frames)."""


@dataclass(frozen=True)
class RaceScore:
    """Where a match stands after its recorded frames; pairs follow ``Race.agents``.

    ``winner`` is the agent that won the match, None while it goes on; ``decided_by`` is
    ``"race"`` (reached N frames) or ``"frame cap"`` (:attr:`Race.max_frames` reached);
    ``needed`` is how many more frames the match will certainly play (0 once decided).
    """

    wins: tuple[int, int]
    draws: int
    frames: int
    winner: str | None
    decided_by: str | None
    needed: int
    fouls: tuple[int, int]
    time_fouls: tuple[int, int]
    extensions: tuple[int, int]
    decisions: tuple[int, int]
    thinking: tuple[float, float]


@dataclass(frozen=True)
class Race:
    """A race to ``race`` frames between ``agents`` (the higher seed first).

    :param seed: the match's seed; frame ``k`` is played on ``frame_seed(seed, k)``.
    :param first_frame: the index of frame 0 in the tournament's frame log.
    """

    agents: tuple[str, str]
    race: int
    seed: int
    first_frame: int = 0

    def __post_init__(self) -> None:
        if self.race < 1:
            raise TournamentError(f"must be at least 1 frame (got {self.race!r})", "race")
        if self.agents[0] == self.agents[1]:
            raise TournamentError(
                f"a match needs two different agents, got {self.agents}", "agents"
            )

    @property
    def max_frames(self) -> int:
        """The most frames the match can take (drawn frames count for nobody)."""
        return FRAMES_PER_RACE * self.race

    def task(self, k: int) -> FrameTask:
        """Frame ``k``: the higher seed breaks the even frames, the other the odd ones."""
        if not 0 <= k < self.max_frames:
            raise ValueError(f"frame {k} is outside the match's {self.max_frames} frames")
        seats = self.agents if k % 2 == 0 else (self.agents[1], self.agents[0])
        return FrameTask(self.first_frame + k, seats, frame_seed(self.seed, k))

    def score(self, records: Sequence[FrameOutcome]) -> RaceScore:
        """The score after ``records``, the match's frames 0, 1, ... in order (each checked
        against its task); frames recorded after the match was decided are an error."""
        wins = [0, 0]
        draws = 0
        winner: str | None = None
        decided_by: str | None = None
        for k, record in enumerate(records):
            task = self.task(k) if k < self.max_frames else None
            if task is None or (record.frame, record.agents, record.seed) != (
                task.frame,
                task.agents,
                task.seed,
            ):
                raise TournamentError(f"frame {record.frame} is not frame {k} of {self}", "out")
            if winner is not None:
                raise TournamentError(
                    f"frame {record.frame} was played after {self} was won", "out"
                )
            if record.winner is None:
                draws += 1
            else:
                wins[self.agents.index(record.agents[record.winner])] += 1
            if max(wins) >= self.race:
                winner, decided_by = self.agents[wins.index(max(wins))], "race"
            elif k + 1 == self.max_frames:
                fouls = seat_totals(records, self.agents)["fouls"]
                winner, decided_by = self._leader(wins, fouls), "frame cap"
        played = len(records)
        needed = 0 if winner else min(self.race - max(wins), self.max_frames - played)
        totals = seat_totals(records, self.agents)
        thinking = totals["thinking"]
        return RaceScore(
            wins=_pair(wins),
            draws=draws,
            frames=played,
            winner=winner,
            decided_by=decided_by,
            needed=needed,
            fouls=_pair(totals["fouls"]),
            time_fouls=_pair(totals["time_fouls"]),
            extensions=_pair(totals["extensions"]),
            decisions=_pair(totals["decisions"]),
            thinking=(float(thinking[0]), float(thinking[1])),
        )

    def _leader(self, wins: Sequence[int], fouls: Sequence[float]) -> str:
        """Who wins a match stopped by the frame cap: more frames, fewer fouls, higher seed."""
        best = min(range(2), key=lambda side: (-wins[side], fouls[side], side))
        return self.agents[best]

    def __str__(self) -> str:
        return f"the race to {self.race} {self.agents[0]} v {self.agents[1]}"


def _pair(values: Sequence[float]) -> tuple[int, int]:
    return (int(values[0]), int(values[1]))
