"""docs/rules.md holds every rule number that the rulings, the code and the README cite."""

import ast
import re
from pathlib import Path

from test_rules_referee import CASES

from kinghill.envs.rules import judge

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
NUMBER = r"(?:1[0-2]|[1-8])\.[1-9](?:\.[1-9])?"
RULING = r"R-[a-z]+(?:-[a-z]+)*"
CITED_IN_CODE = re.compile(rf"(?<![\w.]){NUMBER}(?![\w.]*\d)|{RULING}")
"""A rule number anywhere in a string of the referee's code (it holds no other such numbers)."""
CITED_IN_PROSE = re.compile(rf"(?:[Rr]ules? |\(|, |–|foul |void ){NUMBER}(?![\w.×]*\d|×)|{RULING}")
"""A rule number in prose: after "rule", in parentheses or a list (prose has other numbers)."""


def documented() -> set[str]:
    """The numbers docs/rules.md defines: each entry starts its line with ``- **number**``."""
    entries = re.findall(r"^- \*\*([^*]+)\*\*", RULES.read_text(encoding="utf-8"), flags=re.M)
    return {e for e in entries if re.fullmatch(rf"{NUMBER}|{RULING}", e)}


def bare(citation: str) -> str:
    """``R-fouls(a)`` -> ``R-fouls``; a citation without its clause letter."""
    match = re.search(rf"{NUMBER}|{RULING}", citation)
    assert match, citation
    return match.group(0)


def code_citations(folder: Path, pattern: re.Pattern[str]) -> dict[str, str]:
    """Every rule number in the string literals and comments of ``folder``'s modules."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        texts = [
            node.value
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
        texts += [line.split("#", 1)[1] for line in source.splitlines() if "#" in line]
        for text in texts:
            for citation in pattern.findall(text):
                found.setdefault(citation, str(path.relative_to(ROOT)))
    return found


def test_rules_page_numbers_every_original_rule() -> None:
    numbers = documented()
    sections = {n.split(".")[0] for n in numbers if not n.startswith("R-")}
    assert sections == {str(s) for s in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12)}  # no 9 (R-fouls)
    assert {"1.1", "4.2", "7.5", "8.1.1", "10.5", "12.7", "R-route", "R-void"} <= numbers


def test_every_rule_the_code_cites_is_documented() -> None:
    numbers = documented()
    cited = code_citations(ROOT / "envs", CITED_IN_CODE)
    for folder in ("agents", "experiments", "physics"):  # numbers of other kinds there too
        cited |= code_citations(ROOT / folder, CITED_IN_PROSE)
    assert len(cited) > 40  # the referee cites most rules; an empty scan would pass vacuously
    missing = {c: where for c, where in cited.items() if bare(c) not in numbers}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_every_rule_a_ruling_names_is_documented() -> None:
    """The rule numbers of the referee's rulings on every hand-written case of its tests (the
    fouls' rules and the notes) are on the page."""
    numbers = documented()
    cited = set()
    for case in CASES:
        ruling = judge(case.frame, case.cue, case.call, case.events)
        cited |= {r for foul in ruling.fouls for r in foul.rules}
        cited |= set(CITED_IN_CODE.findall(ruling.text))
    assert len(cited) > 20
    assert {bare(c) for c in cited} <= numbers, {bare(c) for c in cited} - numbers


def test_the_manual_cites_only_documented_rules_and_links_the_page() -> None:
    """The README and the user guide (docs/guide/) cite rules only by numbers docs/rules.md has."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = [readme] + [p.read_text(encoding="utf-8") for p in (ROOT / "docs/guide").glob("*.md")]
    numbers = documented()
    cited: set[str] = set()
    for page in pages:
        prose = re.sub(r"```.*?```", "", page, flags=re.S)  # numbers in code are coordinates
        cited |= {bare(c) for c in CITED_IN_PROSE.findall(prose)}
    assert {"10.4", "R-route"} <= cited
    assert cited <= numbers, cited - numbers
    assert "(docs/rules.md)" in readme
    assert all("shared/spec" not in page for page in pages)
