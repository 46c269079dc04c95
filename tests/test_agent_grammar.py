"""One spec grammar, ``NAME[:ARG][?KEY=VALUE,...]``, driven by the table of built-ins: every
option typed and ranged with a one-line error naming it, "did you mean" for a misspelt name or
option, ``&`` as a separator, and one canonical id per agent however its spec is written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kinghill.agents import (
    AgentSpecError,
    MissingExtraError,
    SearchAgent,
    UnknownAgentError,
    canonical_id,
    check_agent,
    make_agent,
    missing_extra,
)
from kinghill.agents.builtins import BUILT_INS, Kind, Option, built_in
from kinghill.agents.registry import describe
from kinghill.experiments import cli


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search?budget=abc", "option budget must be a whole number >= 1, got 'abc'"),
        ("search?budget=-3", "option budget must be a whole number >= 1, got '-3'"),
        ("search?budget=2.5", "option budget must be a whole number >= 1, got '2.5'"),
        ("search?time_budget=0", "option time_budget must be a number > 0, got '0'"),
        ("search?time_budget=inf", "option time_budget must be a number > 0"),
        ("search?lookahead=yes", "option lookahead must be true or false, got 'yes'"),
        ("expert?arms=-1", "option arms must be a whole number >= 0"),
        ("policy:x.zip?action=grid", "option action must be one of aim, flat, masked"),
        ("search?budgt=3", "search has no option 'budgt' (did you mean budget?)"),
        ("heuristic?budget=3", "heuristic has no option 'budget'; it takes no options"),
        ("search:120?budget=50", "budget given twice"),
        ("search?budget=1&budget=2", "option 'budget' given twice"),
        ("policy:/etc/passwd", "/etc/passwd is not a Stable-Baselines3 checkpoint"),
        ("expert:/nonexistent/net.npz", "/nonexistent/net.npz: nothing there"),
        ("rllib:/etc/passwd", "/etc/passwd: not a folder there"),
        ("random:3", "random takes no argument"),
    ],
)
def test_a_wrong_option_or_argument_is_one_line_naming_it(spec: str, message: str) -> None:
    entry = built_in(re.split(r"[:?]", spec)[0])
    extra = None if entry is None else entry.missing_extra()
    if extra is not None:  # the README's own install: the missing extra is said first
        message = f"needs the {extra!r} extra, which is not installed"
    for check in (check_agent, lambda s: make_agent(s, 0)):
        with pytest.raises(AgentSpecError, match=re.escape(message)) as error:
            check(spec)
        assert "\n" not in str(error.value)


@pytest.mark.parametrize(("spec", "close"), [("heuristc", "heuristic"), ("exprt:x.npz", "expert")])
def test_a_misspelt_name_gets_did_you_mean(spec: str, close: str) -> None:
    with pytest.raises(UnknownAgentError, match=rf"did you mean {close}\?"):
        make_agent(spec, 0)


def test_options_are_separated_by_commas_or_ampersands() -> None:
    for spec in ("search?budget=9,lookahead=true", "search?budget=9&lookahead=true"):
        agent = make_agent(spec, 0)
        assert isinstance(agent, SearchAgent) and agent.budget == 9 and agent.leaf is not None
    made = make_agent("expert?arms=0&budget=12", 0)
    assert (made.arms, made.budget) == (0, 12)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("specs", "canonical"),
    [
        (["search", "search:120", "search?budget=120", "search?margin=1.0"], "search"),
        (["search:50", "search?budget=50", "search?budget=+50"], "search?budget=50"),
        (["search:2.5s", "search?time_budget=2.5"], "search?time_budget=2.5"),
        (
            ["search?lookahead=true,budget=50", "search?budget=50&lookahead=TRUE"],
            "search?budget=50,lookahead=true",
        ),
        (
            ["expert?budget=120", "expert:docs/training/expert2.npz?budget=120"],
            "expert?budget=120",
        ),
        (["maskable-ppo", "policy:docs/training/maskable-heuristic.zip"], "maskable-ppo"),
        (["rllib-selfplay", "rllib:docs/training/rllib-selfplay/"], "rllib-selfplay"),
        (["policy:runs/a/final.zip", "maskable-ppo:./runs/a/final.zip"], "policy:runs/a/final.zip"),
        (
            ["mypkg.players:Careful?b=2,a=x", "mypkg.players:Careful?a=x&b=2"],
            "mypkg.players:Careful?a=x,b=2",
        ),
    ],
)
def test_each_agent_has_one_canonical_id(specs: list[str], canonical: str) -> None:
    assert {canonical_id(spec) for spec in specs} == {canonical}


def test_canonical_ids_are_fixed_points() -> None:
    for spec in (
        "search:50",
        "expert:docs/training/expert2.npz?arms=0",
        "ppo-aim?deterministic=false",
    ):
        once = canonical_id(spec)
        assert canonical_id(once) == once


def test_canonical_id_refuses_a_wrong_option() -> None:
    with pytest.raises(AgentSpecError, match="option budget"):
        canonical_id("search?budget=abc")


def test_every_built_in_and_option_is_listed_with_its_rule() -> None:
    listing = describe()
    for entry in BUILT_INS:
        assert f"\n{entry.name}: " in listing
        for option in entry.options:
            assert f"?{option.name}=  {option.rule()}" in listing


NOT_OPTIONS = {"seed", "path", "noise", "leaf"}
"""Parameters of the built-ins' factories that a spec does not set: the frame's seed, the
``:PATH``, and objects (a noise model, a leaf scorer)."""


def test_the_table_and_the_factories_have_the_same_options() -> None:
    """The table and the classes cannot drift apart: an option the factory does not take
    would pass the table's check and fail when built, and a parameter the table leaves out
    could not be given in a spec."""
    import inspect

    for entry in BUILT_INS:
        parameters = set(inspect.signature(entry.load()).parameters) - NOT_OPTIONS
        assert {option.name for option in entry.options} == parameters, entry.name


def test_an_option_reads_its_type_and_range() -> None:
    option = Option("k", Kind.FLOAT, "", minimum=0, exclusive=True)
    assert option.read("2") == 2.0 and option.read("1e-3") == 0.001
    for bad in ("0", "-1", "nan", "x", ""):
        with pytest.raises(ValueError, match="a number > 0"):
            option.read(bad)


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = built_in("rllib-selfplay")
    assert entry is not None
    monkeypatch.setattr(type(entry), "missing_extra", lambda self: self.extra)
    assert missing_extra("rllib-selfplay") == "rllib" and missing_extra("search") is None
    with pytest.raises(MissingExtraError, match=r"pip install 'kinghill\[rllib\]'") as error:
        make_agent("rllib-selfplay", 0)
    assert error.value.extra == "rllib"


@pytest.mark.parametrize(
    "spec", ["search?budget=abc", "search?budget=-3", "policy:/etc/passwd", "heuristc"]
)
def test_the_tournament_command_refuses_a_bad_spec_in_one_line(
    spec: str, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    argv = ["tournament", "--agents", spec, "random", "--frames", "2", "--out", f"{tmp_path}/t"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and spec in err


def test_kinghill_agents_lists_every_built_in_shipped_model_and_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["agents"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(describe() + "\n\nGraded opponents")  # the levels: test_serve_levels
    for entry in BUILT_INS:
        assert f"\n{entry.name}: " in out
    assert "plays by default the shipped model" in out and "pip install 'kinghill[rllib]'" in out


def test_the_tournament_command_refuses_two_specs_of_one_agent(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    argv = ["tournament", "--agents", "search:120", "search?budget=120", "--out", f"{tmp_path}/t"]
    assert cli.main(argv) == 2
    assert "are one agent (search)" in capsys.readouterr().err
    argv = ["tournament", "--agents", "strong", "search", "--out", f"{tmp_path}/t"]  # a level
    assert cli.main(argv) == 2
    assert "'strong' and 'search' are one agent (search)" in capsys.readouterr().err


def test_the_manual_names_every_shipped_model() -> None:
    from kinghill.agents import baselines

    page = (Path(__file__).resolve().parents[1] / "docs/guide/agents.md").read_text()
    assert all(f"| `{baseline.name}` |" in page for baseline in baselines())


def test_a_missing_extra_stops_a_tournament_before_its_first_frame(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    entry = built_in("rllib-selfplay")
    assert entry is not None
    monkeypatch.setattr(type(entry), "missing_extra", lambda self: self.extra)
    out = f"{tmp_path}/t"
    assert cli.main(["tournament", "--agents", "heuristic", "rllib-selfplay", "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs the 'rllib' extra" in err
    assert not (Path(out) / "frames.jsonl").exists()


def test_spec_files_are_the_files_an_agent_reads() -> None:
    from kinghill.agents import spec_files
    from kinghill.agents.builtins import data_path

    shipped = data_path("maskable-heuristic.zip")
    assert spec_files("maskable-ppo") == (shipped,)
    assert spec_files("policy:docs/training/maskable-heuristic.zip?deterministic=false") == (
        shipped,
    )
    assert spec_files("expert:runs/mine/best.npz") == (Path("runs/mine/best.npz"),)
    assert spec_files("search:50") == spec_files("mypkg.players:Careful?depth=3") == ()
