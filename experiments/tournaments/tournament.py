"""Round-robin tournaments: the schedule, the frame log that survives interruptions, the runner.

Every pair of agents plays ``frames`` frames with seats swapped (seat 0 breaks), each frame on a
seed derived from the tournament seed and the frame index, so a frame's result does not depend on
where or when it was played. Results go to ``DIR/frames.jsonl`` one line per frame as soon as a
frame ends; a restart with the same ``--out`` plays only the missing frames.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import importlib
import itertools
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, Protocol

import numpy as np
from tqdm import tqdm

from kinghill.experiments.cli.app import (
    CommandError,
    UsageError,
    output_dir,
    positive_float,
    positive_int,
    seed,
)
from kinghill.experiments.tournaments.json_fields import from_json_object
from kinghill.experiments.tournaments.lifeline import follow_parent

DEFAULT_PLAYER = "kinghill.experiments.tournaments.frame_player:play_frame"
MOVED_PLAYERS = {"kinghill.experiments.match:play_frame": DEFAULT_PLAYER}
"""Frame players' old specs (before the modules moved), still accepted."""
DEFAULT_FRAMES = 20
ROUND_ROBIN = "round-robin"
"""The format of a stored config without a ``format`` key (the round robin's)."""
CONFIG_FILE = "tournament.json"
FRAMES_FILE = "frames.jsonl"
DEFAULT_DECISION_CAP = 50.0
"""Seconds an untimed decision may take: the longest any clocked shot may (12.3: 35 s in round
3; 12.6: plus the 15 s extension)."""


class TournamentError(UsageError):
    """A tournament cannot start or go on; the message says what to change (and, on the
    command line, which argument: ``kinghill tournament`` prints it as a usage error)."""


@dataclass(frozen=True)
class MatchOptions:
    """How every frame of a tournament is played.

    :param round: tournament round for the section-12 clock (12.2: no clock in rounds 1-2);
        ``None`` plays without time control (12.1).
    :param noise: execution noise on the cue parameters.
    :param max_shots: shots after which a frame is truncated with no winner (R-truncate).
    :param decision_cap: seconds after which a decision that no clock times (no time control,
        rounds 1-2, the 10.4 choice) is cut off; the agent is then charged as giving no
        decision (a shot not played, 12.4; a 10.4 choice: playing on). A timed decision is cut
        off at its own limit instead (12.3, plus the 12.6 extension while it is open).
    """

    round: int | None = None
    noise: bool = True
    max_shots: int = 200
    decision_cap: float = DEFAULT_DECISION_CAP

    def __post_init__(self) -> None:
        if self.round is not None and not (_is_int(self.round) and self.round >= 1):
            raise TournamentError(f"counts from 1 (got {self.round!r})", "--round")
        if not isinstance(self.noise, bool):
            raise TournamentError(f"must be true or false (got {self.noise!r})", "--noise")
        if not (_is_int(self.max_shots) and self.max_shots >= 1):
            raise TournamentError(f"must be at least 1 (got {self.max_shots!r})", "--max-shots")
        if not (
            isinstance(self.decision_cap, int | float)
            and not isinstance(self.decision_cap, bool)
            and 0 < self.decision_cap < math.inf
        ):
            raise TournamentError(
                f"must be a positive number of seconds (got {self.decision_cap!r})",
                "--decision-cap",
            )

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        """The ``--round``, ``--noise/--no-noise``, ``--max-shots`` and ``--decision-cap``
        options of a command."""
        parser.add_argument(
            "--round",
            type=positive_int,
            metavar="R",
            help="section 12 time control as in round R: no clock in rounds 1-2, 35 s per shot "
            "in round 3, 5 s less each later round, never under 20 s (default: no clock)",
        )
        parser.add_argument(
            "--noise",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="execution noise on the cue (default: on)",
        )
        parser.add_argument(
            "--max-shots",
            type=positive_int,
            default=200,
            metavar="S",
            help="shots after which a frame is truncated, a draw (default: 200)",
        )
        parser.add_argument(
            "--decision-cap",
            type=positive_float,
            default=DEFAULT_DECISION_CAP,
            metavar="SECONDS",
            help="cut off an untimed decision (no clock, or the 10.4 choice) after SECONDS: a "
            "shot not played, a foul; a choice not made, playing on (default: "
            f"{DEFAULT_DECISION_CAP:g}, the longest a clocked shot may take, 35 s + 15 s)",
        )

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> MatchOptions:
        """The options given by :meth:`add_arguments`."""
        return cls(
            round=args.round,
            noise=args.noise,
            max_shots=args.max_shots,
            decision_cap=args.decision_cap,
        )


