"""Ball-cushion (and jaw) impacts: named laws behind one protocol, chosen by name in TableSpec.

``TableSpec(cushion_law=..., jaw_law=...)`` picks one of :data:`LAWS` for the cushion noses and
for the pocket jaws, each with its own coefficients, as pooltool's resolver picks its models.
"""

from __future__ import annotations

from collections.abc import Callable

from kinghill.physics.resolve.ball_cushion.han_2005 import Han2005
from kinghill.physics.resolve.ball_cushion.law import CushionLaw, Rubber
from kinghill.physics.resolve.ball_cushion.mathavan_2010 import Mathavan2010
from kinghill.physics.resolve.ball_cushion.restitution import RESTITUTIONS
from kinghill.physics.resolve.ball_cushion.simple import SimpleCushion

LAWS: dict[str, Callable[[Rubber], CushionLaw]] = {
    "mathavan_2010": Mathavan2010,
    "han_2005": Han2005,
    "simple": SimpleCushion,
}
"""The cushion laws by name."""


def make_law(name: str, rubber: Rubber) -> CushionLaw:
    """The law called ``name`` for ``rubber``; a clear error names the known laws."""
    law = LAWS.get(name)
    if law is None:
        raise ValueError(f"unknown cushion law {name!r}; known: {', '.join(LAWS)}")
    return law(rubber)


__all__ = [
    "LAWS",
    "RESTITUTIONS",
    "CushionLaw",
    "Han2005",
    "Mathavan2010",
    "Rubber",
    "SimpleCushion",
    "make_law",
]
