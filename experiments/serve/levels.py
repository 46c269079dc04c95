"""The graded opponents (:mod:`kinghill.agents.graded`) as the page lists them: in order of
strength, each with its rating on the ladder's scale as measured (``levels.json`` beside this
module, package data, written by ``docs/serve/levels.py`` from the zoo's committed matrix and
the beginner's ladder run)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable

LEVELS = ("beginner", "casual", "club", "strong", "master")
"""The graded opponents' names (entry points of ``kinghill.agents``), weakest first."""
LEVELS_FILE: Traversable = resources.files(__package__).joinpath("levels.json")
"""Their measured ratings (shipped with the package)."""


def level_ratings(path: Traversable = LEVELS_FILE) -> dict[str, str]:
    """Each level's rating as the page shows it, ``"1000 [1000, 1000]"`` (Elo on the ladder's
    scale, its 95% interval; the zoo's anchor has none of its own)."""
    data: Mapping[str, Mapping[str, float]] = json.loads(path.read_text())["levels"]
    return {
        name: f"{entry['rating']:.0f} [{entry['low']:.0f}, {entry['high']:.0f}]"
        for name, entry in data.items()
    }
