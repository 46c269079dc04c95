"""The tournament frame player and ``kinghill play``: deterministic frames, counted statistics,
agents that fail charged by the rules (12.4 forfeit, 10.5), time fouls, a tiny real tournament
end to end (report, resume), and the replay command."""

import json
from pathlib import Path

import pytest

from kinghill.envs import Action, Answer, ChoiceAction, FrameView, ShotAction
from kinghill.envs.rules import Decision, EndReason
from kinghill.experiments import cli
from kinghill.experiments.tournaments import frame_player as match
from kinghill.experiments.tournaments.frame_log import FRAMES_FILE
from kinghill.experiments.tournaments.frame_player import play_frame
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.physics import Shot

OPTIONS = FrameOptions(max_shots=40)


def without_time(record: object) -> dict:
    data = dict(vars(record))
    data.pop("wall_time")
    data.pop("thinking")
    data.pop("decision_seconds")
    return data


def test_frame_is_deterministic_given_its_seed() -> None:
    first = play_frame("heuristic", "random", 11, OPTIONS)
    again = play_frame("heuristic", "random", 11, OPTIONS)
    assert without_time(first) == without_time(again)
    assert first.agents == ("heuristic", "random") and first.seed == 11 and first.frame == -1


def test_frame_statistics_are_consistent() -> None:
    for seed in range(4):
        record = play_frame("heuristic", "random", seed, OPTIONS)
        assert record.winner in (0, 1, None)
        assert 1 <= sum(record.visits) <= record.shots + sum(record.errors)
        assert all(0 <= w <= 3 for w in record.whites_potted)  # 5.3: at most the required
        assert all(p <= a for p, a in zip(record.colour_pots, record.colour_attempts, strict=True))
        assert sum(record.colour_pots) <= 1  # 3.2: the first legal colour pot ends the frame
        assert record.errors == (0, 0) and record.time_fouls == (0, 0)
        if record.winner is not None:
            loser = 1 - record.winner
            assert record.colour_pots[record.winner] == 1 or record.fouls[loser] >= 2


class Broken:
    """Raises on every decision."""

    def act(self, view: FrameView) -> Action:
        raise RuntimeError("out of order")


class Garbage:
    """Returns something that is not an action."""

    def act(self, view: FrameView) -> Action:
        return "a lovely shot"  # type: ignore[return-value]


class Exiting:
    """Calls sys.exit on every decision (an agent cannot end the tournament)."""

    def act(self, view: FrameView) -> Action:
        raise SystemExit(3)


class Interrupting:
    """Raises its own KeyboardInterrupt (no signal: not the user's Ctrl-C)."""

    def act(self, view: FrameView) -> Action:
        raise KeyboardInterrupt


class Shapeless:
    """Returns a ShotAction without a shot (the issue's ``ShotAction(None)``)."""

    def act(self, view: FrameView) -> Action:
        return ShotAction(None)  # type: ignore[arg-type]


class Sleepy:
    """Plays on after a foul, else a fixed soft shot of white 1; 30 s by the (patched) clock."""

    def act(self, view: FrameView) -> Action:
        if view.decision is Decision.CHOICE:
            return ChoiceAction(play_on=True)
        return ShotAction(Shot(1, 0.0, 2.0), place=(0.4, 0.8) if view.frame.shots == 0 else None)


@pytest.mark.parametrize("bad", ["Broken", "Garbage", "Exiting", "Interrupting", "Shapeless"])
def test_agent_that_raises_or_returns_garbage_is_charged_a_foul(bad: str) -> None:
    """12.4 forfeit per failure; the second foul loses the frame (10.5); the frame goes on.
    The agent plays in its own process, built from its spec (this module on sys.path)."""
    record = play_frame(f"{__name__}:{bad}", "heuristic", 3, OPTIONS)
    assert record.winner == 1
    assert record.errors[0] == 2 and record.fouls[0] == 2 and record.errors[1] == 0
    assert record.time_fouls == (0, 0)


class ThirtySecondSeat:
    """A seat whose agent (Sleepy, in this process) takes 30 s a decision by its answers."""

    def build(self, spec: str, seed: int | None, maker: object = None) -> None:
        self.agent = Sleepy()

    def decide(self, view: FrameView, limit: float) -> Answer:
        return Answer(self.agent.act(view), seconds=30.0)


def test_decisions_over_time_are_time_fouls(monkeypatch: pytest.MonkeyPatch) -> None:
    """12.3, 12.4: in round 6 the limit is 20 s; every 30 s decision is a foul, two lose."""
    monkeypatch.setattr(match, "seat_processes", lambda: (ThirtySecondSeat(), ThirtySecondSeat()))
    record = play_frame("a", "b", 0, FrameOptions(round=6, max_shots=40))
    assert record.time_fouls[0] == 2 and record.fouls[0] == 2 and record.winner == 1
    assert record.errors == (0, 0) and record.shots == 0
    games = []
    real_new_game = match.new_game
    monkeypatch.setattr(
        match, "new_game", lambda o, fps=None: games.append(real_new_game(o, fps)) or games[-1]
    )
    play_frame("a", "b", 0, FrameOptions(round=6, max_shots=40))
    assert (
        games[0].frame.result is not None and games[0].frame.result.reason is EndReason.SECOND_FOUL
    )


def played(line: str) -> dict:
    """A frame log line without its wall and thinking times."""
    data = json.loads(line)
    data.pop("wall_time")
    data.pop("thinking")
    data.pop("decision_seconds")
    return data


def test_tiny_tournament_end_to_end_with_resume(tmp_path: Path) -> None:
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "random", "heuristic", "--frames", "2", "--jobs", "1"]
    argv += ["--max-shots", "40", "--rating-samples", "50", "--out", str(out)]
    assert cli.main(argv) == 0
    assert (out / "report.md").exists() and (out / "report.json").exists()
    lines = (out / FRAMES_FILE).read_text().splitlines()
    assert len(lines) == 2
    (out / FRAMES_FILE).write_text(lines[0] + "\n")  # as if interrupted after one frame
    assert cli.main(argv) == 0
    resumed = (out / FRAMES_FILE).read_text().splitlines()
    assert resumed[0] == lines[0]
    assert played(resumed[1]) == played(lines[1])
    report = json.loads((out / "report.json").read_text())
    assert "heuristic" in json.dumps(report)


def test_play_prints_the_commentary_and_writes_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "frame.gif"
    argv = ["play", "heuristic", "random", "--seed", "2", "--max-shots", "6"]
    assert cli.main([*argv, "--width", "200", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "player 0 (heuristic): cue ball 1" in text and "legal break" in text
    assert out.exists() and out.stat().st_size > 0


def test_play_rejects_unknown_agents(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "heuristic", "grandmaster"]) == 2
    assert "known agents" in capsys.readouterr().err
