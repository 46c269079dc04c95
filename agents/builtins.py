"""The built-in agents, in one table: each name's factory, what its ``:ARG`` means, its options
with their types and ranges, the extra it needs and the shipped model it plays by default.

:mod:`kinghill.agents.registry` reads specs against :data:`BUILT_INS`, ``kinghill agents``
lists it, and the docs print it: adding a built-in is one :class:`BuiltIn` here. The shipped
models are package data (``kinghill/agents/data/``, read through :mod:`importlib.resources`), so
``expert`` plays the same net from a wheel as from a checkout.
"""

from __future__ import annotations

import importlib
import json
import math
import re
from dataclasses import dataclass
from enum import Enum
from importlib.resources import files
from pathlib import Path, PurePath
from typing import Any

from kinghill.agents.spec_errors import AgentSpecError

DATA = "data"
"""The folder of the shipped models inside the package ``kinghill.agents``."""
MOVED_FROM = ("docs", "training")
"""Where the shipped models lived in the source tree before they were package data: a spec of an
old run folder or report (``expert:docs/training/expert2.npz``) that names a file no longer
there plays the packaged one of the same name."""
_WHOLE = re.compile(r"[+-]?\d+")


def data_path(name: str) -> Path:
    """The path of the shipped file or folder ``name`` (e.g. ``"expert2.npz"``)."""
    return Path(str(files("kinghill.agents").joinpath(DATA, name)))


def moved_path(text: str) -> Path:
    """``text`` as a path; one of the old ``docs/training/NAME`` that is not there any more but
    is shipped in the package gives the shipped one (old specs keep working)."""
    path = Path(text)
    if not path.exists() and PurePath(text).parent.parts[-2:] == MOVED_FROM:
        shipped = data_path(path.name)
        if shipped.exists():
            return shipped
    return path


class Kind(Enum):
    """The type of an option's value."""

    INT = "a whole number"
    FLOAT = "a number"
    BOOL = "true or false"
    TEXT = "text"


@dataclass(frozen=True)
class Option:
    """One ``?KEY=VALUE`` option of a built-in: its type, range and meaning.

    :param minimum: the least value allowed (``exclusive``: values must exceed it).
    :param choices: the only texts allowed, for a text option.
    """

    name: str
    kind: Kind
    help: str
    minimum: float | None = None
    exclusive: bool = False
    choices: tuple[str, ...] = ()

    def rule(self) -> str:
        """What a value must be, as the error and the listing say it."""
        if self.choices:
            return f"one of {', '.join(self.choices)}"
        if self.minimum is None:
            return self.kind.value
        bound = f"{'>' if self.exclusive else '>='} {self.minimum:g}"
        return f"{self.kind.value} {bound}"

    def read(self, text: str) -> Any:
        """The value ``text`` gives this option; raises ValueError saying what it must be."""
        value: Any
        if self.kind is Kind.BOOL:
            if text.lower() not in ("true", "false"):
                raise ValueError(self.rule())
            return text.lower() == "true"
        if self.kind is Kind.TEXT:
            if self.choices and text not in self.choices:
                raise ValueError(self.rule())
            return text
        try:
            if self.kind is Kind.INT:
                if not _WHOLE.fullmatch(text):
                    raise ValueError
                value = int(text)
            else:
                value = float(text)
        except ValueError:
            raise ValueError(self.rule()) from None
        if not math.isfinite(value) or (
            self.minimum is not None
            and (value <= self.minimum if self.exclusive else value < self.minimum)
        ):
            raise ValueError(self.rule())
        return value


class Argument(Enum):
    """What the ``:ARG`` of a built-in spec means."""

    NONE = "takes no argument"
    BUDGET = "N simulations a decision, or Xs seconds a decision (search:200, search:2.5s)"
    NET = "the path of a .npz net file"
    CHECKPOINT = "the path of a Stable-Baselines3 checkpoint (.zip)"
    FOLDER = "the path of an RLlib checkpoint folder"


