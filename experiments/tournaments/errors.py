"""The tournaments library's own exception: what cannot be played, naming the parameter."""

from __future__ import annotations


class TournamentError(Exception):
    """A tournament (or a frame) cannot start or go on; the message says what to change.

    :param message: what is wrong with the value.
    :param parameter: the parameter it is about (``"agents"``, ``"race"``, ``"out"``), as named
        by the Python API; None when no single parameter is to blame. The command line maps it
        to its option (``--agents``).
    """

    def __init__(self, message: str, parameter: str | None = None) -> None:
        super().__init__(message, parameter)  # both in args: the error survives pickling
        self.message = message
        self.parameter = parameter

    def __str__(self) -> str:
        return self.message if self.parameter is None else f"{self.parameter}: {self.message}"
