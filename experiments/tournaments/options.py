"""How every frame of a tournament (or one played alone) is played: the clock's round, noise
and its scale, the shot limit and the cap on untimed decisions."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kinghill.envs.game.noise import NoiseScale, check_noise_scale
from kinghill.experiments.tournaments.errors import TournamentError, is_count

DEFAULT_DECISION_CAP = 50.0
"""Seconds an untimed decision may take: the longest any clocked shot may (12.3: 35 s in round
3; 12.6: plus the 15 s extension)."""


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
    :raises TournamentError: a value out of range, naming its field.
    """

    round: int | None = None
    noise: bool = True
    max_shots: int = 200
    decision_cap: float = DEFAULT_DECISION_CAP
    noise_scale: NoiseScale = 1.0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "noise_scale", check_noise_scale(self.noise_scale))
        except ValueError:
            raise TournamentError(
                f"must be a number >= 0 or 'variable' (got {self.noise_scale!r})", "noise_scale"
            ) from None
        if self.round is not None and not (is_count(self.round) and self.round >= 1):
            raise TournamentError(f"counts from 1 (got {self.round!r})", "round")
        if not isinstance(self.noise, bool):
            raise TournamentError(f"must be true or false (got {self.noise!r})", "noise")
        if not (is_count(self.max_shots) and self.max_shots >= 1):
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
