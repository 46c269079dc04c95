"""The round robin's config: everything that decides its results, and its schedule."""

from __future__ import annotations

import itertools
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from kinghill.experiments.tournaments.errors import TournamentError, is_count
from kinghill.experiments.tournaments.frames import FrameTask, frame_seed
from kinghill.experiments.tournaments.json_fields import from_json_object
from kinghill.experiments.tournaments.options import FrameOptions

DEFAULT_FRAMES = 20
ROUND_ROBIN = "round-robin"
"""The format of a stored config without a ``format`` key (the round robin's)."""


def check_contents(agents: tuple[str, ...], contents: tuple[str, ...]) -> None:
    """A config's content keys: one an agent, or none.

    :raises TournamentError: another number.
    """
    if contents and len(contents) != len(agents):
        raise TournamentError("give one content key an agent (or none)", "contents")


def stored_form(config: Any) -> dict[str, Any]:
    """A config dataclass as JSON, as stored in ``tournament.json``: without ``contents`` when
    no agent has a content key (what a tournament of built-in agents always stored)."""
    data = json.loads(json.dumps(asdict(config)))
    if not any(data.get("contents", ())):
        data.pop("contents", None)
    return data


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's results (not how it is run): the agents' names,
    frames a pair, seed and frame options, and ``contents``, each agent's
    :func:`~kinghill.experiments.tournaments.agent_content.content_key` (the files its spec
    names, a plug-in's version or module file; empty, and not stored, when only names decide)."""

    agents: tuple[str, ...]
    frames: int
    seed: int = 0
    options: FrameOptions = field(default_factory=FrameOptions)
    contents: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.agents) < 2 or len(set(self.agents)) != len(self.agents):
            raise TournamentError("give at least two different agents", "agents")
        if not is_count(self.frames) or self.frames < 2 or self.frames % 2:
            raise TournamentError(
                f"must be even and >= 2 (got {self.frames!r}): "
                "each agent of a pair breaks in half of its frames",
                "frames",
            )
        check_contents(self.agents, self.contents)

    def schedule(self) -> list[FrameTask]:
        """All frames: pairs in order, seats alternating within a pair."""
        tasks = []
        for pair, (a, b) in enumerate(itertools.combinations(self.agents, 2)):
            for k in range(self.frames):
                index = pair * self.frames + k
                seats = (a, b) if k % 2 == 0 else (b, a)
                tasks.append(FrameTask(index, seats, frame_seed(self.seed, index)))
        return tasks

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as stored in ``tournament.json`` (without ``contents`` when no agent has
        a content key: what a tournament of built-in agents always stored)."""
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
