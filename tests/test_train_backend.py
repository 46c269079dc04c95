"""Issue 12: ``kinghill train sb3|rllib`` keeps each backend's options to itself, and without
the rllib extra ``kinghill train rllib`` and ``rllib:PATH`` say how to install it (one line, exit 2,
nothing written). Runs with or without RLlib installed."""

import sys
from pathlib import Path

import pytest

from kinghill.agents import AgentSpecError, check_agent, make_agent
from kinghill.experiments.cli.app import main


@pytest.mark.parametrize(
    "option", [["--ray", "auto"], ["--iterations", "3"], ["--policies", "per-seat"]]
)
def test_rllib_options_with_the_sb3_backend_are_refused(
    option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", "sb3", "--out", str(tmp_path / "r"), *option]) == 2
    err = capsys.readouterr().err  # 37.5: each backend its own options, argparse's to check
    assert err.startswith(f"kinghill train sb3: error: unrecognized arguments: {option[0]}")
    assert err.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_without_rllib_the_backend_and_the_agent_say_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray.rllib", None)  # import ray.rllib now fails
    assert main(["train", "rllib", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kinghill train rllib: error: BACKEND: RLlib is not installed")
    assert err.endswith("pip install 'kinghill[rllib]'\n") and err.count("\n") == 1
    assert not (tmp_path / "r").exists()
    for check in (check_agent, make_agent):
        with pytest.raises(AgentSpecError, match=r"pip install 'kinghill\[rllib\]'"):
            check(f"rllib:{tmp_path}")
