"""The frame log of a tournament folder: ``DIR/tournament.json`` (the config) and
``DIR/frames.jsonl`` (one line per frame, appended durably as each frame ends), and the one loop
that plays the frames a tournament still needs into it.

The log survives interruptions at any moment: a line cut off mid-write is dropped (the frame is
played again), frames may be logged in any order (with several workers a later frame can end
before an earlier one that is then lost), and each format decides from the frames logged which
ones it still needs, so that a resumed run plays exactly the frames an uninterrupted one would.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm

from kinghill.experiments.tournaments.config import ROUND_ROBIN, TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frames import FrameOutcome, FrameTask
from kinghill.experiments.tournaments.runners import FrameRunner

CONFIG_FILE = "tournament.json"
FRAMES_FILE = "frames.jsonl"


class StoredConfig(Protocol):
    """A tournament's settings as stored in ``tournament.json`` (any format)."""

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: Any) -> StoredConfig: ...


def _differences(
    stored: Mapping[str, Any], wanted: Mapping[str, Any], prefix: str = ""
) -> Iterable[tuple[str, Any, Any]]:
    """The keys where two configs differ, with both values; nested objects by their keys
    (``options.handicap``), so that a message names only what changed."""
    for key in {**stored, **wanted}:
        was, asked = stored.get(key), wanted.get(key)
        if isinstance(was, Mapping) and isinstance(asked, Mapping):
            yield from _differences(was, asked, f"{prefix}{key}.")
        elif was != asked:
            yield f"{prefix}{key}", was, asked


