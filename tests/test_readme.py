"""The README is a front page that holds: its Python snippets run as scripts (in a subprocess,
where a missing ``__main__`` guard would show), its links lead somewhere, it stays short."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_is_a_front_page() -> None:
    assert len(README.splitlines()) <= 350
    assert "python3 -m pytest -q -n auto" in README


def test_ci_runs_the_readmes_test_command() -> None:
    """CI runs the suite as the README tells a user to (the second of its two commands)."""
    command = next(line for line in README.splitlines() if line.startswith("python3 -m pytest"))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line.split("  #")[0] == command for line in ci), command


def test_readme_names_every_shipped_model() -> None:
    """The front page lists the models that play by name (``kinghill agents``' shipped ones)."""
    from kinghill.agents.builtins import shipped

    missing = [b.name for b in shipped() if f"`{b.name}`" not in README]
    assert not missing, missing


def test_the_install_names_every_extra_and_what_ci_installs() -> None:
    """The README's install line and the getting-started page name every extra of
    pyproject.toml, and the README's account of CI names each extra ``.ci/run`` installs (a
    user of the README's ``.[dev]`` learns where ``serve`` and ``export-policy`` come from)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    install = next(line for line in README.splitlines() if "# extras:" in line)
    listed = {e.strip() for e in install.split("# extras:")[1].split(",")}
    assert extras - {"dev"} <= listed, extras - listed
    start = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert all(f"`{e}`" in start for e in extras), [e for e in extras if f"`{e}`" not in start]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = set(re.search(r'-e "\.\[([a-z,]+)\]"', ci)[1].split(",")) - {"dev"}  # type: ignore[index]
    account = next(line for line in README.splitlines() if "is what CI runs" in line)
    assert all(f"`{e}`" in account for e in installed), installed


def test_readme_has_a_python_example() -> None:
    assert BLOCKS


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs_as_a_script(code: str, tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_readme_links_lead_to_files() -> None:
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [t for t in targets if "://" not in t]
    assert local
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing, missing