@dataclass(frozen=True)
class FrameRecord:
    """What one frame produced; per-seat pairs are (seat 0 = breaker, seat 1).

    The runner sets ``frame`` (the tournament frame index); a frame player may leave it at -1.
    ``winner`` is the winning seat, ``None`` for a truncated frame. ``errors`` counts the times
    an agent raised or returned an unusable action (each charged a foul by the environment).
    ``extensions``: the 12.5 extension taken (0 or 1 a frame); ``decisions`` and ``thinking``:
    decisions made and their total seconds.
    """

    agents: tuple[str, str]
    seed: int
    winner: int | None
    shots: int
    fouls: tuple[int, int]
    visits: tuple[int, int]
    whites_potted: tuple[int, int]
    colour_attempts: tuple[int, int]
    colour_pots: tuple[int, int]
    time_fouls: tuple[int, int]
    errors: tuple[int, int]
    wall_time: float
    frame: int = -1
    extensions: tuple[int, int] = (0, 0)
    decisions: tuple[int, int] = (0, 0)
    thinking: tuple[float, float] = (0.0, 0.0)

    def to_json(self) -> str:
        """One JSONL line (without the newline)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str | bytes) -> FrameRecord:
        """Inverse of :meth:`to_json`.

        :raises ValueError: the line is not a frame record (the message says which field).
        """
        record = from_json_object(cls, json.loads(line))
        if record.winner not in (None, 0, 1):
            raise ValueError(f"field 'winner': a seat is 0 or 1 (got {record.winner})")
        return record


class FramePlayer(Protocol):
    """Plays one frame between two registry agents; ``agent_a`` sits in seat 0 and breaks."""

    def __call__(
        self, agent_a: str, agent_b: str, seed: int, options: MatchOptions
    ) -> FrameRecord: ...


@dataclass(frozen=True)
class FrameTask:
    """One scheduled frame: its index, the agents in seat order and its seed."""

    frame: int
    agents: tuple[str, str]
    seed: int


def frame_seed(tournament_seed: int, frame: int) -> int:
    """The seed of frame ``frame``: a function of the tournament seed and the index only."""
    state = np.random.SeedSequence(tournament_seed, spawn_key=(frame,)).generate_state(2)
    return int(state[0]) << 31 | int(state[1]) >> 1


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's results (not how it is run)."""

    agents: tuple[str, ...]
    frames: int
    seed: int = 0
    options: MatchOptions = field(default_factory=MatchOptions)

    def __post_init__(self) -> None:
        if len(self.agents) < 2 or len(set(self.agents)) != len(self.agents):
            raise TournamentError("give at least two different agents", "--agents")
        if not _is_int(self.frames) or self.frames < 2 or self.frames % 2:
            raise TournamentError(
                f"must be even and >= 2 (got {self.frames!r}): "
                "each agent of a pair breaks in half of its frames",
                "--frames",
            )

    def schedule(self) -> list[FrameTask]:
        """All frames: pairs in order, seats alternating within a pair."""
        tasks = []
        for pair, (a, b) in enumerate(itertools.combinations(self.agents, 2)):
            for k in range(self.frames):
                index = pair * self.frames + k
                seats = (a, b) if k % 2 == 0 else (b, a)
                tasks.append(FrameTask(index, seats, frame_seed(self.seed, index)))
        return tasks

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as stored in ``tournament.json``."""
        return json.loads(json.dumps(asdict(self)))

    @classmethod
    def from_dict(cls, data: object) -> TournamentConfig:
        """Inverse of :meth:`to_dict`.

        :raises ValueError: ``data`` is not a tournament config (the message says why).
        """
        try:
            return from_json_object(cls, data)
        except TournamentError as error:
            raise ValueError(str(error)) from None


class StoredConfig(Protocol):
    """A tournament's settings as stored in ``tournament.json`` (any format)."""

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Any) -> StoredConfig: ...


