"""The graded opponents (:mod:`kinghill.agents.graded`) as the page and ``kinghill agents`` list
them: in order of strength, each with the agent spec it plays as and its rating on the ladder's
scale as measured (``levels.json`` beside this module, package data, written by
``docs/serve/levels.py`` from the zoo's committed matrix and the beginner's ladder run)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from kinghill.agents import canonical_id

LEVELS = ("beginner", "casual", "club", "strong", "master")
"""The graded opponents' names (entry points of ``kinghill.agents``), weakest first."""
LEVELS_FILE: Traversable = resources.files(__package__).joinpath("levels.json")
"""Their specs and measured ratings (shipped with the package)."""


@dataclass(frozen=True)
class Level:
    """A graded opponent: its name, the agent spec it plays as (``club`` plays as
    ``search:30?learned_break=false``), and its rating (Elo on the ladder's scale) with the
    bounds of its 95% interval."""

    name: str
    spec: str
    rating: float
    low: float
    high: float

    def shown(self) -> str:
        """The rating as the page shows it, ``"1129 [1101, 1157]"``; the scale's anchor, whose
        rating is set, not measured, as ``"1000 (anchor)"``."""
        if self.low == self.rating == self.high:
            return f"{self.rating:.0f} (anchor)"
        return f"{self.rating:.0f} [{self.low:.0f}, {self.high:.0f}]"


def levels(path: Traversable = LEVELS_FILE) -> tuple[str, list[Level]]:
    """The rating scale (``"Elo, heuristic@1 at 1000, noise 1x"``) and the levels, weakest
    first, as ``levels.json`` holds them."""
    data = json.loads(path.read_text())
    return data["scale"], [
        Level(name, e["spec"], e["rating"], e["low"], e["high"])
        for name, e in data["levels"].items()
    ]


def level_ratings(path: Traversable = LEVELS_FILE) -> dict[str, str]:
    """Each level's rating as the page shows it, ``"1000 [1000, 1000]"`` (Elo on the ladder's
    scale, its 95% interval; the zoo's anchor has none of its own)."""
    return {level.name: level.shown() for level in levels(path)[1]}


def agent_ratings(agents: Sequence[str], path: Traversable = LEVELS_FILE) -> dict[str, str]:
    """The ratings of ``agents`` that are measured: a level by its name, and an agent given by
    a spec a level plays as (``heuristic``, ``search:120``, ``expert-position``) by that
    level's, as the page shows them."""
    by_spec = {canonical_id(level.spec): level.shown() for level in levels(path)[1]}
    by_name = level_ratings(path)
    shown = {}
    for agent in agents:
        rating = by_name.get(agent) or by_spec.get(canonical_id(agent))
        if rating is not None:
            shown[agent] = rating
    return shown
