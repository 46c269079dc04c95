"""Every source folder is a declared package, so a plain (non-editable) install holds it all."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("physics", "envs", "agents", "experiments")


def test_every_source_folder_is_declared_with_its_path() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        path.parent.relative_to(ROOT).as_posix()
        for top in TOP
        for path in (ROOT / top).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    expected = {"kinghill." + folder.replace("/", "."): folder for folder in folders}
    assert set(setuptools["packages"]) == set(expected)
    assert setuptools["package-dir"] == expected
