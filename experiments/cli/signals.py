"""SIGTERM taken as Ctrl-C while a command plays: ``kill PID`` (or a job scheduler's stop) ends a
tournament or a watched frame as Ctrl-C does, with what was played kept, where SIGTERM's default
would end the process on the spot (and SDL's handler, under a pygame window, would turn it into
a window event)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises ``KeyboardInterrupt`` (named ``SIGTERM``) in the main
    thread, as Ctrl-C does."""

    def interrupt(signum: int, frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
