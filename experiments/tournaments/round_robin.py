"""``evaluate``: rate agents by a round robin, from a script; ``kinghill tournament`` runs it.

Agents are specs (``"heuristic"``, ``"mypkg.players:Careful?depth=3"``), agent classes or
factories (called with ``seed=`` when they take one), decision functions (``lambda view: ...``:
one required parameter, the view), or agent objects (copied for every frame,
and re-seeded through ``reset(seed)`` when they have one, so that a frame plays the same in any
process). Each frame is played by a :class:`Lineup`, the frame player that builds the agents by
name in whichever process plays the frame.
"""

from __future__ import annotations

import copy
import functools
import inspect
import pickle
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kinghill.agents import AgentSpecError, build_agent, check_one_each, make_agent
from kinghill.envs import Action, Agent, FrameView
from kinghill.envs.game.noise import NoiseScale
from kinghill.envs.rules import is_whole
from kinghill.experiments.tournaments.agent_content import content_key
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_log import FrameLog, play_into
from kinghill.experiments.tournaments.frame_player import play_frame
from kinghill.experiments.tournaments.frames import FrameOutcome, FramePlayer, FrameTask, play_task
from kinghill.experiments.tournaments.options import DEFAULT_DECISION_CAP, FrameOptions
from kinghill.experiments.tournaments.report import Report, build_report, save_report
from kinghill.experiments.tournaments.runners import (
    FrameRunner,
    in_process,
    in_worker_processes,
)

AgentLike = str | Agent | Callable[..., Any]
"""What ``evaluate`` takes as an agent: a spec, an agent object, a class or factory, or a
decision function."""


@dataclass(frozen=True)
class SpecMaker:
    """Builds the agent a spec names (see :mod:`kinghill.agents.registry`)."""

    spec: str

    def __call__(self, seed: int) -> Agent:
        return make_agent(self.spec, seed)

    def content(self) -> str:
        """What decides the agent's play beyond its name (:func:`content_key`)."""
        return content_key(self.spec)


@dataclass(frozen=True)
class FactoryMaker:
    """Calls an agent class or factory, with ``seed=`` when it takes one."""

    factory: Callable[..., Any]
    name: str

    def __call__(self, seed: int) -> Agent:
        return build_agent(self.factory, seed, name=self.name)

    def content(self) -> str:
        """What decides the agent's play beyond its name (:func:`content_key`)."""
        return content_key(self.factory)


@dataclass(frozen=True)
class CopyMaker:
    """A fresh copy of an agent object for each frame, re-seeded by ``reset(seed)`` if it has
    one: every frame starts from the same agent, wherever it is played."""

    agent: Agent

    def __call__(self, seed: int) -> Agent:
        agent = copy.deepcopy(self.agent)
        reset = getattr(agent, "reset", None)
        if callable(reset):
            reset(seed)
        return agent

    def content(self) -> str:
        """What decides the agent's play beyond its name (:func:`content_key`)."""
        return content_key(self.agent)


@dataclass(frozen=True)
class Decides:
    """An agent whose decisions are a function ``view -> action`` (``lambda view: ...``)."""

    decide: Callable[[FrameView], Action]

    def act(self, view: FrameView) -> Action:
        return self.decide(view)


@dataclass(frozen=True)
class DecisionMaker:
    """The same :class:`Decides` for every frame: a decision function has no state to seed."""

    decide: Callable[[FrameView], Action]

    def __call__(self, seed: int) -> Agent:
        return Decides(self.decide)

    def content(self) -> str:
        """What decides the agent's play beyond its name (:func:`content_key`)."""
        return content_key(self.decide)


AgentMaker = SpecMaker | FactoryMaker | CopyMaker | DecisionMaker
"""Builds an agent from a frame's seed for it (and says what decides its play, ``content``)."""


