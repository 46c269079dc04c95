"""The tournament report's numbers on four hand-written frames, and its files."""

import json
import math
from pathlib import Path

import pytest

from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.report import (
    Report,
    build_report,
    settings_lines,
    write_report,
)
from kinghill.experiments.tournaments.stats import wilson_interval

CONFIG = TournamentConfig(("a", "b"), frames=4)


def frame(
    index: int, agents: tuple[str, str], winner: int | None, shots: int, **counts: tuple[int, int]
) -> FrameOutcome:
    """A frame with zero counts except those given."""
    zero = (0, 0)
    return FrameOutcome(
        agents=agents,
        seed=CONFIG.schedule()[index].seed,
        winner=winner,
        shots=shots,
        fouls=counts.get("fouls", zero),
        visits=counts.get("visits", (1, 1)),
        whites_potted=counts.get("whites_potted", zero),
        colour_attempts=counts.get("colour_attempts", zero),
        colour_pots=counts.get("colour_pots", zero),
        time_fouls=counts.get("time_fouls", zero),
        errors=counts.get("errors", zero),
        wall_time=2.0,
        frame=index,
    )


RECORDS = [
    frame(0, ("a", "b"), 0, shots=12, fouls=(1, 2), visits=(3, 2), whites_potted=(3, 1)),
    frame(1, ("b", "a"), 1, shots=20, visits=(4, 5), whites_potted=(2, 4), errors=(1, 0)),
    frame(2, ("a", "b"), None, shots=200, colour_attempts=(2, 1), colour_pots=(1, 1)),
    frame(3, ("b", "a"), 0, shots=8, time_fouls=(1, 2), fouls=(1, 2)),
]
"""a wins frames 0 and 1, frame 2 is truncated, b wins frame 3: a 2.5 points, b 1.5."""


def test_report_numbers_match_the_hand_count() -> None:
    """Win rates (draw = half), per-agent play numbers and the breaker's record by hand."""
    report = build_report(CONFIG, RECORDS, samples=200)
    ab = report["win_rates"]["a"]["b"]
    assert (ab["wins"], ab["losses"], ab["draws"]) == (2, 1, 1)
    assert ab["win_rate"]["estimate"] == 2.5 / 4
    assert ab["win_rate"]["low"] == pytest.approx(wilson_interval(2.5, 4).low)
    assert report["win_rates"]["b"]["a"]["win_rate"]["estimate"] == 1.5 / 4
    a, b = report["agents"]["a"], report["agents"]["b"]
    assert a["points"] == 2.5 and b["points"] == 1.5
    assert a["shots_per_frame"] == b["shots_per_frame"] == (12 + 20 + 200 + 8) / 4
    assert a["fouls_per_frame"] == (1 + 0 + 0 + 2) / 4
    assert b["fouls_per_frame"] == (2 + 0 + 0 + 1) / 4
    assert a["legal_pots_per_visit"] == (3 + 4 + 0 + 0) / (3 + 5 + 1 + 1)
    assert b["legal_pots_per_visit"] == (1 + 2 + 0 + 0) / (2 + 4 + 1 + 1)
    assert a["colour_pot_success"]["estimate"] == 0.5
    assert b["colour_pot_success"]["estimate"] == 1.0
    assert (a["time_fouls"], b["time_fouls"]) == (2, 1)
    assert (a["errors"], b["errors"]) == (0, 1)
    assert report["truncated_frames"] == 1
    assert report["breaker_wins"]["estimate"] == 2 / 3
    assert report["wall_time_per_frame"] == 2.0


def test_report_ratings_order_and_bracket() -> None:
    """The better-scoring agent rates higher; each interval contains its estimate."""
    report = build_report(CONFIG, RECORDS, samples=200)
    a, b = (report["agents"][n]["bradley_terry_elo"] for n in "ab")
    assert a["estimate"] == pytest.approx(-b["estimate"]) and a["estimate"] > 0
    for rating in (a, b):
        assert rating["low"] <= rating["estimate"] <= rating["high"]
    assert report["agents"]["a"]["sequential_elo"] > 0


