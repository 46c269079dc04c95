"""Issue 39: the manual's commands, run in order in a fresh folder, as a reader following it page
by page would — getting-started, then the user guide in the site's order (``mkdocs.yml``).

Every ``bash`` block's commands and every ``python`` block (the ``--8<--`` blocks include the
examples, which ``tests/test_examples.py`` runs) are taken in page order. What the test changes,
and only this, so that the whole manual runs in about a minute on 2 cores:

- :data:`SMALL`: counts made small — frames, steps, budgets, races and search times — flag by
  flag (``--frames 10`` then ``--frames 20`` stay a raise, as the pages have it; ``search:40s``
  is ``search:0.05s``), ``--jobs 1``,
  ``--max-shots 6`` added to every command that plays frames, PPO rollouts of 32 steps to a
  training that does not set them, and 20 observations to ``export-policy``'s check;
- :data:`SKIPPED`: the commands that cannot run here, each with its reason (a skip that no
  longer matches a command of the manual fails, so the list cannot go stale).

The folder holds a copy of the clone's ``docs/``, ``benchmarks/peer/`` and ``README.md`` (the
pages' commands run from a clone: ``docs/training/...`` models, ``python3 docs/tables.py``) and
nothing else.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kinghill.experiments import cli

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(bash|python)\n(.*?)^```", re.S | re.M)


def pages() -> list[Path]:
    """getting-started, then the guide's pages in the order of the site's navigation."""
    nav = re.findall(r":\s*(guide/\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    return [ROOT / "docs" / "getting-started.md", *(ROOT / "docs" / page for page in nav)]


@dataclass(frozen=True)
class Step:
    """One command of a bash block, or one python block, and where the manual has it."""

    where: str
    language: str
    text: str


def steps() -> Iterator[Step]:
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            language, body = match.groups()
            line = text[: match.start()].count("\n") + 2
            where = f"{page.relative_to(ROOT)}:{line}"
            if language == "python":
                if not body.lstrip().startswith("--8<--"):
                    yield Step(where, language, body)
                continue
            for command in body.replace("\\\n", " ").splitlines():
                words = shlex.split(command, comments=True)
                if words:
                    yield Step(where, language, shlex.join(words))


SKIPPED = {
    "pip install": "installs packages; the test runs in the installed package",
    "pip wheel": "builds and installs the wheel; .ci/wheel-check does that from an empty folder",
    "kinghill ladder mypkg.players:": "the reader's own package; .ci/wheel-check rates an agent "
    "from a wheel install",
    "python3 -m pytest": "the test suite itself",
    "mkdocs serve": "a server that runs until stopped",
    "mkdocs build": "tests/test_docs_build.py builds the site",
    "benchmarks/peer/run.sh": "installs pooltool in a virtual environment of its own",
    "kinghill train rllib": "needs the rllib extra (tests/test_rllib.py runs it)",
    "kinghill play rllib:": "plays the RLlib run skipped above",
    "kinghill ladder --build-zoo": "plays the whole zoo's matrix (hours)",
    "kinghill ladder policy:": "plays the shipped zoo's frames against every zoo agent "
    "(minutes); tests/test_ladder.py rates agents on a small zoo",
    "PYTHONPATH=. kinghill tournament --agents 'mypkg.players:": "the reader's own package "
    "and its entry point; examples/own_agent_tournament.py rates an own agent",
    "kinghill serve": "a web server that runs until stopped (tests/test_serve_cli.py)",
    "kinghill replay runs/serve": "reads the frames a person played in the browser",
    "kinghill export runs/serve": "reads the frames a person played in the browser",
    "from kinghill.experiments.serve import serve": "a python block: the web server again",
}
"""Command prefixes (and lines of python blocks) not run, with the reason."""


def _even_small(value: str) -> str:
    """Frames of a round robin: 2 up to 10, else 4 (so that a raise stays a raise)."""
    return "2" if int(value) <= 10 else "4"


SMALL: dict[str, Callable[[str], str]] = {
    "--frames": _even_small,
    "--jobs": lambda _: "1",
    "--steps": lambda value: "64" if int(value) <= 20000 else "128",  # a resume goes further
    "--warm-start": lambda _: "2",
    "--n-steps": lambda _: "32",
    "--batch-size": lambda _: "32",
    "--checkpoint-every": lambda _: "32",
    "--eval-every": lambda _: "64",
    "--eval-frames": lambda _: "2",
    "--envs": lambda _: "1",
    "--iterations": lambda _: "1",
    "--expert-budget": lambda _: "8",
    "--expert-arms": lambda _: "2",
    "--budget": lambda _: "8",
    "--arms": lambda _: "2",
    "--race": lambda _: "1",
    "--vector-steps": lambda _: "10",
    "--shots": lambda _: "20",
    "--breaks": lambda _: "5",
    "--reference-shots": lambda _: "1",
}
"""Flags whose value the test makes small (``--steps`` of ``bench-env``: see :func:`small`)."""
PLAYS_FRAMES = ("tournament", "play")
SEARCH_TIME = re.compile(r"^search:([\d.]+)s$")


def small(words: list[str]) -> list[str]:
    """The command with :data:`SMALL`'s values, search times 800 times shorter (``search:40s``
    is ``search:0.05s``), and short frames."""
    out = list(words)
    for i, word in enumerate(out[:-1]):
        if word in SMALL:
            out[i + 1] = SMALL[word](out[i + 1])
    out = [SEARCH_TIME.sub(lambda m: f"search:{float(m[1]) / 800:g}s", w) for w in out]
    if out[1] == "bench-env":
        out[out.index("--steps") + 1] = "20"
    if out[1] in PLAYS_FRAMES:
        out += ["--max-shots", "6"]
    if out[1:3] == ["train", "sb3"] and "--n-steps" not in out:
        out += ["--n-steps", "32", "--batch-size", "32"]  # rollouts as short as the steps
    if out[1] == "export-policy" and "--check" not in out:
        out += ["--check", "20"]
    if out[1] == "train-expert":
        out += ["--break-population", "4", "--break-generations", "1", "--epochs", "1"]
        for flag in ("--eval-frames", "--expert-budget", "--expert-arms", "--budget", "--arms"):
            if flag not in out:
                out += [flag, SMALL[flag]("0")]
    return out


RUNNER = """\
import sys, traceback
if __name__ == "__main__":
    for index, (where, code) in enumerate(BLOCKS):
        try:
            exec(compile(code, where, "exec"), {"__name__": "__main__"})
        except BaseException:
            traceback.print_exc()
            sys.exit(f"python block {index} at {where} failed")
