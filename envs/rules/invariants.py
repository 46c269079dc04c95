""" "Nothing lost": what must hold after every applied ruling (1.1, 5.3, 5.8, 5.9, 11.4)."""

from __future__ import annotations

from kinghill.envs.rules.frame import EndReason, Frame
from kinghill.physics import COLOURED, N_BALLS, WHITES, TableState
from kinghill.physics.state import OVERLAP_TOLERANCE


class InvariantError(AssertionError):
    """A ruling lost, duplicated or over-credited a ball."""


def invariant_violations(frame: Frame, state: TableState, before: Frame | None = None) -> list[str]:
    """Every broken invariant, as a sentence; empty when all hold.

    Each of the 8 balls is in exactly one place: on the table, credited to one player (whites),
    or potted to win the frame (the coloured ball); no two balls overlap; no credit exceeds the
    required number; with ``before`` (the frame before the ruling), no credit was taken away.
    """
    found = []
    won = frame.result is not None and frame.result.reason is EndReason.COLOUR_POTTED
    for ball in range(N_BALLS):
        places = [bool(state.on_table[ball]), ball in frame.credited[0], ball in frame.credited[1]]
        if ball == COLOURED:
            places.append(won and not state.on_table[ball])
        if sum(places) != 1:
            found.append(f"ball {ball} is in {sum(places)} places (on table, credits, won pot)")
    for player in (0, 1):
        credit = frame.credited[player]
        if any(b not in WHITES for b in credit) or len(set(credit)) != len(credit):
            found.append(f"player {player}'s credit {credit} is not distinct whites")
        if len(credit) > frame.required[player]:
            found.append(f"player {player} has {len(credit)} whites, over {frame.required[player]}")
        if before is not None and credit[: len(before.credited[player])] != before.credited[player]:
            found.append(f"player {player}'s credit fell from {before.credited[player]} (5.8, 5.9)")
    balls = state.balls_on_table()
    d = 2 * state.spec.radius - OVERLAP_TOLERANCE
    for i, a in enumerate(balls):
        for b in balls[i + 1 :]:
            (ax, ay), (bx, by) = state.xy(a), state.xy(b)
            if (ax - bx) ** 2 + (ay - by) ** 2 < d * d:
                found.append(f"balls {a} and {b} overlap")
    return found


def check_invariants(frame: Frame, state: TableState, before: Frame | None = None) -> None:
    """Raise :class:`InvariantError` listing every broken invariant (see
    :func:`invariant_violations`)."""
    found = invariant_violations(frame, state, before)
    if found:
        raise InvariantError("; ".join(found))
