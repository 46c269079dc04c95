"""The frame player of tournaments: two registry agents play one frame through a :class:`Game`.

Each agent plays in a process of its own (:mod:`.agent_process`): a decision that outlasts its
time is cut off there, the agent replaced, and the decision charged by section 12 (a time foul)
or, when no clock runs, as no decision after ``FrameOptions.decision_cap`` seconds. Each
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
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from kinghill.agents import AgentSpecError
from kinghill.envs import Agent, Answer, Decided, FrameView, Game, ask
from kinghill.envs.game.noise import scaled
from kinghill.envs.rules import ShotClock
from kinghill.experiments.records.store import FrameShots, ShotRecorder, write_frame
from kinghill.experiments.tournaments.agent_process import AgentStartError, seat_processes
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import SEAT_FIELDS, FrameOutcome
from kinghill.experiments.tournaments.options import DEFAULT_DECISION_CAP, FrameOptions
from kinghill.physics import NoiseModel


def new_game(options: FrameOptions, trajectory_fps: float | None = None) -> Game:
    """A game played under ``options``: noise at its scale, shot limit and the round's clock
    (each seat needs 3 whites until ``game.required`` says otherwise before ``reset``:
    ``options.required(agents)`` for the agents' handicaps)."""
    return Game(
        noise=scaled(NoiseModel(), options.noise_scale) if options.noise else None,
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


class _Tally:
    """Per-seat counters of one frame, by the names of :class:`FrameOutcome`'s pairs."""

    def __init__(self) -> None:
        self.counts: dict[str, list[float]] = {
            field: [0, 0] for field in SEAT_FIELDS if field != "extensions"
        }
        self.seconds: tuple[list[float], list[float]] = ([], [])
        self.first_faults = ["", ""]

    def add(self, decided: Decided, last_shooter: int | None) -> int | None:
        """Count one decision; returns the shooter of the latest shot decision."""
        turn, ruling, counts = decided.turn, decided.turn.ruling, self.counts
        player = turn.player
        counts["decisions"][player] += 1
        counts["thinking"][player] += turn.seconds or 0.0
        self.seconds[player].append(round(turn.seconds or 0.0, 4))
        if decided.fault is not None:
            counts["errors"][player] += 1
            self.first_faults[player] = self.first_faults[player] or decided.fault
        if ruling is None:  # the 10.4 choice
            return last_shooter
        if player != last_shooter:
            counts["visits"][player] += 1
        counts["fouls"][player] += ruling.is_foul
        counts["whites_potted"][player] += ruling.whites_credited
        counts["colour_pots"][player] += ruling.legal_colour_pot
        if ruling.shot_played and ruling.call is not None:
            counts["colour_attempts"][player] += 1
        if not ruling.shot_played and decided.fault is None:
            counts["time_fouls"][player] += 1
        return player

    def pairs(self) -> dict[str, Any]:
        """The counts as :class:`FrameOutcome`'s fields: whole numbers, thinking and each
        decision's time in seconds."""
        pairs: dict[str, Any] = {k: (int(a), int(b)) for k, (a, b) in self.counts.items()}
        thinking = self.counts["thinking"]
        return pairs | {
            "thinking": (float(thinking[0]), float(thinking[1])),
            "decision_seconds": (tuple(self.seconds[0]), tuple(self.seconds[1])),
            "first_faults": (self.first_faults[0], self.first_faults[1]),
        }


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
    options: FrameOptions,
    *,
    build: Callable[[str, int], Agent] | None = None,
    record: Path | None = None,
    frame_index: int = 0,
) -> FrameOutcome:
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
    tally = _Tally()
    shooter: list[int | None] = [None]

    def count(before: FrameView, decided: Decided, after: FrameView) -> None:
        shooter[0] = tally.add(decided, shooter[0])

    game = new_game(options)
    game.required = options.required((agent_a, agent_b))  # each agent's handicap (5.3)
    recorder = ShotRecorder(frame_index, seed, (agent_a, agent_b), options.record_fields())
    shots = _play(game, seats, seed, options, recorder, count)
    frame = game.frame
    if record is not None:
        write_frame(record, shots)
    return FrameOutcome(
        agents=(agent_a, agent_b),
        seed=seed,
        winner=frame.winner,
        shots=frame.shots,
        wall_time=time.perf_counter() - start,
        extensions=(int(frame.extension_used[0]), int(frame.extension_used[1])),
        **tally.pairs(),
    )


class FrameStopped(KeyboardInterrupt):
    """The user stopped a watched frame (Ctrl-C, SIGTERM, a closed window): ``shots`` holds
    every decision settled before, ``result`` None."""

    def __init__(self, shots: FrameShots) -> None:
        super().__init__(f"the frame was stopped after {len(shots.decisions)} decisions")
        self.shots = shots


Watcher = Callable[[FrameView, Decided, FrameView], None]
"""Called with every settled decision as the frame goes on, between the view it was made from
and the view after it (the table settled, spotting done)."""


def play_watched(
    agent_a: str,
    agent_b: str,
    seed: int = 0,
    options: FrameOptions | None = None,
    *,
    here: Mapping[str, Agent] | None = None,
    watch: Watcher | None = None,
    trajectory_fps: float | None = None,
    required: tuple[int, int] | None = None,
) -> FrameShots:
    """Play one frame to be watched (what ``kinghill play`` runs) and return its shot record:
    every decision, the final table and the result. ``agent_a`` in seat 0 breaks; the agents
    and the table's noise are seeded from ``seed`` as in :func:`play_frame`.

    :param options: how the frame is played (default: :class:`FrameOptions`'s defaults).
    :param here: agents by name that decide in this process, never cut off (a person at a
        window, :class:`~kinghill.agents.human.HumanSeat`); every other name is an agent spec
        built in an agent process of its own.
    :param watch: called with each decision as it is settled (commentary, a window).
    :param trajectory_fps: sample each shot's ball paths this many times a simulated second
        (for an animation or a replay); None keeps none.
    :param required: the whites ``agent_a`` and ``agent_b`` must pot (5.3, R-handicap; the
        record keeps them in every decision's frame); None: their ``options.handicap`` (3 for
        an agent it does not name).
    :raises TournamentError: an agent that cannot be built (``agent_a`` or ``agent_b``).
    :raises FrameStopped: the user stopped the frame; the decisions played are kept in it.
    """
    here = here or {}
    options = options or FrameOptions()
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
    game = new_game(options, trajectory_fps)
    game.required = options.required(names) if required is None else required  # 5.3
    recorder = ShotRecorder(0, seed, names, options.record_fields())
    try:
        return _play(game, seats, seed, options, recorder, watch)
    except KeyboardInterrupt as stop:
        raise FrameStopped(recorder.finish(game.state, game.frame)) from stop


def _play(
    game: Game,
    seats: Sequence[Seat],
    seed: int,
    options: FrameOptions,
    recorder: ShotRecorder,
    watch: Watcher | None,
) -> FrameShots:
    """Play the frame of ``seed`` in ``game`` to its end, ``seats`` deciding, ``recorder``
    recording every decision and ``watch`` shown each; the frame's shot record."""
    game.reset(seed=seeds(seed)[0], breaker=0)
    before = game.view()
    for decided in play_out(game, seats, options.decision_cap):
        recorder.add(before, decided)
        after = game.view()
        if watch is not None:
            watch(before, decided, after)
        before = after
    return recorder.finish(game.state, game.frame)