def is_decision_function(candidate: Callable[..., Any]) -> bool:
    """Whether a callable that is not a class is a decision function (``view -> action``, one
    required positional parameter other than ``seed``) rather than a factory (called with no
    argument or ``seed=``)."""
    try:
        parameters = inspect.signature(candidate).parameters.values()
    except (TypeError, ValueError):  # no signature (some callables written in C): a factory
        return False
    required = [
        p
        for p in parameters
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return len(required) == 1 and required[0].name != "seed"


@dataclass(frozen=True)
class Lineup:
    """The frame player of :func:`evaluate`: agents by name, each built by its maker in the
    process that plays the frame; with ``record``, every frame's shot record is written there
    (:mod:`kinghill.experiments.records.store`), named by the frame index ``frame_of_seed``
    gives."""

    makers: Mapping[str, AgentMaker]
    record: Path | None = None
    frame_of_seed: Mapping[int, int] = field(default_factory=dict)

    def build(self, name: str, seed: int) -> Agent:
        return self.makers[name](seed)

    def __call__(
        self, agent_a: str, agent_b: str, seed: int, options: FrameOptions
    ) -> FrameOutcome:
        return play_frame(
            agent_a,
            agent_b,
            seed,
            options,
            build=self.build,
            record=self.record,
            frame_index=self.frame_of_seed.get(seed, 0),
        )


def run_tournament(
    config: TournamentConfig,
    out: Path,
    player: FramePlayer,
    runner: FrameRunner = in_process,
    progress: bool | None = None,
    label: str | None = None,
) -> list[FrameOutcome]:
    """Play (or resume) the round robin ``config`` in the folder ``out`` with ``player`` and
    return all its frames in index order; frames already in ``out``'s log are not played again,
    and a ``config`` that differs from the stored one only by more frames a pair adds them
    (:meth:`FrameLog.continued`). :func:`evaluate` wraps it (agents built by name, the report
    written).

    :param runner: how frames are run (:mod:`kinghill.experiments.tournaments.runners`).
    :param progress: show a progress bar; ``None`` shows it on a terminal only.
    :param label: the progress bar's label (a ladder's: which pair, of how many).
    :raises TournamentError: ``out`` holds another tournament, or a log that does not fit it.
    """
    log = FrameLog(out)
    config = log.continued(config)
    log.claim(config)
    schedule = config.schedule()
    log.read(schedule)  # every logged frame checked against the schedule, by its line

    def missing(played: Mapping[int, FrameOutcome]) -> list[FrameTask]:
        return [task for task in schedule if task.frame not in played]

    play = functools.partial(play_task, player, config.options)
    describe = None if label is None else (lambda _: label)
    played = play_into(log, play, missing, runner, progress, describe)
    return [played[task.frame] for task in schedule]


def makers(agents: Sequence[AgentLike] | Mapping[str, AgentLike]) -> dict[str, AgentMaker]:
    """Name every agent and give it a maker: a spec is its own name; a class or factory its
    ``__qualname__``, an object its class's name (numbered when repeated), unless ``agents``
    is a mapping of names. Two specs of one agent (one :func:`~kinghill.agents.canonical_id`,
    ``search:120`` and ``search?budget=120``) are refused."""
    named = list(agents.items() if isinstance(agents, Mapping) else ((None, a) for a in agents))
    check_one_each(a for _, a in named if isinstance(a, str))
    result: dict[str, AgentMaker] = {}
    for given, agent in named:
        maker: AgentMaker
        if isinstance(agent, str):
            name, maker = agent, SpecMaker(agent)
        elif isinstance(agent, type) or not callable(getattr(agent, "act", None)):
            if not callable(agent):
                raise AgentSpecError(
                    f"{agent!r} is not an agent: give a spec, an agent, or a class or factory"
                )
            name = getattr(agent, "__qualname__", type(agent).__name__)
            if not isinstance(agent, type) and is_decision_function(agent):
                maker = DecisionMaker(agent)
            else:
                maker = FactoryMaker(agent, str(given or name))
        else:
            name, maker = type(agent).__name__, CopyMaker(agent)  # type: ignore[arg-type]
        name = str(given) if given is not None else _unique(name, result)
        if name in result:
            raise AgentSpecError(f"two agents are called {name!r}")
        result[name] = maker
    return result


def _unique(name: str, taken: Mapping[str, Any]) -> str:
    if name not in taken:
        return name
    number = 2
    while f"{name}#{number}" in taken:
        number += 1
    return f"{name}#{number}"


def evaluate(
    agents: Sequence[AgentLike] | Mapping[str, AgentLike],
    frames: int = 20,
    *,
    jobs: int = 1,
    seed: int = 0,
    noise: bool = True,
    noise_scale: NoiseScale = 1.0,
    round: int | None = None,
    max_shots: int = 200,
    decision_cap: float = DEFAULT_DECISION_CAP,
    handicap: Mapping[str, int] | Iterable[tuple[str, int]] = (),
    out: str | Path | None = None,
    record: bool = False,
    rating_samples: int = 1000,
    progress: bool | None = False,
    runner: FrameRunner | None = None,
    player: FramePlayer | None = None,
) -> Report:
    """Play a round robin and return its report: every pair plays ``frames`` frames (even),
    seats swapped, each frame seeded from ``seed`` and its index.

    :param agents: specs, agent objects, classes or factories, decision functions (see the
        module docstring), or a mapping of names to them.
    :param jobs: worker processes (spawned; agents other than specs must then be picklable:
        module-level classes, functions or objects).
    :param noise: execution noise on every shot.
    :param noise_scale: its condition: a multiple of the default sigmas, or ``"variable"``
        (:mod:`kinghill.envs.game.noise`).
    :param round: the section-12 clock as in this round (None: no clock).
    :param max_shots: shots after which a frame is truncated, a draw.
    :param decision_cap: seconds after which an untimed decision is cut off and charged as
        none (:class:`FrameOptions`); agents decide in processes of their own so that this
        and the clock's limits hold (:mod:`kinghill.experiments.tournaments.agent_process`).
    :param handicap: the whites an agent must pot (rule 5.3), by its name, whichever seat it
        has in a frame (``{"heuristic": 2, "search": 4}``, or such pairs), 1-7; 3 for an agent
        not named. Part of the stored config: a resume with another handicap is refused.
    :param out: keep the frame log, report files and records in this folder; an existing one
        is resumed (same settings only, or more ``frames``, which adds frames to every pair).
        None plays in a temporary folder.
    :param record: write every frame's shot record to ``out/records`` (needs ``out``).
    :param rating_samples: posterior draws for the rating intervals.
    :param progress: a progress bar (None: on a terminal only).
    :param runner: how frames are run (default: this process for ``jobs=1``, else workers);
        e.g. :func:`kinghill.experiments.tournaments.ray_runner.on_ray`.
    :param player: a frame player other than the agents' :class:`Lineup` (tests, custom
        matches); ``agents`` must then be names it knows.
    :raises AgentSpecError: an agent that cannot be built (each is built once before play).
    :raises TournamentError: settings that cannot be played, or an ``out`` that holds another
        tournament.
    """
    if record and out is None:
        raise ValueError("record=True needs out=, the folder to keep the records in")
    if not is_whole(jobs) or jobs < 1:
        raise TournamentError(f"must be a whole number of at least 1, got {jobs!r}", "jobs")
    options = FrameOptions(
        round=round,
        noise=noise,
        max_shots=max_shots,
        decision_cap=decision_cap,
        noise_scale=noise_scale,
        handicap=tuple(handicap.items() if isinstance(handicap, Mapping) else handicap),
    )
    if runner is None:
        runner = in_process if jobs <= 1 else in_worker_processes(jobs)
    built = makers(agents) if player is None else {}
    names = tuple(built) if player is None else tuple(str(n) for n in agents)
    contents = tuple(maker.content() for maker in built.values())
    config = TournamentConfig(names, frames, seed, options, contents)
    if out is not None:  # frames raised on a stored tournament: its schedule, extended
        config = FrameLog(Path(out)).continued(config)
    if player is None:
        for name, maker in built.items():
            _check(name, maker, elsewhere=runner is not in_process)
        frame_of_seed = {task.seed: task.frame for task in config.schedule()} if record else {}
        player = Lineup(built, Path(out) if record and out is not None else None, frame_of_seed)
    if out is None:
        with tempfile.TemporaryDirectory(prefix="kinghill-evaluate-") as folder:
            played = run_tournament(config, Path(folder), player, runner, progress=progress)
        data = build_report(config, played, samples=rating_samples, seed=config.seed)
        return Report.of(data, played)
    played = run_tournament(config, Path(out), player, runner, progress=progress)
    data = build_report(config, played, samples=rating_samples, seed=config.seed)
    save_report(Path(out), data)
    return Report.of(data, played)


def _check(name: str, maker: AgentMaker, elsewhere: bool) -> None:
    """Build the agent once (a broken spec fails here, not in a worker) and, when frames run
    ``elsewhere`` (other processes), check that its maker can be sent there."""
    try:
        maker(0)
    except OSError as error:  # e.g. a policy checkpoint that cannot be read
        raise AgentSpecError(f"agent {name!r}: {error}") from None
    if elsewhere:
        try:
            pickle.dumps(maker)
        except Exception as error:  # pickle raises several types for unpicklable objects
            raise AgentSpecError(
                f"agent {name!r} cannot be sent to worker processes ({error}); give a spec or a "
                "module-level class, function or object, or play with jobs=1"
            ) from None
