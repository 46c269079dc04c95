"""Agents by spec, as the command line, the tournament runner, the ladder and ``evaluate`` give
them.

One grammar, ``NAME[:ARG][?KEY=VALUE,...]`` (``&`` separates options too). ``NAME`` is

- a built-in of :data:`~kinghill.agents.builtins.BUILT_INS` (``kinghill agents`` lists them
  with their options): ``random``, ``heuristic``, ``search`` (``search:N`` N simulations a
  decision, ``search:Xs`` X seconds), and the learnt players, each of which plays its shipped
  model by name (``expert``, ``expert-policy``, ``search-value``, ``maskable-ppo``, ``ppo-aim``,
  ``rllib-selfplay``) and your own file with ``:PATH`` (``expert:runs/mine/best.npz``,
  ``policy:PATH``, ``rllib:PATH``). A built-in's options are typed and ranged in its table
  entry, and a wrong one is a one-line :class:`AgentSpecError` naming it;
- the name of an entry point in the group ``kinghill.agents`` of an installed package;
- ``package.module:Attribute``: a class or factory function importable from ``sys.path``
  (``Attribute`` may be dotted, ``module:Outer.make``); its options are keyword arguments,
  each read as JSON when it is a JSON literal (``3``, ``0.5``, ``true``, ``null``, ``"text"``),
  else taken as text, and checked against its signature.

The frame's seed is passed as ``seed=`` when the class or factory has a ``seed`` parameter. A
spec is all a worker process needs to build the agent again, so specs work with ``--jobs`` and
Ray. Each spec has a :func:`canonical_id`: ``search:120``, ``search?budget=120`` and ``search``
are one agent. Specs of old run folders and reports keep working, ``docs/training/NAME`` paths
included (:func:`~kinghill.agents.builtins.moved_path`).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path, PurePath
from typing import Any

from kinghill.agents.builtins import (
    BUILT_INS,
    Argument,
    BuiltIn,
    built_in,
    data_path,
    moved_path,
    run_record,
    shipped,
)
from kinghill.agents.graded_specs import PLAYS_AS
from kinghill.agents.spec_errors import AgentSpecError, MissingExtraError, UnknownAgentError
from kinghill.envs import Agent

ENTRY_POINT_GROUP = "kinghill.agents"
"""The entry-point group installed packages put their agents in."""
BUILT_IN = tuple(b.name for b in BUILT_INS)
"""Built-in names; these win over entry points of the same name."""
_FORMS = {Argument.BUDGET: ("", ":N", ":Xs"), Argument.NONE: ("",)}
NAMES = (
    *(
        f"{b.name}{form}"
        for b in BUILT_INS
        for form in _FORMS.get(b.argument, ("",) if b.model else (":PATH",))
    ),
    "NAME:PATH (your own file)",
    "an entry point of kinghill.agents",
    "module:Attribute",
)
"""The agent specs :func:`make_agent` understands, as shown in errors and help."""
SEPARATORS = re.compile("[,&]")
"""What separates a spec's options: a comma, or ``&`` as in a URL."""

AgentFactory = Callable[..., Any]
"""A class or function that returns an agent; called with the spec's arguments (and ``seed``)."""


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: its target (``NAME[:ARG]``), its options as written (``texts``) and as
    JSON literals or text (``arguments``, what a class or factory of your own is called with)."""

    target: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    texts: Mapping[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The part before ``:``: a built-in's or an entry point's name, or a module."""
        return self.target.partition(":")[0]

    @property
    def argument(self) -> str:
        """The part after ``:`` (a budget, a path, an attribute), ``""`` when there is none."""
        return self.target.partition(":")[2]

    @classmethod
    def parse(cls, spec: str) -> AgentSpec:
        """Split ``TARGET?KEY=VALUE,...``; raises :class:`AgentSpecError` for a malformed one."""
        if not isinstance(spec, str):
            raise AgentSpecError(f"an agent spec is a string, got {spec!r}")
        target, mark, query = spec.partition("?")
        if not target:
            raise UnknownAgentError(f"empty agent spec {spec!r}; known agents: {', '.join(NAMES)}")
        texts: dict[str, str] = {}
        for item in SEPARATORS.split(query) if mark else ():
            key, equals, text = item.partition("=")
            if not equals or not key.isidentifier():
                raise AgentSpecError(
                    f"agent spec {spec!r}: options are KEY=VALUE separated by commas, got {item!r}"
                )
            if key in texts:
                raise AgentSpecError(f"agent spec {spec!r}: option {key!r} given twice")
            if key == "seed":
                raise AgentSpecError(
                    f"agent spec {spec!r}: the seed comes from the frame, not from the spec"
                )
            texts[key] = text
        return cls(target, {k: _value(t) for k, t in texts.items()}, texts)


