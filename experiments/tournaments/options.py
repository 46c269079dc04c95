"""How every frame of a tournament (or one played alone) is played: the clock's round, noise
and its scale, the shot limit, the cap on untimed decisions and the agents' handicaps."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from kinghill.envs.game.noise import NoiseScale, check_noise_scale
from kinghill.envs.rules import is_whole
from kinghill.envs.rules.frame import DEFAULT_REQUIRED
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.physics import N_BALLS

DEFAULT_DECISION_CAP = 50.0
"""Seconds an untimed decision may take: the longest any clocked shot may (12.3: 35 s in round
3; 12.6: plus the 15 s extension)."""
MAX_REQUIRED = N_BALLS - 1
"""The most whites a player can be set to pot (5.3): every white of the table."""


@dataclass(frozen=True)
class FrameOptions:
    """How every frame of a tournament is played.

    :param round: tournament round for the section-12 clock (12.2: no clock in rounds 1-2);
        ``None`` plays without time control (12.1).
    :param noise: execution noise on the cue parameters.
    :param noise_scale: the noise condition when ``noise`` is on: a multiple of the default
        sigmas (1, the default) or ``"variable"``, a scale drawn for each shot, uniform in
        [0, 5] (:mod:`kinghill.envs.game.noise`).
    :param max_shots: shots after which a frame is truncated with no winner (R-truncate).
    :param decision_cap: seconds after which a decision that no clock times (no time control,
        rounds 1-2, the 10.4 choice) is cut off; the agent is then charged as giving no
        decision (a shot not played, 12.4; a 10.4 choice: playing on). A timed decision is cut
        off at its own limit instead (12.3, plus the 12.6 extension while it is open).
    :param handicap: the whites an agent must pot (5.3, R-handicap), whichever seat it has in a
        frame: pairs ``(name, whites)``, whites 1 to :data:`MAX_REQUIRED`; an agent not named
        needs 3. Kept sorted by name and without the 3s, so that one handicap has one form
        (and a tournament without one is stored as before handicaps existed).
    :raises TournamentError: a value out of range, naming its field.
    """

    round: int | None = None
    noise: bool = True
    max_shots: int = 200
    decision_cap: float = DEFAULT_DECISION_CAP
    noise_scale: NoiseScale = 1.0
    handicap: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "noise_scale", check_noise_scale(self.noise_scale))
        except ValueError:
            raise TournamentError(
                f"must be a number >= 0 or 'variable' (got {self.noise_scale!r})", "noise_scale"
            ) from None
        if self.round is not None and not (is_whole(self.round) and self.round >= 1):
            raise TournamentError(f"counts from 1 (got {self.round!r})", "round")
        if not isinstance(self.noise, bool):
            raise TournamentError(f"must be true or false (got {self.noise!r})", "noise")
        if not (is_whole(self.max_shots) and self.max_shots >= 1):
            raise TournamentError(f"must be at least 1 (got {self.max_shots!r})", "max_shots")
        if not (
            isinstance(self.decision_cap, int | float)
            and not isinstance(self.decision_cap, bool)
            and 0 < self.decision_cap < math.inf
        ):
            raise TournamentError(
                f"must be a positive number of seconds (got {self.decision_cap!r})",
                "decision_cap",
            )
        object.__setattr__(self, "handicap", _checked_handicap(self.handicap))

    def required(self, agents: tuple[str, str]) -> tuple[int, int]:
        """The whites each seat's agent must pot (5.3): its handicap, else 3."""
        whites = dict(self.handicap)
        return whites.get(agents[0], DEFAULT_REQUIRED), whites.get(agents[1], DEFAULT_REQUIRED)

    def record_fields(self) -> dict[str, Any]:
        """The options as a shot record keeps them, named scalars: all but the handicap, which
        each recorded decision's frame holds as the seats' required whites."""
        fields = asdict(self)
        del fields["handicap"]
        return fields


def _checked_handicap(handicap: object) -> tuple[tuple[str, int], ...]:
    """``handicap`` (pairs, or a mapping of names to whites) in its one form (pairs sorted by
    name, no 3s), or TournamentError."""
    given = handicap.items() if isinstance(handicap, Mapping) else handicap
    try:
        pairs = [(name, whites) for name, whites in given]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise TournamentError(
            f"must be pairs (agent, whites) (got {handicap!r})", "handicap"
        ) from None
    for name, whites in pairs:
        if not (isinstance(name, str) and is_whole(whites) and 1 <= whites <= MAX_REQUIRED):
            raise TournamentError(
                f"an agent's name and the whites it must pot, 1-{MAX_REQUIRED} "
                f"(got {name!r}: {whites!r})",
                "handicap",
            )
    names = [name for name, _ in pairs]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise TournamentError(f"names {twice!r} twice", "handicap")
    return tuple(sorted((name, whites) for name, whites in pairs if whites != DEFAULT_REQUIRED))
