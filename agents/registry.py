"""Agents by spec, as the command line, the tournament runner and ``evaluate`` give them.

A spec is ``TARGET`` or ``TARGET?KEY=VALUE,KEY=VALUE``. The target is

- a built-in name: ``random``, ``heuristic``, ``search`` (default budget), ``search:N`` (N
  simulations per decision), ``search:Xs`` (X seconds per decision), ``search-value:PATH``
  (the search with a learned leaf value, :mod:`kinghill.agents.value`), ``expert:PATH`` (the
  search guided by a prior net of expert iteration, :mod:`kinghill.agents.prior`),
  ``expert-policy:PATH`` (that net alone), ``policy:PATH`` (a
  Stable-Baselines3 checkpoint, aim-assisted action), ``rllib:PATH`` (an RLlib checkpoint of
  ``kinghill train rllib``; the ``rllib`` extra);
- the name of an entry point in the group ``kinghill.agents`` of an installed package;
- ``package.module:Attribute``: a class or factory function importable from ``sys.path``
  (``Attribute`` may be dotted, ``module:Outer.make``).

The arguments are keyword arguments of the class or factory; each value is read as JSON when it
is a JSON literal (``3``, ``0.5``, ``true``, ``null``, ``"text"``), else taken as text. The frame's
seed is passed as ``seed=`` when the class or factory has a ``seed`` parameter. A spec is all a
worker process needs to build the agent again, so specs work with ``--jobs`` and Ray.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from kinghill.agents.spec_errors import AgentSpecError, UnknownAgentError
from kinghill.envs import Agent

ENTRY_POINT_GROUP = "kinghill.agents"
"""The entry-point group installed packages put their agents in."""
BUILT_IN = (
    "random",
    "heuristic",
    "search",
    "search-value",
    "expert",
    "expert-policy",
    "policy",
    "rllib",
)
"""Built-in targets; these names win over entry points of the same name."""
NAMES = (
    "random",
    "heuristic",
    "search",
    "search:N",
    "search:Xs",
    "search-value:PATH",
    "expert:PATH",
    "expert-policy:PATH",
    "policy:PATH",
    "rllib:PATH",
    "an entry point of kinghill.agents",
    "module:Attribute",
)
"""The agent specs :func:`make_agent` understands, as shown in errors and help."""

AgentFactory = Callable[..., Any]
"""A class or function that returns an agent; called with the spec's arguments (and ``seed``)."""


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: its target and keyword arguments (see the module docstring)."""

    target: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, spec: str) -> AgentSpec:
        """Split ``TARGET?KEY=VALUE,...``; raises :class:`AgentSpecError` for a malformed one."""
        target, mark, query = spec.partition("?")
        if not target:
            raise UnknownAgentError(f"empty agent spec {spec!r}; known agents: {', '.join(NAMES)}")
        arguments: dict[str, Any] = {}
        for item in query.split(",") if mark else ():
            key, equals, text = item.partition("=")
            if not equals or not key.isidentifier():
                raise AgentSpecError(
                    f"agent spec {spec!r}: arguments are KEY=VALUE separated by commas, "
                    f"got {item!r}"
                )
            if key in arguments:
                raise AgentSpecError(f"agent spec {spec!r}: argument {key!r} given twice")
            if key == "seed":
                raise AgentSpecError(
                    f"agent spec {spec!r}: the seed comes from the frame, not from the spec"
                )
            arguments[key] = _value(text)
        return cls(target, arguments)


def _value(text: str) -> Any:
    """A JSON literal's value, or the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent that ``spec`` names, seeded with ``seed``.

    :raises UnknownAgentError: the spec names nothing that is known.
    :raises AgentSpecError: the module or attribute is missing, the arguments do not fit, the
        class or factory raised, or what it built is not an agent (it has no ``act(view)``).
    """
    factory, arguments = _resolve(spec)
    return build_agent(factory, seed, arguments, name=spec)


def check_agent(spec: str) -> None:
    """Check that ``spec`` names a class or factory and that its arguments fit, without
    building the agent (for options checked before a long run starts); a ``policy:PATH`` or
    ``rllib:PATH`` checkpoint must be there (it is not loaded)."""
    factory, arguments = _resolve(spec)
    _call_arguments(factory, arguments, None, spec)
    target = AgentSpec.parse(spec).target
    if target.startswith("policy:"):
        from kinghill.agents.policy import find_checkpoint

        try:
            find_checkpoint(target.removeprefix("policy:"))
        except (OSError, ValueError) as error:
            raise AgentSpecError(f"agent {spec!r}: {error}") from None
    if target.startswith("rllib:"):
        from kinghill.agents.rllib_agent import import_rllib, module_folder

        import_rllib()
        try:
            module_folder(
                target.removeprefix("rllib:"), AgentSpec.parse(spec).arguments.get("module")
            )
        except OSError as error:
            raise AgentSpecError(f"agent {spec!r}: {error}") from None
    if target.startswith("search-value:"):
        path = Path(target.removeprefix("search-value:"))
        if not path.is_file():
            raise AgentSpecError(f"agent {spec!r}: no value net at {path}")
    kind, _, argument = target.partition(":")
    if kind in ("expert", "expert-policy") and not Path(argument).is_file():
        raise AgentSpecError(f"agent {spec!r}: no prior net at {argument}")


def build_agent(
    factory: AgentFactory,
    seed: int | None = None,
    arguments: Mapping[str, Any] | None = None,
    name: str | None = None,
) -> Agent:
    """Call an agent class or factory with ``arguments``, and ``seed=`` when it takes a seed,
    and check that the result is an agent; ``name`` names it in errors.

    :raises AgentSpecError: the arguments do not fit, the factory raised (the built-in agents'
        own errors pass through), or it returned something without ``act(view)``.
    """
    name = name or _name(factory)
    kwargs = _call_arguments(factory, arguments or {}, seed, name)
    if getattr(factory, "__module__", "").startswith("kinghill.agents."):
        agent = factory(**kwargs)  # the built-in agents' own errors say what is wrong
    else:
        try:
            agent = factory(**kwargs)
        except Exception as error:  # user code: any failure is an agent that cannot be built
            raise AgentSpecError(
                f"agent {name!r}: {_name(factory)}(...) raised {type(error).__name__}: {error}"
            ) from error
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(
            f"agent {name!r}: {_name(factory)} returned a {type(agent).__name__}, which is not "
            "an agent (an agent has a method act(view) -> Action)"
        )
    return agent


def _resolve(spec: str) -> tuple[AgentFactory, Mapping[str, Any]]:
    """The class or factory ``spec`` names, and the spec's arguments."""
    parsed = AgentSpec.parse(spec)
    kind, colon, argument = parsed.target.partition(":")
    if kind in BUILT_IN:
        factory = _built_in(kind, argument, colon, spec)
    elif colon:
        factory = _imported(parsed.target, spec)
    else:
        factory = _entry_point(parsed.target, spec)
    return factory, parsed.arguments


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


