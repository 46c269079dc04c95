"""One decision of an agent, as whoever runs the match sees it: what the agent answered (or why
it gave no answer) and how long it took; :meth:`~kinghill.envs.Game.settle` charges it
by the rules.

An agent's failure is never the match's: an exception (``SystemExit`` included), a value that is
not a valid action, or no answer in time is the agent's fault, charged to it as a shot not
played (12.4) or, for the 10.4 choice, as playing on. A ``KeyboardInterrupt`` is the agent's
fault too, unless a signal raised it (the user's Ctrl-C, or SIGTERM turned into one) or it is a
:class:`UserStop` (a person closing the window they play in): that one stops the match as it
would anything else.
"""

from __future__ import annotations

import _signal  # signal's C core: its Python layer turns every handler into an enum
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

from kinghill.envs.game.actions import FrameView

WATCHED_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""Signals whose Python handlers may raise ``KeyboardInterrupt`` on the user's behalf."""


class UserStop(KeyboardInterrupt):
    """Raised by an agent on its user's behalf (a person closing the window they play in): it
    stops the match as the user's Ctrl-C does, wherever SIGINT is handled or ignored (a
    background job), never charged to the agent as a fault."""


@dataclass(frozen=True)
class Answer:
    """What an agent gave for one decision.

    :param value: what ``act`` returned, not yet checked (None when there is a ``fault``).
    :param seconds: the decision time (R-clock), or None when nobody measured it.
    :param fault: why the agent gave no value: it raised, its process died, or it was cut off.
    :param timed_out: it was cut off, still thinking, when its time allowed ran out.
    :param claimed_at: seconds into the decision when the agent claimed the 12.5 extension on
        the view's clock (``view.clock.claim_extension()``), or None.
    """

    value: object = None
    seconds: float | None = None
    fault: str | None = None
    timed_out: bool = False
    claimed_at: float | None = None


def ask(decide: Callable[[FrameView], object], view: FrameView) -> Answer:
    """Call ``decide(view)`` here, in this thread, timing it; whatever it raises becomes the
    answer's fault, except a ``KeyboardInterrupt`` raised by a signal handler or a
    :class:`UserStop`, which propagate. Nothing can cut off a decision that never returns:
    for that, run the agent in a process of its own
    (:mod:`kinghill.experiments.tournaments.agent_process`)."""
    start = time.perf_counter()
    with _signals_watched() as signalled:
        try:
            value = decide(view)
        except KeyboardInterrupt as error:
            if signalled or isinstance(error, UserStop):
                raise
            return Answer(seconds=time.perf_counter() - start, fault=describe(error))
        except BaseException as error:  # SystemExit included: an agent cannot end the match
            return Answer(seconds=time.perf_counter() - start, fault=describe(error))
    claimed_at = None if view.clock is None else view.clock.claimed_at
    return Answer(value, time.perf_counter() - start, claimed_at=claimed_at)


def describe(error: BaseException) -> str:
    """An agent's exception as a fault is reported: ``"raised RuntimeError: out of order"``."""
    text = str(error)
    return f"raised {type(error).__name__}" + (f": {text}" if text else "")


@contextmanager
def _signals_watched() -> Iterator[list[int]]:
    """While inside, note every watched signal whose Python handler runs (the list holds their
    numbers), so that a ``KeyboardInterrupt`` from a signal can be told from an agent's own.
    Handlers are only replaced in the main thread, the one where Python runs them. The C
    functions of ``_signal`` are called, not ``signal``'s wrappers: they take and give the same
    handlers, without the enum conversions that cost more than an env step's bookkeeping."""
    seen: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return
    previous: dict[int, Any] = {number: _signal.getsignal(number) for number in WATCHED_SIGNALS}

    def noting(number: int, frame: FrameType | None) -> None:
        seen.append(number)
        handler = previous[number]
        if callable(handler):
            handler(number, frame)

    for number, handler in previous.items():
        if callable(handler):
            _signal.signal(number, noting)
    try:
        yield seen
    finally:
        for number, handler in previous.items():
            if callable(handler):
                _signal.signal(number, handler)
