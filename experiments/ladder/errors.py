"""The ladder's own exception: a zoo, a matrix or a candidate it cannot use, naming the
parameter (a :class:`TournamentError`, so that the command line maps both alike)."""

from __future__ import annotations

from kinghill.experiments.tournaments.errors import TournamentError


class LadderError(TournamentError):
    """The ladder cannot go on; ``parameter`` is the Python API's name of what to change."""
