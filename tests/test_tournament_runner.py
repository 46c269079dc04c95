"""The tournament runner on a synthetic frame player: schedule, frame log, resume, parallel, CLI."""

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kinghill.experiments import cli
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.options import FrameOptions
from kinghill.experiments.tournaments.round_robin import run_tournament
from kinghill.experiments.tournaments.runners import in_worker_processes

STRENGTH = {"weak": -1.0, "mid": 0.0, "strong": 1.5}
"""Hidden strengths of the synthetic agents (logistic win probability on the difference)."""


def synthetic_play_frame(
    agent_a: str, agent_b: str, seed: int, options: FrameOptions
) -> FrameOutcome:
    """A seeded stand-in for the real frame: the stronger agent (and the breaker) wins more."""
    rng = np.random.default_rng(seed)
    p_breaker = 1 / (1 + math.exp(STRENGTH[agent_b] - STRENGTH[agent_a] - 0.2))
    winner = None if rng.random() < 0.05 else int(rng.random() >= p_breaker)
    visits = rng.integers(3, 15, size=2)
    attempts = rng.integers(0, 4, size=2)
    clocked = options.round is not None and options.round >= 3
    return FrameOutcome(
        agents=(agent_a, agent_b),
        seed=seed,
        winner=winner,
        shots=int(visits.sum() + rng.integers(0, 10)),
        fouls=tuple(int(x) for x in rng.integers(0, 4, size=2)),
        visits=tuple(int(x) for x in visits),
        whites_potted=tuple(int(x) for x in rng.integers(0, 4, size=2)),
        colour_attempts=tuple(int(x) for x in attempts),
        colour_pots=tuple(int(rng.integers(0, a + 1)) for a in attempts),
        time_fouls=tuple(int(x) for x in rng.integers(0, 2, size=2)) if clocked else (0, 0),
        errors=(0, 0),
        wall_time=0.0,
    )


def slow_synthetic_play_frame(
    agent_a: str, agent_b: str, seed: int, options: FrameOptions
) -> FrameOutcome:
    """The synthetic frame, taking long enough that a test can kill the tournament mid-way."""
    time.sleep(0.1)
    return synthetic_play_frame(agent_a, agent_b, seed, options)


class InterruptedPlayer:
    """Plays ``frames`` frames, then stops the tournament as Ctrl-C would."""

    def __init__(self, frames: int) -> None:
        self.left = frames

    def __call__(
        self, agent_a: str, agent_b: str, seed: int, options: FrameOptions
    ) -> FrameOutcome:
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return synthetic_play_frame(agent_a, agent_b, seed, options)


CONFIG = TournamentConfig(("weak", "mid", "strong"), frames=6, seed=7)
PLAYER_SPEC = f"{__name__}:synthetic_play_frame"


