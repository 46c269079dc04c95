"""``kinghill --version`` prints the installed version, the one pyproject.toml sets."""

import re
from pathlib import Path

import pytest

from kinghill.experiments import cli

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_version_is_the_projects(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0  # main returns the exit status (experiments/cli/app.py)
    expected = re.search(r'^version = "(.+)"$', PYPROJECT.read_text(), re.M).group(1)  # type: ignore[union-attr]
    assert capsys.readouterr().out == f"kinghill {expected}\n"
