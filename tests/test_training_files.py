"""Issue 36.6: ``docs/training/`` holds what the docs cite. Every file there is cited by the
README, a page of the manual (``docs/**/*.md``) or the zoo (a path ``docs/training/NAME``, or a
link ``training/NAME``, ``../training/NAME``; a file inside a cited folder counts as cited), and
every such citation names a file or folder that is there, or a shipped model that moved from
there into the package (committed reports keep the commands they ran, which play the shipped
file: :func:`kinghill.agents.builtins.moved_path`)."""

from __future__ import annotations

import re
from pathlib import Path

from kinghill.agents.builtins import data_path

ROOT = Path(__file__).resolve().parents[1]
TRAINING = ROOT / "docs" / "training"
CITATION = re.compile(r"(?:(?<=[\s(`:\"'\[=])|^)(?:\.\./)*(?:docs/)?training/([\w.\-/]+)", re.M)


def citing_texts() -> dict[Path, str]:
    """The texts that may cite a training file: the README, the manual and the zoo."""
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    paths += sorted((ROOT / "experiments" / "ladder" / "zoo").glob("*.json"))
    return {path: path.read_text(encoding="utf-8") for path in paths}


def citations(text: str) -> set[str]:
    """The training paths ``text`` names, relative to ``docs/training`` (no trailing dot or
    slash)."""
    return {match.rstrip("./") for match in CITATION.findall(text) if match.rstrip("./")}


def test_citations_are_found_in_the_forms_the_docs_use() -> None:
    text = (
        "`policy:docs/training/maskable-heuristic.zip`, [curve](training/expert2.png). "
        "![x](../training/rllib-selfplay/) see docs/training.md and experiments/training/a.py, "
        "expert:docs/training/expert2.npz?budget=120"
    )
    assert citations(text) == {
        "maskable-heuristic.zip",
        "expert2.png",
        "rllib-selfplay",
        "expert2.npz",
    }


def test_every_training_file_is_cited_and_every_citation_is_there() -> None:
    cited: dict[str, Path] = {}
    for path, text in citing_texts().items():
        for name in citations(text):
            cited.setdefault(name, path)
    missing = {name: str(path.relative_to(ROOT)) for name, path in cited.items()
               if not (TRAINING / name).exists() and not data_path(name).exists()}  # fmt: skip
    assert not missing, f"cited but not in docs/training/: {missing}"
    files = [p.relative_to(TRAINING).as_posix() for p in TRAINING.rglob("*") if p.is_file()]
    uncited = [
        name for name in files if not any(name == c or name.startswith(c + "/") for c in cited)
    ]
    assert not uncited, f"in docs/training/ but cited by nothing: {sorted(uncited)}"
