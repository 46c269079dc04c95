"""Issue 39: hostile and hurried command lines, for every subcommand (a property test): whatever
the words, ``kinghill`` answers with its help, runs, or refuses in one line
``kinghill[ SUB]: error: ...`` with exit status 2 — never a traceback. The subcommands' ``run``
is replaced by one that does nothing, so that what this tests is the parsing and the values'
validators, and no frame is ever played."""

from __future__ import annotations

import argparse
import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kinghill.experiments import cli
from kinghill.experiments.cli.app import SUBCOMMAND_MODULES, build_parser

PARSER = build_parser()
SUBPARSERS = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction))
FLAGS = {name: sorted(p._option_string_actions) for name, p in SUBPARSERS.choices.items()}
HOSTILE = [
    "", " ", "-", "--", "-1", "0", "1", "2", "3", "nan", "inf", "-inf", "1e999", "0x10", "1.5",
    "é", "🎱", "a" * 300, "/", "/proc/kinghill", "/dev/null", ".", "..", "x.gif", "x.npz",
    "x.json", "random", "heuristic", "search:0", "search:-1s", "policy:", "nosuch",
    "a=b=c", "=random", "mypkg.nosuch:Agent?x=", "on", "off", "knockout", "variable",
    "-5e-324", "\t", "\x00", "runs/t\x00", "--help",
]  # fmt: skip
"""Values a hurried or hostile user types."""


def words(command: str) -> st.SearchStrategy[list[str]]:
    token = st.one_of(
        st.sampled_from(FLAGS[command]),
        st.sampled_from(HOSTILE),
        st.text(max_size=12),
        st.integers(-(10**30), 10**30).map(str),
    )
    return st.lists(token, max_size=6)


@pytest.fixture(autouse=True)
def runs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SUBCOMMAND_MODULES:
        monkeypatch.setattr(importlib.import_module(name), "run", lambda args: 0)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(command=st.sampled_from(sorted(FLAGS)), data=st.data())
def test_any_words_give_help_a_run_or_one_error_line(
    command: str,
    data: st.DataObject,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path_factory.mktemp("hostile"))
    argv = [command, *data.draw(words(command))]
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert status in (0, 2), (argv, status, captured.err)
    errors = [line for line in captured.err.splitlines() if ": error: " in line]
    if status == 2:
        assert len(errors) == 1, (argv, captured.err)
        assert errors[0].startswith(("kinghill: error: ", f"kinghill {command}"))
        notes = [line for line in captured.err.splitlines() if line not in errors]
        assert all(": note: " in line for line in notes), (argv, captured.err)
    else:
        assert errors == [], (argv, captured.err)


@pytest.mark.parametrize(
    ("argv", "line"),
    [  # what the property test found: a NUL in a path crashed after the frame was played, a
        # form feed split the error line in two
        (["play", "random", "random", "--out-file", "a\x00.gif"],
         "kinghill play: error: --out-file: a path cannot hold a NUL character: 'a\\x00.gif'"),
        (["tournament", "--out", "runs/t\x00"],
         "kinghill tournament: error: --out: a path cannot hold a NUL character: 'runs/t\\x00'"),
        (["bench-env", "\x0c"], "kinghill bench-env: error: unrecognized arguments: \\x0c"),
    ],
)  # fmt: skip
def test_what_the_property_found(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == line + "\n"
