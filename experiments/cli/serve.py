"""``kinghill serve``: play a frame against an agent in a web browser, or watch two agents play
one (the Python API: :func:`kinghill.experiments.serve.serve`)."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from kinghill.experiments.cli.app import (
    UsageError,
    agent_name,
    bounded_int,
    output_dir,
    positive_float,
    positive_int,
    require_extra,
)

SERVE_MODULES = ("starlette", "uvicorn")
"""What the serve extra installs that the server imports: the page's app and its server."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill serve``."""
    parser = subparsers.add_parser(
        "serve",
        help="play an agent in a web browser, or watch two agents play (the serve extra)",
        description=(
            "A local web server (127.0.0.1 unless --host says otherwise): open the address it "
            "prints, pick an opponent and play a frame with the mouse and keys, or watch two "
            "agents play one. The page names agents only from --agents. Every frame is kept as "
            "a shot record in OUT/records/, written after every decision (kinghill replay, "
            "kinghill export). Ctrl-C stops the server."
        ),
        epilog="examples: kinghill serve; kinghill serve --agents random search "
        "'expert?budget=120' --port 8080",
    )
    parser.add_argument(
        "--agents",
        nargs="+",
        type=agent_name,
        metavar="SPEC",
        help="the agents a page may play or watch (default: the graded opponents beginner, "
        "casual, club, strong and master, shown with their ratings)",
    )
    parser.add_argument(
        "--out",
        type=output_dir,
        default=Path("runs/serve"),
        metavar="DIR",
        help="where every frame's record is kept (default: runs/serve)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0 lets "
        "anyone who reaches this machine play)",
    )
    parser.add_argument(
        "--port", type=bounded_int(1, 65535), default=8000, help="the port (default: 8000)"
    )
    parser.add_argument(
        "--max-games",
        type=positive_int,
        default=8,
        metavar="N",
        help="frames held at once; a new one beyond is refused once no finished frame can be "
        "let go (default: 8)",
    )
    parser.add_argument(
        "--idle",
        type=positive_float,
        default=900.0,
        metavar="SECONDS",
        help="a frame without a request this long is let go, its record kept (default: 900)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    require_extra("serve", "serve", SERVE_MODULES)  # uvicorn imported when it serves
    from kinghill.experiments.records.store import RECORDS_DIR, RecordError, check_not_tournament
    from kinghill.experiments.serve import DEFAULT_AGENTS, serve

    agents = tuple(dict.fromkeys(args.agents or DEFAULT_AGENTS))
    _check_one_each(agents)
    try:
        check_not_tournament(args.out)
    except RecordError as error:
        raise UsageError(str(error), "--out") from None
    _check_port(args.host, args.port)
    print(f"kinghill serve: http://{args.host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    serve(
        args.out,
        agents,
        host=args.host,
        port=args.port,
        max_games=args.max_games,
        idle=args.idle,
    )  # returns once stopped (Ctrl-C or SIGTERM): a command stopped so is status 130
    print(
        f"kinghill serve: stopped; the frames played are in {args.out / RECORDS_DIR}",
        file=sys.stderr,
    )
    return 130


def _check_port(host: str, port: int) -> None:
    """Refuse, in one line, an address the server cannot listen on (a port in use, a host
    not this machine's), before the address is printed as where to play."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            probe.bind((host, port))
    except OSError as error:
        raise UsageError(
            f"cannot listen on {host}:{port} ({error.strerror or error})", "--port"
        ) from None


def _check_one_each(agents: tuple[str, ...]) -> None:
    """Refuse two specs of one agent, as a tournament does: the page would list it twice."""
    from kinghill.agents import AgentSpecError, check_one_each

    try:
        check_one_each(agents)
    except AgentSpecError as error:
        raise UsageError(str(error), "--agents") from None
