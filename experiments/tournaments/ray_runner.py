"""Play tournament frames as Ray tasks, when one machine is not enough (the ``ray`` extra).

The frames, seeds and records are the same as with local processes; only where they run changes.
Every Ray worker needs kinghill installed (and the frame player's module importable).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from kinghill.envs.planning import warm_up
from kinghill.experiments.tournaments.errors import TournamentError

if TYPE_CHECKING:
    from kinghill.experiments.tournaments.frames import FrameOutcome, FrameTask
    from kinghill.experiments.tournaments.runners import FrameRunner


def import_ray() -> ModuleType:
    """Import Ray or say how to install it."""
    try:
        import ray
    except ImportError:
        raise TournamentError(
            "needs Ray: pip install 'kinghill[ray]' (or pip install 'ray[default]')", "ray"
        ) from None
    return ray


def on_ray(address: str) -> FrameRunner:
    """A frame runner on the Ray cluster at ``address`` ('auto', or 'local' to start one here).

    If the run stops early (Ctrl-C, SIGTERM, an error, or the consumer closing the iterator),
    the frames not yet returned are cancelled (``ray.cancel``, force: a frame in play is lost
    and played again on resume, as with local workers), so a shared cluster does not go on
    playing them; a Ray instance started here is shut down.
    """
    ray = import_ray()

    def run(
        play: Callable[[FrameTask], FrameOutcome], tasks: Sequence[FrameTask]
    ) -> Iterator[FrameOutcome]:
        started_here = not ray.is_initialized()
        if started_here:
            ray.init(address=None if address == "local" else address, log_to_driver=False)
        try:
            remote_play = ray.remote(_play)
            shared_play = ray.put(play)
            pending = [remote_play.remote(shared_play, task) for task in tasks]
            try:
                while pending:
                    done, pending = ray.wait(pending, num_returns=1)
                    yield ray.get(done[0])
            except BaseException:  # also GeneratorExit: the consumer stopped early
                for ref in pending:
                    ray.cancel(ref, force=True)
                raise
        finally:
            if started_here:
                ray.shutdown()

    return run


@contextlib.contextmanager
def connected(address: str) -> Iterator[None]:
    """Ray joined (or, for 'local', started) once for several runs of :func:`on_ray`, such as
    a ladder's pairs, instead of once a run; shut down at the end when started here."""
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=None if address == "local" else address, log_to_driver=False)
    try:
        yield
    finally:
        if started_here:
            ray.shutdown()


def _play(play: Callable[[FrameTask], FrameOutcome], task: FrameTask) -> FrameOutcome:
    """The Ray task: play one frame (a plain function, as ``ray.remote`` wants), the kernels
    loaded first (a no-op after a worker's first frame), so that no decision is charged for it."""
    warm_up()
    return play(task)
