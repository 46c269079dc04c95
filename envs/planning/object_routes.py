"""The object ball's half of a pot: the ways into each pocket (straight, or off one cushion as a
double), the cushion lines a double rebounds along, and the pocket's window at the angle a ball
arrives (those measured on the project's table, ``kinghill pockets``).

The routes themselves are found by the compiled planner (:mod:`.pot_kernel`, dozens a decision);
:func:`kinghill.envs.planning.candidates.object_routes` lists them.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from kinghill.envs.planning.aim import mirror, pocket_target
from kinghill.envs.planning.pot_kernel import window_width
from kinghill.physics import Cushion, Pocket, TableSpec, TableState
from kinghill.physics.geometry import TableGeometry
from kinghill.physics.spec import SPEC_CACHE_SIZE

Point = tuple[float, float]

WINDOW = {"corner": (0.006, math.radians(42.0)), "middle": (0.013, math.radians(51.0))}
"""Half-width of the window head on (m), and the approach angle where it closes: read off the
acceptance charts (``kinghill pockets``, README) at 1.2-2 m/s (pots are planned to arrive at
``ARRIVAL_SPEED`` or faster; slower the windows are a little wider): the corner +-6 mm head on;
the middle +-13 mm head on, a run of about 17 mm at 30 degrees and 6 mm at 45."""
CUSHION_MARGIN = 0.1
"""A rebound point this close to a cushion segment's ends (m) is too near the jaws to count."""
WAYS = (None, *Cushion)
"""How an object ball may go into a pocket: straight, or off one of the cushions."""


class ObjectRoute(NamedTuple):
    """The object ball's path to the pocket, shared by every cue ball that might play it: the
    ghost point, the approach angle and the pocket's window at that angle (a tuple: dozens are
    made per decision)."""

    object_ball: int
    pocket: Pocket
    double: Cushion | None
    points: tuple[Point, ...]
    ghost: Point
    approach: float
    window: float
    path: float


class CushionLine(NamedTuple):
    """The line a ball's centre touches a cushion along (``x = at`` when ``across``, else
    ``y = at``), and the stretch of it (``low`` to ``high`` in the other coordinate) clear of
    the jaws."""

    across: bool
    at: float
    low: float
    high: float


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def cushion_lines(spec: TableSpec) -> dict[Cushion, CushionLine]:
    """Each cushion's :class:`CushionLine` on ``spec``."""
    r, m, half = spec.radius, CUSHION_MARGIN, spec.length / 2
    return {
        Cushion.FRONT: CushionLine(True, r, m, spec.width - m),
        Cushion.REAR: CushionLine(True, spec.length - r, m, spec.width - m),
        Cushion.LEFT_FRONT: CushionLine(False, spec.width - r, m, half - m),
        Cushion.LEFT_REAR: CushionLine(False, spec.width - r, half + m, spec.length - m),
        Cushion.RIGHT_FRONT: CushionLine(False, r, m, half - m),
        Cushion.RIGHT_REAR: CushionLine(False, r, half + m, spec.length - m),
    }


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def pocket_aims(spec: TableSpec) -> dict[Pocket, tuple[Point, Point]]:
    """Per pocket: where to send a ball's centre to drop it (:func:`envs.aim.pocket_target`), and
    the pocket's axis (unit vector into the pocket)."""
    pockets = TableGeometry.from_spec(spec).pockets
    return {p: (pocket_target(p, spec), pockets[p].axis) for p in Pocket}


def window_of(pocket: Pocket) -> tuple[float, float]:
    """The window of ``pocket``: its half-width head on (m) and the angle it closes at."""
    return WINDOW["middle" if pocket in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT) else "corner"]


def pocket_window(pocket: Pocket, approach: float) -> float:
    """Half-width (m) of the lateral window of ``pocket`` for a ball arriving ``approach`` rad
    off the pocket's axis; 0 when it cannot drop."""
    return window_width(*window_of(pocket), approach)


def ball_centres(state: TableState) -> dict[int, Point]:
    """The centres of the balls on the table, as plain floats (fast to read)."""
    return {
        int(b): (float(x), float(y))
        for b, (x, y) in enumerate(state.positions.tolist())
        if state.on_table[b]
    }


class Way(NamedTuple):
    """A pocket and how to reach it (straight, or off ``line``'s cushion), with the constants
    of its routes: the aim point, its mirror image in the cushion, the axis and the window."""

    pocket: Pocket
    double: Cushion | None
    target: Point
    image: Point
    axis: Point
    line: CushionLine | None
    half: float
    closes: float


@lru_cache(maxsize=2 * SPEC_CACHE_SIZE)
def ways(spec: TableSpec, doubles: bool) -> tuple[Way, ...]:
    """The ways into the pockets, straight and (with ``doubles``) off each cushion but the
    pocket's own (7.5: a rebound off a jaw's cushion is no double)."""
    aims, lines = pocket_aims(spec), cushion_lines(spec)
    return tuple(
        Way(
            pocket,
            way,
            aims[pocket][0],
            aims[pocket][0] if way is None else mirror(aims[pocket][0], way, spec),
            aims[pocket][1],
            None if way is None else lines[way],
            *window_of(pocket),
        )
        for pocket in Pocket
        for way in (WAYS if doubles else (None,))
        if way is None or way not in pocket.adjacent_cushions
    )
