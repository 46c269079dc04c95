"""The call (заказ, rules 6.3 and 7.1-7.2): the coloured ball's pocket and route, R-route form.

A route is a **chain** of balls, cue ball first and the coloured ball last, each chain ball with
its **leg**: the cushions and balls it touches until it strikes the next chain ball (the coloured
ball's leg runs until it drops). ``None`` in place of a call means whites only (5.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any

from kinghill.physics import COLOURED, N_BALLS, WHITES, Cushion, Pocket, TableState

MAX_CHAIN = 4
"""Most balls in a called chain (design.md: caps for the vector action encoding)."""
MAX_TOUCHES = 3
"""Most touches in one called leg."""

Touch = Cushion | int
"""One contact of a leg: a cushion segment, or the id of a ball touched."""
Leg = tuple[Touch, ...]


class ShotKind(Enum):
    """The kinds of shot of R-type; one call may be of several kinds at once."""

    PLAIN = "plain"
    DOUBLE = "double"
    ABRICOL = "abricol"
    COMBINATION = "combination"


def touch_key(touch: Touch) -> tuple[bool, int]:
    """A comparable form of a touch: ``Cushion`` is an ``int`` too, so compare with this."""
    return (isinstance(touch, Cushion), int(touch))


def leg_key(leg: Iterable[Touch]) -> tuple[tuple[bool, int], ...]:
    """A comparable form of a leg (see :func:`touch_key`)."""
    return tuple(touch_key(t) for t in leg)


def touch_name(touch: Touch) -> str:
    """A touch as people read it: ``LEFT_REAR`` or ``ball 3``."""
    return touch.name if isinstance(touch, Cushion) else ball_name(touch)


def ball_name(ball: int) -> str:
    """``the coloured ball`` or ``ball 3``."""
    return "the coloured ball" if ball == COLOURED else f"ball {ball}"


def _as_touch(touch: object, where: str) -> Touch:
    if isinstance(touch, Cushion):
        return touch
    if isinstance(touch, int) and not isinstance(touch, bool) and 0 <= touch < N_BALLS:
        return int(touch)
    raise ValueError(f"{where}: a touch is a Cushion or a ball id 0-7, got {touch!r}")


def _sequence(value: object, what: str) -> tuple[Any, ...]:
    """``value`` as a tuple, or a TypeError naming ``what`` (``None`` or a number is not a
    sequence; a string is refused too, its letters are no touches)."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{what}: expected a sequence, got {value!r}")
    return tuple(value)


def _cushions(cushions: object, what: str) -> tuple[Cushion, ...]:
    """The cushions of a double or an abricol: at least one, each a :class:`Cushion`."""
    found = _sequence(cushions, f"{what} cushions")
    if not found:
        raise ValueError(f"{what}: name at least one cushion (without one it is a plain shot)")
    for touch in found:
        if not isinstance(touch, Cushion):
            raise ValueError(f"{what} cushions: each is a Cushion, got {touch!r}")
    return found


def strip_adjacent(leg: Leg, pocket: Pocket, *, trailing_only: bool) -> Leg:
    """``leg`` without its contacts with ``pocket``'s adjacent cushions.

    ``trailing_only``: only those that end the leg (7.5); otherwise all of them (8.1.1).
    """
    jaws = pocket.adjacent_cushions
    if not trailing_only:
        return tuple(t for t in leg if not (isinstance(t, Cushion) and t in jaws))
    end = len(leg)
    while end and isinstance(leg[end - 1], Cushion) and leg[end - 1] in jaws:
        end -= 1
    return leg[:end]


