"""The frame player of tournaments: two registry agents play one frame through a :class:`Game`.

Each agent's decision is timed by a :class:`~kinghill.envs.decision_clock.DecisionClock` started
as the agent is asked and handed to it in the view (``view.clock``: the time left, the 12.5
extension); the time and any claim are passed to the game, whose clock judges them when time
control is on (section 12). An agent that raises, or returns something the game cannot play, is
charged a foul (``Game.settle``) and the error is counted; the frame goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kinghill.agents import make_agent
from kinghill.envs import Agent, Decided, Game
from kinghill.envs.decisions import ask
from kinghill.envs.rules import ShotClock
from kinghill.experiments.records import FrameRecorder, write_frame
from kinghill.experiments.tournament import FrameRecord, MatchOptions
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


def play_out(game: Game, agents: Sequence[Agent]) -> Iterator[Decided]:
    """Play the frame in ``game`` to its end, ``agents[p]`` deciding for player ``p``; yields
    every decision as it is settled (a fault charged by the rules, :meth:`Game.settle`)."""
    while not game.is_over:
        yield game.settle(ask(agents[game.to_move].act, game.timed_view()))


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
    table's noise are seeded from it) unless an agent decides by wall time.

    :param build: makes an agent from its name and seed (default: :func:`make_agent`, specs).
    :param record: a folder to write the frame's shot record in (:mod:`records`), or None.
    :param frame_index: the frame's index, naming its record.
    """
    game_seed, seed_a, seed_b = seeds(seed)
    build = build or make_agent
    agents = (build(agent_a, seed_a), build(agent_b, seed_b))
    game = new_game(options)
    game.reset(seed=game_seed, breaker=0)
    start = time.perf_counter()
    tally, shooter = _Tally.zero(), None
    recorder = FrameRecorder(frame_index, seed, (agent_a, agent_b), options)
    before = game.view()
    for decided in play_out(game, agents):
        shooter = tally.add(decided, shooter)
        recorder.add(before, decided)
        before = game.view()
    frame = game.frame
    if record is not None:
        write_frame(record, recorder.finish(game.state, frame))
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


def _pair(values: list[int]) -> tuple[int, int]:
    return (int(values[0]), int(values[1]))
