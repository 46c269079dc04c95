"""Tournaments: frames between agents played in processes of their own (:mod:`.frame_player`,
:mod:`.agent_process`), logged and resumable (:mod:`.frame_log`), run locally or on Ray
(:mod:`.runners`, :mod:`.ray_runner`); round robins (:mod:`.config`, :mod:`.round_robin`) and
knockouts (:mod:`.bracket`, :mod:`.race`, :mod:`.knockout`) with their reports and statistics
(:mod:`.report`, :mod:`.bracket_report`, :mod:`.stats`).

The Python API under each ``kinghill`` subcommand, imported on first use (so that the light
subcommands load no agents):

- :func:`play_watched` (``kinghill play``) and :func:`play_frame` (the tournaments' frame
  player): one frame between two agents;
- :func:`evaluate` (``kinghill tournament``): a round robin from agents, its report returned;
  :func:`run_tournament` the round robin it runs, from a config and a frame player;
- :func:`run_knockout` (``kinghill tournament --format knockout``);
- :func:`replay` (``kinghill replay``) and :func:`export_dataset` (``kinghill export``): what
  recorded frames become.

A run's report files (``report.json``, ``report.md``, the chart, ``report.html``) have one writer a
format: :func:`.report.save_report` for a round robin, :func:`.bracket_report.write_knockout_report`
for a knockout; ``kinghill tournament --report-only`` calls the same one on the frames logged.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "play_frame": "kinghill.experiments.tournaments.frame_player",
    "play_watched": "kinghill.experiments.tournaments.frame_player",
    "evaluate": "kinghill.experiments.tournaments.round_robin",
    "run_tournament": "kinghill.experiments.tournaments.round_robin",
    "run_knockout": "kinghill.experiments.tournaments.knockout",
    "replay": "kinghill.experiments.records.replay",
    "export_dataset": "kinghill.experiments.records.dataset",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'kinghill.experiments.tournaments' has no attribute {name!r}")
