"""The round robin's config: everything that decides its results, and its schedule."""

from __future__ import annotations

import itertools
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from kinghill.envs.rules import is_whole
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameTask, frame_seed
from kinghill.experiments.tournaments.json_fields import from_json_object
from kinghill.experiments.tournaments.options import FrameOptions

DEFAULT_FRAMES = 20
ROUND_ROBIN = "round-robin"
"""The format of a stored config without a ``format`` key (the round robin's)."""


def check_contents(agents: tuple[str, ...], contents: tuple[str, ...]) -> tuple[str, ...]:
    """A config's content keys: one an agent, or none; returned as stored (``()`` when no agent
    has one, so that a config read back from ``tournament.json`` equals the one that wrote it).

    :raises TournamentError: another number.
    """
    if contents and len(contents) != len(agents):
        raise TournamentError("give one content key an agent (or none)", "contents")
    return tuple(contents) if any(contents) else ()


def check_handicap(agents: tuple[str, ...], options: FrameOptions) -> None:
    """Refuse a handicap that names an agent the tournament does not have.

    :raises TournamentError: naming the first such name.
    """
    strangers = [name for name, _ in options.handicap if name not in agents]
    if strangers:
        raise TournamentError(
            f"{strangers[0]!r} is not an agent of the tournament ({', '.join(agents)})",
            "handicap",
        )


def stored_form(config: Any) -> dict[str, Any]:
    """A config dataclass as JSON, as stored in ``tournament.json``: without ``contents`` when
    no agent has a content key, nor ``earlier`` when frames were never raised, nor the options'
    ``handicap`` when no agent has one (what such a tournament always stored)."""
    data = json.loads(json.dumps(asdict(config)))
    for key in ("contents", "earlier"):
        if not any(data.get(key, ())):
            data.pop(key, None)
    if not data["options"]["handicap"]:
        del data["options"]["handicap"]
    return data


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's results (not how it is run): the agents' names,
    frames a pair, seed and frame options (their ``handicap`` naming agents of these), and
    ``contents``, each agent's
    :func:`~kinghill.experiments.tournaments.agent_content.content_key` (the files its spec
    names, a plug-in's version or module file; empty, and not stored, when only names decide).

    ``earlier`` holds the frames a pair the tournament was played to before its ``frames`` were
    raised (:meth:`raised_from`), oldest first: each raise appends a block of frames to the
    schedule, so the frames already played keep their index, seats and seed.
    """

    agents: tuple[str, ...]
    frames: int
    seed: int = 0
    options: FrameOptions = field(default_factory=FrameOptions)
    contents: tuple[str, ...] = ()
    earlier: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.agents) < 2 or len(set(self.agents)) != len(self.agents):
            raise TournamentError("give at least two different agents", "agents")
        if not is_whole(self.frames) or self.frames < 2 or self.frames % 2:
            raise TournamentError(
                f"must be even and >= 2 (got {self.frames!r}): "
                "each agent of a pair breaks in half of its frames",
                "frames",
            )
        object.__setattr__(self, "contents", check_contents(self.agents, self.contents))
        check_handicap(self.agents, self.options)
        counts = (*self.earlier, self.frames)
        if any(c < 2 or c % 2 for c in self.earlier) or list(counts) != sorted(set(counts)):
            raise TournamentError(
                f"must be even frame counts below {self.frames}, rising (got {self.earlier!r})",
                "earlier",
            )

    def schedule(self) -> list[FrameTask]:
        """All frames: block by block (the frames before each raise of ``frames``, then the
        frames it added), within a block pairs in order, seats alternating within a pair."""
        pairs = list(itertools.combinations(self.agents, 2))
        tasks: list[FrameTask] = []
        done = 0
        for count in (*self.earlier, self.frames):
            block = count - done
            for pair, (a, b) in enumerate(pairs):
                for k in range(block):
                    index = len(pairs) * done + pair * block + k
                    seats = (a, b) if k % 2 == 0 else (b, a)
                    tasks.append(FrameTask(index, seats, frame_seed(self.seed, index)))
            done = count
        return sorted(tasks, key=lambda task: task.frame)

    def raised_from(self, stored: TournamentConfig) -> TournamentConfig | None:
        """This tournament as a continuation of ``stored``: ``stored`` itself when they are the
        same (whatever ``stored``'s history), ``stored`` with its frames raised to these when
        only ``frames`` is higher here; None when they differ otherwise."""
        if replace(self, frames=stored.frames, earlier=stored.earlier) != stored:
            return None
        if self.frames == stored.frames:
            return stored
        if self.frames < stored.frames:
            return None
        return replace(stored, frames=self.frames, earlier=(*stored.earlier, stored.frames))

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as stored in ``tournament.json`` (``contents`` only when an agent has a
        content key, ``earlier`` only once frames were raised, so that a tournament of built-in
        agents never raised is stored as before they existed)."""
        return stored_form(self)

    @classmethod
    def from_dict(cls, data: object) -> TournamentConfig:
        """Inverse of :meth:`to_dict`.

        :raises ValueError: ``data`` is not a tournament config (the message says why).
        """
        try:
            return from_json_object(cls, data)
        except TournamentError as error:
            raise ValueError(str(error)) from None
