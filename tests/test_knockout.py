"""Knockout tournaments: races to N (scoring, the break alternating), fouls reset between frames
(10.5), the clock by round (12.1-12.3), byes and seeding, resume after a kill, --jobs, the CLI,
and the bracket report on a hand-made result."""

import functools
import json
import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from kinghill.agents import make_agent
from kinghill.envs import Action, FrameView
from kinghill.experiments import cli
from kinghill.experiments.tournaments import frame_player as match
from kinghill.experiments.tournaments.bracket import (
    Slot,
    bracket,
    bracket_size,
    champion,
    seed_order,
)
from kinghill.experiments.tournaments.bracket_report import (
    build_knockout_report,
    render_knockout_markdown,
    write_knockout_report,
)
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameOutcome, frame_seed
from kinghill.experiments.tournaments.knockout import (
    KnockoutConfig,
    KnockoutState,
    knockout_state,
    run_knockout,
    seeds_from_ratings,
)
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.experiments.tournaments.race import Race, RaceScore
from kinghill.experiments.tournaments.runners import in_worker_processes

STRENGTH = {"ace": 2.0, "pro": 1.0, "club": 0.0, "pub": -1.0, "novice": -2.0}
"""Hidden strengths of the synthetic entrants (logistic win probability on the difference)."""


def synthetic_play_frame(
    agent_a: str, agent_b: str, seed: int, options: FrameOptions
) -> FrameOutcome:
    """A seeded stand-in for a frame: the stronger entrant wins more, a few frames are drawn.
    It reports the round it was played under as its shot count (0 without a clock), so that
    tests can see the clock the bracket asked for."""
    rng = np.random.default_rng(seed)
    p_breaker = 1 / (1 + math.exp(STRENGTH[agent_b] - STRENGTH[agent_a] - 0.2))
    winner = None if rng.random() < 0.1 else int(rng.random() >= p_breaker)
    timed = options.round is not None and options.round >= 3
    return FrameOutcome(
        agents=(agent_a, agent_b),
        seed=seed,
        winner=winner,
        shots=options.round or 0,
        fouls=(int(rng.integers(0, 2)), int(rng.integers(0, 2))),
        visits=(3, 3),
        whites_potted=(1, 1),
        colour_attempts=(0, 0),
        colour_pots=(0, 0),
        time_fouls=(int(rng.integers(0, 2)), 0) if timed else (0, 0),
        errors=(0, 0),
        wall_time=0.0,
        extensions=(int(timed), 0),
        decisions=(4, 4),
        thinking=(2.0, 1.0),
    )


def slow_synthetic_play_frame(
    agent_a: str, agent_b: str, seed: int, options: FrameOptions
) -> FrameOutcome:
    """The synthetic frame, slow enough that a test can kill the knockout mid-way."""
    time.sleep(0.15)
    return synthetic_play_frame(agent_a, agent_b, seed, options)


FIELD = ("ace", "pro", "club", "pub", "novice")
CONFIG = KnockoutConfig(FIELD, race=2, seed=3)


def record(task_frame: int, agents: tuple[str, str], seed: int, winner: int | None) -> FrameOutcome:
    """A hand-made frame result."""
    return FrameOutcome(
        agents=agents,
        seed=seed,
        winner=winner,
        shots=10,
        fouls=(1, 0),
        visits=(2, 2),
        whites_potted=(0, 0),
        colour_attempts=(0, 0),
        colour_pots=(0, 0),
        time_fouls=(1, 0),
        errors=(0, 0),
        wall_time=0.0,
        frame=task_frame,
        extensions=(0, 1),
    )


def played(m: Race, winners: list[str | None]) -> list[FrameOutcome]:
    """Records of ``m``'s first frames, won by the named agents (None: drawn)."""
    out = []
    for k, name in enumerate(winners):
        task = m.task(k)
        seat = None if name is None else task.agents.index(name)
        out.append(record(task.frame, task.agents, task.seed, seat))
    return out


