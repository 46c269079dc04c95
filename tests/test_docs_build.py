"""The documentation site builds with ``mkdocs build --strict``: a broken link, a missing page
or an API reference that cannot be resolved fails (skipped where mkdocs is not installed)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_docs_build_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    pytest.importorskip("material")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    manual = (tmp_path / "site" / "guide" / "environments" / "index.html").read_text()
    assert "Observation Space" in manual  # the env's class docstring became the page
    api = (tmp_path / "site" / "api" / "physics" / "index.html").read_text()
    assert "simulate" in api  # the reference was generated from the docstrings
    examples = (tmp_path / "site" / "guide" / "examples" / "index.html").read_text()
    assert "play_one_frame" in examples and "--8&lt;--" not in examples  # scripts included
