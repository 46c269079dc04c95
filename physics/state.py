"""Where the balls are: the table state that every shot starts from and ends in."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from kinghill.physics.geometry import (
    GeometryArrays,
    TableGeometry,
    hanging_pocket,
    on_playing_area,
)
from kinghill.physics.jit import njit
from kinghill.physics.names import BREAK_BALL, COLOURED, N_BALLS, Pocket
from kinghill.physics.spec import TableSpec

RACK_GAP = 1e-4
"""Gap left between racked balls (R-rack: a hair apart, so the break does not hinge on rounding)."""
OVERLAP_TOLERANCE = 1e-9
"""Balls closer than 2R minus this overlap; touching balls (distance exactly 2R) are allowed."""


_NOT_FINITE, _NOT_HELD, _OVERLAP = 1, 2, 3
"""What :func:`_misplaced` finds wrong."""


@njit
def _misplaced(
    geometry: GeometryArrays, pos: np.ndarray, on: np.ndarray, d2: float
) -> tuple[int, int, int]:
    """The first thing wrong with balls at ``pos`` (those ``on`` the table): ``(0, -1, -1)``
    if nothing, else a position not finite or where no ball can stand (``(kind, ball, -1)``,
    checked ball by ball), then two balls overlapping (``(3, a, b)``: closer than ``sqrt(d2)``)."""
    for b in range(pos.shape[0]):
        if not on[b]:
            continue
        x, y = pos[b, 0], pos[b, 1]
        if not (math.isfinite(x) and math.isfinite(y)):
            return _NOT_FINITE, b, -1
        if not on_playing_area(geometry, x, y) and hanging_pocket(geometry, x, y) < 0:
            return _NOT_HELD, b, -1
    for a in range(pos.shape[0]):
        if not on[a]:
            continue
        for b in range(a + 1, pos.shape[0]):
            if on[b]:
                dx, dy = pos[a, 0] - pos[b, 0], pos[a, 1] - pos[b, 1]
                if dx * dx + dy * dy < d2:
                    return _OVERLAP, a, b
    return 0, -1, -1


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


@dataclass(frozen=True, eq=False)
class TableState:
    """Ball positions (8 x 2, m) and which balls are on the table; immutable and cheap to copy.

    Ball 0 is the coloured ball, 1-7 the whites. A ball on the table stands on the playing area
    or hangs in a pocket's mouth (:meth:`hanging_in`); the position of a ball that is off the
    table (pocketed) is NaN. Use the methods below to derive new states; each validates what it
    makes.
    """

    spec: TableSpec
    positions: np.ndarray
    on_table: np.ndarray = field(default_factory=lambda: np.ones(N_BALLS, dtype=bool))

    def __post_init__(self) -> None:
        if not isinstance(self.spec, TableSpec):
            raise TypeError(f"TableState.spec: expected a TableSpec, got {_type_name(self.spec)}")
        for name in ("positions", "on_table"):
            if getattr(self, name) is None or isinstance(getattr(self, name), str | dict):
                raise TypeError(
                    f"TableState.{name}: expected an array, got {_type_name(getattr(self, name))}"
                )
        try:
            pos = np.array(self.positions, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise TypeError(f"TableState.positions: not an array of numbers ({error})") from None
        on = np.array(self.on_table, dtype=bool)
        if pos.shape != (N_BALLS, 2):
            raise ValueError(f"TableState.positions must have shape (8, 2), got {pos.shape}")
        if on.shape != (N_BALLS,):
            raise ValueError(f"TableState.on_table must have shape (8,), got {on.shape}")
        pos[~on] = np.nan
        object.__setattr__(self, "positions", _readonly(pos))
        object.__setattr__(self, "on_table", _readonly(on))
        d2 = (2 * self.spec.radius - OVERLAP_TOLERANCE) ** 2
        geometry = TableGeometry.from_spec(self.spec).arrays
        problem, a, b = _misplaced(geometry, pos, on, d2)
        if problem == _NOT_FINITE:
            x, y = float(pos[a, 0]), float(pos[a, 1])
            raise ValueError(f"ball {a}: position ({x}, {y}) is not a finite number")
        if problem == _NOT_HELD:
            r, s = self.spec.radius, self.spec
            raise ValueError(
                f"ball {a} at ({pos[a, 0]:.4f}, {pos[a, 1]:.4f}) is not on the playing area nor "
                f"hanging in a pocket's mouth: its centre must lie in [{r}, {s.length - r}] x "
                f"[{r}, {s.width - r}], or in a mouth clear of the jaws and short of the fall edge"
            )
        if problem == _OVERLAP:
            raise ValueError(f"balls {a} and {b} overlap")

    # ---- queries ----------------------------------------------------------------------------
    def balls_on_table(self) -> tuple[int, ...]:
        """Ids of the balls on the table, ascending."""
        return tuple(int(b) for b in np.flatnonzero(self.on_table))

    def xy(self, ball: int) -> tuple[float, float]:
        """The position of a ball on the table; a clear error for a ball that is not."""
        self._check_id(ball)
        if not self.on_table[ball]:
            raise ValueError(f"ball {ball} is not on the table")
        return (float(self.positions[ball, 0]), float(self.positions[ball, 1]))

    def hanging_in(self, ball: int) -> Pocket | None:
        """The pocket in whose mouth ``ball`` hangs (off the playing area, short of the fall
        edge), or None when it stands on the playing area or is off the table."""
        self._check_id(ball)
        if not self.on_table[ball]:
            return None
        x, y = self.positions[ball].tolist()
        return TableGeometry.from_spec(self.spec).hanging_in(x, y)

    def in_house(self, ball: int) -> bool:
        """Whether the ball's centre lies in the house (on the house line counts as outside)."""
        return bool(self.on_table[ball]) and self.positions[ball, 0] < self.spec.house_line_x

    def is_free(self, xy: Sequence[float], ignore: Iterable[int] = ()) -> bool:
        """Whether a ball could stand at ``xy`` without overlapping another or leaving the table."""
        r, s = self.spec.radius, self.spec
        x, y = float(xy[0]), float(xy[1])
        if not (r <= x <= s.length - r and r <= y <= s.width - r):
            return False
        skip = set(ignore)
        d2 = (2 * r - OVERLAP_TOLERANCE) ** 2
        for b in self.balls_on_table():
            if b in skip:
                continue
            dx, dy = self.positions[b, 0] - x, self.positions[b, 1] - y
            if dx * dx + dy * dy < d2:
                return False
        return True

    @staticmethod
    def _check_id(ball: int) -> None:
        if (
            isinstance(ball, bool | np.bool_)  # True is an int, but names no ball
            or not isinstance(ball, (int, np.integer))
            or not 0 <= ball < N_BALLS
        ):
            raise ValueError(f"ball id must be an integer 0-{N_BALLS - 1}, got {ball!r}")

    # ---- derived states ---------------------------------------------------------------------
    def place(self, ball: int, xy: Sequence[float]) -> TableState:
        """A new state with ``ball`` at ``xy`` (on the table); errors if it overlaps or is off."""
        self._check_id(ball)
        pos = self.positions.copy()
        on = self.on_table.copy()
        pos[ball] = (float(xy[0]), float(xy[1]))
        on[ball] = True
        return TableState(self.spec, pos, on)

    def remove(self, ball: int) -> TableState:
        """A new state with ``ball`` off the table."""
        self._check_id(ball)
        on = self.on_table.copy()
        on[ball] = False
        return TableState(self.spec, self.positions.copy(), on)

    def with_positions(self, positions: np.ndarray, on_table: np.ndarray) -> TableState:
        """A new state on the same table."""
        return TableState(self.spec, positions, on_table)

    @classmethod
    def settled(cls, spec: TableSpec, positions: np.ndarray, on_table: np.ndarray) -> TableState:
        """The table the engine left at the end of a shot, not checked again: ``positions``
        (8 x 2, NaN off the table) and ``on_table`` read-only arrays, as the checked
        constructor makes them (the batch builds one a noisy sample; the physics' tests hold
        the engine to leaving valid tables)."""
        state = object.__new__(cls)
        object.__setattr__(state, "spec", spec)
        object.__setattr__(state, "positions", positions)
        object.__setattr__(state, "on_table", on_table)
        return state

    @classmethod
    def of(cls, spec: TableSpec, balls: Mapping[int, Sequence[float]]) -> TableState:
        """A state with only ``balls`` (id -> position) on the table; validated like any other."""
        if not isinstance(balls, Mapping):
            raise TypeError(
                f"TableState.of balls: a mapping ball id -> (x, y), got {_type_name(balls)}"
            )
        pos = np.full((N_BALLS, 2), np.nan)
        on = np.zeros(N_BALLS, dtype=bool)
        for ball, xy in balls.items():
            cls._check_id(ball)
            pos[ball], on[ball] = xy, True
        return cls(spec, pos, on)

    @classmethod
    def rack(
        cls, spec: TableSpec | None = None, cue_xy: Sequence[float] | None = None
    ) -> TableState:
        """The opening position (R-rack): a 7-ball pyramid with its apex on the rear spot.

        Rows 1-3 hold 1, 2, 3 balls growing toward the rear cushion; the coloured ball 0 is the
        centre of row 3 and white 7 stands on the long axis directly behind it. White 1 stands in
        the house at ``cue_xy`` (default: on the long axis, L/8 from the front cushion).
        """
        spec = TableSpec() if spec is None else spec
        if not isinstance(spec, TableSpec):
            raise TypeError(f"TableState.rack spec: a TableSpec or None, got {_type_name(spec)}")
        d = spec.ball_diameter + RACK_GAP
        row = d * math.sqrt(3) / 2
        x0, yc = spec.rear_spot
        pos = np.empty((N_BALLS, 2))
        pos[2] = (x0, yc)
        pos[3] = (x0 + row, yc - d / 2)
        pos[4] = (x0 + row, yc + d / 2)
        pos[5] = (x0 + 2 * row, yc - d)
        pos[COLOURED] = (x0 + 2 * row, yc)
        pos[6] = (x0 + 2 * row, yc + d)
        pos[7] = (x0 + 2 * row + d, yc)
        pos[BREAK_BALL] = cue_xy if cue_xy is not None else (spec.length / 8, yc)
        state = cls(spec, pos)
        if not state.in_house(BREAK_BALL):
            raise ValueError(
                f"the break ball must stand in the house (x < {spec.house_line_x:.4f}), "
                f"got {tuple(pos[BREAK_BALL])}"
            )
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableState):
            return NotImplemented
        return (
            self.spec == other.spec
            and np.array_equal(self.on_table, other.on_table)
            and np.array_equal(self.positions, other.positions, equal_nan=True)
        )

    __hash__ = None  # type: ignore[assignment]