class FrameLog:
    """``DIR/tournament.json`` (the config) and ``DIR/frames.jsonl`` (one line per frame)."""

    def __init__(self, out: Path) -> None:
        self.config_path = out / CONFIG_FILE
        self.frames_path = out / FRAMES_FILE

    def claim(self, config: StoredConfig) -> None:
        """Store the config in a new directory, or check that it matches the stored one."""
        wanted = config.to_dict()
        if not self.config_path.exists():
            if self.frames_path.exists():
                raise TournamentError(
                    f"{self.frames_path} exists without {self.config_path}", "--out"
                )
            self.config_path.parent.mkdir(parents=True, exist_ok=True)
            _write_durably(self.config_path, json.dumps(wanted, indent=2) + "\n")
            return
        stored = self.stored_config()
        formats = (stored.get("format", ROUND_ROBIN), wanted.get("format", ROUND_ROBIN))
        if formats[0] != formats[1]:
            raise TournamentError(
                f"{self.config_path.parent} holds a {formats[0]} tournament, not a {formats[1]}; "
                "choose another --out",
                "--out",
            )
        try:
            stored = type(config).from_dict(stored).to_dict()
        except ValueError as error:
            raise self.not_a_config(error) from None
        if stored != wanted:
            diffs = ", ".join(
                f"{key}: stored {stored.get(key)!r}, asked {wanted.get(key)!r}"
                for key in {**stored, **wanted}
                if stored.get(key) != wanted.get(key)
            )
            raise TournamentError(
                f"{self.config_path.parent} holds a different tournament ({diffs}); "
                "resume with the same settings or choose another --out",
                "--out",
            )

    def stored_config(self) -> dict[str, Any]:
        """The stored config in its JSON form (a round robin's, or another format's).

        :raises TournamentError: there is none, or the file is not a JSON object.
        """
        if not self.config_path.exists():
            raise TournamentError(
                f"no tournament in {self.config_path.parent} ({CONFIG_FILE})", "--out"
            )
        try:
            stored = json.loads(self.config_path.read_bytes())
        except (OSError, ValueError) as error:
            raise self.not_a_config(error) from None
        if not isinstance(stored, dict):
            raise self.not_a_config(ValueError("not a JSON object"))
        return stored

    def not_a_config(self, error: Exception) -> TournamentError:
        """The error for a ``tournament.json`` that holds no tournament of the wanted kind."""
        return TournamentError(
            f"{self.config_path} is not a kinghill tournament config ({error}); "
            "choose another --out",
            "--out",
        )

    def load_config(self) -> TournamentConfig:
        """The stored round-robin config.

        :raises TournamentError: there is none, or the file is not a round robin's config.
        """
        try:
            return TournamentConfig.from_dict(self.stored_config())
        except ValueError as error:
            raise self.not_a_config(error) from None

    def read(self, schedule: Sequence[FrameTask]) -> dict[int, FrameRecord]:
        """Frames played so far, checked against the schedule."""
        records: dict[int, FrameRecord] = {}
        for number, record in enumerate(self.records(), start=1):
            task = schedule[record.frame] if 0 <= record.frame < len(schedule) else None
            if task is None or (task.agents, task.seed) != (record.agents, record.seed):
                raise TournamentError(
                    f"{self.frames_path}:{number}: frame not in this schedule", "--out"
                )
            records[record.frame] = record
        return records

    def records(self) -> list[FrameRecord]:
        """Frames played so far, in file order, each index once; the caller checks them
        against its schedule. A last line cut short by an interruption is dropped (the file is
        truncated to the last whole line); the frame is simply played again.
        """
        if not self.frames_path.exists():
            return []
        if not self.frames_path.is_file():
            raise TournamentError(f"{self.frames_path} is not a file", "--out")
        data = self.frames_path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) != len(data):
            with open(self.frames_path, "r+b") as handle:
                handle.truncate(len(whole))
        records: list[FrameRecord] = []
        seen: set[int] = set()
        for number, line in enumerate(whole.splitlines(), start=1):
            where = f"{self.frames_path}:{number}"
            try:
                record = FrameRecord.from_json(line)
            except ValueError as error:  # UnicodeDecodeError and JSONDecodeError included
                raise TournamentError(f"{where}: bad record ({error})", "--out") from None
            if record.frame in seen:
                raise TournamentError(f"{where}: frame {record.frame} twice", "--out")
            seen.add(record.frame)
            records.append(record)
        return records

    def append(self, record: FrameRecord) -> None:
        """Add one frame durably (flush and fsync), so an interruption loses nothing."""
        with open(self.frames_path, "a", encoding="utf-8") as handle:
            handle.write(record.to_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def rewrite(self, records: Iterable[FrameRecord]) -> None:
        """Replace the log atomically by ``records`` (used to store frames in index order)."""
        _write_durably(self.frames_path, "".join(r.to_json() + "\n" for r in records))


def _is_int(value: object) -> bool:
    """An int that is not a bool (``True`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _write_durably(path: Path, text: str) -> None:
    """Write a whole file atomically: a synced temporary file renamed over the target."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def play_task(player: FramePlayer, options: MatchOptions, task: FrameTask) -> FrameRecord:
    """Play one scheduled frame and stamp it with its index (runs in any worker)."""
    record = player(task.agents[0], task.agents[1], task.seed, options)
    if (record.agents, record.seed) != (task.agents, task.seed):
        raise TournamentError(f"frame player returned {record.agents}/{record.seed} for {task}")
    return replace(record, frame=task.frame)


FrameRunner = Callable[
    [Callable[[FrameTask], FrameRecord], Sequence[FrameTask]], Iterator[FrameRecord]
]
"""Plays tasks with a picklable play function and yields records as frames end."""


def in_process(
    play: Callable[[FrameTask], FrameRecord], tasks: Sequence[FrameTask]
) -> Iterator[FrameRecord]:
    """Play the frames one after the other in this process."""
    return map(play, tasks)


def in_worker_processes(jobs: int) -> FrameRunner:
    """Play the frames in ``jobs`` spawned worker processes, yielding in completion order.

    If the run stops early (an error, Ctrl-C, or SIGTERM under ``kinghill tournament``), the
    workers are terminated at once: frames already yielded are kept, the frames in play are
    lost and played again on resume. Workers ignore SIGINT (a terminal's Ctrl-C reaches them
    too): the parent stops them. A parent killed outright (SIGKILL) cannot: then each worker
    notices that its parent is gone and exits within a second (:mod:`.lifeline`).
    """

    def run(
        play: Callable[[FrameTask], FrameRecord], tasks: Sequence[FrameTask]
    ) -> Iterator[FrameRecord]:
        context = multiprocessing.get_context("spawn")
        from_main_thread = threading.current_thread() is threading.main_thread()
        pool = concurrent.futures.ProcessPoolExecutor(
            jobs,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), from_main_thread),
        )
        try:
            pending = [pool.submit(play, task) for task in tasks]
            for done in concurrent.futures.as_completed(pending):
                yield done.result()
        except BaseException:  # also GeneratorExit: the consumer stopped early
            # no public way to stop an executor's workers before Python 3.14 (terminate_workers)
            for worker in list(pool._processes.values()):
                worker.terminate()
            raise
        finally:
            pool.shutdown(cancel_futures=True)

    return run


