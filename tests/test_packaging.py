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
    expected["kinghill"] = "package"  # kinghill/__init__.py (its __version__)
    assert set(setuptools["packages"]) == set(expected)
    assert setuptools["package-dir"] == expected


def test_every_file_that_is_not_python_is_package_data() -> None:
    """Files a package reads at run time (the report page's template, script and style) are
    declared, so that a wheel holds them."""
    from fnmatch import fnmatch

    tomllib = pytest.importorskip("tomllib")
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    data = setuptools["package-data"]
    for package, folder in setuptools["package-dir"].items():
        patterns = data.get("*", []) + data.get(package, [])
        for path in (ROOT / folder).rglob("*"):
            inside = path.relative_to(ROOT / folder)
            if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in inside.parts:
                continue
            home = next(p for p in path.parents if (p / "__init__.py").exists())
            if home != ROOT / folder:
                continue  # a sub-package's file: checked under that package
            assert any(fnmatch(inside.as_posix(), p) for p in patterns), path
