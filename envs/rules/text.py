"""The rule book as text: ``docs/rules.md`` of the repository, shipped in the package (package
data ``kinghill/envs/rules/rules.md``) so that a wheel install reads the rules its referee cites
by number (``7.4``, ``R-route``) without a checkout."""

from __future__ import annotations

from importlib.resources import files


def rules_text() -> str:
    """The rule book, Markdown: every rule and project ruling, by number."""
    return files("kinghill.envs.rules").joinpath("rules.md").read_text(encoding="utf-8")
