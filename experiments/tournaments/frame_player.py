"""The frame player of tournaments: two registry agents play one frame through a :class:`Game`.

Each agent plays in a process of its own (:mod:`.agent_process`): a decision that outlasts its
time is cut off there, the agent replaced, and the decision charged by section 12 (a time foul)
or, when no clock runs, as no decision after ``MatchOptions.decision_cap`` seconds. Each
agent's decision is timed by a :class:`~kinghill.envs.game.decision_clock.DecisionClock` started
as the agent is asked and handed to it in the view (``view.clock``: the time left, the 12.5
extension); the time and any claim are passed to the game, whose clock judges them when time
control is on (section 12). An agent that raises, or returns something the game cannot play, is
charged a foul (``Game.settle``) and the error is counted; the frame goes on.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from kinghill.agents import AgentSpecError
from kinghill.envs import Agent, Answer, Decided, FrameView, Game, ask
from kinghill.envs.rules import ShotClock
from kinghill.experiments.records.store import FrameRecorder, FrameShots, write_frame
from kinghill.experiments.tournaments.agent_process import AgentStartError, seat_processes
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameRecord
from kinghill.experiments.tournaments.options import DEFAULT_DECISION_CAP, MatchOptions
from kinghill.physics import NoiseModel


def new_game(options: MatchOptions, trajectory_fps: float | None = None) -> Game:
    """A game played under ``options``: noise, shot limit and the round's clock."""
    return Game(
        noise=NoiseModel() if options.noise else None,
        shot_limit=options.max_shots,
        clock=ShotClock(round=options.round) if options.round is not None else None,
        trajectory_fps=trajectory_fps,
    )


def seeds(seed: int) -> tuple[int, int, int]:
    """Seeds of the table's noise and of the two agents, all from the frame's seed."""
    game, a, b = (int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(3))
    return game, a, b


class Seat(Protocol):
    """Where a seat's agent decides: asked with the view and the seconds after which to cut
    it off (an :class:`~kinghill.experiments.tournaments.agent_process.AgentProcess`)."""

    def decide(self, view: FrameView, limit: float) -> Answer: ...