@dataclass(frozen=True, eq=False)
class Call:
    """The coloured ball's pocket and called route (7.2): ``chain`` with one leg per chain ball.

    The constructor checks that the call can be meant at all (R-route shape, the caps
    :data:`MAX_CHAIN` and :data:`MAX_TOUCHES`) and raises ``ValueError`` naming the wrong part;
    :func:`validate_call` adds the checks against the table.
    """

    pocket: Pocket
    chain: tuple[int, ...]
    legs: tuple[Leg, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.pocket, Pocket):
            raise ValueError(f"call pocket: expected a Pocket, got {self.pocket!r}")
        chain = _sequence(self.chain, "call chain")
        if not 1 <= len(chain) <= MAX_CHAIN:
            raise ValueError(f"call chain: 1 to {MAX_CHAIN} balls, got {len(chain)}: {chain}")
        for ball in chain:
            if isinstance(ball, bool) or not isinstance(ball, int) or not 0 <= ball < N_BALLS:
                raise ValueError(f"call chain: ball ids are 0-7, got {ball!r} in {chain}")
        chain = tuple(int(b) for b in chain)
        if chain[-1] != COLOURED:
            raise ValueError(f"call chain {chain} must end with the coloured ball {COLOURED}")
        if len(set(chain)) != len(chain):
            raise ValueError(f"call chain {chain} holds a ball twice")
        legs = _sequence(self.legs, "call legs")
        if len(legs) != len(chain):
            raise ValueError(
                f"call legs: one leg per chain ball, got {len(legs)} legs for chain {chain}"
            )
        checked = []
        for k, (ball, leg) in enumerate(zip(chain, legs, strict=True)):
            where = f"call leg of {ball_name(ball)}"
            leg = tuple(_as_touch(t, where) for t in _sequence(leg, where))
            if len(leg) > MAX_TOUCHES:
                raise ValueError(f"{where}: at most {MAX_TOUCHES} touches, got {len(leg)}")
            for t in leg:
                if isinstance(t, Cushion):
                    continue
                if t == ball:
                    raise ValueError(f"{where}: a ball cannot touch itself")
                if t in chain[k + 1 :]:
                    raise ValueError(
                        f"{where}: touches ball {t} before ball {t} is reached in the chain "
                        "(it would then be the next chain ball, R-route)"
                    )
            checked.append(leg)
        object.__setattr__(self, "chain", chain)
        object.__setattr__(self, "legs", tuple(checked))

    # ---- builders ---------------------------------------------------------------------------
    @classmethod
    def plain(cls, cue_ball: int, pocket: Pocket) -> Call:
        """The cue ball strikes the coloured ball straight into ``pocket``."""
        return cls.combination(cue_ball, (), pocket)

    @classmethod
    def double(cls, cue_ball: int, pocket: Pocket, cushions: Sequence[Cushion]) -> Call:
        """The coloured ball rebounds off ``cushions`` (in order, at least one) before it drops."""
        return cls.combination(cue_ball, (), pocket, colour_leg=_cushions(cushions, "double"))

    @classmethod
    def abricol(
        cls,
        cue_ball: int,
        pocket: Pocket,
        cushions: Sequence[Cushion],
        colour_leg: Sequence[Touch] = (),
    ) -> Call:
        """The cue ball rebounds off ``cushions`` (at least one) before it strikes the coloured
        ball."""
        if cue_ball == COLOURED:
            raise ValueError("an abricol is played with a white cue ball (R-type)")
        leg = _cushions(cushions, "abricol")
        return cls(pocket, (cue_ball, COLOURED), (leg, _sequence(colour_leg, "colour_leg")))

    @classmethod
    def combination(
        cls,
        cue_ball: int,
        via: Sequence[int],
        pocket: Pocket,
        colour_leg: Sequence[Touch] = (),
    ) -> Call:
        """The cue ball drives the coloured ball in through the balls ``via``, in order.

        With the coloured ball as the cue ball, ``via`` must be empty: use :meth:`carom`.
        """
        via = _sequence(via, "combination via")
        colour_leg = _sequence(colour_leg, "colour_leg")
        if cue_ball == COLOURED:
            if via:
                raise ValueError("with the coloured cue ball the chain is just (0,): use carom()")
            return cls(pocket, (COLOURED,), (colour_leg,))
        chain = (cue_ball, *via, COLOURED)
        return cls(pocket, chain, tuple(() for _ in chain[:-1]) + (colour_leg,))

    @classmethod
    def carom(cls, pocket: Pocket, touches: Sequence[Touch]) -> Call:
        """The coloured ball, as the cue ball, caroms off ``touches`` (at least one) into
        ``pocket`` (8.3)."""
        leg = _sequence(touches, "carom touches")
        if not leg:
            raise ValueError(
                "carom: name at least one touch (without one the coloured ball goes straight "
                "in: Call.plain(0, pocket))"
            )
        return cls(pocket, (COLOURED,), (leg,))

    # ---- reading ----------------------------------------------------------------------------
    @property
    def cue_ball(self) -> int:
        return self.chain[0]

    @property
    def colour_leg(self) -> Leg:
        """The coloured ball's called leg, 7.5 contacts included."""
        return self.legs[-1]

    @cached_property
    def balls_taking_part(self) -> frozenset[int]:
        """The balls of the chain and the balls touched in any leg (R-type)."""
        touched = {t for leg in self.legs for t in leg if not isinstance(t, Cushion)}
        return frozenset(self.chain) | touched

    @property
    def whites_taking_part(self) -> int:
        """How many whites take part, the cue ball counted when white (8.2, R-early)."""
        return sum(1 for b in self.balls_taking_part if b in WHITES)

    @cached_property
    def kinds(self) -> frozenset[ShotKind]:
        """The kinds of this shot by R-type (several at once, or just ``PLAIN``); found once
        a call (the referee reads them for every noisy sample of a called shot)."""
        kinds = set()
        cue_leg = self.legs[0]
        if self.cue_ball != COLOURED and cue_leg and isinstance(cue_leg[0], Cushion):
            kinds.add(ShotKind.ABRICOL)
        colour_leg = strip_adjacent(self.colour_leg, self.pocket, trailing_only=True)
        if any(isinstance(t, Cushion) for t in colour_leg):
            kinds.add(ShotKind.DOUBLE)
        if self.balls_taking_part - {self.cue_ball, COLOURED}:
            kinds.add(ShotKind.COMBINATION)
        return frozenset(kinds) or frozenset({ShotKind.PLAIN})

    @property
    def is_single_adjacent_abricol(self) -> bool:
        """An abricol whose cue-ball leg touches a single cushion (once or more), adjacent to the
        pocket (8.1 exception, R-early): distinct cushions count, not contacts."""
        leg = self.legs[0]
        return (
            ShotKind.ABRICOL in self.kinds
            and all(isinstance(t, Cushion) for t in leg)
            and len(set(leg)) == 1
            and leg[0] in self.pocket.adjacent_cushions
        )

    def _key(self) -> tuple[object, ...]:
        return (self.pocket, self.chain, tuple(leg_key(leg) for leg in self.legs))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Call):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return f"{format_route(self.chain, self.legs)} => {self.pocket.name}"


