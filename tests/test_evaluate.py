"""``kinghill.experiments.evaluate``: specs, agent objects and factories; the same frames as the
command line; worker processes; the report as Python objects."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kinghill.agents import AgentSpecError, HeuristicAgent, RandomAgent
from kinghill.experiments import cli, evaluate
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_log import FRAMES_FILE
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.report import Report
from kinghill.experiments.tournaments.stats import Interval

SHORT = {"frames": 2, "max_shots": 10, "rating_samples": 100}


def results(frames: tuple[FrameOutcome, ...]) -> list[tuple[object, ...]]:
    """What a frame's result is made of, without its timings."""
    return [(r.frame, r.agents, r.seed, r.winner, r.shots, r.fouls, r.visits) for r in frames]


def careful(seed: int | None = None) -> HeuristicAgent:
    """A module-level factory (worker processes import it by name)."""
    return HeuristicAgent(seed)


def test_evaluate_returns_the_report_as_objects(tmp_path: Path) -> None:
    report = evaluate(["heuristic", "random"], **SHORT, out=tmp_path)
    assert isinstance(report, Report) and report.frames_played == report.frames_scheduled == 2
    heuristic = report.agents["heuristic"]
    assert heuristic.frames == 2 and isinstance(heuristic.rating, Interval)
    assert heuristic.rating.low <= heuristic.rating.estimate <= heuristic.rating.high
    pairing = report.win_rates["heuristic"]["random"]
    assert pairing.wins + pairing.losses + pairing.draws == 2
    assert pairing.win_rate.estimate == (pairing.wins + pairing.draws / 2) / 2
    matrix = report.win_matrix()
    assert matrix[0, 1] == pairing.win_rate.estimate and matrix[0, 1] + matrix[1, 0] == 1
    assert set(heuristic.counts) >= {"fouls", "visits", "errors"}
    assert [a.name for a in report.ranking()][0] == max(
        report.agents,
        key=lambda n: report.agents[n].rating.estimate,  # type: ignore[union-attr]
    )
    stored = json.loads((tmp_path / "report.json").read_text())
    assert Report.of(stored).agents == report.agents
    assert "## Ratings" in report.markdown()


def test_evaluate_plays_the_frames_the_command_line_plays(tmp_path: Path) -> None:
    argv = ["tournament", "--agents", "heuristic", "random", "--frames", "2", "--max-shots", "10"]
    assert cli.main([*argv, "--jobs", "1", "--out", str(tmp_path)]) == 0
    logged = [FrameOutcome.from_json(line) for line in (tmp_path / FRAMES_FILE).open()]
    report = evaluate(["heuristic", "random"], **SHORT)
    assert results(report.frames) == results(tuple(logged))


def test_objects_and_factories_play_as_their_specs() -> None:
    """An agent object is copied and re-seeded per frame, a factory called with the seed: both
    play exactly as the spec of the same agent."""
    by_spec = evaluate(["heuristic", "random"], **SHORT)
    by_object = evaluate({"heuristic": HeuristicAgent(), "random": RandomAgent}, **SHORT)
    assert results(by_object.frames) == results(by_spec.frames)
    named = evaluate([careful, HeuristicAgent(), HeuristicAgent()], **SHORT)
    assert list(named.agents) == ["careful", "HeuristicAgent", "HeuristicAgent#2"]


def test_worker_processes_play_the_same_frames() -> None:
    serial = evaluate([careful, "random"], **SHORT)
    parallel = evaluate([careful, "random"], **SHORT, jobs=2)
    assert results(parallel.frames) == results(serial.frames)


def test_agents_that_cannot_be_played_are_refused_before_play(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="cannot be sent to worker processes"):
        evaluate([lambda seed=None: HeuristicAgent(seed), "random"], **SHORT, jobs=2)
    with pytest.raises(AgentSpecError, match="unknown agent 'heuristix'"):
        evaluate(["heuristix", "random"], **SHORT)
    with pytest.raises(AgentSpecError, match="not an agent"):
        evaluate([3, "random"], **SHORT)  # type: ignore[list-item]
    with pytest.raises(AgentSpecError, match=r"'search:120' and 'search\?budget=120' are one"):
        evaluate(["search:120", "search?budget=120", "random"], **SHORT)
    with pytest.raises(ValueError, match="record=True needs out="):
        evaluate(["heuristic", "random"], **SHORT, record=True)
    for jobs in (0, -1, 1.5, "2"):
        with pytest.raises(TournamentError, match="jobs: must be a whole number of at least 1"):
            evaluate(["heuristic", "random"], **SHORT, jobs=jobs)  # type: ignore[arg-type]


SCRIPT = """\
from kinghill.experiments import evaluate

def play(jobs):
    return evaluate(["random", "heuristic"], frames=2, max_shots=4, jobs=jobs)

{call}
"""


def _run(source: str, *where: str, stdin: bool = False) -> subprocess.CompletedProcess[str]:
    """A script run by Python as a user runs it: from a file in ``where[0]``, or from stdin."""
    if stdin:
        argv, given = [sys.executable, "-"], source
    else:
        (Path(where[0]) / "script.py").write_text(source)
        argv, given = [sys.executable, str(Path(where[0]) / "script.py")], None
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(argv, input=given, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_script_without_the_main_guard_is_told_so_in_one_line(tmp_path: Path, jobs: int) -> None:
    """Issue 39 item 9: evaluate() at the top level of a script (no ``__main__`` guard) ends in
    one line naming the guard and the line, before any process is spawned (each would run the
    script again and die: 107 lines and "AgentStartError: ... died")."""
    done = _run(SCRIPT.format(call=f"print(play({jobs}))"), str(tmp_path))
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("kinghill.experiments.tournaments.agent_process.MissingMainGuard: ")
    assert 'script.py, line 6: put the call under if __name__ == "__main__":' in last
    assert "died" not in done.stderr and "bootstrapping" not in done.stderr


def test_a_script_read_from_stdin_is_told_so_in_one_line(tmp_path: Path) -> None:
    guarded = SCRIPT.format(call='if __name__ == "__main__":\n    print(play(1))')
    done = _run(guarded, str(tmp_path), stdin=True)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert "the script <stdin> (python -) cannot be read again" in last
    assert "save it to a file" in last and "<stdin>'" not in done.stderr


def test_a_guarded_script_plays(tmp_path: Path) -> None:
    guarded = SCRIPT.format(call='if __name__ == "__main__":\n    print(len(play(1).frames))')
    done = _run(guarded, str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
