"""The frame log loader on hand-made logs: frames out of order, a gap left by a lost frame, a
last line cut off mid-write, a line in the format of the code before the split (all resumed to
the uninterrupted log), and logs that do not fit the tournament (refused, naming the frame)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_interrupted_runs import uneven_play_frame

from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_log import FrameLog
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.knockout import (
    KnockoutConfig,
    knockout_state,
    run_knockout,
)
from kinghill.experiments.tournaments.round_robin import run_tournament

KNOCKOUT = KnockoutConfig(("ace", "pro", "club", "pub"), race=3, seed=2)
ROUND_ROBIN = TournamentConfig(("ace", "club", "novice"), 4, seed=2)


def complete(config: KnockoutConfig | TournamentConfig, out: Path) -> list[str]:
    """Play (or resume) ``config`` in ``out`` with the uneven player; the log's lines."""
    if isinstance(config, KnockoutConfig):
        run_knockout(config, out, uneven_play_frame, progress=False)
    else:
        run_tournament(config, out, uneven_play_frame, progress=False)
    return (out / "frames.jsonl").read_text().splitlines()


@pytest.fixture(scope="module", params=["knockout", "round-robin"])
def case(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[KnockoutConfig | TournamentConfig, list[str]]:
    config = KNOCKOUT if request.param == "knockout" else ROUND_ROBIN
    return config, complete(config, tmp_path_factory.mktemp(request.param))


def resumed_from(
    config: KnockoutConfig | TournamentConfig, out: Path, lines: list[str], tail: str = ""
) -> list[str]:
    """Write a log of ``lines`` (and a cut-off ``tail``) as an interrupted run left it, resume."""
    FrameLog(out).claim(config)
    (out / "frames.jsonl").write_text("".join(line + "\n" for line in lines) + tail)
    return complete(config, out)


def test_frames_out_of_order_with_gaps_resume_to_the_uninterrupted_log(
    tmp_path: Path, case: tuple[KnockoutConfig | TournamentConfig, list[str]]
) -> None:
    """Frames lost here and there, the rest logged back to front: the lost ones are played, the
    kept ones kept, and the log ends as the uninterrupted one. In the knockout, of the first
    wave (frames 0-2 of either first-round match, at 0 and 9) frames 0 and 10 are lost: what
    two workers can leave; a round robin may lose any frame."""
    config, full = case
    if isinstance(config, KnockoutConfig):
        kept = [line for line in full if FrameOutcome.from_json(line).frame in (1, 2, 9, 11)]
        assert len(kept) == 4
    else:
        kept = full[1::2]
    assert resumed_from(config, tmp_path, kept[::-1]) == full


def test_a_knockout_frame_logged_after_a_lost_one_is_kept(tmp_path: Path) -> None:
    """Two workers: frame 1 of the first match logged, frame 0 lost. The state keeps frame 1
    and asks for frame 0 again; nothing of a later match is asked for."""
    full = complete(KNOCKOUT, tmp_path / "full")
    first = [FrameOutcome.from_json(line) for line in full[:2]]
    assert [r.frame for r in first] == [0, 1]
    state = knockout_state(KNOCKOUT, [first[1]])
    assert 0 in {task.frame for task in state.pending}
    assert 1 not in {task.frame for task in state.pending}
    assert resumed_from(KNOCKOUT, tmp_path / "resumed", [full[1]]) == full


def test_a_line_cut_off_mid_write_is_dropped_and_played_again(
    tmp_path: Path, case: tuple[KnockoutConfig | TournamentConfig, list[str]]
) -> None:
    config, full = case
    assert resumed_from(config, tmp_path, full[:3], tail=full[3][:17]) == full


OLD_LINE = (
    '{"agents": ["ace", "club"], "seed": 4297168834411834182, "winner": 0, "shots": 27, '
    '"fouls": [1, 0], "visits": [3, 3], "whites_potted": [1, 1], "colour_attempts": [0, 0], '
    '"colour_pots": [0, 0], "time_fouls": [0, 0], "errors": [0, 0], "wall_time": 1.234, '
    '"frame": 0, "extensions": [0, 0], "decisions": [4, 4], "thinking": [0.5, 0.25]}'
)
"""Frame 0 of ROUND_ROBIN as the code before the split logged it (its own wall time)."""


def test_a_log_written_before_the_split_resumes(tmp_path: Path) -> None:
    """The old line is kept as it is, and the other frames are played; the new line differs
    only by what is timed and by the fields added since (each decision's seconds)."""
    full = complete(ROUND_ROBIN, tmp_path / "full")
    new = json.loads(full[0])
    new.pop("decision_seconds", None)
    assert new | {"wall_time": 1.234, "thinking": [0.5, 0.25]} == json.loads(OLD_LINE)
    assert resumed_from(ROUND_ROBIN, tmp_path / "old", [OLD_LINE]) == [OLD_LINE, *full[1:]]


def test_a_frames_first_faults_are_logged_only_when_there_are_some() -> None:
    """Why a seat's first failed decision failed goes through the log (a report names it); a
    frame without one is written as before, so older logs read and write back the same."""
    old = FrameOutcome.from_json(OLD_LINE)
    assert old.first_faults == ("", "") and json.loads(old.to_json()) == json.loads(OLD_LINE)
    failed = replace(old, errors=(0, 2), first_faults=("", "raised RuntimeError: boom"))
    assert FrameOutcome.from_json(failed.to_json()) == failed
    assert json.loads(failed.to_json())["first_faults"] == ["", "raised RuntimeError: boom"]


def test_a_knockout_log_that_does_not_fit_is_refused_naming_the_frame(tmp_path: Path) -> None:
    full = [FrameOutcome.from_json(line) for line in complete(KNOCKOUT, tmp_path)]
    first_match = [r for r in full if r.frame < KNOCKOUT.max_frames]
    race = KNOCKOUT.match(knockout_state(KNOCKOUT, full).rounds[0][0])
    task = race.task(len(first_match))
    after_the_win = replace(first_match[0], frame=task.frame, agents=task.agents, seed=task.seed)
    with pytest.raises(TournamentError, match=f"frame {task.frame} was played after"):
        knockout_state(KNOCKOUT, [*full, after_the_win])
    other_seed = replace(first_match[1], seed=first_match[1].seed + 1)
    with pytest.raises(TournamentError, match="frame 1 is not frame 1 of the race"):
        knockout_state(KNOCKOUT, [first_match[0], other_seed])
    lost_first = replace(first_match[1], agents=first_match[1].agents[::-1])
    with pytest.raises(TournamentError, match="frame 1 is not frame 1"):
        knockout_state(KNOCKOUT, [lost_first])  # after a gap, checked all the same
    later_round = replace(full[-1], frame=KNOCKOUT.max_frames * (KNOCKOUT.size - 2))
    with pytest.raises(TournamentError, match="belongs to no match"):
        knockout_state(KNOCKOUT, [later_round])


def test_a_round_robin_frame_of_another_tournament_is_refused(tmp_path: Path) -> None:
    full = complete(ROUND_ROBIN, tmp_path / "full")
    foreign = FrameOutcome.from_json(full[2])
    foreign = replace(foreign, seed=foreign.seed + 1)
    FrameLog(tmp_path / "other").claim(ROUND_ROBIN)
    (tmp_path / "other" / "frames.jsonl").write_text(full[0] + "\n" + foreign.to_json() + "\n")
    with pytest.raises(TournamentError, match=r"frames.jsonl:2: frame not in this schedule"):
        complete(ROUND_ROBIN, tmp_path / "other")