"""


def run_python(blocks: list[Step], folder: Path) -> None:
    """The python blocks, in order, each in a namespace of its own, in one process."""
    script = folder / "manual_blocks.py"
    script.write_text(f"BLOCKS = {[(b.where, b.text) for b in blocks]!r}\n{RUNNER}")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=folder, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


def needs_a_missing_extra(step: Step) -> bool:
    """Whether ``step`` runs a command of an extra this install lacks (the README's own install
    has only ``dev``): ``kinghill export-policy`` needs the onnx extra, and says so."""
    from kinghill.experiments.cli.export_policy import ONNX_MODULES

    needs = ONNX_MODULES if step.text.startswith("kinghill export-policy") else ()
    return any(importlib.util.find_spec(module) is None for module in needs)


def run_command(step: Step, folder: Path) -> None:
    words = shlex.split(step.text)
    if needs_a_missing_extra(step):
        return
    if words[0] == "kinghill":
        argv = small(words)[1:]
        assert cli.main(argv) == 0, f"{step.where}: {shlex.join(['kinghill', *argv])} failed"
    elif words[0] == "cp":
        shutil.copy(folder / words[1], folder / words[2])
    elif words[0] == "python3":
        done = subprocess.run(words, cwd=folder, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{step.where}: {step.text}: {done.stderr[-2000:]}"
    else:
        raise AssertionError(f"{step.where}: {step.text}: the test does not know how to run it")


def test_the_manual_runs_in_order_in_a_fresh_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("hooks"))
    shutil.copytree(ROOT / "benchmarks" / "peer", tmp_path / "benchmarks" / "peer",
                    ignore=shutil.ignore_patterns(".venv"))  # fmt: skip
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    monkeypatch.chdir(tmp_path)
    all_steps = list(steps())
    used = {prefix: 0 for prefix in SKIPPED}
    python: list[Step] = []
    for step in all_steps:
        skip = next((p for p in SKIPPED if step.text.startswith(p)), None)
        if step.language == "python":
            skip = next((p for p in SKIPPED if p in step.text), None)
            if skip is not None:
                used[skip] += 1
            else:
                python.append(step)
            continue
        if skip is not None:
            used[skip] += 1
            for made in re.findall(r"policy:(\S+\.zip)", step.text):  # its input: made before
                assert (tmp_path / made).exists(), f"{step.where}: no page before makes {made}"
            continue
        run_command(step, tmp_path)
    capsys.readouterr()
    assert [p for p, n in used.items() if n == 0] == []  # every skip still names a command
    run_python(python, tmp_path)
    assert len(python) >= 10 and len(all_steps) >= 30


HELP_SKIPPED = {
    "kinghill play human": "a person at a window (tests/test_human_window.py drives it)",
    "kinghill serve": SKIPPED["kinghill serve"],
    "kinghill train rllib": SKIPPED["kinghill train rllib"],
    "kinghill ladder policy:": SKIPPED["kinghill ladder policy:"],
    "kinghill ladder --build-zoo": SKIPPED["kinghill ladder --build-zoo"],
}
"""Help examples not run, with the reason."""


def help_examples() -> list[Step]:
    """Every subcommand's ``--help`` examples (its epilog), in the order the help lists them."""
    import argparse

    from kinghill.experiments.cli.app import build_parser

    examples = []
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, parser in action.choices.items():
                text = " ".join((parser.epilog or "").split())
                for command in re.findall(r"(kinghill [^;]+?)(?:;|$| \()", text):
                    examples.append(Step(f"kinghill {name} --help", "bash", command.strip()))
    return examples


def test_every_help_example_runs_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "docs" / "training", tmp_path / "docs" / "training")  # the models
    monkeypatch.chdir(tmp_path)
    examples = help_examples()
    helped = {step.where.split()[1] for step in examples}
    assert helped >= {"play", "train", "tournament", "replay", "export", "pockets", "shots"}
    used = {prefix: 0 for prefix in HELP_SKIPPED}
    for step in examples:
        skip = next((p for p in HELP_SKIPPED if step.text.startswith(p)), None)
        if skip is not None:
            used[skip] += 1
            continue
        run_command(step, tmp_path)
    capsys.readouterr()
    assert [p for p, n in used.items() if n == 0] == []


def test_small_states_its_substitutions() -> None:
    words = shlex.split("kinghill tournament --agents search:40s heuristic --frames 20 --jobs 2")
    assert small(words) == [
        *shlex.split("kinghill tournament --agents search:0.05s heuristic --frames 4 --jobs 1"),
        *("--max-shots", "6"),
    ]
    assert small(["kinghill", "tournament", "--frames", "10"])[3] == "2"