class InProcessSeat:
    """A seat whose agent is asked here, in this process (:func:`~kinghill.envs.ask`): the fast
    path, no pipe and no process, for agents that cannot leave it (a policy being trained);
    nothing can cut off a decision that never returns, so ``limit`` goes unenforced."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def decide(self, view: FrameView, limit: float) -> Answer:
        return ask(self.agent.act, view)


def play_out(
    game: Game, seats: Sequence[Seat], decision_cap: float = DEFAULT_DECISION_CAP
) -> Iterator[Decided]:
    """Play the frame in ``game`` to its end, ``seats[p]`` deciding for player ``p``; yields
    every decision as it is settled (a fault charged by the rules, :meth:`Game.settle`).

    A decision is cut off at its time allowed (the round's limit, plus the extension while it is
    open) or, when no clock runs for it, at ``decision_cap`` seconds."""
    while not game.is_over:
        allowed = game.time_allowed()
        view = game.timed_view()
        answer = seats[game.to_move].decide(view, decision_cap if allowed is None else allowed)
        if answer.timed_out and allowed is None:
            answer = replace(answer, fault=f"no decision within the {decision_cap:g} s cap")
        yield game.settle(answer)


@dataclass
class _Tally:
    """Per-seat counters of one frame."""

    fouls: list[int]
    visits: list[int]
    whites: list[int]
    attempts: list[int]
    colour_pots: list[int]
    time_fouls: list[int]
    errors: list[int]
    decisions: list[int]
    thinking: list[float]

    @classmethod
    def zero(cls) -> _Tally:
        return cls(
            fouls=[0, 0],
            visits=[0, 0],
            whites=[0, 0],
            attempts=[0, 0],
            colour_pots=[0, 0],
            time_fouls=[0, 0],
            errors=[0, 0],
            decisions=[0, 0],
            thinking=[0.0, 0.0],
        )

    def add(self, decided: Decided, last_shooter: int | None) -> int | None:
        """Count one decision; returns the shooter of the latest shot decision."""
        turn, ruling = decided.turn, decided.turn.ruling
        player = turn.player
        self.decisions[player] += 1
        self.thinking[player] += turn.seconds or 0.0
        if decided.fault is not None:
            self.errors[player] += 1
        if ruling is None:  # the 10.4 choice
            return last_shooter
        if player != last_shooter:
            self.visits[player] += 1
        self.fouls[player] += ruling.is_foul
        self.whites[player] += ruling.whites_credited
        self.colour_pots[player] += ruling.legal_colour_pot
        if ruling.shot_played and ruling.call is not None:
            self.attempts[player] += 1
        if not ruling.shot_played and decided.fault is None:
            self.time_fouls[player] += 1
        return player


def seated(
    agents: Sequence[tuple[str, int]], build: Callable[[str, int], Agent] | None = None
) -> Sequence[Seat]:
    """A seat for each (name, seed): this process's agent processes with the agents built in
    them (by spec, or by ``build`` when it can be pickled to them), else in-process seats."""
    if build is not None:
        try:
            pickle.dumps(build)
        except Exception:  # pickle raises several types for what it cannot send
            return [InProcessSeat(build(name, agent_seed)) for name, agent_seed in agents]
    processes = seat_processes()
    for process, (name, agent_seed) in zip(processes, agents, strict=True):
        process.build(name, agent_seed, build)
    return processes


def play_frame(
    agent_a: str,
    agent_b: str,
    seed: int,
    options: MatchOptions,
    *,
    build: Callable[[str, int], Agent] | None = None,
    record: Path | None = None,
    frame_index: int = 0,
) -> FrameRecord:
    """Play one frame: ``agent_a`` in seat 0 breaks; deterministic given ``seed`` (agents and the
    table's noise are seeded from it) unless an agent decides by wall time. Each agent decides
    in its own process (:func:`seat_processes`, kept for the next frames), so that one that
    never returns is cut off and charged by the rules. The frame player of tournaments.

    :param build: makes an agent from its name and seed (default: :func:`make_agent`, specs).
        It is sent to the agent processes; one that cannot be pickled (a closure, a local
        class) builds the agents here instead, in this process, where nothing cuts them off.
    :param record: a folder to write the frame's shot record in (:mod:`records`), or None.
    :param frame_index: the frame's index, naming its record.
    """
    _, seed_a, seed_b = seeds(seed)
    seats = seated(((agent_a, seed_a), (agent_b, seed_b)), build)
    start = time.perf_counter()
    tally = _Tally.zero()
    shooter: list[int | None] = [None]

    def count(before: FrameView, decided: Decided, after: FrameView) -> None:
        shooter[0] = tally.add(decided, shooter[0])

    game, shots = _play(seats, (agent_a, agent_b), seed, options, frame_index, None, count)
    frame = game.frame
    if record is not None:
        write_frame(record, shots)
    return FrameRecord(
        agents=(agent_a, agent_b),
        seed=seed,
        winner=frame.winner,
        shots=frame.shots,
        fouls=_pair(tally.fouls),
        visits=_pair(tally.visits),
        whites_potted=_pair(tally.whites),
        colour_attempts=_pair(tally.attempts),
        colour_pots=_pair(tally.colour_pots),
        time_fouls=_pair(tally.time_fouls),
        errors=_pair(tally.errors),
        wall_time=time.perf_counter() - start,
        extensions=(int(frame.extension_used[0]), int(frame.extension_used[1])),
        decisions=_pair(tally.decisions),
        thinking=(tally.thinking[0], tally.thinking[1]),
    )


Watcher = Callable[[FrameView, Decided, FrameView], None]
"""Called with every settled decision as the frame goes on, between the view it was made from
and the view after it (the table settled, spotting done)."""


def play_watched(
    agent_a: str,
    agent_b: str,
    seed: int = 0,
    options: MatchOptions | None = None,
    *,
    here: Mapping[str, Agent] | None = None,
    watch: Watcher | None = None,
    trajectory_fps: float | None = None,
) -> FrameShots:
    """Play one frame to be watched (what ``kinghill play`` runs) and return its shot record:
    every decision, the final table and the result. ``agent_a`` in seat 0 breaks; the agents
    and the table's noise are seeded from ``seed`` as in :func:`play_frame`.

    :param options: how the frame is played (default: :class:`MatchOptions`'s defaults).
    :param here: agents by name that decide in this process, never cut off (a person at a
        window, :class:`~kinghill.agents.human.HumanSeat`); every other name is an agent spec
        built in an agent process of its own.
    :param watch: called with each decision as it is settled (commentary, a window).
    :param trajectory_fps: sample each shot's ball paths this many times a simulated second
        (for an animation or a replay); None keeps none.
    :raises TournamentError: an agent that cannot be built (``agent_a`` or ``agent_b``).
    """
    here = here or {}
    options = options or MatchOptions()
    names = (agent_a, agent_b)
    seats: list[Seat] = []
    for process, name, agent_seed, parameter in zip(
        seat_processes(), names, seeds(seed)[1:], ("agent_a", "agent_b"), strict=True
    ):
        if name in here:
            seats.append(InProcessSeat(here[name]))
            continue
        try:
            process.build(name, agent_seed)
        except (AgentSpecError, AgentStartError, OSError) as error:
            raise TournamentError(str(error), parameter) from None
        seats.append(process)
    return _play(seats, names, seed, options, 0, trajectory_fps, watch)[1]


def _play(
    seats: Sequence[Seat],
    names: tuple[str, str],
    seed: int,
    options: MatchOptions,
    frame_index: int,
    trajectory_fps: float | None,
    watch: Watcher | None,
) -> tuple[Game, FrameShots]:
    """Play the frame of ``seed`` in ``seats`` to its end, recording every decision and showing
    it to ``watch``; the game at the end and the frame's shot record."""
    game = new_game(options, trajectory_fps)
    game.reset(seed=seeds(seed)[0], breaker=0)
    recorder = FrameRecorder(frame_index, seed, names, options)
    before = game.view()
    for decided in play_out(game, seats, options.decision_cap):
        recorder.add(before, decided)
        after = game.view()
        if watch is not None:
            watch(before, decided, after)
        before = after
    return game, recorder.finish(game.state, game.frame)


def _pair(values: list[int]) -> tuple[int, int]:
    return (int(values[0]), int(values[1]))
