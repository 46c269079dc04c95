"""Shot records as (observation, action, outcome) arrays for imitation learning, in one ``.npz``.

One row per decision an agent made (decisions where it gave no playable action are left out).
Observations are the environment's, flattened as ``gymnasium.wrappers.FlattenObservation``
flattens them; actions are the points of the environment's ``Dict`` action space that decode to
the action chosen, one array per key (so ``decode_action`` gives the action back). The arrays
and their meaning are the table :data:`DATASET_DOC`, which the manual's "Records and data sets"
page shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gymnasium import spaces

from kinghill.envs.rl.encoding import (
    DECISIONS,
    action_space,
    encode_action,
    encode_observation,
    observation_space,
)
from kinghill.experiments.records.codec import encode_shot
from kinghill.experiments.records.store import DecisionRecord, FrameShots, RecordError, iter_frames

DATASET_DOC = """\
| array | shape, dtype | meaning |
|---|---|---|
| `observations` | (N, 77) float32 | the mover's observation before the decision, flattened (`FlattenObservation` order of `observation_space()`) |
| `action_<key>` | (N, ...) per key | the action chosen, as the `Dict` action space's `<key>` (`cue_ball`, `place`, `cue`, `call`, `pocket`, `via`, `legs`, `play_on`, `extension`; `kinghill.envs.rl.encoding.ACTION_DOC`) |
| `chosen` | (N, 5) float64 | the shot as chosen: cue ball, phi, speed, a, b (NaN for a 10.4 choice) |
| `played` | (N, 5) float64 | the shot as played, after execution noise (NaN when none was played) |
| `decision` | (N,) int8 | 0 break, 1 shot, 2 the 10.4 choice |
| `player` | (N,) int8 | the seat that decided (0 broke) |
| `fouled` | (N,) bool | the decision was a foul (a time foul included) |
| `whites_credited` | (N,) int8 | whites credited to the mover by this decision |
| `colour_potted` | (N,) bool | the coloured ball was potted legally (the frame won) |
| `frame_won` | (N,) int8 | the frame's result for the mover: 1 won, -1 lost, 0 truncated or unfinished |
| `seconds` | (N,) float64 | the decision time (NaN when not measured) |
| `frame`, `index` | (N,) int64 | the frame's index in its tournament and the decision's index in the frame |
| `source` | (N,) str | the folder the frame's record came from, as given (frames of two folders may share an index) |
| `agent` | (N,) str | the mover's spec or name |
"""
"""The arrays of an exported data set (``np.load(path)[name]``), a Markdown table: the manual
shows it rendered (docs/guide/records.md, kept current by ``docs/hooks/api_tree.py``)."""


@dataclass(frozen=True)
class DatasetSummary:
    """What :func:`export_dataset` wrote: the file, its rows, frames, and decisions left out."""

    path: Path
    rows: int
    frames: int
    left_out: int


def export_dataset(sources: Iterable[str | Path], out: str | Path) -> DatasetSummary:
    """Write every recorded decision under the ``sources`` folders (``--record`` output) to
    ``out`` (``.npz``, see :data:`DATASET_DOC`).

    :raises RecordError: a folder without records, or a broken record.
    :raises ValueError: an ``out`` whose name does not end in ``.npz`` (numpy would write
        another name).
    """
    if Path(out).suffix != ".npz":
        raise ValueError(f"export_dataset: out must be an .npz file, got {str(out)!r}")
    sources = list(sources)
    columns: dict[str, list[object]] = {}
    frames = left_out = 0
    for source in sources:
        for shots in iter_frames(source):
            frames += 1
            for index, decision in enumerate(shots.decisions):
                if decision.action is None:
                    left_out += 1
                    continue
                row = _row(shots, index, decision) | {"source": str(source)}
                for key, value in row.items():
                    columns.setdefault(key, []).append(value)
    if frames == 0:
        raise RecordError(f"no shot records in {', '.join(map(str, sources))}")
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {key: np.asarray(values) for key, values in columns.items()}
    np.savez_compressed(path, **_typed(arrays))  # type: ignore[arg-type]
    return DatasetSummary(path, len(columns.get("frame", [])), frames, left_out)


_OBSERVATION_SPACE = observation_space()
_ACTION_KEYS = tuple(action_space().spaces)


def _row(shots: FrameShots, index: int, decision: DecisionRecord) -> dict[str, object]:
    """One decision's entries; ``decision.action`` is not None."""
    assert decision.action is not None
    view = decision.view
    point = encode_action(decision.action, view)
    ruling = decision.ruling
    nan_shot = [np.nan] * 5
    chosen = getattr(decision.action, "shot", None)
    winner = shots.result.winner if shots.result is not None else None
    return {
        "observations": spaces.flatten(_OBSERVATION_SPACE, encode_observation(view)),
        **{f"action_{key}": np.asarray(point[key]) for key in _ACTION_KEYS},
        "chosen": nan_shot if chosen is None else encode_shot(chosen),
        "played": nan_shot if decision.played is None else encode_shot(decision.played),
        "decision": DECISIONS.index(decision.decision),
        "player": decision.player,
        "fouled": ruling is not None and ruling.is_foul,
        "whites_credited": 0 if ruling is None else ruling.whites_credited,
        "colour_potted": ruling is not None and ruling.legal_colour_pot,
        "frame_won": 0 if winner is None else (1 if winner == decision.player else -1),
        "seconds": np.nan if decision.seconds is None else decision.seconds,
        "frame": shots.frame,
        "index": index,
        "agent": shots.agents[decision.player],
    }


_DTYPES = {
    "observations": np.float32,
    "chosen": np.float64,
    "played": np.float64,
    "decision": np.int8,
    "player": np.int8,
    "fouled": np.bool_,
    "whites_credited": np.int8,
    "colour_potted": np.bool_,
    "frame_won": np.int8,
    "seconds": np.float64,
    "frame": np.int64,
    "index": np.int64,
    "agent": np.str_,
    "source": np.str_,
}


def _typed(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays in their documented dtypes (the action keys keep the action space's)."""
    return {
        key: value.astype(_DTYPES[key]) if key in _DTYPES else value
        for key, value in arrays.items()
    }
