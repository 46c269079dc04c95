"""Every ``kinghill`` command's ``--help`` reads as plain text and describes every option."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from kinghill.experiments.cli.app import Deprecated, build_parser, plain_text

MARKUP = re.compile(r"``|`[^`\s]+`_|:(?:class|func|meth|mod|data|attr|obj|ref|exc):`")
"""reStructuredText and Sphinx markup: literals, links and roles."""


def _parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The main parser and every subcommand's, by their command lines."""
    pending = [("kinghill", build_parser())]
    while pending:
        name, parser = pending.pop()
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending += [(f"{name} {sub}", p) for sub, p in action.choices.items()]


PARSERS = dict(_parsers())


def test_every_subcommand_is_walked() -> None:
    assert {"kinghill play", "kinghill tournament", "kinghill train"} <= set(PARSERS)
    assert len(PARSERS) >= 7


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_help_has_no_sphinx_markup(name: str) -> None:
    text = PARSERS[name].format_help()
    assert not MARKUP.findall(text), MARKUP.findall(text)


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_every_option_is_described(name: str) -> None:
    """Each option's help says what it is, not only its default."""
    for action in PARSERS[name]._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction, Deprecated)):
            continue  # a former spelling, hidden from the help
        words = re.sub(r"\(default:[^)]*\)", "", action.help or "").split()
        assert action.help != argparse.SUPPRESS and len(words) >= 2, (
            name,
            action.option_strings or action.dest,
            action.help,
        )


def test_plain_text_drops_the_markup_and_keeps_the_words() -> None:
    text = "See :class:`~kinghill.physics.TableGeometry`, :func:`kinghill.physics.simulate`, "
    text += "``--suite``."
    assert plain_text(text) == "See TableGeometry, kinghill.physics.simulate, --suite."
