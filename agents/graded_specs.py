"""The specs that the graded opponents other than ``beginner`` play as (:mod:`.graded`): one
place for the levels' factories and for :func:`~kinghill.agents.canonical_id`, which writes a
level as its spec, so that ``strong`` and ``search`` are refused as one agent given twice."""

from __future__ import annotations

PLAYS_AS: dict[str, str] = {
    "casual": "heuristic",
    "club": "search:30?learned_break=false",
    "strong": "search",
    "master": "expert-position",
}
"""Level name -> the agent spec it plays as (``beginner`` is a shaky hand over the heuristic,
no spec of its own)."""
