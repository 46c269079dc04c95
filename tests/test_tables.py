"""The figure tables of the README and the docs are what the committed reports give
(docs/tables.py), so prose and data cannot drift."""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_tables() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kinghill_doc_tables", ROOT / "docs/tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_readme_and_docs_tables_equal_what_the_reports_give() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "tables.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_the_readme_shows_both_tables() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "<!-- table:strength -->" in readme and "<!-- table:speed -->" in readme


def test_a_strength_figure_is_read_from_its_report() -> None:
    tables = load_tables()
    report = ROOT / "docs/strength/handmade-break/search-value-vs-search.md"
    agent = "search-value:docs/training/value-heuristic.npz?budget=110"
    score = tables.score_from_markdown(report, agent, "search")
    assert (score.text(), score.frames) == ("0.49 [0.43, 0.56]", 200)


def test_a_changed_report_changes_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = load_tables()
    strength = tmp_path / "strength"
    shutil.copytree(ROOT / "docs" / "strength", strength)
    before = tables.strength_table("")
    monkeypatch.setattr(tables, "STRENGTH", strength)
    (strength / "search-value-vs-search.json").unlink()  # the row read from its report.md
    report = strength / "search-value-vs-search.md"
    report.write_text(report.read_text().replace("0.51 [0.44, 0.58]", "0.49 [0.43, 0.56]"))
    after = tables.strength_table("")
    assert "0.51 [0.44, 0.58]" in before and "0.49 [0.43, 0.56]" in after


def test_a_json_report_is_preferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = load_tables()
    strength = tmp_path / "strength"
    shutil.copytree(ROOT / "docs" / "strength", strength)
    monkeypatch.setattr(tables, "STRENGTH", strength)
    rate = {"wins": 190, "frames": 200, "win_rate": {"estimate": 0.95, "low": 0.91, "high": 0.97}}
    report = {"frames_played": 200, "win_rates": {"heuristic": {"random": rate}}}
    (strength / "heuristic-vs-random.json").write_text(json.dumps(report))
    table = tables.strength_table("../strength/")
    row = next(line for line in table.splitlines() if line.startswith("| heuristic vs random"))
    assert "0.95 [0.91, 0.97]" in row and "heuristic-vs-random.json" in row


def test_the_speed_table_comes_from_both_engines_results() -> None:
    tables = load_tables()
    kinghill = json.loads((ROOT / "benchmarks/peer/results/kinghill.json").read_text())
    table = tables.speed_table("")
    assert f"{kinghill['peer']['random']['shots_per_s']:,.0f} shots/s" in table


def test_a_row_renamed_since_its_report_plays_the_same_agents() -> None:
    """A row whose command names a shipped model by name reads its report under the spec the
    report was played with (``reported``): the two are one agent (one canonical id)."""
    from kinghill.agents import canonical_id

    rows = json.loads((ROOT / "docs/strength/rows.json").read_text())["rows"]
    renamed = [row for row in rows if "reported" in row]
    assert renamed
    for row in renamed:
        given = [canonical_id(row["agent"]), canonical_id(row["opponent"])]
        assert given == [canonical_id(spec) for spec in row["reported"]], row["id"]
