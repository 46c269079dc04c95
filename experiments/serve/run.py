"""Run the server: the frames' table, the application, and uvicorn on a local address."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from kinghill.envs.planning import warm_up
from kinghill.experiments.serve.levels import LEVELS, agent_ratings
from kinghill.experiments.serve.tables import Tables

DEFAULT_AGENTS = LEVELS
"""The agents a page may name when the server is given none: the graded opponents."""
DEFAULT_HOST = "127.0.0.1"
"""Only this machine reaches the server unless ``host`` says otherwise."""


def serve(
    out: Path = Path("runs/serve"),
    agents: Sequence[str] = DEFAULT_AGENTS,
    *,
    host: str = DEFAULT_HOST,
    port: int = 8000,
    max_games: int = 8,
    idle: float = 900.0,
    ratings: Mapping[str, str] | None = None,
) -> None:
    """Serve the page on ``host:port`` until interrupted; each frame's record goes to
    ``out/records/``. A page may name only ``agents`` (specs built here: a request never
    imports anything); at most ``max_games`` frames at once, each let go after ``idle``
    seconds without a request; ``ratings`` shown beside the agents' names (default: those
    measured, :func:`~kinghill.experiments.serve.levels.agent_ratings`). Bound to another host
    than this machine's, the server answers any Host header (whoever can reach the address can
    play)."""
    import uvicorn  # the serve extra, imported here: kinghill agents reads the levels without it

    from kinghill.experiments.serve.app import LOCAL_HOSTS, create_app

    warm_up()  # the kernels compiled (or loaded) before the first page waits on them
    tables = Tables(out, agents, max_games=max_games, idle=idle)
    local = host in LOCAL_HOSTS
    shown = agent_ratings(agents) if ratings is None else ratings
    app = create_app(tables, ratings=shown, allowed_hosts=LOCAL_HOSTS if local else None)
    uvicorn.run(app, host=host, port=port, log_level="warning")
