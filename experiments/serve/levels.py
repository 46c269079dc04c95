"""The graded opponents (:mod:`kinghill.agents.graded`) as the page lists them: in order of
strength, each with its rating on the ladder's scale as measured (``docs/serve/levels.json``,
written by ``docs/serve/levels.py`` from the zoo's committed matrix and the levels' own ladder
runs)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

LEVELS = ("beginner", "casual", "club", "strong", "master")
"""The graded opponents' names (entry points of ``kinghill.agents``), weakest first."""
LEVELS_FILE = Path(__file__).resolve().parents[2] / "docs" / "serve" / "levels.json"
"""Their measured ratings (in the source tree)."""


def level_ratings(path: Path = LEVELS_FILE) -> dict[str, str]:
    """Each level's rating as the page shows it, ``"927 [770, 1213]"`` (Elo on the ladder's
    scale, its 95% interval); empty when the file is not there (an installed wheel without the
    source tree's docs)."""
    if not path.is_file():
        return {}
    data: Mapping[str, Mapping[str, float]] = json.loads(path.read_text())["levels"]
    return {
        name: f"{entry['rating']:.0f} [{entry['low']:.0f}, {entry['high']:.0f}]"
        for name, entry in data.items()
    }