@dataclass(frozen=True)
class BuiltIn:
    """A built-in agent.

    :param factory: ``module:attribute`` of its class or factory, imported when it is built.
    :param model: the shipped file (in ``kinghill/agents/data``) it plays when its spec gives
        no path; a built-in with a model is a *shipped model* (:func:`shipped`).
    :param extra: the pip extra of kinghill it needs, with ``needs``, the module that extra
        installs.
    :param defaults: options it plays with where its spec gives none (a shipped model's
        settings, as measured), ``(name, value)`` pairs.
    """

    name: str
    factory: str
    summary: str
    argument: Argument = Argument.NONE
    options: tuple[Option, ...] = ()
    model: str | None = None
    extra: str | None = None
    needs: str | None = None
    defaults: tuple[tuple[str, Any], ...] = ()

    def load(self) -> Any:
        """The class or factory (imported now)."""
        module, _, attribute = self.factory.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def path(self, argument: str, spec: str) -> Path:
        """The file or folder ``argument`` (or the shipped model when it is empty) names,
        checked to be there and of the right kind."""
        if not argument:
            if self.model is None:
                raise AgentSpecError(
                    f"agent {spec!r}: {self.name} needs :PATH, {self.argument.value}"
                )
            return data_path(self.model)
        path = moved_path(argument)
        if self.argument is Argument.CHECKPOINT:
            from kinghill.agents.policy import find_checkpoint

            try:
                return find_checkpoint(path)
            except (OSError, ValueError) as error:
                raise AgentSpecError(f"agent {spec!r}: {error}") from None
        wanted, found = (
            ("a folder", path.is_dir())
            if self.argument is Argument.FOLDER
            else ("a file", path.is_file())
        )
        if not found:
            what = "nothing" if not path.exists() else "not " + wanted
            raise AgentSpecError(f"agent {spec!r}: {path}: {what} there ({self.argument.value})")
        return path

    def missing_extra(self) -> str | None:
        """The extra it needs that is not installed, else None."""
        if self.needs is None:
            return None
        try:
            importlib.import_module(self.needs)
        except ImportError:
            return self.extra
        return None


def run_record(model: str) -> dict[str, Any] | None:
    """The ``run.json`` shipped beside the model file ``model`` (its training's command line and
    figures), or None when it has none."""
    record = data_path(f"{Path(model).stem}.run.json")
    return json.loads(record.read_text()) if record.is_file() else None


_SEARCH = (
    Option("budget", Kind.INT, "noisy simulations a decision", minimum=1),
    Option(
        "time_budget",
        Kind.FLOAT,
        "seconds a decision instead of a budget",
        minimum=0,
        exclusive=True,
    ),
    Option("margin", Kind.FLOAT, "seconds kept in hand before the clock's limit", minimum=0),
    Option(
        "noise_scale",
        Kind.FLOAT,
        "the execution noise the simulations assume, times the default: the table's --noise-scale",
        minimum=0,
    ),
)
_LOOKAHEAD = Option("lookahead", Kind.BOOL, "score the leaves one shot deeper")
_CANDIDATES = Option(
    "candidates",
    Kind.TEXT,
    "the shots tried: narrow (about 30) or wide (about 70: 8 pots, 8 safeties at 3 speeds)",
    choices=("narrow", "wide"),
)
_REFINE = Option(
    "refine",
    Kind.INT,
    "play the chosen pot and 8 variants of its speed and spin N times each, under the same "
    "noise, and the best of them (0: no refinement)",
    minimum=0,
)
_COMMON_NOISE = Option(
    "common_noise",
    Kind.BOOL,
    "play every arm of a round of the halving with the same deviations of the cue",
)
_LEARNED_BREAK = Option(
    "learned_break", Kind.BOOL, "the learnt break on the standard rack (false: the hand-made break)"
)
_EXPERT = (
    *_SEARCH,
    Option(
        "arms", Kind.INT, "candidate shots searched, those the net rates best (0: all)", minimum=0
    ),
    Option(
        "value",
        Kind.BOOL,
        "score the leaves with the net's learnt value (the position net its file holds, if any)",
    ),
    _LOOKAHEAD,
    _LEARNED_BREAK,
    _CANDIDATES,
    _REFINE,
    _COMMON_NOISE,
    Option(
        "halving",
        Kind.TEXT,
        "how the halving ranks the arms: by mean (plain) or by prior and mean (gumbel)",
        choices=("plain", "gumbel"),
    ),
)
_POLICY = (
    Option(
        "action",
        Kind.TEXT,
        "the action wrapper it was trained with (default: masked for MaskablePPO, else aim)",
        choices=("aim", "flat", "masked"),
    ),
    Option("deterministic", Kind.BOOL, "play the most likely action (false: sample it, seeded)"),
)
_RLLIB = (Option("module", Kind.TEXT, "the module id to play (shared, player_0, player_1)"),)

