"""The ladder: candidates rated against a frozen zoo of agents on a fixed scale.

The zoo (:mod:`.zoo`, ``docs/zoo/zoo.json``) and its committed match matrix (:mod:`.matrix`,
rows per pair: :mod:`.tally`); :func:`build_zoo` (:mod:`.play`) plays the matrix,
:func:`ladder` a candidate's rows (played once, cached) and rates it (:mod:`.rating`), with its
standing (:mod:`.standings`), how each agent plays (:mod:`.agent_stats`), the matrix's cycles
and its Nash averaging (:mod:`.transitivity`), as Markdown (:mod:`.report`) and on the zoo's
page (:mod:`.zoo_page`). ``kinghill ladder`` runs them. Imported on first use, like
:mod:`kinghill.experiments.tournaments`.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "build_zoo": "kinghill.experiments.ladder.play",
    "ladder": "kinghill.experiments.ladder.play",
    "load_zoo": "kinghill.experiments.ladder.zoo",
    "write_zoo_page": "kinghill.experiments.ladder.zoo_page",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'kinghill.experiments.ladder' has no attribute {name!r}")
