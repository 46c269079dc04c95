"""``kinghill serve``'s command line: the options reach :func:`kinghill.experiments.serve.serve`
(localhost unless ``--host``), and bad ones are one-line errors before anything starts."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the serve extra")

import kinghill.experiments.serve as served  # noqa: E402
from kinghill.experiments.cli.app import main  # noqa: E402


def test_the_options_reach_serve_and_the_host_is_local_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(served, "serve", lambda *args, **kwargs: calls.append((args, kwargs)))
    status = main(["serve", "--out", str(tmp_path), "--agents", "random", "search", "random"])
    assert status == 130  # serve returns once stopped: Ctrl-C is 130, as for every command
    (out, agents), options = calls[0]
    assert out == tmp_path and agents == ("random", "search")
    assert options["host"] == "127.0.0.1" and options["port"] == 8000
    assert options["max_games"] == 8 and options["idle"] == 900.0


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["serve", "--agents", "nosuchagent"], "--agents"),
        (["serve", "--port", "0"], "--port"),
        (["serve", "--max-games", "0"], "--max-games"),
        (["serve", "--idle", "nan"], "--idle"),
        (["serve", "--agents", "search?budget=120", "search:120"], "--agents: 'search?budget"),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("kinghill serve: error:") and words in error and "\n" not in error


def test_a_tournaments_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tournament.json").write_text("{}")
    assert main(["serve", "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("kinghill serve: error: --out:") and "tournament" in error


def test_a_port_in_use_is_a_one_line_error_before_the_address_is_printed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The address was printed as where to play, then uvicorn's own error followed (exit 3)."""
    import socket

    calls: list[Any] = []
    monkeypatch.setattr(served, "serve", lambda *args, **kwargs: calls.append(args))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--out", str(tmp_path), "--port", str(port)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and calls == []
    error = captured.err.strip()
    assert error.startswith(f"kinghill serve: error: --port: cannot listen on 127.0.0.1:{port}")
    assert "\n" not in error


def test_ctrl_c_stops_the_server_with_status_130(tmp_path: Path) -> None:
    """Ctrl-C is status 130 for every command (docs/guide/agents.md); the server said 0."""
    import signal
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "kinghill.experiments.cli.app", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--out", str(tmp_path / "served"), "--agents", "random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout is not None
        assert "Ctrl-C stops it" in process.stdout.readline()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # listening: the server took over SIGINT
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "kinghill serve: stopped; the frames played are in" in err
