"""An agent in a process of its own, so that a decision that never returns can be cut off.

A Python thread cannot be stopped; a process can. :class:`AgentProcess` keeps one agent in a
spawned child process and asks it for decisions over a pipe: the view goes in (a few kB), the
agent's answer comes back with its own measure of the time ``act`` took (the same measure as an
agent asked in-process, :func:`~kinghill.envs.ask`) and the moment it claimed the 12.5
extension on the view's clock. An answer that has not come when the decision's time is up
(plus :data:`GRACE` for the pipe) is cut off: the child is killed, a fresh one started and the
agent built again. A child that dies (``os._exit``, a crash) is replaced the same way.

**How a replaced agent is restored**: it is built again from its spec, as at the start of the
frame, with a seed drawn from its frame seed and the number of times it has been replaced
(:func:`restart_seed`), so a frame stays a function of its seed and of what the agent did.
What the agent had learnt within the frame (its random generator's draws, any memory) is lost.

Children are spawned (not forked), so a script that plays frames this way needs the usual
``if __name__ == "__main__":`` guard of multiprocessing: each child imports the script first.
:func:`check_main_guard` refuses, in one line and before any child starts, a call from the top
level of a script without it, or from a script read from stdin (``python -``). The child
ignores SIGINT (the user's Ctrl-C is its parent's business; a ``KeyboardInterrupt`` inside it
is the agent's own and a fault like any exception, ``SystemExit`` included) and exits by itself
within a second when its parent dies (:mod:`.lifeline`).
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import functools
import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np

from kinghill.envs import Answer, FrameView
from kinghill.envs.game.decisions import describe
from kinghill.experiments.tournaments.lifeline import follow_parent

GRACE = 0.25
"""Seconds an answer may take beyond the decision's time to come through the pipe."""
BUILD_TIMEOUT = 120.0
"""Seconds an agent may take to be built (a policy checkpoint to load) before it is an error."""


class AgentStartError(RuntimeError):
    """An agent process could not build its agent (the message says why) or did not start."""


class MissingMainGuard(AgentStartError):
    """The script that plays frames cannot be imported again by the processes it spawns."""


GUARD = 'if __name__ == "__main__":'


def check_main_guard() -> None:
    """Refuse to spawn processes that would fail importing the script that runs this one: each
    spawned process imports the main script first, which reruns a call made at its top level
    without the ``if __name__ == "__main__":`` guard (and each child dies trying to spawn its
    own), and cannot read a script that came from stdin. Interactive sessions and
    ``python -c`` have no script to import, and pass.

    :raises MissingMainGuard: the script has no guard around the call, or came from stdin.
    """
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not isinstance(path, str):
        return
    if not os.path.isfile(path):
        raise MissingMainGuard(
            f"the script {path} (python -) cannot be read again by the processes that play "
            "the frames (they are spawned and import it first): save it to a file, with the "
            f"call under {GUARD}"
        )
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and not (
        frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"
    ):
        frame = frame.f_back
    if frame is None or not os.path.samefile(frame.f_code.co_filename, path):
        return
    if not _guarded(path, frame.f_lineno):
        raise MissingMainGuard(
            f"{path}, line {frame.f_lineno}: put the call under {GUARD} (the processes that "
            "play the frames are spawned and import the script first: without the guard each "
            "would run it again)"
        )


