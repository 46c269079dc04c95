"""Your own agents by spec: ``module:Attribute?key=value``, the ``kinghill.agents`` entry points,
clear errors for specs that cannot load, and specs in tournaments (worker processes), play and
train."""

import argparse
import json
import sys
import textwrap
from pathlib import Path

import pytest

from kinghill.agents import (
    AgentSpecError,
    HeuristicAgent,
    SearchAgent,
    UnknownAgentError,
    check_agent,
    make_agent,
)
from kinghill.agents.registry import AgentSpec
from kinghill.experiments import cli
from kinghill.experiments.training.config import ConfigError, TrainConfig
from kinghill.experiments.training.environments import training_opponent

PACKAGE = '''
from kinghill.agents import HeuristicAgent


class Careful(HeuristicAgent):
    """The heuristic with a depth it remembers."""

    def __init__(self, seed=None, depth=2, style="safe"):
        super().__init__(seed)
        self.seed, self.depth, self.style = seed, depth, style
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")


def careful_factory(depth=1):
    return Careful(depth=depth)


def not_an_agent(seed=None):
    return [seed]


INSTANCE = Careful()
NUMBER = 3
'''


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package ``myagents`` on sys.path (and PYTHONPATH), installed with an entry point."""
    package = tmp_path / "myagents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "players.py").write_text(textwrap.dedent(PACKAGE))
    (package / "broken.py").write_text("raise RuntimeError('half written')\n")
    dist = tmp_path / "myagents-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: myagents\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[kinghill.agents]\ncareful = myagents.players:Careful\nbroken = myagents.broken:Agent\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("myagents")]:
        del sys.modules[name]


def test_spec_arguments_are_json_literals_or_text() -> None:
    spec = AgentSpec.parse('pkg.mod:Agent?depth=3,rate=0.5,fast=true,name=bold,label="7"')
    assert spec.target == "pkg.mod:Agent"
    assert spec.arguments == {"depth": 3, "rate": 0.5, "fast": True, "name": "bold", "label": "7"}
    assert AgentSpec.parse("search:50").arguments == {}


def test_module_attribute_spec_builds_the_class_with_arguments_and_seed(plugin: Path) -> None:
    agent = make_agent("myagents.players:Careful?depth=5,style=bold", seed=11)
    assert isinstance(agent, HeuristicAgent)
    assert (agent.seed, agent.depth, agent.style) == (11, 5, "bold")  # type: ignore[attr-defined]
    made = make_agent("myagents.players:careful_factory?depth=4", seed=3)  # no seed parameter
    assert made.depth == 4  # type: ignore[attr-defined]


def test_entry_point_spec_builds_the_registered_class(plugin: Path) -> None:
    agent = make_agent("careful?depth=0", seed=2)
    assert type(agent).__name__ == "Careful" and agent.depth == 0  # type: ignore[attr-defined]


def test_built_in_agents_take_arguments_too() -> None:
    agent = make_agent("search?budget=7", seed=1)
    assert isinstance(agent, SearchAgent) and agent.budget == 7


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchpkg.mod:Agent", "cannot import module 'nosuchpkg.mod'"),
        ("myagents.players:Carefull", "module 'myagents.players' has no 'Carefull'"),
        ("myagents.broken:Agent", "importing 'myagents.broken' raised RuntimeError: half written"),
        ("myagents.players:NUMBER", "not a class or factory"),
        ("myagents.players:INSTANCE", "not a class or factory"),
        ("myagents.players:not_an_agent", "returned a list, which is not an agent"),
        ("myagents.players:Careful?depht=3", "bad arguments for Careful"),
        ("myagents.players:Careful?depth=-1", "raised ValueError: depth must be >= 0"),
        ("myagents.players:Careful?depth", "options are KEY=VALUE"),
        ("myagents.players:Careful?seed=3", "the seed comes from the frame"),
        ("broken", "entry point 'myagents.broken:Agent' of kinghill.agents failed to load"),
        ("search?budgte=3", "search has no option 'budgte'"),
    ],
)
def test_specs_that_cannot_load_say_why(plugin: Path, spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message.replace("?", r"\?").replace("(", r"\(")):
        make_agent(spec, 0)


def test_unknown_name_lists_the_installed_entry_points(plugin: Path) -> None:
    with pytest.raises(UnknownAgentError, match="installed entry points: .*broken, careful"):
        make_agent("carefull", 0)


def test_check_agent_validates_without_building(plugin: Path) -> None:
    check_agent("myagents.players:Careful?depth=-1")  # only the constructor would object
    with pytest.raises(AgentSpecError, match="bad arguments"):
        check_agent("myagents.players:Careful?width=3")


def test_train_accepts_a_spec_opponent_and_refuses_a_broken_one(
    plugin: Path, tmp_path: Path
) -> None:
    config = TrainConfig(out=tmp_path, opponent="careful?depth=1")
    opponent = training_opponent(config)  # what every training env (and worker) builds
    assert type(opponent).__name__ == "Careful" and opponent.depth == 1
    with pytest.raises(ConfigError, match="opponent: .*cannot import module"):
        TrainConfig(out=tmp_path, opponent="nosuchpkg:Agent")


def test_tournament_worker_processes_build_spec_agents(
    plugin: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Spawned workers re-import the package by spec; both forms reach the report."""
    out = tmp_path / "t"
    agents = ["myagents.players:Careful?depth=1", "careful", "random"]
    argv = ["tournament", "--agents", *agents, "--frames", "2", "--max-shots", "4"]
    assert cli.main([*argv, "--jobs", "2", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert list(report["agents"]) == agents and report["frames_played"] == 6
    assert all(a["errors"] == 0 for a in report["agents"].values())


def test_cli_refuses_a_spec_that_cannot_load_before_playing(
    plugin: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "random", "myagents.players:Nope", "--out", str(out)]
    assert cli.main([*argv, "--jobs", "1"]) == 2
    assert "has no 'Nope'" in capsys.readouterr().err
    assert not (out / "frames.jsonl").exists()
    assert cli.main(["play", "random", "nosuchpkg:Agent"]) == 2
    assert "cannot import module 'nosuchpkg'" in capsys.readouterr().err


def test_play_takes_a_spec_agent(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "careful?depth=2", "random", "--max-shots", "3"]) == 0
    assert "player 0 (careful?depth=2)" in capsys.readouterr().out


def test_kinghill_agents_lists_the_installed_entry_points(plugin: Path) -> None:
    from kinghill.agents.registry import describe

    listed = describe().rsplit("(installed: ", 1)[1].removesuffix(").").split(", ")
    assert {"broken", "careful"} <= set(listed)


def _choices(parser: argparse.ArgumentParser, flag: str) -> tuple[str, ...]:
    """The choices of ``parser``'s option ``flag``."""
    action = next(a for a in parser._actions if flag in a.option_strings)
    return tuple(action.choices or ())


def test_written_choice_lists_match_the_library() -> None:
    # The spec options and the CLI parsers write these lists out, so that reading a spec or
    # printing --help does not import the search (and the physics); they must stay the same.
    from kinghill.agents.builtins import built_in
    from kinghill.agents.prior import HALVINGS
    from kinghill.agents.search import CANDIDATE_SETS
    from kinghill.envs.rl.wrappers import ACTIONS
    from kinghill.experiments.cli import export_policy, train_expert

    def option(agent: str, name: str) -> set[str]:
        found = built_in(agent)
        assert found is not None
        return set(next(o for o in found.options if o.name == name).choices)

    assert option("expert", "candidates") == set(CANDIDATE_SETS)
    assert option("search", "candidates") == set(CANDIDATE_SETS)
    assert option("expert", "halving") == set(HALVINGS)
    assert option("policy", "action") == set(ACTIONS)
    subparsers = argparse.ArgumentParser().add_subparsers()
    assert set(_choices(train_expert.add_parser(subparsers), "--candidates")) == set(CANDIDATE_SETS)
    assert set(_choices(export_policy.add_parser(subparsers), "--action")) == set(ACTIONS)
