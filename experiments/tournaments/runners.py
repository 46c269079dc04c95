"""Frame runners: how a tournament's frames are played, in this process or in worker processes
(:func:`kinghill.experiments.tournaments.ray_runner.on_ray` on Ray), and the frame player a
``module:function`` spec names."""

from __future__ import annotations

import concurrent.futures
import importlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.process import BaseProcess
from typing import Any

from kinghill.envs.planning import warm_up
from kinghill.experiments.tournaments.agent_process import check_main_guard
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameOutcome, FramePlayer, FrameTask
from kinghill.experiments.tournaments.lifeline import follow_parent

DEFAULT_PLAYER = "kinghill.experiments.tournaments.frame_player:play_frame"
MOVED_PLAYERS = {"kinghill.experiments.match:play_frame": DEFAULT_PLAYER}
"""Frame players' old specs (before the modules moved), still accepted."""


FrameRunner = Callable[
    [Callable[[FrameTask], FrameOutcome], Sequence[FrameTask]], Iterator[FrameOutcome]
]
"""Plays tasks with a picklable play function and yields records as frames end."""


def in_process(
    play: Callable[[FrameTask], FrameOutcome], tasks: Sequence[FrameTask]
) -> Iterator[FrameOutcome]:
    """Play the frames one after the other in this process."""
    return map(play, tasks)


def in_worker_processes(jobs: int) -> FrameRunner:
    """Play the frames in ``jobs`` spawned worker processes, yielding in completion order.

    If the run stops early (an error, Ctrl-C, or SIGTERM under ``kinghill tournament``), the
    workers are terminated at once: frames already yielded are kept, the frames in play are
    lost and played again on resume. Workers ignore SIGINT (a terminal's Ctrl-C reaches them
    too): the parent stops them. A parent killed outright (SIGKILL) cannot: then each worker
    notices that its parent is gone and exits within a second (:mod:`.lifeline`).
    """

    def run(
        play: Callable[[FrameTask], FrameOutcome], tasks: Sequence[FrameTask]
    ) -> Iterator[FrameOutcome]:
        check_main_guard()  # each worker imports the main script first
        warm_up()  # a cold compile of the kernels here, once, not in every worker
        context = _KeptProcesses()
        from_main_thread = threading.current_thread() is threading.main_thread()
        pool = concurrent.futures.ProcessPoolExecutor(
            jobs,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), from_main_thread),
        )
        try:
            pending = [pool.submit(play, task) for task in tasks]
            for done in concurrent.futures.as_completed(pending):
                yield done.result()
        except BaseException:  # also GeneratorExit: the consumer stopped early
            for worker in context.started:
                worker.terminate()
            raise
        finally:
            pool.shutdown(cancel_futures=True)

    return run


class _KeptProcesses(multiprocessing.context.SpawnContext):
    """The spawn start method, keeping every process it makes in :attr:`started`: the executor
    starts its workers through its context's ``Process``, and terminating them is the runner's
    own business (the executor offers no public way before Python 3.14's
    ``terminate_workers``)."""

    def __init__(self) -> None:
        super().__init__()
        self.started: list[BaseProcess] = []

    # typeshed types the attribute as the process class; the executor only calls it
    def Process(self, *args: Any, **kwargs: Any) -> BaseProcess:  # type: ignore[override]  # noqa: N802
        """A spawned process, kept."""
        process = super().Process(*args, **kwargs)
        self.started.append(process)
        return process


def _start_worker(parent: int, pdeathsig: bool) -> None:
    """A worker's first act: ignore Ctrl-C (the parent stops it), die with the parent, and load
    the compiled kernels (from the cache the parent filled), so that no agent's first decision
    is charged for the load."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    follow_parent(parent, pdeathsig)
    warm_up()


def canonical_player(spec: str) -> str:
    """A frame player's spec, an old one (from before the modules moved) as its new one."""
    return MOVED_PLAYERS.get(spec, spec)


def load_frame_player(spec: str = DEFAULT_PLAYER) -> FramePlayer:
    """Import the frame player named ``module:function`` (lazily, so tests need no env)."""
    module_name, _, name = canonical_player(spec).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise TournamentError(
            f"cannot import the frame player module {module_name!r}: {error}", "player"
        ) from None
    player = getattr(module, name or "play_frame", None)
    if not callable(player):
        raise TournamentError(f"{module_name} has no frame player {name!r}", "player")
    return player
