"""docs/guide/architecture.md, the map of the code for newcomers, names only what exists: every
``kinghill.…`` name on it imports (a module, or an attribute of one), every repository path on
it is a file or folder, and a function or class placed in a file (`` `judge`, `envs/rules/x.py`
``) is defined there. A module moved or renamed without the map fails here."""

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guide" / "architecture.md"
TEXT = PAGE.read_text()
FOLDERS = "physics|envs|agents|experiments|tests|benchmarks|docs|examples"

NAME = re.compile(r"\bkinghill(?:\.\w+)+")
PATH = re.compile(rf"`((?:{FOLDERS})(?:/[\w.-]+)*/?|[\w-]+\.(?:toml|yml))`")
PLACED = re.compile(rf"`([A-Za-z_][\w.]*)`,?\s+\(?`((?:{FOLDERS})/[\w/]+\.py)`")


def named_objects(text: str) -> list[str]:
    """The dotted ``kinghill.…`` names on the page."""
    return sorted(set(NAME.findall(text)))


def named_paths(text: str) -> list[str]:
    """The repository paths quoted on the page: under a top folder, or a file at the top."""
    return sorted(set(PATH.findall(text)))


def placed_names(text: str) -> list[tuple[str, str]]:
    """(name, file) for each name the page puts in a file: `` `name` (`file`) ``."""
    return sorted(set(PLACED.findall(text)))


def resolve(name: str) -> object:
    """The module a dotted name is, or the attribute of its longest module prefix."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            value: object = importlib.import_module(module)
            for attribute in parts[cut:]:
                value = getattr(value, attribute)
            return value
    raise ModuleNotFoundError(name)


def defines(source: str, name: str) -> bool:
    """Whether ``source`` defines ``name`` (a function, a class or a constant), or for
    ``Class.member`` the class and the member (``kinghill.x.name``: the name)."""
    if name.startswith("kinghill."):
        name = name.rsplit(".", 1)[1]
    *owner, member = name.split(".")
    if owner and not re.search(rf"^class {owner[0]}\b", source, re.M):
        return False
    return bool(re.search(rf"^\s*(?:def|class) {member}\b|^{member}\b[^=\n]*=", source, re.M))


def test_the_page_names_modules_paths_and_where_things_are() -> None:
    """The parsers find what the page is about (a parser that found nothing would pass)."""
    assert {"kinghill.physics", "kinghill.envs.rules", "kinghill.agents"} <= set(
        named_objects(TEXT)
    )
    assert {"envs/game/loop.py", "agents/registry.py", "experiments/cli/app.py"} <= set(
        named_paths(TEXT)
    )
    assert ("judge", "envs/rules/referee.py") in placed_names(TEXT)


@pytest.mark.parametrize("name", named_objects(TEXT))
def test_each_named_module_imports(name: str) -> None:
    assert resolve(name) is not None, f"{PAGE.name} names {name}, which does not resolve"


@pytest.mark.parametrize("path", named_paths(TEXT))
def test_each_named_path_exists(path: str) -> None:
    assert (ROOT / path).exists(), f"{PAGE.name} names {path}, which is not in the repository"


@pytest.mark.parametrize(("name", "path"), placed_names(TEXT))
def test_each_placed_name_is_defined_there(name: str, path: str) -> None:
    source = (ROOT / path).read_text()
    assert defines(source, name), f"{PAGE.name} puts {name} in {path}, which does not define it"


def test_a_missing_module_path_or_definition_is_caught() -> None:
    with pytest.raises((ModuleNotFoundError, AttributeError)):
        resolve("kinghill.envs.no_such_room")
    with pytest.raises(AttributeError):
        resolve("kinghill.physics.no_such_function")
    assert named_paths("`physics/no_such.py`") == ["physics/no_such.py"]
    assert not (ROOT / "physics/no_such.py").exists()
    source = "class Game:\n    def play(self) -> None: ...\n\nLIMIT = 3\n"
    assert defines(source, "Game.play") and defines(source, "Game") and defines(source, "LIMIT")
    assert not defines(source, "Game.settle") and not defines(source, "Frame.play")
    assert not defines(source, "judge") and defines(source, "kinghill.envs.game.loop.LIMIT")