def _built_in(kind: str, argument: str, colon: str, spec: str) -> AgentFactory:
    """The class of a built-in agent, with the ``search:N``, ``search-value:PATH`` and
    ``policy:PATH`` forms bound in."""
    if kind == "random" and not colon:
        from kinghill.agents.random_agent import RandomAgent

        return RandomAgent
    if kind == "heuristic" and not colon:
        from kinghill.agents.heuristic import HeuristicAgent

        return HeuristicAgent
    if kind == "search":
        from kinghill.agents.search import SearchAgent

        if not colon:
            return SearchAgent
        if argument.isdigit() and int(argument) > 0:
            return _bound(SearchAgent, budget=int(argument))
        seconds = _seconds(argument)
        if seconds is not None:
            return _bound(SearchAgent, time_budget=seconds)
        raise UnknownAgentError(
            f"search:N needs a positive number of simulations, search:Xs positive seconds; "
            f"got {spec!r}"
        )
    if kind == "search-value" and argument:
        from kinghill.agents.value import value_search

        return _bound(value_search, path=argument)
    if kind == "expert" and argument:
        from kinghill.agents.prior import prior_search

        return _bound(prior_search, path=argument)
    if kind == "expert-policy" and argument:
        from kinghill.agents.prior import PriorPolicyAgent

        return _bound(PriorPolicyAgent, path=argument)
    if kind == "policy" and argument:
        from kinghill.agents.policy import PolicyAgent

        return _bound(PolicyAgent, path=argument)
    if kind == "rllib" and argument:
        from kinghill.agents.rllib_agent import RLlibAgent

        return _bound(RLlibAgent, path=argument)
    raise UnknownAgentError(f"unknown agent {spec!r}; known agents: {', '.join(NAMES)}")


def _bound(factory: AgentFactory, **fixed: Any) -> AgentFactory:
    """``factory`` with some keyword arguments fixed, keeping the signature of the rest."""

    def bound(**kwargs: Any) -> Any:
        return factory(**fixed, **kwargs)

    signature = inspect.signature(factory)
    bound.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for p in signature.parameters.values() if p.name not in fixed]
    )
    bound.__qualname__ = factory.__qualname__
    bound.__module__ = factory.__module__
    return bound


def _imported(target: str, spec: str) -> AgentFactory:
    """The class or factory ``module:Attribute`` names."""
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise AgentSpecError(f"agent {spec!r}: write module:Attribute, e.g. mypkg.agents:MyAgent")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
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
        extra = f"; installed entry points: {', '.join(installed)}" if installed else ""
        raise UnknownAgentError(f"unknown agent {spec!r}; known agents: {', '.join(NAMES)}{extra}")
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


def _seconds(text: str) -> float | None:
    """``2.5`` for ``"2.5s"``; None for anything else or a value that is not positive."""
    if not text.endswith("s"):
        return None
    try:
        value = float(text[:-1])
    except ValueError:
        return None
    return value if value > 0 and value != float("inf") else None
