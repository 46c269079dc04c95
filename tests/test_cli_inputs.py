"""Issue 39, item 13: the command line's smaller surprises — counts that say what they accept,
a mistyped flag reported by its subcommand with the flag it may mean, short display names
(``NAME=SPEC``), every built-in agent in the help, and a training summary that says whose win
rate it prints."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from kinghill.agents.registry import BUILT_IN
from kinghill.experiments import cli
from kinghill.experiments.cli.app import display_name
from kinghill.experiments.cli.train import report
from kinghill.experiments.training import TrainResult

FAST = ["--max-shots", "3", "--no-noise", "--jobs", "1", "--rating-samples", "20"]


def error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


@pytest.mark.parametrize("frames", ["0", "1", "3", "-2"])
def test_frames_says_what_it_accepts(frames: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = error_line(["tournament", "--frames", frames, "--out", "/nonexistent/t"], capsys)
    assert (
        line == f"kinghill tournament: error: --frames: must be even and at least 2 (got {frames})"
    )


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["tournament", "--framez", "4"],
            "kinghill tournament: error: unrecognized arguments: "
            "--framez 4 (did you mean --frames?)",
        ),  # fmt: skip
        (
            ["play", "random", "random", "--sed=3"],
            "kinghill play: error: unrecognized arguments: --sed=3 (did you mean --seed?)",
        ),  # fmt: skip
        (
            ["play", "random", "random", "extra"],
            "kinghill play: error: unrecognized arguments: extra",
        ),  # fmt: skip
        (["--nosuch"], "kinghill: error: unrecognized arguments: --nosuch"),
    ],
)
def test_a_mistyped_flag_is_reported_by_its_subcommand(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert error_line(argv, capsys) == expected


def test_display_names_split_only_a_name_before_a_spec() -> None:
    assert display_name("ppo=policy:runs/a.zip") == ("ppo", "policy:runs/a.zip")
    assert display_name("search") == ("search", "search")
    spec = "mypkg.module:Mine?depth=3"  # the spec's own '=' follows ':' or '?'
    assert display_name(spec) == (spec, spec)
    assert display_name("deep=mypkg.module:Mine?depth=3") == ("deep", spec)


def test_a_round_robin_shows_the_display_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "r=random", "h=heuristic", "--frames", "2", "--out", str(out)]
    assert cli.main([*argv, *FAST]) == 0
    data = json.loads((out / "report.json").read_text())
    assert list(data["agents"]) == ["r", "h"]
    assert "| r |" in (out / "report.md").read_text()
    capsys.readouterr()
    argv = ["tournament", "--agents", "r=random", "r=heuristic", "--out", str(tmp_path / "u")]
    assert "--agents: give each agent its own name" in error_line(argv, capsys)
    argv = ["tournament", "--format", "knockout", "--agents", "r=random", "heuristic"]
    assert "NAME=SPEC names are for round robins" in error_line(argv, capsys)


def test_play_commentary_uses_the_display_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "me=random", "heuristic", "--max-shots", "2", "--no-noise"]) == 0
    out = capsys.readouterr().out
    assert "player 0 (me)" in out and "random" not in out.split("(me)")[0]


@pytest.mark.parametrize("command", [["play", "--help"], ["tournament", "--help"]])
def test_the_help_lists_every_built_in_agent(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(command) == 0
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")
    for name in BUILT_IN:
        assert f" {name}" in text, name
    assert "NAME:PATH" in text and "NAME=SPEC" in text


def test_the_training_summary_says_whose_win_rate_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    result = TrainResult(Path("run/final.zip"), Path("run/curve.png"), 12.0, 40, 0.25, 0.16)
    report(result)
    line = capsys.readouterr().out
    assert "last training episodes: reward mean 0.250, win rate 0.160" in line
    assert "not an evaluation" in line


def test_former_spellings_still_work_with_a_one_line_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 37, item 5: one flag per idea; the old spelling is accepted with a note."""
    gif = tmp_path / "frame.gif"
    assert cli.main(["play", "random", "random", "--max-shots", "2", "--out", str(gif)]) == 0
    assert gif.exists()
    assert capsys.readouterr().err == "kinghill play: note: --out is now --out-file\n"
    runs = {}
    for name, flags in (("old", ["--clock", "off", "--first-round", "3"]),
                        ("new", ["--no-clock", "--round", "3"])):  # fmt: skip
        out = tmp_path / name
        argv = ["tournament", "--format", "knockout", "--agents", "random", "heuristic"]
        assert cli.main([*argv, "--race", "1", *flags, *FAST, "--out", str(out)]) == 0
        runs[name] = json.loads((out / "tournament.json").read_text())
        notes = capsys.readouterr().err.splitlines()
        assert len(notes) == (2 if name == "old" else 0)
    assert runs["old"] == runs["new"] and runs["new"]["clock"] is False
    assert runs["new"]["first_round"] == 3


def test_replay_help_speaks_of_the_replay_and_play_of_the_window_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["replay", "--help"]) == 0
    assert "window" not in capsys.readouterr().out  # replay opens none
    assert cli.main(["play", "--help"]) == 0
    assert "a human's window" in " ".join(capsys.readouterr().out.split())