def frames_bytes(out: Path) -> bytes:
    return (out / "frames.jsonl").read_bytes()


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference run: the whole tournament in one go, in this process."""
    out = tmp_path_factory.mktemp("reference")
    run_tournament(CONFIG, out, synthetic_play_frame, progress=False)
    return out


def test_schedule_is_a_round_robin_with_seats_swapped_and_fixed_seeds() -> None:
    """Each pair plays N frames, each agent breaking in half; seeds depend on seed and index."""
    schedule = CONFIG.schedule()
    assert [t.frame for t in schedule] == list(range(3 * 6))
    for pair in [("weak", "mid"), ("weak", "strong"), ("mid", "strong")]:
        seatings = [t.agents for t in schedule if set(t.agents) == set(pair)]
        assert seatings.count(pair) == seatings.count(pair[::-1]) == 3
    seeds = [t.seed for t in schedule]
    assert len(set(seeds)) == len(seeds)
    assert seeds == [t.seed for t in TournamentConfig(("weak", "mid", "strong"), 6, 7).schedule()]
    assert seeds != [t.seed for t in TournamentConfig(("weak", "mid", "strong"), 6, 8).schedule()]


def test_config_rejects_odd_frames_and_repeated_agents() -> None:
    """Seats swap evenly only with even frames per pair; rounds count from 1 (12.2)."""
    with pytest.raises(TournamentError, match="even"):
        TournamentConfig(("weak", "mid"), frames=5)
    with pytest.raises(TournamentError, match="two different"):
        TournamentConfig(("weak", "weak"), frames=2)
    with pytest.raises(TournamentError, match="round"):
        FrameOptions(round=0)


def test_frame_log_holds_one_json_line_per_frame_in_index_order(uninterrupted: Path) -> None:
    """frames.jsonl: every scheduled frame once, stamped with its index and its seat order."""
    lines = frames_bytes(uninterrupted).decode().splitlines()
    records = [FrameOutcome.from_json(line) for line in lines]
    assert [r.frame for r in records] == list(range(18))
    for record, task in zip(records, CONFIG.schedule(), strict=True):
        assert (record.agents, record.seed) == (task.agents, task.seed)
        assert record == FrameOutcome.from_json(record.to_json())
    assert json.loads((uninterrupted / "tournament.json").read_text()) == CONFIG.to_dict()


def test_resume_after_interruption_gives_the_uninterrupted_log(
    tmp_path: Path, uninterrupted: Path
) -> None:
    """Stopped after 5 frames, then restarted: only the missing frames are played, same log."""
    with pytest.raises(KeyboardInterrupt):
        run_tournament(CONFIG, tmp_path, InterruptedPlayer(5), progress=False)
    assert len(frames_bytes(tmp_path).splitlines()) == 5
    resumed = InterruptedPlayer(18 - 5)
    run_tournament(CONFIG, tmp_path, resumed, progress=False)
    assert resumed.left == 0
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)


def test_resume_drops_a_line_cut_short(tmp_path: Path, uninterrupted: Path) -> None:
    """A half-written last line (killed mid-write) is discarded and its frame played again."""
    lines = frames_bytes(uninterrupted).splitlines(keepends=True)
    (tmp_path / "tournament.json").write_bytes((uninterrupted / "tournament.json").read_bytes())
    (tmp_path / "frames.jsonl").write_bytes(b"".join(lines[:4]) + lines[4][:20])
    run_tournament(CONFIG, tmp_path, synthetic_play_frame, progress=False)
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)


def tournament_command(out: Path, jobs: int) -> list[str]:
    """`kinghill tournament` on CONFIG with the slow synthetic player (imported from tests/)."""
    return [
        sys.executable,
        "-m",
        "kinghill.experiments.cli.app",
        "tournament",
        "--agents",
        *CONFIG.agents,
        "--frames",
        str(CONFIG.frames),
        "--seed",
        str(CONFIG.seed),
        "--jobs",
        str(jobs),
        "--rating-samples",
        "50",
        "--out",
        str(out),
        "--player",
        "test_tournament_runner:slow_synthetic_play_frame",
    ]


TESTS_ON_PATH = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])
    ),
}


def start_and_wait_for_frames(command: list[str], log: Path, frames: int) -> subprocess.Popen:
    """Start the command and return once ``frames`` frames are in its log."""
    process = subprocess.Popen(
        command, env=TESTS_ON_PATH, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while not (log.exists() and len(log.read_bytes().splitlines()) >= frames):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return process


def test_resume_after_kill_of_the_command(tmp_path: Path, uninterrupted: Path) -> None:
    """SIGKILL of `kinghill tournament` mid-run, then the same command: identical final log."""
    command = tournament_command(tmp_path, jobs=1)
    log = tmp_path / "frames.jsonl"
    process = start_and_wait_for_frames(command, log, 3)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert 3 <= len(log.read_bytes().splitlines()) < 18
    done = subprocess.run(command, env=TESTS_ON_PATH, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid`` (from /proc), each with its start time to tell reused ids."""
    found: dict[int, str] = {}
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in map(int, children.read_text().split()):
            found[child] = process_start(child)
            found.update(descendants(child))
    return found