def test_write_report_files(tmp_path: Path) -> None:
    """report.json round-trips the numbers; report.md has the tables; ratings.png is a PNG."""
    summary = write_report(tmp_path, CONFIG, RECORDS, samples=100)
    assert json.loads((tmp_path / "report.json").read_text()) == json.loads(
        json.dumps(build_report(CONFIG, RECORDS, samples=100))
    )
    markdown = (tmp_path / "report.md").read_text()
    for heading in ("## Ratings", "## Win rates", "## Play"):
        assert heading in markdown
    assert "| **a** |  | 0.62 [" in markdown
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    ratings = markdown.split("## Ratings\n\n")[1].split("\n\n## Win rates")[0]
    assert ratings.count("\n| a |") == 1  # the note, then the table with one row an agent
    files = ", ".join(str(tmp_path / f) for f in ("report.md", "report.html", "report.json"))
    assert summary == f"{ratings}\n\nReport: {files}, {tmp_path / 'ratings.png'}"


def test_report_of_a_tournament_not_started() -> None:
    """No frames yet: the report still renders, without ratings."""
    report = build_report(CONFIG, [], samples=10)
    assert report["frames_played"] == 0
    assert report["agents"]["a"]["bradley_terry_elo"] is None


def test_every_frame_truncated_leaves_the_breakers_record_empty_and_the_json_strict(
    tmp_path: Path,
) -> None:
    """No frame won: the breaker's record is none (a dash), not NaN, and report.json holds no
    NaN a strict parser refuses (JavaScript's JSON.parse)."""
    truncated = [frame(k, r.agents, None, shots=3) for k, r in enumerate(RECORDS)]
    write_report(tmp_path, CONFIG, truncated, samples=50)

    def refuse(constant: str) -> float:
        raise ValueError(f"not JSON: {constant}")

    data = json.loads((tmp_path / "report.json").read_text(), parse_constant=refuse)
    assert data["breaker_wins"] is None and data["truncated_frames"] == 4
    assert "Breaker (seat 0) wins: –." in (tmp_path / "report.md").read_text()
    page = (tmp_path / "report.html").read_text()
    assert "NaN" not in page and "nan [" not in page


def test_an_agent_without_frames_yet_has_no_score_and_the_json_stays_strict(
    tmp_path: Path,
) -> None:
    """A round robin stopped early (frames go pair by pair): the third agent has played none.
    Its score and win rates are none (a dash), not NaN, and ``--report-only`` writes the files;
    the report reads back as objects."""
    config = TournamentConfig(("a", "b", "c"), frames=2)
    played = [
        FrameOutcome(**{**vars(frame(0, ("a", "b"), 0, shots=9)), "seed": task.seed})
        for task in config.schedule()[:1]
    ]
    write_report(tmp_path, config, played, samples=50)

    def refuse(constant: str) -> float:
        raise ValueError(f"not JSON: {constant}")

    data = json.loads((tmp_path / "report.json").read_text(), parse_constant=refuse)
    assert data["agents"]["c"]["score"]["estimate"] is None
    assert data["win_rates"]["a"]["c"]["win_rate"]["estimate"] is None
    assert data["agents"]["a"]["score"]["estimate"] == 1.0
    text = (tmp_path / "report.md").read_text()
    assert "| c | – | 0 | – | 0 |" in text
    assert "nan" not in text and "NaN" not in (tmp_path / "report.html").read_text()
    again = Report.of(data, played)
    assert math.isnan(again.agents["c"].score.estimate)


def test_a_raised_tournament_says_how_its_frames_were_drawn() -> None:
    """Each raise of the frames draws its own: the report names the steps that reproduce it."""
    raised = build_report(TournamentConfig(("a", "b"), frames=6, earlier=(2, 4)), [], samples=10)
    assert (
        "Frames per pair: 6 (seats swapped; raised from 2, then 4: these frames come from "
        in (settings_lines(raised)[0])
    )
    assert "--frames 2, then 4, then 6)" in settings_lines(raised)[0]
    plain = build_report(CONFIG, [], samples=10)
    assert "Frames per pair: 4 (seats swapped). Seed" in settings_lines(plain)[0]
