"""Every example in examples/ runs as a script, in a subprocess, as a user would run it: the
ones that spawn agent processes fail here without their ``if __name__ == "__main__":`` guard."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def run_script(script: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args], cwd=cwd, capture_output=True, text=True, timeout=540
    )


def test_every_example_is_linked_from_the_readme_and_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = (ROOT / "docs" / "guide" / "examples.md").read_text(encoding="utf-8")
    assert len(EXAMPLES) >= 5
    for script in EXAMPLES:
        assert f"examples/{script.name}" in readme, script.name
        assert f"examples/{script.name}" in docs, script.name


def test_every_example_guards_its_entry_point() -> None:
    for script in EXAMPLES:
        assert 'if __name__ == "__main__":' in script.read_text(encoding="utf-8"), script.name


@pytest.mark.parametrize("script", EXAMPLES, ids=[s.stem for s in EXAMPLES])
def test_example_runs_as_a_script(script: Path, tmp_path: Path) -> None:
    done = run_script(script, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "the example printed nothing"


def test_record_and_replay_writes_its_files(tmp_path: Path) -> None:
    done = run_script(ROOT / "examples" / "record_and_replay.py", tmp_path, "out")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "out" / "frame1.gif").stat().st_size > 0
    assert (tmp_path / "out" / "data.npz").stat().st_size > 0
