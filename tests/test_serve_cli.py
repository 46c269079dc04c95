"""``kinghill serve``'s command line: the options reach :func:`kinghill.experiments.serve.serve`
(localhost unless ``--host``), and bad ones are one-line errors before anything starts."""

from __future__ import annotations

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
    assert status == 0
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
