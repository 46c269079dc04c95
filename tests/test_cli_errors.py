"""Issue 10, item 4: every user error of the ``kinghill`` command line is one ``error:`` line that
names the argument and what is wrong, exit status 2, no traceback, and nothing written; the
arguments are checked before any work, so the corrected command then runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kinghill.agents.builtins import data_path
from kinghill.experiments import cli
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.frames import FrameOutcome
from kinghill.experiments.tournaments.options import FrameOptions

FAST = ["--max-shots", "3", "--no-noise"]
"""Options that make a real frame short."""


def killed_play_frame(agent_a: str, agent_b: str, seed: int, options: FrameOptions) -> FrameOutcome:
    """A frame player whose worker process is killed, as by the OOM killer."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (empty if it does not exist)."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def prog(argv: list[str]) -> str:
    """The command that reports ``argv``'s errors (``kinghill train sb3`` for a backend's)."""
    return " ".join(["kinghill", *argv[: 2 if argv[1:2] in (["sb3"], ["rllib"]) else 1]])


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str], status: int = 2) -> str:
    """Run ``kinghill ARGV`` in process; check the status and the one error line; return it."""
    assert cli.main(argv) == status
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"{prog(argv)}: error: "), lines[0]
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


@pytest.fixture
def regular_file(tmp_path: Path) -> Path:
    path = tmp_path / "file"
    path.write_text("not a directory")
    return path


BAD_VALUES = [
    (["tournament", "--agents", "heuristic", "nosuch"], "--agents: unknown agent 'nosuch'"),
    (
        ["tournament", "--agents", "random", "search:0"],
        "--agents: agent 'search:0': search:ARG is N simulations",
    ),
    (
        ["tournament", "--agents", "random", "search:-1s"],
        "--agents: agent 'search:-1s': search:ARG is N simulations",
    ),
    (
        ["tournament", "--agents", "random", "policy:/nonexistent.zip"],
        "--agents: agent 'policy:/nonexistent.zip': no policy checkpoint at /nonexistent.zip",
    ),
    (["tournament", "--seed", "-1"], "--seed: a seed is 0 or more (got -1)"),
    (["tournament", "--jobs", "0"], "--jobs: must be at least 1 (got 0)"),
    (["tournament", "--jobs", "-1"], "--jobs: must be at least 1 (got -1)"),
    (["tournament", "--jobs", "two"], "--jobs: not a whole number: 'two'"),
    (["tournament", "--rating-samples", "0"], "--rating-samples: must be at least 1 (got 0)"),
    (["tournament", "--frames", "3"], "--frames: must be even and at least 2 (got 3)"),
    (["tournament", "--round", "0"], "--round: must be at least 1 (got 0)"),
    (["tournament", "--max-shots", "0"], "--max-shots: must be at least 1 (got 0)"),
    (
        ["tournament", "--out", "/proc/kh"],
        "--out: cannot write in /proc/kh: the folder /proc is not writable",
    ),
    (["bench-physics", "--shots", "-1"], "--shots: must be at least 1 (got -1)"),
    (["bench-physics", "--report", "figures.txt"], "--report: must end in .json"),
    (["bench-env", "--steps", "0"], "--steps: must be at least 1 (got 0)"),
    (["play", "random", "random", "--width", "0"], "--width: must be from 200 to 3840 (got 0)"),
    (["play", "random", "random", "--seed", "-1"], "--seed: a seed is 0 or more (got -1)"),
    (["play", "random", "nosuch"], "B: unknown agent 'nosuch'"),
    (
        ["play", "random", "random", "--out-file", "frame.png"],
        "--out-file: must end in .gif or .mp4",
    ),
    (
        ["play", "random", "random", "--out-file", "/proc/kh.gif"],
        "--out-file: cannot write /proc/kh.gif: the folder /proc is not writable",
    ),
    (["play", "random", "random", "--fps", "0"], "--fps: must be a finite number above 0"),
    (["play", "random", "random", "--speed", "-2"], "--speed: must be a finite number above 0"),
    (
        ["play", "random", "random", "--fps", "60", "--out-file", "frame.gif"],
        "--fps: a GIF shows at most 50 pictures a second (got 60)",
    ),
    (["shots", "--out", "shots", "--fps", "0"], "--fps: must be a finite number above 0 (got 0)"),
    (["shots", "--out", "shots", "--fps", "nan"], "--fps: must be a finite number above 0"),
    (["train", "sb3", "--out", "run", "--net", "abc"], "--net: must be positive whole numbers"),
    (["train", "sb3", "--out", "run", "--net", "64,0"], "--net: must be positive whole numbers"),
    (
        ["train", "sb3", "--out", "run", "--init", "/nonexistent.zip"],
        "--init: no policy checkpoint at /nonexistent.zip",
    ),
    (["train", "sb3", "--out", "run", "--steps", "0"], "--steps: must be at least 1 (got 0)"),
    (
        ["train", "sb3", "--out", "run", "--learning-rate", "-1"],
        "--learning-rate: must be a finite",
    ),
    (
        ["train", "sb3", "--out", "run", "--checkpoint-every", "-5"],
        "--checkpoint-every: must be 0 or",
    ),
]