def test_a_file_option_is_out_file_and_out_is_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["play", "--help"], ["replay", "--help"], ["export", "--help"]):
        assert cli.main(command) == 0
        assert "--out-file FILE" in capsys.readouterr().out
    assert (
        error_line(["export", "runs/x"], capsys) == "kinghill export: error: --out-file is required"
    )
    line = error_line(["pockets", "--out", "/proc/pockets"], capsys)
    assert line.startswith("kinghill pockets: error: --out: cannot write in /proc/pockets")


@pytest.mark.parametrize(
    "argv",
    [
        ["bench-env", "--steps", "5", "--vector-steps", "2", "--report", "{new}/env.json"],
        ["play", "random", "random", "--max-shots", "2", "--out-file", "{new}/frame.gif"],
    ],
    ids=["bench-env --report", "play --out-file"],
)
def test_a_file_in_a_folder_not_there_yet_is_written_there(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file option's folder is made where missing (it was checked writable and then left
    alone, and the writers failed with a traceback after the work was done)."""
    new = tmp_path / "runs" / "later"
    assert cli.main([a.format(new=new) for a in argv]) == 0
    assert Path(argv[-1].format(new=new)).stat().st_size > 0
    assert "Traceback" not in capsys.readouterr().err


def test_a_command_line_refused_makes_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "runs"
    argv = ["bench-env", "--steps", "0", "--report", str(new / "env.json")]
    assert error_line(argv, capsys).startswith("kinghill bench-env: error: --steps:")
    assert not new.exists()


@pytest.mark.parametrize("command", ["train-value", "train-expert", "train-position"])
def test_the_training_commands_help_shows_each_default(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each option with a default says it in the help (these commands' texts did not)."""
    from kinghill.experiments.cli.app import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    assert cli.main([command, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    for action in sub._actions:
        default = action.default
        if action.help and default not in (None, False, argparse.SUPPRESS) and default != 0:
            typed = " ".join(map(str, default)) if isinstance(default, tuple) else str(default)
            assert f"(default: {typed})" in shown, action.dest
    assert "(default: 0)" in shown  # a seed of 0 is a default too


def test_a_recorded_tournament_extended_without_record_says_the_new_frames_are_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Frames added to a tournament whose frames were recorded, without --record, have no
    replays: the command says so (it was silent, and report.html lacked their replays)."""
    argv = ["tournament", "--agents", "random", "heuristic", *FAST, "--out", str(tmp_path)]
    assert cli.main([*argv, "--frames", "2", "--record"]) == 0
    assert "note" not in capsys.readouterr().err
    assert cli.main([*argv, "--frames", "4"]) == 0
    err = capsys.readouterr().err
    assert "note: " in err and "not recorded (add --record to keep them)" in err
    assert cli.main([*argv, "--frames", "4", "--seed", "9"]) == 2  # refused: it plays nothing
    assert "note" not in capsys.readouterr().err
    assert cli.main([*argv, "--frames", "6", "--record"]) == 0
    assert "note" not in capsys.readouterr().err


def test_the_commentary_of_a_faulted_choice_says_the_choice_made(  # not "None"
) -> None:
    from kinghill.envs import ChoiceAction
    from kinghill.envs.game.loop import Decided, Turn
    from kinghill.envs.rules import Decision
    from kinghill.experiments.cli.play import describe

    turn = Turn(1, Decision.CHOICE, ChoiceAction(play_on=False), None, None, 0.0)
    line = describe(Decided(turn, "raised ValueError: no"), ("a", "b"))
    assert line == (
        "player 1 (b) gave no playable action (raised ValueError: no): "
        "player 1 chooses to hand back (10.4) [0.00 s]"
    )


def test_train_takes_noise_as_tournament_and_play_do() -> None:
    from kinghill.experiments.cli.app import build_parser
    from kinghill.experiments.cli.train import config_from_args

    parser = build_parser()
    for flags, noise in (([], True), (["--no-noise"], False), (["--noise"], True)):
        config = config_from_args(parser.parse_args(["train", "sb3", "--out", "run", *flags]))
        assert config.noise is noise


@pytest.mark.parametrize(
    ("command", "extra", "module"),
    [
        *(("export-policy", "onnx", m) for m in ("onnx", "onnxscript", "onnxruntime")),
        *(("serve", "serve", m) for m in ("starlette", "uvicorn")),
    ],
)
def test_a_command_without_its_extra_says_so_in_one_line(
    command: str,
    extra: str,
    module: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without a package of the command's extra (one hidden here) the command names the extra
    to install, rather than failing with a traceback where it first imports it (the export's
    onnx, the server's uvicorn), and writes nothing."""
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    out = tmp_path / "out"
    argv = {
        "export-policy": ["export-policy", "maskable-ppo", "--out-file", str(out / "x.onnx")],
        "serve": ["serve", "--out", str(out), "--port", "1"],
    }[command]
    line = error_line(argv, capsys)
    assert line.startswith(f"kinghill {command}: error: {command} needs the {extra} extra")
    assert line.endswith(f"pip install 'kinghill[{extra}]'") and not any(out.rglob("*.*"))