class FrameLog:
    """``DIR/tournament.json`` (the config) and ``DIR/frames.jsonl`` (one line per frame)."""

    def __init__(self, out: Path) -> None:
        self.config_path = out / CONFIG_FILE
        self.frames_path = out / FRAMES_FILE

    def claim(self, config: StoredConfig) -> None:
        """Store the config in a new directory, or check that it matches the stored one (or
        raises a stored round robin's frames, :meth:`continued`)."""
        wanted = config.to_dict()
        if not self.config_path.exists():
            if self.frames_path.exists():
                raise TournamentError(
                    f"{self.frames_path} exists without {self.config_path}", "out"
                )
            self.config_path.parent.mkdir(parents=True, exist_ok=True)
            write_durably(self.config_path, json.dumps(wanted, indent=2) + "\n")
            return
        stored = self.stored_config()
        formats = (stored.get("format", ROUND_ROBIN), wanted.get("format", ROUND_ROBIN))
        if formats[0] != formats[1]:
            raise TournamentError(
                f"{self.config_path.parent} holds a {formats[0]} tournament, not a {formats[1]}; "
                "choose another folder",
                "out",
            )
        try:
            stored_config = type(config).from_dict(stored)
        except ValueError as error:
            raise self.not_a_config(error) from None
        stored = stored_config.to_dict()
        changed = _changed_contents(stored, wanted)
        if changed:
            why = (
                "other files or code of"
                if "contents" in stored
                else "a kinghill that did not record the files or code of"
            )
            raise TournamentError(
                f"{self.config_path.parent} holds frames played with {why} "
                f"{', '.join(changed)} (a retrained model, an edited plug-in): they may be "
                "stale; choose another folder",
                "out",
            )
        if (
            stored != wanted
            and isinstance(config, TournamentConfig)
            and isinstance(stored_config, TournamentConfig)
            and config.raised_from(stored_config) == config
        ):  # a round robin's frames raised: stored so, its frames played kept
            write_durably(self.config_path, json.dumps(wanted, indent=2) + "\n")
            return
        if stored != wanted:
            differences = _differences(stored, wanted)
            shown = [d for d in differences if d[0] != "earlier"] or differences  # the raises
            diffs = ", ".join(
                f"{key}: stored {was!r}, asked {asked!r}" for key, was, asked in shown
            )
            raise TournamentError(
                f"{self.config_path.parent} holds a different tournament ({diffs}); "
                "resume with the same settings or choose another folder",
                "out",
            )

    def continued(self, config: TournamentConfig) -> TournamentConfig:
        """The round robin to play in this folder for ``config``: ``config`` in a new folder;
        the stored one when they are the same; the stored one with its frames raised (stored
        by :meth:`claim`, the frames played kept) when ``config`` asks for more frames a pair
        and differs in nothing else. Anything else is left to :meth:`claim` to refuse.

        :raises TournamentError: ``config`` asks for fewer frames a pair than are stored.
        """
        if not self.config_path.exists():
            return config
        try:
            stored = self.load_config()
        except TournamentError:
            return config  # another format, or no config: claim says which
        continued = config.raised_from(stored)
        if continued is None:
            if replace(config, frames=stored.frames, earlier=stored.earlier) == stored:
                raise TournamentError(
                    f"{self.config_path.parent} holds {stored.frames} frames a pair; frames may "
                    f"be raised to add frames, not lowered (got {config.frames})",
                    "frames",
                )
            return config
        return continued

    def stored_config(self) -> dict[str, Any]:
        """The stored config in its JSON form (a round robin's, or another format's).

        :raises TournamentError: there is none, or the file is not a JSON object.
        """
        if not self.config_path.exists():
            raise TournamentError(
                f"no tournament in {self.config_path.parent} ({CONFIG_FILE})", "out"
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
            "choose another folder",
            "out",
        )

    def load_config(self) -> TournamentConfig:
        """The stored round-robin config.

        :raises TournamentError: there is none, or the file is not a round robin's config.
        """
        try:
            return TournamentConfig.from_dict(self.stored_config())
        except ValueError as error:
            raise self.not_a_config(error) from None

    def read(self, schedule: Sequence[FrameTask]) -> dict[int, FrameOutcome]:
        """Frames played so far, checked against the schedule."""
        records: dict[int, FrameOutcome] = {}
        for number, record in enumerate(self.records(), start=1):
            task = schedule[record.frame] if 0 <= record.frame < len(schedule) else None
            if task is None or (task.agents, task.seed) != (record.agents, record.seed):
                raise TournamentError(
                    f"{self.frames_path}:{number}: frame not in this schedule", "out"
                )
            records[record.frame] = record
        return records

    def records(self) -> list[FrameOutcome]:
        """Frames played so far, in file order, each index once; the caller checks them
        against its schedule. A last line cut short by an interruption is dropped (the file is
        truncated to the last whole line); the frame is simply played again.
        """
        if not self.frames_path.exists():
            return []
        if not self.frames_path.is_file():
            raise TournamentError(f"{self.frames_path} is not a file", "out")
        data = self.frames_path.read_bytes()
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) != len(data):
            with open(self.frames_path, "r+b") as handle:
                handle.truncate(len(whole))
        records: list[FrameOutcome] = []
        seen: set[int] = set()
        for number, line in enumerate(whole.splitlines(), start=1):
            where = f"{self.frames_path}:{number}"
            try:
                record = FrameOutcome.from_json(line)
            except ValueError as error:  # UnicodeDecodeError and JSONDecodeError included
                raise TournamentError(f"{where}: bad record ({error})", "out") from None
            if record.frame in seen:
                raise TournamentError(f"{where}: frame {record.frame} twice", "out")
            seen.add(record.frame)
            records.append(record)
        return records

    def append(self, record: FrameOutcome) -> None:
        """Add one frame durably (flush and fsync), so an interruption loses nothing."""
        with open(self.frames_path, "a", encoding="utf-8") as handle:
            handle.write(record.to_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def rewrite(self, records: Iterable[FrameOutcome]) -> None:
        """Replace the log atomically by ``records`` (used to store frames in index order)."""
        write_durably(self.frames_path, "".join(r.to_json() + "\n" for r in records))


def _changed_contents(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """The agents whose content key (:mod:`.agent_content`) differs between two configs of the
    same agents; none when the agents differ (another tournament: the general message)."""
    if stored.get("agents") != wanted.get("agents"):
        return []
    agents = wanted.get("agents") or []
    empty = [""] * len(agents)
    old, new = stored.get("contents", empty), wanted.get("contents", empty)
    return [agent for agent, a, b in zip(agents, old, new, strict=False) if a != b]


def write_durably(path: Path, text: str) -> None:
    """Write a whole file atomically: a synced temporary file renamed over the target."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def play_into(
    log: FrameLog,
    play: Callable[[FrameTask], FrameOutcome],
    needed: Callable[[Mapping[int, FrameOutcome]], Sequence[FrameTask]],
    runner: FrameRunner,
    progress: bool | None = None,
    describe: Callable[[Sequence[FrameTask]], str] | None = None,
) -> dict[int, FrameOutcome]:
    """Play into ``log`` every frame still ``needed``, wave after wave, and return all frames
    logged, by index; the log is then rewritten in index order.

    :param needed: the frames to play next given the frames logged so far (checked by it
        against the tournament); empty when the tournament is complete. It is asked again after
        every wave, so a format whose later frames depend on earlier results (a knockout) plays
        round by round; a frame it names is one an uninterrupted run plays too.
    :param progress: show a progress bar; ``None`` shows it on a terminal only.
    :param describe: the progress bar's label for a wave.
    """
    records = {record.frame: record for record in log.records()}
    pending = needed(records)
    with tqdm(
        total=len(records) + len(pending),
        initial=len(records),
        unit="frame",
        disable=None if progress is None else not progress,
    ) as bar:
        while pending:
            bar.total = len(records) + len(pending)
            if describe is not None:
                bar.set_description(describe(pending))
            for record in runner(play, pending):
                log.append(record)
                records[record.frame] = record
                bar.update()
            pending = needed(records)
    log.rewrite(sorted(records.values(), key=lambda record: record.frame))
    return records
