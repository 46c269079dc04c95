"""Issue 39, item 11: a round robin's ``frames`` raised on the same folder adds frames to every
pair and keeps the ones played (the manual's order: getting-started's ``--frames 10``, then
tournaments.md's ``--frames 20`` into ``runs/tournament``); lowering them is refused in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_interrupted_runs import uneven_play_frame

from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.round_robin import run_tournament

SMALL = TournamentConfig(("ace", "club", "novice"), 2, seed=5)


def lines(out: Path) -> list[str]:
    return (out / "frames.jsonl").read_text().splitlines()


def test_raised_frames_keep_the_played_ones_and_add_to_every_pair(tmp_path: Path) -> None:
    run_tournament(SMALL, tmp_path, uneven_play_frame, progress=False)
    first = lines(tmp_path)
    played = run_tournament(replace(SMALL, frames=6), tmp_path, uneven_play_frame, progress=False)
    assert lines(tmp_path)[: len(first)] == first  # the frames played before, untouched
    assert len(played) == 3 * 6 and [r.frame for r in played] == list(range(18))
    for pair in (("ace", "club"), ("ace", "novice"), ("club", "novice")):
        frames = [r for r in played if set(r.agents) == set(pair)]
        assert len(frames) == 6 and sum(r.agents == pair for r in frames) == 3  # seats halved
    assert len({r.seed for r in played}) == 18
    stored = json.loads((tmp_path / "tournament.json").read_text())
    assert (stored["frames"], stored["earlier"]) == (6, [2])
    # the same command again resumes the raised tournament, playing nothing
    again = run_tournament(replace(SMALL, frames=6), tmp_path, uneven_play_frame, progress=False)
    assert again == played


def test_a_tournament_never_raised_is_stored_as_before(tmp_path: Path) -> None:
    run_tournament(SMALL, tmp_path, uneven_play_frame, progress=False)
    assert "earlier" not in json.loads((tmp_path / "tournament.json").read_text())
    assert [t.frame for t in SMALL.schedule()] == list(range(6))
    assert [t.agents for t in SMALL.schedule()][:2] == [("ace", "club"), ("club", "ace")]


def test_fewer_frames_or_other_settings_are_refused(tmp_path: Path) -> None:
    run_tournament(replace(SMALL, frames=4), tmp_path, uneven_play_frame, progress=False)
    with pytest.raises(TournamentError, match="holds 4 frames a pair.*not lowered") as caught:
        run_tournament(SMALL, tmp_path, uneven_play_frame, progress=False)
    assert caught.value.parameter == "frames"
    with pytest.raises(TournamentError, match="holds a different tournament"):
        run_tournament(replace(SMALL, frames=6, seed=6), tmp_path, uneven_play_frame)
    run_tournament(replace(SMALL, frames=6), tmp_path, uneven_play_frame, progress=False)
    with pytest.raises(TournamentError, match=r"\(seed: stored 5, asked 6\);") as raised:
        run_tournament(replace(SMALL, frames=6, seed=6), tmp_path, uneven_play_frame)
    assert "earlier" not in str(raised.value)  # the raises are the folder's own history


def test_a_stored_history_that_does_not_rise_is_refused() -> None:
    with pytest.raises(TournamentError, match="rising"):
        replace(SMALL, frames=4, earlier=(4,))
