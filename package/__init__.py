"""kinghill: King of the Hill (Russian pyramid) billiards, its physics, referee, environments,
agents and tournaments (``kinghill.physics``, ``kinghill.envs``, ``kinghill.agents``,
``kinghill.experiments``).

``__version__`` is the installed distribution's version (``pyproject.toml``'s, its one source);
run from a source tree that is not installed (a clone on ``PYTHONPATH``), it is read from that
tree's ``pyproject.toml``.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
"""The source tree's project file (this file lives in ``package/`` beside it)."""


def source_version(pyproject: Path = PYPROJECT) -> str:
    """The version ``pyproject`` declares (``[project] version``)."""
    with pyproject.open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


try:
    __version__ = version("kinghill")
except PackageNotFoundError:  # a source tree on the path, not installed
    __version__ = source_version()