def process_start(pid: int) -> str:
    """The start time of a live process, or "" for one that is gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return ""
    return "" if fields[0] in ("Z", "X") else fields[19]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads processes from /proc")
def test_sigterm_stops_the_worker_processes_and_the_run_resumes(
    tmp_path: Path, uninterrupted: Path
) -> None:
    """SIGTERM to `kinghill tournament --jobs 2`: no process of it survives, the log is kept,
    and the same command then completes it to the uninterrupted log."""
    command = tournament_command(tmp_path, jobs=2)
    log = tmp_path / "frames.jsonl"
    process = start_and_wait_for_frames(command, log, 3)
    children = descendants(process.pid)
    assert len(children) >= 2  # the two workers (and multiprocessing's resource tracker)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130 and b"run the same command again to resume" in stderr
    deadline = time.monotonic() + 10
    while survivors := [pid for pid, start in children.items() if process_start(pid) == start]:
        assert time.monotonic() < deadline, f"still running after SIGTERM: {survivors}"
        time.sleep(0.05)
    kept = log.read_bytes().splitlines()
    assert 3 <= len(kept) < 18
    done = subprocess.run(command, env=TESTS_ON_PATH, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)


def test_worker_processes_give_the_serial_results(tmp_path: Path, uninterrupted: Path) -> None:
    """--jobs 2 (spawned processes): the same records, stored in the same order."""
    records = run_tournament(
        CONFIG, tmp_path, synthetic_play_frame, in_worker_processes(2), progress=False
    )
    assert [r.frame for r in records] == list(range(18))
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)


def test_restart_with_other_settings_is_refused(tmp_path: Path) -> None:
    """A directory holds one tournament: other settings get an error naming the difference
    (more frames a pair add frames instead: tests/test_tournament_more_frames.py)."""
    run_tournament(CONFIG, tmp_path, synthetic_play_frame, progress=False)
    other = TournamentConfig(CONFIG.agents, frames=8, seed=CONFIG.seed + 1)
    with pytest.raises(
        TournamentError, match=f"seed: stored {CONFIG.seed}, asked {CONFIG.seed + 1}"
    ):
        run_tournament(other, tmp_path, synthetic_play_frame, progress=False)


def _confused(agent_a: str, agent_b: str, seed: int, options: FrameOptions) -> FrameOutcome:
    """A frame player that answers with the seats swapped."""
    return synthetic_play_frame(agent_b, agent_a, seed, options)


def test_player_answering_for_another_frame_is_an_error(tmp_path: Path) -> None:
    """A record for other agents or another seed would corrupt the log; the runner stops."""
    with pytest.raises(TournamentError, match="frame player returned"):
        run_tournament(CONFIG, tmp_path, _confused, progress=False)


def test_round_reaches_the_frame_player_and_time_fouls_are_reported(tmp_path: Path) -> None:
    """Section 12: --round 3 is carried in FrameOptions; the report counts time fouls."""
    status = cli.main(
        ["tournament", "--agents", "weak", "strong", "--frames", "10", "--round", "3"]
        + ["--jobs", "1", "--rating-samples", "50", "--out", str(tmp_path), "--player", PLAYER_SPEC]
    )
    assert status == 0
    config = json.loads((tmp_path / "tournament.json").read_text())
    assert config["options"].pop("noise_scale") == 1.0  # the noise condition, default 1
    assert config["options"] == {"round": 3, "noise": True, "max_shots": 200, "decision_cap": 50.0}
    report = json.loads((tmp_path / "report.json").read_text())
    records = [FrameOutcome.from_json(x) for x in (tmp_path / "frames.jsonl").open()]
    for name in ("weak", "strong"):
        counted = sum(r.time_fouls[r.agents.index(name)] for r in records)
        assert report["agents"][name]["time_fouls"] == counted
    assert sum(a["time_fouls"] for a in report["agents"].values()) > 0


def test_cli_runs_reports_and_rerenders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`kinghill tournament` writes report.md/json and ratings.png; --report-only redraws them."""
    args = ["tournament", "--agents", "weak", "mid", "strong", "--frames", "20", "--jobs", "1"]
    args += ["--rating-samples", "200", "--out", str(tmp_path), "--player", PLAYER_SPEC]
    assert cli.main(args) == 0
    assert "Report:" in capsys.readouterr().out
    report = json.loads((tmp_path / "report.json").read_text())
    elo = {name: a["bradley_terry_elo"]["estimate"] for name, a in report["agents"].items()}
    assert elo["strong"] > elo["mid"] > elo["weak"]
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    first = (tmp_path / "report.md").read_text()
    (tmp_path / "report.md").unlink()
    rerender = ["tournament", "--report-only", "--rating-samples", "200", "--out", str(tmp_path)]
    assert cli.main(rerender) == 0
    assert (tmp_path / "report.md").read_text() == first


