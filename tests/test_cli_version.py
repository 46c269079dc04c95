"""``kinghill.__version__`` and ``kinghill --version`` are the installed distribution's version,
the one pyproject.toml sets (issue 39 item 13), also in the source tree CI's static tools use
(``.ci/with-source-tree``, no install on the path)."""

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import kinghill
from kinghill.experiments import cli

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
EXPECTED = re.search(r'^version = "(.+)"$', PYPROJECT.read_text(), re.M).group(1)  # type: ignore[union-attr]


def test_version_is_the_projects(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0  # main returns the exit status (experiments/cli/app.py)
    assert capsys.readouterr().out == f"kinghill {EXPECTED}\n"


def test_the_package_has_the_installed_version() -> None:
    assert kinghill.__version__ == version("kinghill") == EXPECTED
    assert kinghill.source_version() == EXPECTED


def test_the_source_tree_not_installed_reads_pyproject() -> None:
    """``python -S -P``: no site-packages and not the working folder (the repository, with the
    editable install's ``kinghill.egg-info``), so no kinghill metadata; the source tree's
    package reads its version from pyproject.toml."""
    code = (
        "import importlib.metadata as m, kinghill\n"
        "try:\n    m.version('kinghill')\nexcept m.PackageNotFoundError:\n    print('none')\n"
        "print(kinghill.__version__)"
    )
    shown = subprocess.run(
        [str(ROOT / ".ci" / "with-source-tree"), sys.executable, "-S", "-P", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert shown == ["none", EXPECTED]