def _start_worker(parent: int, pdeathsig: bool) -> None:
    """A worker's first act: ignore Ctrl-C (the parent stops it) and die with the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    follow_parent(parent, pdeathsig)


def run_tournament(
    config: TournamentConfig,
    out: Path,
    player: FramePlayer,
    runner: FrameRunner = in_process,
    progress: bool | None = None,
) -> list[FrameRecord]:
    """Play the frames of ``config`` not yet in ``out`` and return all frames in index order.

    :param progress: show a progress bar; ``None`` shows it on a terminal only.
    """
    log = FrameLog(out)
    log.claim(config)
    schedule = config.schedule()
    played = log.read(schedule)
    missing = [task for task in schedule if task.frame not in played]
    play = functools.partial(play_task, player, config.options)
    with tqdm(
        total=len(schedule),
        initial=len(played),
        unit="frame",
        disable=None if progress is None else not progress,
    ) as bar:
        for record in runner(play, missing) if missing else ():
            log.append(record)
            played[record.frame] = record
            bar.update()
    records = [played[task.frame] for task in schedule]
    log.rewrite(records)
    return records


def load_frame_player(spec: str = DEFAULT_PLAYER) -> FramePlayer:
    """Import the frame player named ``module:function`` (lazily, so tests need no env)."""
    module_name, _, name = MOVED_PLAYERS.get(spec, spec).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise TournamentError(
            f"cannot import the frame player module {module_name!r}: {error}", "--player"
        ) from None
    player = getattr(module, name or "play_frame", None)
    if not callable(player):
        raise TournamentError(f"{module_name} has no frame player {name!r}", "--player")
    return player


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill tournament``."""
    parser = subparsers.add_parser(
        "tournament",
        help="round robin or knockout of agents: ratings or a bracket, a Markdown/JSON report "
        "and a plot",
        description=(
            "Round robin: every pair of agents plays N frames, seats swapped (each agent breaks "
            "in half of them), execution noise on. Knockout (--format knockout): single "
            "elimination in races to N frames, the clock of section 12 tightening from round 3. "
            "Frames are appended to DIR/frames.jsonl as they end; run the same command again to "
            "resume where it stopped. The report goes to DIR/report.md, DIR/report.json and "
            "DIR/ratings.png (a knockout: DIR/bracket.png)."
        ),
        epilog="examples: kinghill tournament --agents random heuristic --frames 20 --out runs/t1; "
        "kinghill tournament --format knockout --agents search heuristic random --race 3 "
        "--out runs/k1",
    )
    parser.add_argument(
        "--agents",
        nargs="+",
        default=["random", "heuristic", "search"],
        metavar="AGENT",
        help="agent specs: random, heuristic, search, search:N, search:Xs, search-value:PATH, "
        "policy:PATH, rllib:PATH, mypkg.module:MyAgent?key=value,key=value (a class or factory on "
        "PYTHONPATH), or an entry point of kinghill.agents (default: random heuristic search)",
    )
    parser.add_argument(
        "--frames",
        type=positive_int,
        metavar="N",
        help=f"round robin: frames per pair, even (default: {DEFAULT_FRAMES})",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=0,
        help="tournament seed; frame seeds follow from it (default: 0)",
    )
    parser.add_argument(
        "--out",
        type=output_dir,
        default="runs/tournament",
        metavar="DIR",
        help="results and report; an existing DIR is resumed (default: runs/tournament)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=os.cpu_count() or 1,
        metavar="K",
        help="local worker processes; 1 plays in this process (default: all CPUs)",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the frames on Ray instead: a cluster address, 'auto', or 'local' to start "
        "one here (needs pip install 'kinghill[ray]')",
    )
    MatchOptions.add_arguments(parser)
    parser.add_argument(
        "--rating-samples",
        type=positive_int,
        default=1000,
        metavar="B",
        help="posterior draws for the rating intervals (default: 1000)",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="keep every decision of every frame (position, action, shot as played, events, "
        "ruling, time) in DIR/records/, for kinghill replay and kinghill export",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="play nothing: re-render the report from DIR/frames.jsonl",
    )
    parser.add_argument(
        "--player",
        default=DEFAULT_PLAYER,
        metavar="MODULE:FUNCTION",
        help=f"the function that plays one frame (default: {DEFAULT_PLAYER})",
    )
    from kinghill.experiments.cli import knockout as knockout_cli  # it builds on this module

    knockout_cli.add_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run (or resume) the tournament, a round robin or a knockout, then print its summary."""
    from kinghill.experiments.cli import knockout as knockout_cli

    try:
        if knockout_cli.is_knockout(args) and args.report_only:
            summary = knockout_cli.report_only(args.out)
        elif knockout_cli.is_knockout(args):
            if args.record:
                raise TournamentError("keeps the records of round robins only", "--record")
            config = knockout_cli.config_from_args(args)
            player, runner = _start(args)
            with _sigterm_as_interrupt():
                summary = knockout_cli.play(config, args.out, player, runner)
        else:
            summary = _round_robin(args)
    except BrokenProcessPool as error:
        raise CommandError(
            f"a worker process died ({error}); the frames played are in "
            f"{args.out / FRAMES_FILE}, run the same command again to resume"
        ) from None
    except KeyboardInterrupt:
        print(
            f"kinghill tournament: interrupted; the frames played are in {args.out / FRAMES_FILE}"
            ", run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    print(summary)
    return 0


def _round_robin(args: argparse.Namespace) -> str:
    """Run (or resume) the round robin through :func:`~kinghill.experiments.evaluate`, or with
    ``--report-only`` only redraw its report; return the summary to print."""
    from kinghill.agents import AgentSpecError
    from kinghill.experiments.tournaments.report import summary, write_report
    from kinghill.experiments.tournaments.round_robin import evaluate

    if args.report_only:
        log = FrameLog(args.out)
        config = log.load_config()
        records = sorted(log.read(config.schedule()).values(), key=lambda r: r.frame)
        return write_report(args.out, config, records, samples=args.rating_samples)
    custom = (
        None
        if MOVED_PLAYERS.get(args.player, args.player) == DEFAULT_PLAYER
        else load_frame_player(args.player)
    )
    if args.record and custom is not None:
        raise TournamentError("needs the built-in frame player (leave out --player)", "--record")
    try:
        with _sigterm_as_interrupt():
            report = evaluate(
                args.agents,
                DEFAULT_FRAMES if args.frames is None else args.frames,
                jobs=args.jobs,
                seed=args.seed,
                noise=args.noise,
                round=args.round,
                max_shots=args.max_shots,
                decision_cap=args.decision_cap,
                out=args.out,
                record=args.record,
                rating_samples=args.rating_samples,
                progress=None,
                runner=_runner(args),
                player=custom,
            )
    except AgentSpecError as error:
        raise TournamentError(str(error), "--agents") from None
    return summary(report.markdown(), args.out)


def _start(args: argparse.Namespace) -> tuple[FramePlayer, FrameRunner]:
    """The frame player and runner the command line asks for, its agents checked first."""
    player = load_frame_player(args.player)
    if (
        MOVED_PLAYERS.get(args.player, args.player) == DEFAULT_PLAYER
    ):  # its agents come from the registry
        _check_agents(args.agents)
    return player, _runner(args)


def _check_agents(specs: Iterable[str]) -> None:
    """Fail before any frame is played when an agent spec cannot be built (each is built once
    here, so a missing module, bad arguments or a missing checkpoint are reported at once)."""
    from kinghill.agents import AgentSpecError, make_agent

    for spec in specs:
        try:
            make_agent(spec, 0)
        except (AgentSpecError, OSError) as error:
            raise TournamentError(str(error), "--agents") from None


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM stops the run as Ctrl-C does (workers stopped, the log kept)."""

    def interrupt(signum: int, frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _runner(args: argparse.Namespace) -> FrameRunner:
    """The frame runner the command line asks for."""
    if args.ray:
        from kinghill.experiments.tournaments.ray_runner import on_ray

        return on_ray(args.ray)
    return in_process if args.jobs <= 1 else in_worker_processes(args.jobs)