def test_match_is_a_race_with_the_break_alternating() -> None:
    """The higher seed breaks frames 0, 2, ...; frame seeds follow from the match seed; wins
    count per agent whichever seat; the race ends at N; drawn frames count for nobody."""
    m = Race(("ace", "pub"), race=3, seed=11, first_frame=40)
    tasks = [m.task(k) for k in range(4)]
    assert [t.agents for t in tasks] == [("ace", "pub"), ("pub", "ace")] * 2
    assert [t.frame for t in tasks] == [40, 41, 42, 43]
    assert [t.seed for t in tasks] == [frame_seed(11, k) for k in range(4)]
    score = m.score(played(m, ["ace", "pub", None, "pub"]))
    assert score.wins == (1, 2) and score.draws == 1 and score.winner is None
    assert score.needed == 1  # rule: a race to 3, the leader has 2
    assert score.fouls == (2, 2) and score.time_fouls == (2, 2) and score.extensions == (2, 2)
    done = m.score(played(m, ["ace", "pub", None, "pub", "pub"]))
    assert done.winner == "pub" and done.decided_by == "race" and done.needed == 0
    with pytest.raises(TournamentError, match="after"):
        m.score(played(m, ["pub", "pub", "pub", "ace"]))
    wrong = replace(played(m, ["ace"])[0], seed=1)
    with pytest.raises(TournamentError, match="not frame 0"):
        m.score([wrong])


def test_drawn_frames_cannot_prolong_a_match_for_ever() -> None:
    """R-truncate: after 3N frames the leader wins; all drawn, the fewer fouls, then the seed."""
    m = Race(("ace", "pub"), race=1, seed=0)
    assert m.max_frames == 3
    score = m.score(played(m, [None, None, None]))
    assert score.winner == "pub" and score.decided_by == "frame cap"  # ace fouled more (seat 0)
    longer = Race(("ace", "pub"), race=2, seed=0)
    led = longer.score(played(longer, [None, "pub", None, None, None, None]))
    assert led.winner == "pub" and led.decided_by == "frame cap" and led.wins == (0, 1)


class FoulWatcher:
    """Wraps a real agent and notes the frame's fouls and extensions at every decision."""

    seen: list[tuple[int, tuple[int, int], tuple[bool, bool]]] = []

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def act(self, view: FrameView) -> Action:
        self.seen.append((view.frame.shots, view.frame.fouls, view.frame.extension_used))
        return self.inner.act(view)  # type: ignore[attr-defined]


def test_fouls_are_reset_between_the_frames_of_a_match(tmp_path: Path) -> None:
    """rule 10.5: each frame of a match starts with no fouls, so a player who fouled in the
    last frame still needs two fouls to lose this one."""

    def watched(name: str, seed: int) -> FoulWatcher:  # a closure: built in this process
        return FoulWatcher(make_agent(name, seed))

    FoulWatcher.seen = []
    config = KnockoutConfig(
        ("heuristic", "random"), race=2, seed=4, options=FrameOptions(max_shots=30)
    )
    player = functools.partial(match.play_frame, build=watched)
    state = run_knockout(config, tmp_path, player, progress=False)
    final = state.rounds[0][0].score
    assert final is not None and final.frames >= 2
    starts = [fouls for shots, fouls, _ in FoulWatcher.seen if shots == 0]
    assert len(starts) >= final.frames and all(f == (0, 0) for f in starts)
    assert all(max(f) <= 1 for _, f, _ in FoulWatcher.seen)  # the second foul ends a frame
    records = [FrameOutcome.from_json(line) for line in (tmp_path / "frames.jsonl").open()]
    random_fouls = [r.fouls[r.agents.index("random")] for r in records]
    assert sum(random_fouls) > 2 and all(f <= 2 for f in random_fouls)


