"""The handicap of rule 5.3 in tournaments (``kinghill tournament --handicap NAME=WHITES``,
``evaluate(handicap=...)``): it follows each agent through the seat swaps, it is part of the
stored config (a resume with another is refused in one line) and of the report, and a bad
value is a one-line error before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kinghill.experiments import evaluate
from kinghill.experiments.cli.app import main
from kinghill.experiments.records.store import load_frame
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.frame_log import FRAMES_FILE
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.options import FrameOptions

HANDICAP = {"heuristic": 1, "random": 7}


def test_the_handicap_follows_each_agent_across_seats(tmp_path: Path) -> None:
    """Rules 5.3, 5.6: every decision of every frame is played with each seat needing its
    agent's whites, whichever seat that is, and no agent is credited more than it needs."""
    evaluate(["random", "heuristic"], 2, max_shots=30, handicap=HANDICAP, out=tmp_path, record=True)
    lines = (tmp_path / FRAMES_FILE).read_text().splitlines()
    outcomes = sorted((FrameOutcome.from_json(line) for line in lines), key=lambda o: o.frame)
    assert [o.agents for o in outcomes] == [("random", "heuristic"), ("heuristic", "random")]
    for outcome in outcomes:
        required = tuple(HANDICAP[name] for name in outcome.agents)
        record = load_frame(tmp_path, outcome.frame)
        assert {d.view.frame.required for d in record.decisions} == {required}
        credited = [0, 0]
        for decision in record.decisions:
            if decision.ruling is not None:
                credited[decision.player] += decision.ruling.whites_credited
        assert credited == list(outcome.whites_potted)
        assert all(c <= r for c, r in zip(credited, required, strict=True))
    stored = json.loads((tmp_path / "tournament.json").read_text())
    assert stored["options"]["handicap"] == [["heuristic", 1], ["random", 7]]
    first = (tmp_path / "report.md").read_text().splitlines()[2]
    assert "Handicap (5.3): heuristic needs 1 white, random 7." in first


def test_no_handicap_is_stored_as_before_handicaps_existed() -> None:
    """The ladder's cache keys and stored tournaments stay what they were."""
    plain = TournamentConfig(("a", "b"), 2).to_dict()
    assert "handicap" not in plain["options"]
    assert TournamentConfig.from_dict(plain) == TournamentConfig(("a", "b"), 2)
    evens = FrameOptions(handicap=(("b", 3), ("a", 2)))  # one form: sorted, no 3s
    assert evens == FrameOptions(handicap={"a": 2}) and evens.required(("b", "a")) == (3, 2)


def _tournament(out: Path, *handicap: str) -> list[str]:
    return ["tournament", "--agents", "random", "heuristic", "--frames", "2", "--max-shots",
            "4", "--jobs", "1", "--out", str(out), "--handicap", *handicap]  # fmt: skip


def test_a_resume_with_another_handicap_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_tournament(tmp_path, "random=2")) == 0
    played = (tmp_path / FRAMES_FILE).read_text()
    capsys.readouterr()
    assert main(_tournament(tmp_path, "random=4")) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and error.startswith("kinghill tournament: error: --out:")
    assert "options.handicap: stored [['random', 2]], asked [['random', 4]]" in error
    assert (tmp_path / FRAMES_FILE).read_text() == played
    assert main(_tournament(tmp_path, "random=2")) == 0  # the same handicap resumes


@pytest.mark.parametrize(
    ("handicap", "says"),
    [
        (["heuristic=0"], "1-7"),
        (["heuristic=8"], "1-7"),
        (["heuristic=x"], "1-7"),
        (["x"], "NAME=WHITES"),
        (["search=2"], "'search' is not an agent of the tournament (random, heuristic)"),
        (["random=2", "random=1"], "names 'random' twice"),
    ],
)
def test_a_bad_handicap_is_a_one_line_error(
    handicap: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    assert main(_tournament(out, *handicap)) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and error.startswith("kinghill tournament: error: --handicap:")
    assert says in error
    assert not out.exists()  # refused before anything was written


def test_a_knockout_takes_the_handicap_too(tmp_path: Path) -> None:
    args = _tournament(tmp_path, "heuristic=2")
    args[args.index("--frames") : args.index("--frames") + 2] = ["--format", "knockout"]
    assert main(args) == 0
    stored = json.loads((tmp_path / "tournament.json").read_text())
    assert stored["format"] == "knockout" and stored["options"]["handicap"] == [["heuristic", 2]]
    assert (
        "Handicap (5.3): heuristic needs 2 whites, the others 3."
        in (tmp_path / "report.md").read_text()
    )