BUILT_INS: tuple[BuiltIn, ...] = (
    BuiltIn("random", "kinghill.agents.random_agent:RandomAgent", "uniform over the action space"),
    BuiltIn(
        "heuristic",
        "kinghill.agents.heuristic:HeuristicAgent",
        "ghost-ball pots and safeties: the best-scoring candidate shot",
    ),
    BuiltIn(
        "search",
        "kinghill.agents.search:SearchAgent",
        "simulates candidate shots under execution noise and plays the best",
        Argument.BUDGET,
        (*_SEARCH, _LOOKAHEAD, _LEARNED_BREAK, _CANDIDATES, _REFINE, _COMMON_NOISE),
    ),
    BuiltIn(
        "expert",
        "kinghill.agents.prior:prior_search",
        "the search guided by a prior net of expert iteration (kinghill train-expert); shipped: "
        "level with search at ?budget=120 (0.48, 400 frames)",
        Argument.NET,
        _EXPERT,
        model="expert2.npz",
    ),
    BuiltIn(
        "expert-gumbel",
        "kinghill.agents.prior:prior_search",
        "the search guided by a prior distilled from search?budget=1920, the Gumbel halving over "
        "its 16 best shots at 180 simulations, at 1.08 times search's time: 0.54 [0.52, 0.56] "
        "against it over 2,000 frames, 0.49 [0.44, 0.54] on the strength table's 400",
        Argument.NET,
        _EXPERT,
        model="expert-gumbel.npz",
        defaults=(("budget", 180), ("arms", 16), ("halving", "gumbel")),
    ),
    BuiltIn(
        "expert-refine",
        "kinghill.agents.prior:prior_search",
        "expert-gumbel's prior and halving at 60 simulations, every arm of a round under the same "
        "noise, then the chosen pot and 8 variants of its speed and spin 12 times each: at 1.09 "
        "times search's time, 0.56 [0.54, 0.58] against it over 2,000 frames",
        Argument.NET,
        _EXPERT,
        model="expert-gumbel.npz",
        defaults=(
            ("budget", 60),
            ("arms", 16),
            ("halving", "gumbel"),
            ("common_noise", True),
            ("refine", 12),
        ),
    ),
    BuiltIn(
        "expert-position",
        "kinghill.agents.prior:prior_search",
        "expert-refine over 12 shots, its pot refined 8 times each, the leaves scored by a "
        "learnt value of the whole position: at 0.90 times search's time, 0.57 [0.55, 0.58] "
        "against it over 4,000 frames, 0.52 [0.47, 0.57] on the strength table's 400",
        Argument.NET,
        _EXPERT,
        model="expert-position.npz",
        defaults=(
            ("budget", 60),
            ("arms", 12),
            ("halving", "gumbel"),
            ("common_noise", True),
            ("refine", 8),
            ("value", True),
        ),
    ),
    BuiltIn(
        "expert-policy",
        "kinghill.agents.prior:PriorPolicyAgent",
        "the prior net of expert iteration alone, no noisy simulation",
        Argument.NET,
        (_LEARNED_BREAK, _CANDIDATES),
        model="expert2.npz",
    ),
    BuiltIn(
        "search-value",
        "kinghill.agents.value:value_search",
        "the search with its leaves scored by a learnt value net (kinghill train-value); "
        "shipped: played with ?budget=110 at search's time",
        Argument.NET,
        (
            *_SEARCH,
            Option(
                "foul_cost", Kind.FLOAT, "the cost of a foul standing against the player", minimum=0
            ),
            _LEARNED_BREAK,
        ),
        model="value-heuristic.npz",
    ),
    BuiltIn(
        "search-position",
        "kinghill.agents.position_value:position_search",
        "the search with its leaves scored by a net of the whole position (kinghill "
        "train-position); shipped: level with search (0.49, 400 frames)",
        Argument.NET,
        (*_SEARCH, _LEARNED_BREAK),
        model="position.npz",
    ),
    BuiltIn(
        "policy",
        "kinghill.agents.policy:PolicyAgent",
        "a Stable-Baselines3 checkpoint (PPO, SAC, MaskablePPO) of kinghill train",
        Argument.CHECKPOINT,
        _POLICY,
    ),
    BuiltIn(
        "maskable-ppo",
        "kinghill.agents.policy:PolicyAgent",
        "the shipped MaskablePPO model, trained against the heuristic (policy:PATH's model)",
        Argument.CHECKPOINT,
        _POLICY,
        model="maskable-heuristic.zip",
    ),
    BuiltIn(
        "ppo-aim",
        "kinghill.agents.policy:PolicyAgent",
        "the shipped aim-assisted PPO model, trained against random (policy:PATH's model)",
        Argument.CHECKPOINT,
        _POLICY,
        model="ppo-aim-random.zip",
    ),
    BuiltIn(
        "rllib",
        "kinghill.agents.rllib_agent:RLlibAgent",
        "an RLlib checkpoint of kinghill train rllib",
        Argument.FOLDER,
        _RLLIB,
        extra="rllib",
        needs="ray.rllib",
    ),
    BuiltIn(
        "rllib-selfplay",
        "kinghill.agents.rllib_agent:RLlibAgent",
        "the shipped RLlib self-play model (rllib:PATH's model)",
        Argument.FOLDER,
        _RLLIB,
        model="rllib-selfplay",
        extra="rllib",
        needs="ray.rllib",
    ),
)
"""Every built-in agent; these names win over entry points of the same name."""


def built_in(name: str) -> BuiltIn | None:
    """The built-in called ``name``, or None."""
    return next((b for b in BUILT_INS if b.name == name), None)


def shipped() -> tuple[BuiltIn, ...]:
    """The built-ins that play a shipped model by default."""
    return tuple(b for b in BUILT_INS if b.model is not None)