@functools.lru_cache(maxsize=8)
def _guarded(path: str, line: int) -> bool:
    """Whether ``line`` of the script ``path`` lies in the body of an ``if`` that tests
    ``__name__`` against ``"__main__"`` (a script that cannot be parsed passes)."""
    try:
        tree = ast.parse(Path(path).read_bytes(), path)
    except (OSError, SyntaxError, ValueError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and node.body:
            names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
            texts = {n.value for n in ast.walk(node.test) if isinstance(n, ast.Constant)}
            body_lines = range(node.body[0].lineno, (node.body[-1].end_lineno or 0) + 1)
            if "__name__" in names and "__main__" in texts and line in body_lines:
                return True
    return False


def restart_seed(seed: int | None, restarts: int) -> int | None:
    """The seed of an agent built again after ``restarts`` replacements: a function of its frame
    seed and that count only (``seed`` itself when it has never been replaced)."""
    if seed is None or restarts == 0:
        return seed
    state = np.random.SeedSequence(seed, spawn_key=(restarts,)).generate_state(1)
    return int(state[0])


class AgentProcess:
    """One seat's agent, in a child process that is started on first use and kept for the next
    frames (:meth:`build` makes a fresh agent in it for each frame)."""

    def __init__(self) -> None:
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._spare: _Child | None = None
        self._spec = ""
        self._seed: int | None = None
        self._maker: Maker | None = None
        self.restarts = 0
        """Times the agent was replaced since the last :meth:`build` (cut off, or died)."""

    def build(self, spec: str, seed: int | None, maker: Maker | None = None) -> None:
        """Make a fresh agent ``spec`` seeded with ``seed`` for a new frame: ``maker(spec,
        seed)`` when given (it is pickled to the process), else ``make_agent(spec, seed)``.

        :raises AgentStartError: the spec cannot be built (the agent's own error in the message).
        """
        self._spec, self._seed, self._maker, self.restarts = spec, seed, maker, 0
        self._build(seed)

    def decide(self, view: FrameView, limit: float) -> Answer:
        """The agent's answer for ``view``, cut off after ``limit`` seconds (the decision's time
        allowed, or the cap on an untimed one): then the answer is ``timed_out`` and the agent
        is replaced. Never raises for what the agent does. Interrupted itself (Ctrl-C while
        the agent thinks), it kills the child, whose answer would come too late, and lets the
        interruption through; the next :meth:`build` starts a fresh one."""
        try:
            return self._decide(view, limit)
        except BaseException:
            if self._process is not None:
                self._process.kill()
            self._stop_child()
            raise

    def _decide(self, view: FrameView, limit: float) -> Answer:
        conn = self._running()
        started = time.perf_counter()
        try:
            conn.send(("act", view))
        except OSError:  # the child is gone already (killed from outside)
            fault = f"its process died ({self._exit_status()})"
            self._replace()
            return Answer(seconds=0.0, fault=fault)
        if not conn.poll(limit + GRACE):
            seconds = time.perf_counter() - started
            self._replace()
            return Answer(seconds=seconds, fault=f"no decision within {limit:g} s", timed_out=True)
        try:
            kind, value, seconds, claimed_at = conn.recv()
        except (EOFError, ConnectionError):
            fault = f"its process died ({self._exit_status()})"
            self._replace()
            return Answer(seconds=time.perf_counter() - started, fault=fault)
        except Exception as error:  # the answer itself cannot be unpickled here
            return Answer(
                seconds=time.perf_counter() - started, fault=f"unreadable answer: {error}"
            )
        if kind == "fault":
            return Answer(seconds=seconds, fault=value, claimed_at=claimed_at)
        return Answer(value, seconds, claimed_at=claimed_at)

    def close(self) -> None:
        """Stop the child and any spare (politely, then by force)."""
        spare, self._spare = self._spare, None
        _LIVE.discard(self)
        if spare is not None:
            _stop(*spare)
        self._stop_child()

    def _stop_child(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if process is not None and conn is not None:
            _stop(process, conn)

    # ---- inside --------------------------------------------------------------------------------
    def _running(self) -> Connection:
        if self._conn is None:
            raise RuntimeError("AgentProcess.build() first")
        return self._conn

    def _build(self, seed: int | None) -> None:
        if self._process is None or not self._process.is_alive():
            self._stop_child()
            spare, self._spare = self._spare, None
            if spare is not None and not spare[0].is_alive():
                _stop(*spare)
                spare = None
            self._process, self._conn = spare or _launch()
            _LIVE.add(self)
        conn = self._running()
        conn.send(("build", (self._spec, seed, self._maker, sys.path, os.getcwd())))
        if not conn.poll(BUILD_TIMEOUT):
            self.close()
            raise AgentStartError(f"agent {self._spec!r} was not built in {BUILD_TIMEOUT:g} s")
        try:
            kind, error = conn.recv()
        except (EOFError, ConnectionError):
            status = self._exit_status()
            self.close()
            raise AgentStartError(f"the process of agent {self._spec!r} died ({status})") from None
        if kind == "failed":
            raise error

    def _replace(self) -> None:
        """Kill the child, build the agent again in a fresh one (see the module doc), and start
        a spare for the next time: an agent that failed once may fail again, and a spare has
        done its imports by then."""
        if self._process is not None:
            self._process.kill()
        self._stop_child()
        self.restarts += 1
        self._build(restart_seed(self._seed, self.restarts))
        if self._spare is None:
            self._spare = _launch()

    def _exit_status(self) -> str:
        process = self._process
        if process is None:
            return "not started"
        process.join(1.0)
        code = process.exitcode
        if code is None:
            return "still running"
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"


Maker = Callable[[str, Any], Any]
"""Builds an agent from its name and seed (picklable: it is sent to the agent process)."""
_Child = tuple[multiprocessing.process.BaseProcess, Connection]
"""An agent process and the parent's end of its pipe."""


def _launch() -> _Child:
    """Start an agent process (it imports the agents, then waits for orders)."""
    check_main_guard()
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    from_main_thread = threading.current_thread() is threading.main_thread()
    process = context.Process(
        target=_serve,
        args=(theirs, os.getpid(), from_main_thread),
        name="kinghill-agent",
        daemon=True,
    )
    process.start()
    theirs.close()
    return process, mine


def _stop(process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
    """Ask an agent process to end; kill it when it does not within a second."""
    with contextlib.suppress(OSError):
        conn.send(("close", None))
    process.join(1.0)
    if process.is_alive():
        process.kill()
        process.join()
    conn.close()


def _serve(conn: Connection, parent: int, pdeathsig: bool) -> None:
    """The child's loop: build agents and answer for them until told to stop. The compiled
    kernels are loaded first (from the cache the parent filled), so that no first decision is
    charged for the load."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    follow_parent(parent, pdeathsig)
    from kinghill.agents import make_agent
    from kinghill.envs.planning import warm_up

    warm_up()

    agent: Any = None
    while True:
        try:
            kind, payload = conn.recv()
        except EOFError:  # the parent closed its end
            return
        if kind == "close":
            return
        if kind == "build":
            spec, seed, maker, path, folder = payload
            sys.path[:] = path  # the agent is built as the parent would build it, even if the
            importlib.invalidate_caches()  # parent's sys.path changed since this one started
            os.chdir(folder)  # or its folder: a spec's relative path (policy:runs/a.zip) too
            try:
                agent = (maker or make_agent)(spec, seed)
            except Exception as error:
                _send(
                    conn,
                    ("failed", error),
                    ("failed", AgentStartError(f"{type(error).__name__}: {error}")),
                )
                continue
            conn.send(("built", None))
            continue
        kind, value, seconds, claimed_at = reply = _act(agent, payload)
        why = f"returned a {type(value).__name__} that cannot be sent to the match"
        _send(conn, reply, ("fault", why, seconds, claimed_at))


def _act(agent: Any, view: FrameView) -> tuple[str, object, float, float | None]:
    """One decision, as sent back: ("action", value, ...) or ("fault", why, ...)."""
    start = time.perf_counter()
    try:
        value = agent.act(view)
    except BaseException as error:  # SIGINT is ignored here: even KeyboardInterrupt is its own
        return ("fault", describe(error), time.perf_counter() - start, None)
    claimed_at = None if view.clock is None else view.clock.claimed_at
    return ("action", value, time.perf_counter() - start, claimed_at)


def _send(conn: Connection, message: tuple[Any, ...], instead: tuple[Any, ...]) -> None:
    """Send ``message``, or ``instead`` when it cannot be pickled (nothing is written then)."""
    try:
        conn.send(message)
    except Exception:
        conn.send(instead)


_LIVE: set[AgentProcess] = set()
"""Agent processes started by this process, stopped when it exits."""


@atexit.register
def _close_all() -> None:
    for agent in list(_LIVE):
        agent.close()
    _LIVE.clear()


_SEATS: list[AgentProcess] = []


def seat_processes() -> tuple[AgentProcess, AgentProcess]:
    """This process's two agent processes, one per seat, started on first use and kept for
    every frame it plays (a tournament worker plays many)."""
    while len(_SEATS) < 2:
        _SEATS.append(AgentProcess())
    return (_SEATS[0], _SEATS[1])
