"""The arrays the kernel works on, and what their columns mean: read this first.

A run's state is two arrays with a row per ball, ``balls`` (floats, columns :data:`X` ...) and
``flags`` (ints, columns :data:`ON` ...), plus ``pairs``, the time at which each pair of balls
next touches (pairs :data:`PAIRS`). What the run records goes into :class:`Records`; the table
is a :class:`TableArrays` (built from a spec by :class:`kinghill.physics.kernel.table.Table`).
Every kernel takes a run as ``(work, table, start, *options)``: :class:`Work`, the table and
:class:`Start`, written out once here as :data:`Kernel`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from kinghill.physics.geometry import GeometryArrays
from kinghill.physics.jit import njit
from kinghill.physics.names import N_BALLS
from kinghill.physics.resolve.motion import Motion

X, Y, VX, VY, WX, WY, WZ, AX, AY, ALX, ALY, T0, TEND, BX0, BY0, BX1, BY1, SIDE = range(18)
OWN_T, FALL_T = 18, 19
"""Columns of ``balls``: position, velocity, spin, the phase's accelerations, the reference
time and the phase's end, the swept box, the side of the centre line, the time of the next own
event, when a ball over a hole has sunk (inf: not over one)."""
N_FLOATS = 20
ON, PHASE, OWN_KIND, OWN_DATA, FALL_POCKET = range(5)
"""Columns of ``flags``: on the table, the cloth phase, the next own event's kind
(:data:`OWN_PHASE` ...) and what it meets (an element's row, a pocket, or -1), the pocket a
ball is over (-1: none)."""
N_INTS = 5
OWN_PHASE, OWN_CUSHION, OWN_POCKET, OWN_CENTRE, OWN_FALL, OWN_LAND = range(6)
"""Kinds of a ball's next own event: its cloth phase ends, it meets a cushion or jaw, it has
sunk into a pocket, it crosses the centre line, its centre passes a fall edge, or comes back
over it."""
LINE, CIRCLE, CAPTURE = 0, 1, 2
"""Kinds of the table's elements (column :data:`E_KIND` of :attr:`TableArrays.elements`): a
cushion or facing line, a jaw tip, a pocket's hole."""
E_KIND, E_ID = 0, 1
"""Columns of an element: its kind, the id of its cushion (a line, a tip) or pocket (a hole)."""
PX, PY, QX, QY, NX, NY, JAW = range(2, 9)
"""Columns of a line: its ends p and q, its unit normal (toward the side a ball comes from),
whether it is a jaw's facing (1.0) or a cushion's nose (0.0)."""
CX, CY, CR = 2, 3, 4
"""Columns of a tip or a hole: its centre and radius."""
BB_X0, BB_Y0, BB_X1, BB_Y1 = range(9, 13)
"""Columns of every element: its bounding box (the broad phase's)."""
BALL_BALL, BALL_CUSHION, POCKETED, CENTRE_LINE = 0, 1, 2, 3
"""Kinds of the events the kernel records (``(kind, ball, other ball / cushion / pocket)``)."""
PAIRS = np.array([(i, j) for i in range(N_BALLS) for j in range(i + 1, N_BALLS)])
"""The pairs of balls ``(i, j)``, i < j, in the order of ``pairs``."""
PAIRS_OF = np.array(
    [
        [(k, i if j == b else j) for k, (i, j) in enumerate(PAIRS.tolist()) if b in (i, j)]
        for b in range(N_BALLS)
    ]
)
"""Per ball: the pairs it is in, as (pair, other ball)."""


class TableArrays(NamedTuple):
    """A table as the kernel reads it (built once per spec)."""

    cloth: np.ndarray
    """The cloth's coefficients (:attr:`kinghill.physics.kernel.cloth.Cloth.params`)."""
    ball_ball: np.ndarray
    """The ball-ball model's (:attr:`kinghill.physics.resolve.ball_ball.BallBallModel.params`)."""
    cushion_law: np.ndarray
    """The cushion noses' law (:attr:`kinghill.physics.resolve.ball_cushion.CushionLaw.params`)."""
    jaw_law: np.ndarray
    """The pocket jaws' law."""
    elements: np.ndarray
    """The cushion lines, jaw tips and pocket holes (:data:`LINE` ...), a row each."""
    pockets: np.ndarray
    """Per pocket id: its hole's centre and the pocket's axis ``(cx, cy, ax, ay)``."""
    centre_line: float
    """x of the centre line."""
    fall_time: float
    """How long a ball's centre stays past a fall edge before it has sunk out of reach (s)."""
    geometry: GeometryArrays
    """The table's geometry (where a ball may hang in a mouth)."""


class Records(NamedTuple):
    """What a run records, in buffers with room to spare: ``counts`` says how much is filled."""

    events: np.ndarray
    """The events, a row each: ``(kind, ball, other)`` (kinds :data:`BALL_BALL` ...)."""
    times: np.ndarray
    """When each event happened."""
    segments: np.ndarray
    """The balls' paths (when asked for): ``(ball, t0, x, y, vx, vy, ax, ay)`` at each change."""
    energies: np.ndarray
    """Total kinetic energy after each event (when asked for)."""
    counts: np.ndarray
    """How many rows of events, segments, energies and impacts are filled."""
    impacts: np.ndarray
    """Cushion and jaw impacts the law resolved (with paths): the motion before and after,
    ``(vx, vy, wx, wy, wz)`` twice a row."""


class Work(NamedTuple):
    """The arrays one run works in (a :class:`~kinghill.physics.kernel.workspace.Workspace`'s)."""

    balls: np.ndarray
    flags: np.ndarray
    pairs: np.ndarray
    records: Records


class Start(NamedTuple):
    """Where a run starts: the balls' positions (8 x 2; any for a ball off the table), which
    are on the table, the cue ball and the motion the cue gave it."""

    positions: np.ndarray
    on_table: np.ndarray
    cue: int
    motion: Motion


Kernel = Callable[..., tuple[bool, int, float]]
"""A compiled run: ``kernel(work, table, start, *options) -> (done, steps, duration)``, the run
left in ``work``; not done if the records ran out of room (played again in a bigger
workspace). The event loop (:func:`kinghill.physics.kernel.loop.play`) and the fixed-step
reference (:func:`kinghill.physics.kernel.fixed_step.play_fixed_step`) are kernels.

Python enters a kernel through its twin that takes the three as plain tuples and names them
with :func:`named` (``loop.enter_play``, ``fixed_step.enter_fixed_step``): numba takes a plain
tuple argument faster than a NamedTuple (about 0.5 us less a call each, a few per cent of a
short shot: ``benchmarks/physics/results.md``), while inside compiled code a NamedTuple costs
nothing."""


@njit
def named(work: tuple, table: tuple, start: tuple) -> tuple[Work, TableArrays, Start]:
    """:class:`Work`, :class:`TableArrays` and :class:`Start` from the plain tuples of their
    fields (the records in ``work`` a plain tuple too)."""
    return (
        Work(work[0], work[1], work[2], Records(*work[3])),
        TableArrays(*table),
        Start(*start),
    )
