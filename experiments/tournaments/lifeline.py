"""A child process that dies with its parent: tournament workers and agent processes call
:func:`follow_parent` first thing, so that a parent killed outright (SIGKILL, a crash: nothing
of it runs to stop them) leaves no process behind.

Two ways, both on: a daemon thread that checks every :data:`POLL_SECONDS` whether the process
still has the parent it was started by (a dead parent's children are adopted by another
process), and, on Linux, ``PR_SET_PDEATHSIG``, which has the kernel kill the child the moment
its parent thread ends (only asked for when that thread is the parent's main thread, which
lives as long as the parent does).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

POLL_SECONDS = 0.25
"""How often the watchdog thread checks the parent."""
ORPHAN_EXIT_STATUS = 70
"""The exit status of a process that found its parent gone."""
_PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal sent to this process when its parent thread dies."""


def follow_parent(parent: int, pdeathsig: bool = True) -> None:
    """End this process as soon as process ``parent`` (the one that started it) is gone.

    :param parent: the parent's pid, as the parent saw it (``os.getpid()`` there), so that a
        parent that died before this call is noticed too.
    :param pdeathsig: also ask Linux for ``PR_SET_PDEATHSIG`` (pass False when the parent
        started this process from a thread that may end before the parent does).
    """
    if pdeathsig and sys.platform.startswith("linux"):
        _kill_me_with_my_parent()
    if os.getppid() != parent:
        os._exit(ORPHAN_EXIT_STATUS)
    threading.Thread(target=_watch, args=(parent,), name="kinghill-lifeline", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(ORPHAN_EXIT_STATUS)  # no clean-up: the parent that would wait for it is gone


def _kill_me_with_my_parent() -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: the watchdog thread still runs
        pass
