"""The frames a server holds: each a :class:`~kinghill.envs.Game` with a person and an agent, or
two agents to watch, its decisions recorded and written to disk as they are settled.

No HTTP here (:mod:`.app` puts these on the web): a :class:`Table` is played through
:meth:`Table.act` by the person and by a worker thread for the agents; :class:`Tables` holds at
most ``max_games`` of them and lets idle ones go.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kinghill.agents import make_agent
from kinghill.envs import Action, Agent, Answer, Decided, FrameView, Game, Turn, ask
from kinghill.envs.game import DecisionClock
from kinghill.experiments.htmlreport.replays import decision_replay
from kinghill.experiments.records.store import (
    ShotRecorder,
    check_not_tournament,
    write_frame,
    write_new_frame,
)
from kinghill.experiments.tournaments.frame_player import new_game, seeds
from kinghill.experiments.tournaments.options import FrameOptions

PERSON = "person"
"""The person's name in a frame's record (``agents``)."""
HOLD_SECONDS = 0.6
"""How long the page holds the end of a shot before the next one plays (``report.js``'s HOLD):
a person's clock starts when the shots before the decision have been shown."""
TIME_OUT_MARGIN = 0.05
"""Seconds after a person's time runs out that the table's timer charges it (12.4)."""


class TableError(Exception):
    """A request the frame cannot take; ``status`` is the HTTP status that says why (404 no
    such game, 409 not this seat's turn or the frame is over, 422 an action that does not fit
    the table, 429 too many games). The frame is unchanged."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Seating:
    """Who sits where in a new frame: ``names[p]`` is player ``p`` (0 breaks), each an agent of
    the server's list or :data:`PERSON`; ``required`` the whites each needs (5.3, R-handicap)."""

    names: tuple[str, str]
    required: tuple[int, int] = (3, 3)
    seed: int = 0
    options: FrameOptions = FrameOptions()


class Table:
    """One frame in play: the game, its seats, the record written after every decision, and each
    decision as the page replays it.

    :param seating: who plays, the handicap, the seed and the frame's options.
    :param agents: the agent of each seat that is not the person (None for the person's).
    :param folder: where the record is written.
    """

    def __init__(
        self, key: str, seating: Seating, agents: Sequence[Agent | None], folder: Path
    ) -> None:
        self.key, self.seating, self.folder = key, seating, folder
        self.agents = tuple(agents)
        self.game: Game = new_game(seating.options)
        self.game.required = seating.required  # the handicap (5.3), read by reset
        self.game.reset(seed=seeds(seating.seed)[0], breaker=0)
        self.recorder = ShotRecorder(
            0, seating.seed, seating.names, seating.options.record_fields()
        )
        self.replays: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.closed = False
        self.fault: str | None = None
        self.clock: DecisionClock | None = None
        self.shown_until = time.perf_counter()
        self._working = False
        self._start_clock()
        # the first write takes the next free number in the folder, never replacing a record
        first = write_new_frame(folder, self.recorder.finish(self.game.state, self.game.frame))
        self.number = self.recorder.frame = first.frame
        with self.lock:
            self._wake()

    # ---- reading ------------------------------------------------------------------------------
    @property
    def person(self) -> int | None:
        """The person's seat, or None in a frame between two agents."""
        return next((p for p in (0, 1) if self.agents[p] is None), None)

    @property
    def agent_to_move(self) -> bool:
        return not self.game.is_over and self.agents[self.game.to_move] is not None

    def time_left(self) -> float | None:
        """Seconds left for the person's decision now due (the claimed extension counted), or
        None when no clock times it."""
        if self.clock is None or not self.clock.timed:
            return None
        return self.clock.time_left()

    # ---- playing ------------------------------------------------------------------------------
    def act(self, action: Action) -> None:
        """Play the person's decision. Raises :class:`TableError` (nothing changed) when it is
        not the person's turn or the action does not fit the table (the referee's words)."""
        with self.lock:
            self.check_turn()
            assert self.clock is not None
            # the clock starts when the shots before have been shown: a decision (or a claim)
            # made while they still play counts from 0
            seconds = max(0.0, self.clock.elapsed())
            claimed = self.clock.claimed_at
            try:
                before = self.game.view()
                turn = self.game.play(
                    action, seconds, None if claimed is None else max(0.0, claimed)
                )
            except ValueError as error:  # InvalidAction: the game is unchanged
                raise TableError(422, str(error)) from None
            self._settled(before, turn, None)

    def claim_extension(self) -> bool:
        """Claim the 12.5 extension on the person's running clock; whether it was granted."""
        with self.lock:
            self.check_turn()
            assert self.clock is not None
            return self.clock.claim_extension()

    def expire_clock(self) -> None:
        """When the person's time has run out, charge it by the rules (12.4) and go on."""
        with self.lock:
            left = self.time_left()
            if left is None or left >= 0 or self.agent_to_move or self.game.is_over:
                return
            assert self.clock is not None
            before = self.game.view()
            decided = self.game.settle(Answer(seconds=self.clock.elapsed(), timed_out=True))
            self._settled(before, decided.turn, decided.fault)

    def _arm_timer(self) -> None:
        """Charge the person's time-out when it comes, not at the page's next request (a page
        closed or reloaded makes none): a timer for the clock now running, at its time left
        (call it under the lock, or before the table is shared)."""
        clock = self.clock
        if clock is None or not clock.timed:
            return
        delay = max(0.0, clock.time_left()) + TIME_OUT_MARGIN
        timer = threading.Timer(delay, self._time_out, args=(clock,))
        timer.daemon = True
        timer.start()

    def _time_out(self, clock: DecisionClock) -> None:
        """The timer of ``clock``: charge the time-out if that clock still runs, and wait again
        while it has time left (an extension claimed since the timer was set)."""
        self.expire_clock()
        with self.lock:
            if not self.closed and self.clock is clock:
                self._arm_timer()

    def run_agents(self) -> None:
        """Let the agents decide while it is their turn (the worker thread's loop): each asked
        with the view outside the lock, its answer settled by the rules under it. An error of
        the engine itself stops the frame where it is, said in :attr:`fault` (an agent's own
        error is charged to it by the rules, :meth:`Game.settle`)."""
        try:
            self._run_agents()
        except Exception as error:  # the engine failed: the frame cannot go on
            with self.lock:
                self.fault = f"the frame stopped: {type(error).__name__}: {error}"
                self._working = False

    def _run_agents(self) -> None:
        while True:
            with self.lock:
                if self.closed or not self.agent_to_move:
                    self._working = False
                    return
                view = self.game.timed_view()
                agent = self.agents[self.game.to_move]
            assert agent is not None
            answer = ask(agent.act, view)
            with self.lock:
                if self.closed:
                    self._working = False
                    return
                before = self.game.view()
                decided = self.game.settle(answer)
                self._settled(before, decided.turn, decided.fault)

    def check_turn(self) -> None:
        """:class:`TableError` 409 unless the person is to decide (call it under the lock)."""
        if self.game.is_over:
            raise TableError(409, f"the frame is over: {self.game.frame.result}")
        if self.person is None:
            raise TableError(409, "this frame is between two agents: there is no seat to play")
        if self.game.to_move != self.person:
            raise TableError(409, "not your turn: the opponent is to decide")

    def _settled(self, before: FrameView, turn: Turn, fault: str | None) -> None:
        """Record a settled decision, write the record, and start the next person's clock."""
        self.recorder.add(before, Decided(turn, fault))
        record = self.recorder.decisions[-1]
        replay = decision_replay(len(self.replays) + 1, record)
        self.replays.append(replay)
        self.shown_until = max(self.shown_until, time.perf_counter()) + (
            replay["duration"] + HOLD_SECONDS
        )
        self.write()
        self._start_clock()
        self._wake()

    def _wake(self) -> None:
        """Start the agents' worker thread when it is an agent's turn and none runs (called
        under the lock, which the worker's loop takes to decide whether to go on)."""
        if self.agent_to_move and not self._working and not self.closed:
            self._working = True
            threading.Thread(
                target=self.run_agents, name=f"kinghill-{self.key}", daemon=True
            ).start()

    def _start_clock(self) -> None:
        """The person's clock for the decision now due, started when the page has shown the
        shots before it."""
        game = self.game
        if game.is_over or game.to_move != self.person:
            self.clock = None
            return
        start = max(self.shown_until, time.perf_counter())
        self.clock = DecisionClock(game.allowance(), started=start)
        self._arm_timer()

    def write(self) -> Path:
        """Write the record as it stands (every settled decision; the result once over)."""
        return write_frame(self.folder, self.recorder.finish(self.game.state, self.game.frame))


class Tables:
    """The frames a server holds: at most ``max_games`` at once, each let go after ``idle``
    seconds without a request (its record stays on disk); each numbered with the next free
    index of ``folder`` (no record is ever replaced, another writer's included).

    :param agents: the agents a request may name (specs of the server's list, built here,
        never from a request's text).
    :param build: makes an agent from its spec and seed (default: the registry's
        :func:`~kinghill.agents.make_agent`).
    """

    def __init__(
        self,
        folder: Path,
        agents: Sequence[str],
        max_games: int = 8,
        idle: float = 900.0,
        build: Callable[[str, int], Agent] = make_agent,
    ) -> None:
        if max_games < 1:
            raise ValueError(f"max_games must be at least 1, got {max_games}")
        if not (idle > 0 and math.isfinite(idle)):
            raise ValueError(f"idle must be a positive number of seconds, got {idle}")
        self.folder, self.agents = Path(folder), tuple(agents)
        self.max_games, self.idle, self.build = max_games, idle, build
        check_not_tournament(self.folder)  # RecordError: a tournament's records are its own
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()

    def open(self, seating: Seating) -> Table:
        """A new frame for ``seating`` (its agents named from the list), its agents' worker
        started when the first decision is theirs; :class:`TableError` 429 when full."""
        for name in seating.names:
            if name != PERSON and name not in self.agents:
                raise TableError(400, f"unknown agent {name!r}: the server plays {self._listed()}")
        with self.lock:
            self._check_room()
        agents = [  # built before the lock is taken: a policy may take a second to load
            None if name == PERSON else self._built(name, agent_seed)
            for name, agent_seed in zip(seating.names, seeds(seating.seed)[1:], strict=True)
        ]
        with self.lock:
            self._check_room()
            table = Table(secrets.token_hex(8), seating, agents, self.folder)
            self.tables[table.key] = table
        return table

    def _check_room(self) -> None:
        """:class:`TableError` 429 when the server is full of frames in play (call it under the
        lock): finished frames are let go first, the least recently looked at first."""
        self._let_go_idle()
        finished = sorted(
            (t for t in self.tables.values() if t.game.is_over), key=lambda t: t.touched
        )
        while len(self.tables) >= self.max_games and finished:
            table = finished.pop(0)
            table.closed = True
            del self.tables[table.key]
        if len(self.tables) >= self.max_games:
            raise TableError(
                429,
                f"the server holds {self.max_games} frames at once, its limit: leave one "
                f"or wait (an idle frame is let go after {self.idle:g} s)",
            )

    def _built(self, name: str, seed: int) -> Agent:
        try:
            return self.build(name, seed)
        except Exception as error:  # a listed agent that cannot be built now (a file gone)
            raise TableError(503, f"agent {name!r} cannot be built: {error}") from None

    def get(self, key: str) -> Table:
        """The frame ``key`` names (its idle time restarted); :class:`TableError` 404 if none."""
        with self.lock:
            self._let_go_idle()
            table = self.tables.get(key)
            if table is None:
                raise TableError(404, "no such game (it ended its idle time, or never was)")
            table.touched = time.monotonic()
        table.expire_clock()
        return table

    def leave(self, key: str) -> None:
        """Let the frame ``key`` go (its record stays); :class:`TableError` 404 if none."""
        table = self.get(key)
        with self.lock:
            self.tables.pop(key, None)
        table.closed = True

    def _let_go_idle(self) -> None:
        now = time.monotonic()
        for key, table in list(self.tables.items()):
            if now - table.touched > self.idle:
                table.closed = True
                del self.tables[key]

    def _listed(self) -> str:
        return ", ".join(self.agents)
