"""Pocket acceptance: which lateral offsets drop, approach by approach, speed by speed.

A lone ball rolls (natural roll) at a pocket from 0.3 m away, its path shifted sideways from the
line through the mouth's centre; the engine plays it out and says whether it dropped, came to
rest hanging in the mouth, or rattled out. Approaches: along a corner's diagonal; frozen along
the long cushion into a corner (the offset is then the gap between ball and cushion); into a
middle pocket perpendicular to the rail, at 30 and at 45 degrees.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kinghill.physics import (
    BallCushion,
    Pocket,
    Pocketed,
    Shot,
    TableGeometry,
    TableSpec,
    TableState,
    simulate,
)

NATURAL_ROLL = 0.4
"""Tip height (fraction of R above centre) at which the struck ball rolls from the start."""
RUN_UP = 0.3
"""How far before the mouth (m) the ball starts, so that it arrives at about the speed given."""
RAIL_RUN_UP = 0.5
"""How far along the cushion from the corner's mouth a rail shot starts (m)."""
APPROACHES = ("corner-diagonal", "corner-rail", "middle-0", "middle-30", "middle-45")
"""The measured approaches, by name."""
SPEEDS = (0.5, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0)
"""Speeds of the charts (m/s)."""
DROP, HANG, OUT = "drop", "hang", "out"


@dataclass(frozen=True)
class Trial:
    """One ball sent at a pocket: where it ended and how many jaw or cushion touches it had."""

    approach: str
    speed: float
    offset: float
    outcome: str
    touches: int


@dataclass(frozen=True)
class Chart:
    """Outcomes of one approach on a grid of speeds (rows) and offsets (columns, m)."""

    approach: str
    speeds: tuple[float, ...]
    offsets: tuple[float, ...]
    outcomes: tuple[tuple[str, ...], ...]

    def dropping(self, speed: float) -> list[float]:
        """The offsets that drop at ``speed`` (one of :attr:`speeds`)."""
        row = self.outcomes[self.speeds.index(speed)]
        return [o for o, out in zip(self.offsets, row, strict=True) if out == DROP]

    def window(self, speed: float) -> tuple[float, float] | None:
        """The widest contiguous run of dropping offsets at ``speed`` (m), the one nearest the
        centre line on a tie; None when nothing drops."""
        row = self.outcomes[self.speeds.index(speed)]
        runs: list[tuple[int, int]] = []
        for k, out in enumerate(row):
            if out != DROP:
                continue
            if runs and runs[-1][1] == k - 1:
                runs[-1] = (runs[-1][0], k)
            else:
                runs.append((k, k))
        if not runs:
            return None
        lo, hi = max(
            runs,
            key=lambda r: (r[1] - r[0], -min(abs(self.offsets[r[0]]), abs(self.offsets[r[1]]))),
        )
        return (self.offsets[lo], self.offsets[hi])


def _start(spec: TableSpec, approach: str, offset: float) -> tuple[tuple[float, float], float]:
    """Where the ball starts and its aim angle for ``approach`` with ``offset`` (m)."""
    geometry = TableGeometry.from_spec(spec)
    if approach == "corner-rail":
        shape = geometry.pockets[Pocket.REAR_RIGHT]  # along the right rear cushion, toward +x
        x = shape.mouth_centre[0] - RAIL_RUN_UP
        return (x, spec.radius + offset), 0.0
    if approach == "corner-diagonal":
        shape, turn = geometry.pockets[Pocket.REAR_RIGHT], 0.0
    else:
        shape = geometry.pockets[Pocket.MIDDLE_RIGHT]
        turn = math.radians(float(approach.split("-")[1]))
    ax, ay = shape.axis
    c, s = math.cos(turn), math.sin(turn)
    dx, dy = ax * c - ay * s, ax * s + ay * c  # the path's direction, turned from the axis
    mx, my = shape.mouth_centre
    px, py = -dy, dx
    start = (mx - RUN_UP * dx + offset * px, my - RUN_UP * dy + offset * py)
    return start, math.atan2(dy, dx)


def trial(spec: TableSpec, approach: str, speed: float, offset: float) -> Trial:
    """Send one rolling ball at the pocket of ``approach`` at ``speed`` m/s, ``offset`` m off."""
    if approach not in APPROACHES:
        raise ValueError(f"approach must be one of {', '.join(APPROACHES)}, got {approach!r}")
    if not (math.isfinite(speed) and speed > 0):
        raise ValueError(f"speed must be positive, got {speed}")
    start, phi = _start(spec, approach, offset)
    result = simulate(TableState.of(spec, {1: start}), Shot(1, phi, speed, 0.0, NATURAL_ROLL))
    touches = sum(isinstance(e, BallCushion) for e in result.events)
    if any(isinstance(e, Pocketed) for e in result.events):
        outcome = DROP
    elif result.final.hanging_in(1) is not None:
        outcome = HANG
    else:
        outcome = OUT
    if approach == "corner-rail":
        touches -= sum(1 for e in result.events if isinstance(e, BallCushion) and e.t == 0.0)
    return Trial(approach, speed, offset, outcome, touches)


def chart(
    spec: TableSpec,
    approach: str,
    speeds: Sequence[float] = SPEEDS,
    offsets: Sequence[float] | None = None,
) -> Chart:
    """The outcomes of ``approach`` for every speed and offset (default offsets: -20..20 mm by
    1 mm; 0..20 mm from the cushion for the rail)."""
    if offsets is None:
        mm = np.arange(0, 21) if approach == "corner-rail" else np.arange(-20, 21)
        offsets = [float(v) / 1000 for v in mm]
    rows = tuple(tuple(trial(spec, approach, v, o).outcome for o in offsets) for v in speeds)
    return Chart(approach, tuple(speeds), tuple(offsets), rows)


def charts(spec: TableSpec, speeds: Sequence[float] = SPEEDS) -> list[Chart]:
    """The chart of every approach of :data:`APPROACHES`."""
    return [chart(spec, approach, speeds) for approach in APPROACHES]


def window_table(found: Sequence[Chart]) -> str:
    """A markdown table: per approach and speed, the window of offsets that drop (mm).

    ``a..b`` is the contiguous run of dropping offsets nearest the centre line (for the rail:
    the gaps between ball and cushion); ``-`` when none drops.
    """
    speeds = found[0].speeds
    lines = [
        "| approach | " + " | ".join(f"{v:g} m/s" for v in speeds) + " |",
        "|---|" + "---|" * len(speeds),
    ]
    for c in found:
        cells = []
        for v in speeds:
            w = c.window(v)
            cells.append("-" if w is None else f"{1000 * w[0]:+.0f}..{1000 * w[1]:+.0f}")
        lines.append(f"| {c.approach} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
