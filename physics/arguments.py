"""The argument checks of the engine's entry points (:func:`~kinghill.physics.simulate` and the
batch), said before anything is played."""

from __future__ import annotations

import numpy as np

from kinghill.physics.shot import NoiseModel, Shot
from kinghill.physics.state import TableState


def check_arguments(
    state: object,
    shot: object,
    rng: object,
    noise: object,
    trajectory: object = False,
    reference: object = False,
) -> None:
    """A TypeError naming the first argument of :func:`simulate` that has the wrong type; a
    ValueError if the cue ball is not on the table."""
    wanted: tuple[tuple[str, object, tuple[type, ...]], ...] = (
        ("state", state, (TableState,)),
        ("shot", shot, (Shot,)),
        ("rng", rng, (np.random.Generator, type(None))),
        ("noise", noise, (NoiseModel, type(None))),
        ("trajectory", trajectory, (bool,)),
        ("reference", reference, (bool,)),
    )
    for name, value, types in wanted:
        if not isinstance(value, types):
            expected = " or ".join("None" if t is type(None) else t.__name__ for t in types)
            raise TypeError(f"simulate: {name} must be a {expected}, got {type(value).__name__}")
    assert isinstance(state, TableState) and isinstance(shot, Shot)
    if not state.on_table[shot.cue_ball]:
        raise ValueError(f"Shot.cue_ball: ball {shot.cue_ball} is not on the table")