def test_clock_follows_the_rounds() -> None:
    """rule 12.2: rounds 1-2 untimed; 12.3: 35 s from round 3, 5 s less a round, never under
    20 s; 12.1: --clock off keeps every round untimed."""
    eight = tuple(f"p{i}" for i in range(8))
    config = KnockoutConfig(eight)
    assert [config.clock_limit(r) for r in (1, 2, 3)] == [None, None, 35.0]
    assert [config.round_options(r).round for r in (1, 2, 3)] == [1, 2, 3]
    later = KnockoutConfig(eight, first_round=4)
    assert [later.clock_limit(r) for r in (1, 2, 3)] == [30.0, 25.0, 20.0]
    floor = KnockoutConfig(eight, first_round=6)
    assert [floor.clock_limit(r) for r in (1, 2, 3)] == [20.0, 20.0, 20.0]
    off = KnockoutConfig(eight, first_round=4, clock=False)
    assert [off.clock_limit(r) for r in (1, 2, 3)] == [None] * 3
    assert all(off.round_options(r).round is None for r in (1, 2, 3))
    with pytest.raises(TournamentError, match="round: does not apply"):
        KnockoutConfig(eight, options=FrameOptions(round=3))


def test_each_round_is_played_under_its_clock(tmp_path: Path) -> None:
    """rule 12.3: the frame player gets the round of the frame's match (here 2, 3, 4)."""
    config = KnockoutConfig(FIELD, race=2, seed=3, first_round=2)
    state = run_knockout(config, tmp_path, synthetic_play_frame, progress=False)
    records = [FrameOutcome.from_json(line) for line in (tmp_path / "frames.jsonl").open()]
    for r in records:
        assert r.shots == config.tournament_round(config.round_of_frame(r.frame))
    assert {r.shots for r in records} == {2, 3, 4}
    assert state.champion is not None