def test_cli_errors_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing frame player or a missing tournament is one error line and status 2."""
    args = ["tournament", "--frames", "2", "--out", str(tmp_path / "a")]
    assert cli.main([*args, "--player", "no_such_module:play_frame"]) == 2
    assert "cannot import the frame player module 'no_such_module'" in capsys.readouterr().err
    assert cli.main(["tournament", "--report-only", "--out", str(tmp_path / "b")]) == 2
    assert "no tournament in" in capsys.readouterr().err


def test_cli_mounts_only_subcommands_that_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Missing modules are not offered; a broken one is named in the help; tournament works."""
    (tmp_path / "broken_subcommand.py").write_text("raise RuntimeError('half written')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    modules = ("kinghill.experiments.no_such_command", "broken_subcommand")
    monkeypatch.setattr(
        "kinghill.experiments.cli.app.SUBCOMMAND_MODULES",
        (*modules, "kinghill.experiments.cli.tournament"),
    )
    assert cli.main(["--help"]) == 0
    help_text = capsys.readouterr().out
    assert "tournament" in help_text
    assert "no_such_command" not in help_text
    assert "broken_subcommand (RuntimeError: half written)" in help_text


def test_ray_plays_the_same_frames(tmp_path: Path, uninterrupted: Path) -> None:
    """--ray local: a local Ray instance started here plays the same tournament."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'kinghill[ray]'")
    from kinghill.experiments.tournaments.ray_runner import on_ray

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        run_tournament(CONFIG, tmp_path, synthetic_play_frame, on_ray("local"), progress=False)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert not ray.is_initialized()
    assert frames_bytes(tmp_path) == frames_bytes(uninterrupted)


def test_ray_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray installed, --ray fails with the pip command of the optional extra."""
    from kinghill.experiments.tournaments.ray_runner import on_ray

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(TournamentError, match=r"pip install 'kinghill\[ray\]'"):
        on_ray("local")


def marking_play_frame(
    agent_a: str, agent_b: str, seed: int, options: FrameOptions
) -> FrameOutcome:
    """The synthetic frame, slow, leaving a file in $KINGHILL_TEST_STARTS when it starts."""
    (Path(os.environ["KINGHILL_TEST_STARTS"]) / str(seed)).touch()
    time.sleep(0.5)
    return synthetic_play_frame(agent_a, agent_b, seed, options)


def test_ray_cancels_the_frames_left_when_the_run_stops(tmp_path: Path) -> None:
    """Issue 10.3: on a Ray instance that outlives the run (a cluster), stopping the run (here
    the consumer closing it, as Ctrl-C unwinds it) cancels the frames not yet played."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'kinghill[ray]'")
    import functools

    from kinghill.experiments.tournaments.frames import play_task
    from kinghill.experiments.tournaments.ray_runner import on_ray

    starts = tmp_path / "starts"
    starts.mkdir()
    env_vars = {"KINGHILL_TEST_STARTS": str(starts)}
    ray.init(
        num_cpus=1, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": env_vars}
    )
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        tasks = CONFIG.schedule()
        frames = on_ray("auto")(
            functools.partial(play_task, marking_play_frame, CONFIG.options), tasks
        )
        next(frames)
        frames.close()
        started = len(list(starts.iterdir()))
        time.sleep(3)  # six more frames would start meanwhile without the cancellation
        assert len(list(starts.iterdir())) <= started + 1 < len(tasks)
        assert ray.is_initialized()  # not ours to shut down
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        ray.shutdown()


def test_the_old_frame_player_spec_still_names_the_frame_player() -> None:
    """``--player kinghill.experiments.match:play_frame`` (the module before it moved) is the
    default frame player, for the library and the command line alike."""
    from kinghill.experiments.cli.app import build_parser
    from kinghill.experiments.tournaments import frame_player
    from kinghill.experiments.tournaments.runners import DEFAULT_PLAYER, load_frame_player

    old = "kinghill.experiments.match:play_frame"
    assert load_frame_player(old) is frame_player.play_frame
    assert build_parser().parse_args(["tournament", "--player", old]).player == DEFAULT_PLAYER