def format_route(chain: Sequence[int], legs: Sequence[Leg]) -> str:
    """A route as people read it: ``1 [LEFT_FRONT] > 3 > 0 [ball 5, REAR]``."""
    parts = []
    for ball, leg in zip(chain, legs, strict=True):
        touches = ", ".join(touch_name(t) for t in leg)
        parts.append(f"{ball} [{touches}]" if leg else str(ball))
    return " > ".join(parts)


def validate_call(call: Call | None, state: TableState, cue_ball: int) -> None:
    """Check a call against the table before the shot; ``ValueError`` names the wrong part.

    ``None`` (whites only) is always valid. The call's shape is checked by :class:`Call` itself.
    """
    if not (isinstance(cue_ball, int) and 0 <= cue_ball < N_BALLS):
        raise ValueError(f"cue ball: a ball id 0-7, got {cue_ball!r}")
    if not state.on_table[cue_ball]:
        raise ValueError(f"cue ball {cue_ball} is not on the table (rule 1.4: a ball on the table)")
    if call is None:
        return
    if call.cue_ball != cue_ball:
        raise ValueError(f"call chain {call.chain} must start with the cue ball {cue_ball}")
    for ball in call.balls_taking_part:
        if not state.on_table[ball]:
            raise ValueError(f"call names ball {ball}, which is not on the table")