def _value(text: str) -> Any:
    """A JSON literal's value, or the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


@dataclass(frozen=True)
class Resolved:
    """What a spec names: the class or factory, the keyword arguments it is called with (a
    built-in's path and typed options included), and the built-in's entry when it is one."""

    factory: AgentFactory
    arguments: Mapping[str, Any]
    entry: BuiltIn | None = None


def resolve(spec: str) -> Resolved:
    """The class or factory ``spec`` names and its arguments, every option checked (a built-in's
    against its table entry, its file against the disk, its extra against what is installed);
    nothing is built.

    :raises UnknownAgentError: the spec names nothing that is known (with a "did you mean").
    :raises MissingExtraError: a built-in whose pip extra is not installed.
    :raises AgentSpecError: anything else that is wrong with it, named in one line.
    """
    parsed = AgentSpec.parse(spec)
    entry = built_in(parsed.name)
    if entry is not None:
        return Resolved(entry.load(), _built_in_arguments(entry, parsed, spec), entry)
    if ":" in parsed.target:
        return Resolved(_imported(parsed.target, spec), parsed.arguments)
    return Resolved(_entry_point(parsed.target, spec), parsed.arguments)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent that ``spec`` names, seeded with ``seed`` (``make_agent("expert")``: the shipped
    expert net in its guided search).

    :raises UnknownAgentError: the spec names nothing that is known.
    :raises AgentSpecError: the module or attribute is missing, the options do not fit, a file
        is missing or unreadable, the class or factory raised, or what it built is not an agent
        (it has no ``act(view)``).
    """
    found = resolve(spec)
    return build_agent(found.factory, seed, found.arguments, name=spec)


def check_agent(spec: str) -> None:
    """Check that ``spec`` names a class or factory, that its options fit and that the files it
    names are there (a checkpoint is not loaded), without building the agent: for options
    checked while the command line is parsed."""
    found = resolve(spec)
    _call_arguments(found.factory, found.arguments, None, spec)


def missing_extra(spec: str) -> str | None:
    """The pip extra of kinghill that ``spec``'s built-in needs and that is not installed
    (``"rllib"`` for ``rllib-selfplay`` without Ray), else None; for a ladder to skip such a
    zoo member with one line rather than fail."""
    entry = built_in(AgentSpec.parse(spec).name)
    return None if entry is None else entry.missing_extra()


def spec_files(spec: str) -> tuple[Path, ...]:
    """The files or folders the agent of a built-in spec reads: its ``:PATH`` (an old
    ``docs/training/NAME`` read as the shipped file) or the shipped model it plays by name; none
    for other specs. For keys of stored frames that must change when a model's bytes do. The
    files need not be there.

    :raises AgentSpecError: the spec is malformed.
    """
    parsed = AgentSpec.parse(spec)
    entry = built_in(parsed.name)
    if entry is None or entry.argument not in (Argument.NET, Argument.CHECKPOINT, Argument.FOLDER):
        return ()
    if parsed.argument:
        return (moved_path(parsed.argument),)
    return () if entry.model is None else (data_path(entry.model),)


def build_agent(
    factory: AgentFactory,
    seed: int | None = None,
    arguments: Mapping[str, Any] | None = None,
    name: str | None = None,
) -> Agent:
    """Call an agent class or factory with ``arguments``, and ``seed=`` when it takes a seed,
    and check that the result is an agent; ``name`` names it in errors.

    :raises AgentSpecError: the arguments do not fit, the factory raised (a built-in's
        ``ValueError`` or ``OSError`` with its own message, your code's any exception), or it
        returned something without ``act(view)``.
    """
    name = name or _name(factory)
    kwargs = _call_arguments(factory, arguments or {}, seed, name)
    built_in_factory = getattr(factory, "__module__", "").startswith("kinghill.agents.")
    try:
        agent = factory(**kwargs)
    except AgentSpecError:
        raise
    except (ValueError, OSError) as error:
        if not built_in_factory:
            raise _raised(name, factory, error) from error
        raise AgentSpecError(f"agent {name!r}: {error}") from None
    except Exception as error:  # user code: any failure is an agent that cannot be built
        if built_in_factory:
            raise
        raise _raised(name, factory, error) from error
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(
            f"agent {name!r}: {_name(factory)} returned a {type(agent).__name__}, which is not "
            "an agent (an agent has a method act(view) -> Action)"
        )
    return agent


def _raised(name: str, factory: AgentFactory, error: Exception) -> AgentSpecError:
    return AgentSpecError(
        f"agent {name!r}: {_name(factory)}(...) raised {type(error).__name__}: {error}"
    )


def check_one_each(specs: Iterable[str]) -> None:
    """Refuse two specs of one agent (one :func:`canonical_id`: ``search:120`` and
    ``search?budget=120``), which a tournament, a ladder or the page would count twice.

    :raises AgentSpecError: naming both specs and their one id.
    """
    seen: dict[str, str] = {}
    for spec in specs:
        same = seen.setdefault(canonical_id(spec), spec)
        if same != spec:
            raise AgentSpecError(
                f"{same!r} and {spec!r} are one agent ({canonical_id(spec)}): give it once"
            )


def canonical_id(spec: str) -> str:
    """The one name of the agent ``spec`` plays, whichever way it is written: options sorted,
    a built-in's ``:N`` / ``:Xs`` written as its option, options at their default left out, a
    shipped model's file written as its name. ``search:120``, ``search?budget=120`` and
    ``search`` give ``search``; ``expert:docs/training/expert2.npz?budget=120`` and
    ``expert?budget=120`` give ``expert?budget=120``; a graded level is the spec it plays as
    (``strong`` gives ``search``: :data:`~kinghill.agents.graded_specs.PLAYS_AS`). Two specs
    with one canonical id are one agent in a tournament, a ladder and a report. The file a spec
    names need not be there.

    :raises AgentSpecError: the spec is malformed, or a built-in's option is wrong.
    """
    parsed = AgentSpec.parse(spec)
    if parsed.name in PLAYS_AS and not parsed.arguments:  # a graded level: the spec it plays
        return canonical_id(PLAYS_AS[parsed.name])
    entry = built_in(parsed.name)
    if entry is None:
        return _written(parsed.target, parsed.arguments)
    options = _options(entry, parsed, spec)
    target = entry.name
    if entry.argument in (Argument.NET, Argument.CHECKPOINT, Argument.FOLDER):
        target = _canonical_target(entry, parsed.argument)
    defaults = _defaults(entry.load())
    kept = {k: v for k, v in options.items() if k not in defaults or defaults[k] != v}
    return _written(target, kept)


def _canonical_target(entry: BuiltIn, argument: str) -> str:
    """A path built-in's target: the shipped model's name when the path is a shipped model
    played by this factory, else the first built-in of the factory with the path as written."""
    path = (moved_path(argument) if argument else data_path(str(entry.model))).resolve()
    for model in shipped():
        same = model.factory == entry.factory and data_path(str(model.model)).resolve() == path
        if same or (model is entry and not argument):
            return model.name
    family = next(b for b in BUILT_INS if b.factory == entry.factory)
    return f"{family.name}:{PurePath(argument).as_posix()}"


def _written(target: str, options: Mapping[str, Any]) -> str:
    """``target?key=value,...`` with the options sorted and written as JSON (text as itself)."""
    if not options:
        return target
    return f"{target}?{','.join(f'{k}={_text(v)}' for k, v in sorted(options.items()))}"


def _text(value: Any) -> str:
    """An option's value as a spec writes it: text as itself, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def _defaults(factory: AgentFactory) -> dict[str, Any]:
    """The default of each parameter of ``factory`` that has one."""
    parameters = inspect.signature(factory).parameters.values()
    return {p.name: p.default for p in parameters if p.default is not p.empty}


def _options(entry: BuiltIn, parsed: AgentSpec, spec: str) -> dict[str, Any]:
    """A built-in's options read and checked against its table entry, its ``:N``/``:Xs`` read
    as ``budget``/``time_budget``."""
    options: dict[str, Any] = {}
    for key, text in parsed.texts.items():
        option = entry.option(key)
        if option is None:
            known = [o.name for o in entry.options]
            listed = f"its options: {', '.join(known)}" if known else "it takes no options"
            raise AgentSpecError(
                f"agent {spec!r}: {entry.name} has no option {key!r}{_did_you_mean(key, known)}; "
                f"{listed} (kinghill agents)"
            )
        try:
            options[key] = option.read(text)
        except ValueError as error:
            raise AgentSpecError(
                f"agent {spec!r}: option {key} must be {error}, got {text!r}"
            ) from None
    colon = ":" in parsed.target
    if entry.argument is Argument.NONE and colon:
        raise AgentSpecError(f"agent {spec!r}: {entry.name} {Argument.NONE.value} (no ':')")
    if entry.argument is Argument.BUDGET and colon:
        key, value = _budget(entry, parsed.argument, spec)
        if key in options:
            raise AgentSpecError(f"agent {spec!r}: {key} given twice, as :ARG and as an option")
        options[key] = value
    return options


def _budget(entry: BuiltIn, argument: str, spec: str) -> tuple[str, Any]:
    """``search:N`` as ``("budget", N)``, ``search:Xs`` as ``("time_budget", X)``."""
    key, text = ("time_budget", argument[:-1]) if argument.endswith("s") else ("budget", argument)
    option = entry.option(key)
    assert option is not None, f"{entry.name} has a budget argument but no {key} option"
    try:
        return key, option.read(text)
    except ValueError:
        raise AgentSpecError(
            f"agent {spec!r}: {entry.name}:ARG is {Argument.BUDGET.value}; got {argument!r}"
        ) from None


def _built_in_arguments(entry: BuiltIn, parsed: AgentSpec, spec: str) -> dict[str, Any]:
    """The keyword arguments of a built-in's factory: its defaults, its checked options over
    them, and its path."""
    options = dict(entry.defaults) | _options(entry, parsed, spec)
    extra = entry.missing_extra()
    if extra is not None:
        raise MissingExtraError(
            f"agent {spec!r} needs the {extra!r} extra, which is not installed: "
            f"pip install 'kinghill[{extra}]'",
            extra,
        )
    if entry.argument in (Argument.NET, Argument.CHECKPOINT, Argument.FOLDER):
        options["path"] = entry.path(parsed.argument, spec)
    if entry.argument is Argument.FOLDER:  # the RLlib module the checkpoint must hold
        from kinghill.agents.rllib_agent import module_folder

        try:
            module_folder(options["path"], options.get("module"))
        except OSError as error:
            raise AgentSpecError(f"agent {spec!r}: {error}") from None
    return options


def _call_arguments(
    factory: AgentFactory, arguments: Mapping[str, Any], seed: int | None, name: str
) -> dict[str, Any]:
    """The keyword arguments to call ``factory`` with: ``arguments``, plus ``seed`` when the
    factory takes one; checked against its signature."""
    kwargs = dict(arguments)
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # some callables written in C have no signature
        return kwargs
    takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    if "seed" in signature.parameters or takes_any:
        kwargs["seed"] = seed
    try:
        signature.bind(**kwargs)
    except TypeError as error:
        raise AgentSpecError(
            f"agent {name!r}: bad arguments for {_name(factory)}{signature}: {error}"
        ) from None
    return kwargs


def _name(factory: AgentFactory) -> str:
    return str(getattr(factory, "__qualname__", repr(factory)))


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _unknown(spec: str, name: str, installed: list[str]) -> UnknownAgentError:
    extra = f"; installed entry points: {', '.join(installed)}" if installed else ""
    return UnknownAgentError(
        f"unknown agent {spec!r}{_did_you_mean(name, [*BUILT_IN, *installed])}; "
        f"known agents: {', '.join(NAMES)}{extra}"
    )


def _imported(target: str, spec: str) -> AgentFactory:
    """The class or factory ``module:Attribute`` names."""
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise AgentSpecError(f"agent {spec!r}: write module:Attribute, e.g. mypkg.agents:MyAgent")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name and "." not in module_name:
            installed = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
            close = _did_you_mean(module_name, [*BUILT_IN, *installed])
            if close:  # a misspelt built-in with an argument (``exprt:PATH``)
                raise _unknown(spec, module_name, installed) from None
        missing = "" if error.name == module_name else f" (it imports {error.name!r})"
        raise AgentSpecError(
            f"agent {spec!r}: cannot import module {module_name!r}{missing}: {error}; "
            "is it installed or on PYTHONPATH?"
        ) from None
    except Exception as error:  # a module that fails to import is a spec that cannot load
        raise AgentSpecError(
            f"agent {spec!r}: importing {module_name!r} raised {type(error).__name__}: {error}"
        ) from error
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise AgentSpecError(f"agent {spec!r}: module {module_name!r} has no {attribute!r}")
        found = getattr(found, part)
    return _factory(found, spec)


def _entry_point(name: str, spec: str) -> AgentFactory:
    """The class or factory an installed package registered as entry point ``name``."""
    found = entry_points(group=ENTRY_POINT_GROUP, name=name)
    if not found:
        installed = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
        raise _unknown(spec, name, installed)
    entry = next(iter(found))
    try:
        loaded = entry.load()
    except Exception as error:  # a broken plug-in is a spec that cannot load
        raise AgentSpecError(
            f"agent {spec!r}: entry point {entry.value!r} of {ENTRY_POINT_GROUP} failed to load: "
            f"{type(error).__name__}: {error}"
        ) from error
    return _factory(loaded, spec)


def _factory(found: Any, spec: str) -> AgentFactory:
    """``found`` if it is a class or a factory function; an agent object is refused."""
    is_agent_object = not isinstance(found, type) and callable(getattr(found, "act", None))
    if not callable(found) or is_agent_object:
        raise AgentSpecError(
            f"agent {spec!r}: {found!r} is not a class or factory of agents "
            "(name the class, or a function that returns an agent)"
        )
    return found


@dataclass(frozen=True)
class Baseline:
    """A shipped model, playable by :attr:`name` (``make_agent(baseline.name)``).

    :param path: its file or folder inside the installed package.
    :param run: its training run's record (``run.json``: the command line, figures), if shipped.
    :param extra: the pip extra it needs, if any.
    """

    name: str
    summary: str
    path: Path
    run: Mapping[str, Any] | None
    extra: str | None


def baselines() -> tuple[Baseline, ...]:
    """The shipped models, frozen baselines to rate an agent against by name (``expert``,
    ``maskable-ppo``, ...): ``make_agent(b.name)`` plays each."""
    return tuple(
        Baseline(b.name, b.summary, data_path(str(b.model)), run_record(str(b.model)), b.extra)
        for b in shipped()
    )


def describe() -> str:
    """Every built-in with its ``:ARG``, its options (type, range, default, meaning), its shipped
    model and the extra it needs, as plain text: what ``kinghill agents`` prints."""
    lines = [
        "Agent specs: NAME[:ARG][?KEY=VALUE,KEY=VALUE]  (e.g. search:200, 'expert?budget=120',",
        "'policy:runs/mine/final.zip?deterministic=false', mypkg.players:Careful?depth=3)",
        "",
    ]
    for entry in BUILT_INS:
        defaults = _defaults(entry.load()) | dict(entry.defaults)
        lines.append(f"{entry.name}: {entry.summary}")
        if entry.argument is not Argument.NONE:
            lines.append(f"    :ARG  {entry.argument.value}")
        if entry.model is not None:
            lines.append(f"    plays by default the shipped model {data_path(entry.model)}")
        if entry.extra is not None:
            lines.append(
                f"    needs the {entry.extra} extra: pip install 'kinghill[{entry.extra}]'"
            )
        for option in entry.options:
            default = defaults.get(option.name)
            shown = "" if default is None else f", default {_text(default)}"
            lines.append(f"    ?{option.name}=  {option.rule()}{shown}: {option.help}")
    installed = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    lines += [
        "",
        "Your own agents: module:Attribute?key=value (a class or factory on sys.path), or the",
        f"name of an entry point of the group {ENTRY_POINT_GROUP} of an installed package "
        f"(installed: {', '.join(installed) or 'none'}).",
    ]
    return "\n".join(lines)
