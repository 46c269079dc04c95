"""The tournaments and records libraries sit below the command line: they import nothing of
it, and their errors name the Python API's parameters, not options."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kinghill.experiments.tournaments as tournaments
from kinghill.experiments.cli.app import CommandError
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.knockout import KnockoutConfig
from kinghill.experiments.tournaments.options import FrameOptions

LIBRARIES = [
    Path(tournaments.__file__).parent,
    Path(tournaments.__file__).parent.parent / "records",
]


def imported(path: Path) -> set[str]:
    """Every module a file imports, lazily (inside functions) included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", [p for folder in LIBRARIES for p in sorted(folder.glob("*.py"))])
def test_a_library_module_imports_no_command_line(path: Path) -> None:
    assert not {name for name in imported(path) if name.startswith("kinghill.experiments.cli")}


def test_errors_name_parameters_and_are_no_usage_errors() -> None:
    assert not issubclass(TournamentError, CommandError)
    cases = [
        (lambda: TournamentConfig(("a",), 2), "agents"),
        (lambda: TournamentConfig(("a", "b"), 3), "frames"),
        (lambda: KnockoutConfig(("a", "b"), race=0), "race"),
        (lambda: FrameOptions(max_shots=0), "max_shots"),
        (lambda: KnockoutConfig(("a", "b"), options=FrameOptions(round=3)), "round"),
    ]
    for make, parameter in cases:
        with pytest.raises(TournamentError) as caught:
            make()
        assert caught.value.parameter == parameter
        assert "--" not in str(caught.value)


def test_the_package_face_gives_each_subcommands_api() -> None:
    for name in ("play_frame", "play_watched", "evaluate", "run_tournament", "run_knockout"):
        assert callable(getattr(tournaments, name)), name
    for name in ("replay", "export_dataset"):
        assert callable(getattr(tournaments, name)), name
    from kinghill.experiments import evaluate

    assert evaluate is tournaments.evaluate