@pytest.mark.parametrize(("argv", "message"), BAD_VALUES, ids=[" ".join(a) for a, _ in BAD_VALUES])
def test_a_bad_value_is_one_line_naming_the_argument(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    if argv[0] == "tournament" and "--out" not in argv:
        argv = [*argv, "--out", "runs/t"]
    line = usage_error(argv, capsys)
    assert line.startswith(f"{prog(argv)}: error: {message}"), line
    assert tree(tmp_path) == {}  # nothing written, no folder left


def test_an_unknown_command_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("kinghill: error: COMMAND: invalid choice: 'nosuch'")
        and err.count("\n") == 1
    )


@pytest.mark.parametrize(
    ("suite", "said"),
    [
        ("{not json", "is not a peer-bench-suite/1 file"),
        ('{"table": 1}', "is not a peer-bench-suite/1 file"),
        ("folder", ": a directory"),
        (None, ": no such file"),  # named but not there: refused, not skipped after the work
    ],
)
def test_a_broken_peer_suite_is_refused_before_the_benchmark(
    suite: str | None, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "suite.json"
    if suite == "folder":
        path.mkdir()
    elif suite is not None:
        path.write_text(suite)
    line = usage_error(["bench-physics", "--suite", str(path)], capsys)
    assert f"--suite: {path}{'' if said.startswith(':') else ' '}{said}" in line


@pytest.mark.parametrize("where", ["under_file", "is_file"])
def test_an_out_that_cannot_be_a_folder_is_refused(
    where: str, regular_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = regular_file / "t" if where == "under_file" else regular_file
    line = usage_error(["tournament", "--agents", "random", "heuristic", "--out", str(out)], capsys)
    expected = "which is a file" if where == "under_file" else "exists and is not a directory"
    assert line.startswith("kinghill tournament: error: --out: ") and expected in line
    assert regular_file.read_text() == "not a directory"


def test_a_refused_command_writes_nothing_so_the_corrected_one_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    base = ["tournament", "--frames", "2", "--jobs", "1", "--rating-samples", "20", *FAST]
    base += ["--out", str(out)]
    usage_error([*base, "--agents", "random", "nosuch"], capsys)
    assert not out.exists()
    assert cli.main([*base, "--agents", "random", "heuristic"]) == 0
    stored = TournamentConfig.from_dict(json.loads((out / "tournament.json").read_text()))
    assert stored.agents == ("random", "heuristic")


def played(tmp_path: Path) -> Path:
    """A finished two-frame tournament folder (on the real frame player, kept short)."""
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "random", "heuristic", "--frames", "2", "--jobs", "1"]
    assert cli.main([*argv, "--rating-samples", "20", *FAST, "--out", str(out)]) == 0
    return out


BROKEN_LINES = {
    "a list": (b"[1, 2, 3]", "expected a JSON object, got a list"),
    "a number": (b"42", "expected a JSON object, got int 42"),
    "not UTF-8": (b'{"agents": "\xff\xfe"}', "codec can't decode"),
    "a bad winner": (None, "field 'winner': str 'banana' is not int or null"),
    "a bad frame": (None, "field 'frame': expected a whole number, got str 'zero'"),
    "not JSON": (b"{oops", "Expecting property name"),
}


@pytest.mark.parametrize("case", BROKEN_LINES)
def test_a_broken_frames_line_names_the_file_and_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = played(tmp_path)
    frames = out / "frames.jsonl"
    first, second = frames.read_bytes().splitlines()
    line, reason = BROKEN_LINES[case]
    if line is None:  # a real record with one field spoilt
        record = json.loads(second)
        record.update({"winner": "banana"} if "winner" in reason else {"frame": "zero"})
        line = json.dumps(record).encode()
    frames.write_bytes(first + b"\n" + line + b"\n")
    capsys.readouterr()
    for argv in (["--report-only"], ["--agents", "random", "heuristic", "--frames", "2", *FAST]):
        argv = ["tournament", *argv, "--rating-samples", "20", "--out", str(out)]
        message = usage_error(argv, capsys)
        assert message.startswith(f"kinghill tournament: error: --out: {frames}:2: bad record")
        assert reason in message
    assert frames.read_bytes() == first + b"\n" + line + b"\n"  # left as it was


@pytest.mark.parametrize(
    "content", [b"{not json", b"[]", b'{"agents": ["a", "b"]}', b'{"name": "something else"}']
)
def test_a_corrupt_or_foreign_config_is_refused(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    out.mkdir()
    (out / "tournament.json").write_bytes(content)
    for argv in (["--report-only"], ["--agents", "random", "heuristic", "--frames", "2"]):
        line = usage_error(["tournament", *argv, "--out", str(out)], capsys)
        assert f"--out: {out / 'tournament.json'} is not a kinghill tournament config" in line
    assert (out / "tournament.json").read_bytes() == content
    assert tree(out) == {"tournament.json": content}


def test_a_frames_file_that_is_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = played(tmp_path)
    (out / "frames.jsonl").unlink()
    (out / "frames.jsonl").mkdir()
    capsys.readouterr()
    line = usage_error(["tournament", "--report-only", "--out", str(out)], capsys)
    assert line.endswith(f"--out: {out / 'frames.jsonl'} is not a file")


def test_a_killed_worker_is_one_line_and_the_frames_are_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--agents", "a", "b", "--frames", "2", "--jobs", "2"]
    argv += ["--out", str(tmp_path), "--player", f"{__name__}:killed_play_frame"]
    line = usage_error(argv, capsys, status=1)
    assert "error: a worker process died" in line
    assert "run the same command again to resume" in line


def test_play_checks_out_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage_error(["play", "search", "search", "--out-file", str(tmp_path / "x" / "y.txt")], capsys)
    assert capsys.readouterr().out == ""  # no shot commentary: nothing was played


def test_play_without_out_plays_the_frame(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "random", "heuristic", *FAST]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") >= 2 and "player 0 (random)" in out


def test_train_init_of_another_algorithm_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--init with a SAC checkpoint and --algo ppo says which --algo to use, before training."""
    saved = data_path("ppo-aim-random.zip")  # the shipped aim-assisted PPO model
    out = tmp_path / "run"
    line = usage_error(
        ["train", "sb3", "--out", str(out), "--algo", "sac", "--init", str(saved)], capsys
    )
    assert line.endswith(f"--init: {saved} was saved by PPO; train it with --algo ppo")
    assert not out.exists()
    argv = ["train", "sb3", "--out", str(out), "--algo", "ppo", "--action", "flat"]
    line = usage_error([*argv, "--init", str(saved)], capsys)  # SB3 raised a traceback
    assert line.endswith(f"--init: {saved} was trained with the aim action; train it with "
                         "--action aim")  # fmt: skip
    assert not out.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--agents", "heuristic", "nosuch", "--out", "t"],
        ["play", "random", "random", "--width", "0"],
        ["train", "sb3", "--out", "run", "--net", "abc"],
    ],
)
def test_in_a_real_process_the_error_is_one_line_on_stderr(argv: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("kinghill")), *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"{prog(argv)}: error: --")
    assert list(tmp_path.iterdir()) == []
