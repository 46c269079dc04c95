"""Issue 9: the league samples its members by how often the learner loses to them (PFSP), and
the learner's snapshots join it as they are saved."""

from pathlib import Path

import pytest

from kinghill.experiments.training.league import League, pfsp_weights


def test_pfsp_weights_favour_the_opponents_the_learner_loses_to() -> None:
    weights = pfsp_weights([0.9, 0.5, 0.1])
    assert weights.sum() == pytest.approx(1.0)
    assert weights[0] < weights[1] < weights[2]
    assert weights[0] > 0  # never dropped entirely


def test_the_league_draws_the_member_it_beats_the_learner_with_most_often() -> None:
    league = League(Path("no-pool"), "maskable-ppo", "masked", ["random", "heuristic"])
    assert league.members() == ["random", "heuristic"]
    for _ in range(50):  # the learner beats random, loses to the heuristic
        league.current = "random"
        league.record(1.0)
        league.current = "heuristic"
        league.record(0.0)
    assert league.win_rate("random") > 0.9 and league.win_rate("heuristic") < 0.1
    drawn = []
    for seed in range(300):
        league.reset(seed)
        drawn.append(league.current)
    assert drawn.count("heuristic") > 10 * drawn.count("random") > 0


def test_snapshots_join_the_league_as_members(tmp_path: Path) -> None:
    league = League(tmp_path, "maskable-ppo", "masked", ["heuristic"], size=2)
    for steps in (0, 100, 200):
        (tmp_path / f"snapshot_{steps:010d}.zip").write_bytes(b"")
    members = league.members()
    assert members[0] == "heuristic"
    assert [Path(m).name for m in members[1:]] == [
        "snapshot_0000000100.zip",
        "snapshot_0000000200.zip",
    ]  # the latest `size` snapshots
    assert league.win_rate(members[1]) == 0.5  # a new member starts even
