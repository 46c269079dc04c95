"""What a training run leaves besides its model: :class:`TrainResult` and ``DIR/run.json``, the
run's configuration and result, written when it starts and updated when it ends (a resumed run
updates the same file and counts its sessions)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kinghill.experiments.training.config import TrainingError

RUN_FILE = "run.json"
GOES_ON = ("out", "iterations", "jobs", "ray")
"""Settings an iterated run (``train-expert``, ``train-position``) may change when it resumes:
how far it goes and where it plays; any other would mix two runs' data in one folder."""


@dataclass(frozen=True)
class TrainResult:
    """Where a run left its outputs, how long it took, and where its curve ended.

    ``episodes`` counts the frames the run learnt from (for expert iteration its self-play
    frames; the decisions they held are ``extra["decisions"]``).
    """

    model: Path
    curve: Path
    wall_seconds: float
    episodes: int
    final_reward_mean: float
    final_win_rate: float
    extra: dict[str, Any] = field(default_factory=dict)


def jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it: paths as text, tuples as lists, NaN and inf as null."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def read_run(out: Path) -> dict[str, Any]:
    """``DIR/run.json`` as a dict; empty when the run has none. An expert-iteration run's file
    written before its result counted ``decisions`` (its ``episodes`` were the decisions) is
    read in today's terms: ``episodes`` its self-play frames, ``extra["decisions"]``."""
    path = Path(out) / RUN_FILE
    record = json.loads(path.read_text()) if path.exists() else {}
    config, result = record.get("config"), record.get("result")
    if isinstance(config, dict) and "expert_budget" in config and isinstance(result, dict):
        extra = result.setdefault("extra", {})
        if "decisions" not in extra and "episodes" in result:
            extra["decisions"] = result["episodes"]
            result["episodes"] = config["frames"] * config["iterations"]
    return record


def session_of(out: Path) -> int:
    """How many sessions of the run in ``out`` have started: 0 for a new run."""
    return int(read_run(out).get("sessions", 1 if (Path(out) / RUN_FILE).exists() else 0))


def write_run(out: Path, config: Any, result: TrainResult | None, sessions: int) -> None:
    """Write ``DIR/run.json``: the configuration, the result (None while the run goes on) and
    how many sessions the run has had (1, plus one per resume)."""
    record = {
        "config": jsonable(asdict(config)),
        "result": None if result is None else jsonable(asdict(result)),
        "sessions": sessions,
    }
    (Path(out) / RUN_FILE).write_text(json.dumps(record, indent=2) + "\n")


def check_same_run(out: Path, config: Any) -> None:
    """Refuse to go on with the run in ``out`` under settings other than its own (but those of
    :data:`GOES_ON`): its shards, nets and evaluations were made with them.

    :raises TrainingError: naming the first setting that differs.
    """
    stored = read_run(out).get("config")
    if not isinstance(stored, dict):
        return
    for name, value in jsonable(asdict(config)).items():
        if name not in GOES_ON and name in stored and stored[name] != value:
            raise TrainingError(
                f"{out} holds a run made with {name} {stored[name]!r}, not {value!r}: the same "
                "command resumes it (with more --iterations to go on); a new run needs another "
                "folder",
                name,
            )


def begin_run(out: Path, config: Any) -> int:
    """Start a session of the iterated run in ``out`` (made if missing) under ``config``:
    refused unless it is the folder's own run (:func:`check_same_run`); ``run.json`` written
    with no result yet; returns the session's number (1 for a new run)."""
    out.mkdir(parents=True, exist_ok=True)
    check_same_run(out, config)
    sessions = session_of(out) + 1
    write_run(out, config, None, sessions)
    return sessions
