"""Training, evaluation and benchmarks: the ``kinghill`` command line and its Python API.

``from kinghill.experiments import evaluate`` rates agents by a round robin
(:func:`kinghill.experiments.tournaments.round_robin.evaluate`); it is imported on first use, so
that the
command line's light subcommands do not load the agents.
"""

from __future__ import annotations

from typing import Any

__all__ = ["evaluate"]


def __getattr__(name: str) -> Any:
    if name == "evaluate":
        from kinghill.experiments.tournaments.round_robin import evaluate

        return evaluate
    raise AttributeError(f"module 'kinghill.experiments' has no attribute {name!r}")