def test_byes_go_to_the_top_seeds() -> None:
    """Five entrants: a bracket of eight, seeds 1-3 through to round 2 without a match; seeds 1
    and 2 in different halves."""
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9)] == [2, 4, 4, 8, 8, 16]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    asked: list[tuple[str | None, str | None]] = []

    def higher_seed_wins(slot: Slot) -> RaceScore:
        asked.append(slot.agents)
        m = Race((str(slot.agents[0]), str(slot.agents[1])), 1, 0)
        return m.score(played(m, [slot.agents[0]]))

    rounds = bracket(FIELD, higher_seed_wins)
    first = rounds[0]
    assert [s.bye for s in first] == [True, False, True, True]
    assert [s.agents[0] for s in first if s.bye] == ["ace", "pro", "club"]
    assert first[1].agents == ("pub", "novice")
    assert asked[0] == ("pub", "novice")  # the only round-1 match
    assert rounds[1][0].agents == ("ace", "pub") and rounds[1][1].agents == ("pro", "club")
    assert rounds[2][0].agents == ("ace", "pro") and champion(rounds) == "ace"
    with pytest.raises(TournamentError, match="two entrants"):
        bracket_size(1)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference knockout, played in one go in this process."""
    out = tmp_path_factory.mktemp("knockout")
    run_knockout(CONFIG, out, synthetic_play_frame, progress=False)
    return out


def frames_bytes(out: Path) -> bytes:
    return (out / "frames.jsonl").read_bytes()


def test_knockout_plays_to_a_champion_and_stores_every_frame(uninterrupted: Path) -> None:
    lines = frames_bytes(uninterrupted).decode().splitlines()
    records = [FrameOutcome.from_json(line) for line in lines]
    assert [r.frame for r in records] == sorted(r.frame for r in records)
    state = knockout_state(CONFIG, records)
    assert state.pending == [] and state.champion in FIELD
    for slots in state.rounds:
        for slot in slots:
            assert slot.winner is not None
            if slot.score is not None:
                assert slot.score.decided_by in ("race", "frame cap")
    assert json.loads((uninterrupted / "tournament.json").read_text()) == CONFIG.to_dict()


def test_worker_processes_give_the_serial_knockout(tmp_path: Path) -> None:
    """--jobs 2: the same frames, the same log, as in this process."""
    config = KnockoutConfig(FIELD[:3], race=2, seed=5)
    run_knockout(config, tmp_path / "serial", synthetic_play_frame, progress=False)
    workers = in_worker_processes(2)
    run_knockout(config, tmp_path / "jobs", synthetic_play_frame, workers, progress=False)
    assert frames_bytes(tmp_path / "jobs") == frames_bytes(tmp_path / "serial")


def knockout_command(out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "kinghill.experiments.cli.app",
        "tournament",
        "--format",
        "knockout",
        "--agents",
        *FIELD,
        "--race",
        "2",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--player",
        "test_knockout:slow_synthetic_play_frame",
    ]


TESTS_ON_PATH = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])
    ),
}


def test_resume_after_sigkill_mid_round(tmp_path: Path, uninterrupted: Path) -> None:
    """SIGKILL of `kinghill tournament --format knockout` mid-way, then the same command: it
    continues with no frame lost or played twice, to the uninterrupted log."""
    log = tmp_path / "frames.jsonl"
    command = knockout_command(tmp_path)
    process = subprocess.Popen(
        command, env=TESTS_ON_PATH, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while not (log.exists() and len(log.read_bytes().splitlines()) >= 3):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = log.read_bytes().splitlines(keepends=True)
    assert 3 <= len(kept) < len(frames_bytes(uninterrupted).splitlines())
    done = subprocess.run(command, env=TESTS_ON_PATH, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)
    assert "Champion:" in done.stdout and (tmp_path / "bracket.png").exists()


def test_log_with_a_frame_of_no_match_is_refused(tmp_path: Path, uninterrupted: Path) -> None:
    records = [FrameOutcome.from_json(line) for line in frames_bytes(uninterrupted).splitlines()]
    stray = replace(records[0], frame=CONFIG.max_frames - 1)
    with pytest.raises(TournamentError):
        knockout_state(CONFIG, [*records[1:], stray])


def test_seeding_by_the_ratings_of_a_round_robin(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    ratings = {"pro": 120.0, "ace": 80.0, "pub": -200.0}
    report.write_text(
        json.dumps(
            {"agents": {n: {"bradley_terry_elo": {"estimate": e}} for n, e in ratings.items()}}
        )
    )
    assert seeds_from_ratings(("ace", "pub", "pro"), report) == ("pro", "ace", "pub")
    with pytest.raises(TournamentError, match="no rating for club"):
        seeds_from_ratings(("ace", "club"), report)
    with pytest.raises(TournamentError, match="no report"):
        seeds_from_ratings(("ace",), tmp_path / "missing.json")
    knockout = tmp_path / "knockout.json"
    knockout.write_text(json.dumps({"bracket": []}))  # no agents' ratings: said so, not KeyError
    with pytest.raises(TournamentError, match=r"not a round robin's report.json \(it holds no"):
        seeds_from_ratings(("ace",), knockout)


def hand_made_state() -> tuple[KnockoutConfig, KnockoutState]:
    """Four entrants, the clock from round 3: ace beats novice 2-1 (a drawn frame, a time foul
    and an extension), pub beats pro 2-0, ace beats pub 2-0 in the final."""
    config = KnockoutConfig(("ace", "pro", "pub", "novice"), race=2, first_round=3)
    results = {
        ("ace", "novice"): ["ace", None, "novice", "ace"],
        ("pro", "pub"): ["pub", "pub"],
        ("ace", "pub"): ["ace", "ace"],
    }

    def scored(slot: Slot) -> RaceScore:
        m = config.match(slot)
        return m.score(played(m, results[(str(slot.agents[0]), str(slot.agents[1]))]))

    return config, KnockoutState(bracket(config.agents, scored), [])


def test_bracket_report_on_a_hand_made_result(tmp_path: Path) -> None:
    """Who met whom, the scores, fouls, time fouls and extensions, the champion; JSON; PNG."""
    config, state = hand_made_state()
    report = build_knockout_report(config, state)
    assert report["champion"] == "ace" and report["complete"]
    assert [r["clock"] for r in report["rounds"]] == [35.0, 30.0]
    first = report["rounds"][0]["matches"][0]
    assert first["agents"] == ["ace", "novice"] and first["wins"] == [2, 1]
    assert first["draws"] == 1 and first["frames"] == 4
    # seat 0 of each hand-made frame had a foul, a time foul; seat 1 took the extension
    assert first["time_fouls"] == [2, 2] and first["extensions"] == [2, 2]
    markdown = render_knockout_markdown(report)
    assert "**Champion: ace**" in markdown
    assert "## Round 1 (tournament round 3, 35 s a shot)" in markdown
    assert "## Round 2 (tournament round 4, 30 s a shot)" in markdown
    assert "| 1 | ace | 2–1 | novice | ace | 4 (1 drawn) | 2–2 | 2–2 | 2–2 |" in markdown
    assert "| 2 | pro | 0–2 | pub | pub | 2 |" in markdown
    assert "| 1 | ace | 2–0 | pub | ace | 2 |" in markdown
    rows = [r for r in report["thinking"] if r["agent"] == "pub"]
    assert [(r["round"], r["frames_won"], r["frames_lost"]) for r in rows] == [(1, 2, 0), (2, 0, 2)]
    summary = write_knockout_report(tmp_path, config, state)
    assert "Champion: ace" in summary
    assert json.loads((tmp_path / "report.json").read_text())["champion"] == "ace"
    picture = np.asarray(Image.open(tmp_path / "bracket.png").convert("L"))
    assert picture.shape[0] > 200 and picture.shape[1] > 600
    assert (picture < 128).mean() > 0.005  # text and lines were drawn
    page = (tmp_path / "report.html").read_text()  # the same tables, the bracket, no records
    assert "Champion: ace" in page and "<h2>Round 2 (tournament round 4, 30 s a shot)</h2>" in page
    assert '<img class="picture" src="data:image/png;base64,' in page
    assert '"frames":[]' in page


def test_report_of_an_unfinished_knockout(tmp_path: Path) -> None:
    """Mid-way, the report shows what is decided and the matches to come."""
    lines = _partial_log(tmp_path).read_text().splitlines()
    state = knockout_state(CONFIG, [FrameOutcome.from_json(line) for line in lines])
    assert state.champion is None and state.pending
    assert {CONFIG.round_of_frame(task.frame) for task in state.pending} == {2}
    markdown = render_knockout_markdown(build_knockout_report(CONFIG, state))
    assert "not decided yet" in markdown


def _partial_log(tmp_path: Path) -> Path:
    """A knockout log holding only the round-1 frames of CONFIG."""
    out = tmp_path / "full"
    run_knockout(CONFIG, out, synthetic_play_frame, progress=False)
    lines = (out / "frames.jsonl").read_text().splitlines()
    first_round = [
        line for line in lines if CONFIG.round_of_frame(FrameOutcome.from_json(line).frame) == 1
    ]
    path = tmp_path / "partial.jsonl"
    path.write_text("\n".join(first_round) + "\n")
    return path


def test_cli_knockout_runs_rerenders_and_refuses_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "k"
    base = ["tournament", "--agents", *FIELD[:3], "--out", str(out), "--jobs", "1"]
    player = ["--player", f"{__name__}:synthetic_play_frame"]
    assert cli.main([*base, "--format", "knockout", "--race", "1", *player]) == 0
    assert "Champion:" in capsys.readouterr().out
    (out / "report.md").unlink()
    assert cli.main(["tournament", "--report-only", "--out", str(out)]) == 0
    assert "Knockout report" in (out / "report.md").read_text()
    for bad, message in [
        ([*base, "--race", "3", *player], "--race: only with --format knockout"),
        ([*base, "--no-clock", *player], "--no-clock: only with --format knockout"),
        ([*base, "--clock", *player], "--clock: only with --format knockout"),
        ([*base, "--format", "knockout", "--frames", "4", *player], "--frames: is for round"),
        # 37.5: --round is a knockout's first round, as it is a round robin's round
        (
            [*base, "--format", "knockout", "--round", "3", *player],
            "first_round: stored 1, asked 3",
        ),
        ([*base, "--format", "knockout", "--race", "0", *player], "--race: must be at least 1"),
        ([*base, "--format", "knockout", "--ratings", "nowhere.json"], "no such file"),
    ]:
        assert cli.main(bad) == 2
        assert message in capsys.readouterr().err
    other = [*base, "--format", "knockout", "--race", "2", *player]
    assert cli.main(other) == 2 and "different tournament" in capsys.readouterr().err
    assert cli.main([*base, "--frames", "2", *player]) == 2
    assert "holds a knockout tournament, not a round-robin" in capsys.readouterr().err
