"""The zoo: the frozen agents every candidate is rated against, each under a versioned id
(``heuristic@1``), with the frames a pair plays and the seed they are dealt from.

Every pair plays the same frames: frame ``k`` of a pair is dealt from ``frame_seed(seed, k)``
with the pair's agents in the seats in turn (the first agent of the pair breaks the even frames),
which is the schedule of a two-agent round robin
(:meth:`~kinghill.experiments.tournaments.config.TournamentConfig.schedule`). A pair's frames
are therefore fixed by the zoo alone, and a candidate meets every zoo agent on the same deals.
An agent's id never changes meaning: a stronger version of it is a new id (``search@2``).

The shipped zoo (``zoo.json``) and its matrices (``matrix-1x.json``, ...) are package data of
this package, found through :mod:`importlib.resources`, so that ``kinghill ladder AGENT`` works
from any folder of an installed wheel.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from kinghill.envs.game.noise import VARIABLE, NoiseScale, check_noise_scale
from kinghill.experiments.ladder.errors import LadderError
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.json_fields import from_json_object
from kinghill.experiments.tournaments.options import DEFAULT_DECISION_CAP, FrameOptions

ZOO_FILE = Path(str(resources.files(__name__) / "zoo.json"))
"""The shipped zoo: package data beside this module, in a checkout and in an installed wheel."""
AGENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*@[0-9]+")
"""A zoo id: a name and a version, ``search-64@1``."""


@dataclass(frozen=True)
class ZooAgent:
    """One agent of the zoo: its versioned id, the agent spec that builds it, and a note."""

    id: str
    spec: str
    note: str = ""


@dataclass(frozen=True)
class Zoo:
    """The zoo's agents and how each pair plays (see the module docstring).

    :param agents: the agents, in the order the tables list them.
    :param frames: frames a pair (even: each agent breaks in half of them).
    :param frames_at: frames a pair at a condition that plays another number than ``frames``,
        as ``[condition name, frames]`` (``[["variable", 40]]``): a condition added later can be
        rated on fewer frames without replaying the others.
    :param seed: the seed every pair's frames are dealt from.
    :param anchor: the id whose rating is ``anchor_rating`` on the ladder's scale: an agent
        with results on both sides, so that the others can be rated against it
        (:mod:`~kinghill.experiments.ladder.rating`).
    :param anchor_rating: the anchor's rating (Elo points).
    :param conditions: the noise scales the zoo is rated at (its matrices).
    :raises LadderError: an id that is malformed or repeated, or an anchor not in the zoo.
    """

    agents: tuple[ZooAgent, ...]
    frames: int = 200
    seed: int = 0
    anchor: str = "random@1"
    anchor_rating: float = 0.0
    max_shots: int = 200
    decision_cap: float = DEFAULT_DECISION_CAP
    conditions: tuple[NoiseScale, ...] = (1.0, 5.0)
    frames_at: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        ids = self.ids
        for id in ids:
            if not AGENT_ID.fullmatch(id):
                raise LadderError(f"a zoo id is NAME@VERSION, got {id!r}", "zoo")
        if len(set(ids)) != len(ids):
            raise LadderError("an id is listed twice", "zoo")
        if self.anchor not in ids:
            raise LadderError(f"the anchor {self.anchor!r} is not in the zoo", "zoo")
        names = {condition_name(scale) for scale in self.conditions}
        for name, frames in ((None, self.frames), *self.frames_at):
            if frames < 2 or frames % 2:
                raise LadderError(f"frames a pair must be even and >= 2, got {frames}", "zoo")
            if name is not None and name not in names:
                raise LadderError(f"frames_at names {name!r}, not a condition of the zoo", "zoo")
        if not math.isfinite(self.anchor_rating):
            raise LadderError(f"anchor_rating must be finite, got {self.anchor_rating}", "zoo")
        for scale in self.conditions:
            try:
                check_noise_scale(scale)
            except ValueError as error:
                raise LadderError(str(error), "zoo") from None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(agent.id for agent in self.agents)

    def frames_for(self, noise_scale: NoiseScale) -> int:
        """Frames a pair at the condition ``noise_scale`` (``frames_at``, else ``frames``)."""
        return dict(self.frames_at).get(condition_name(noise_scale), self.frames)

    def options(self, noise_scale: NoiseScale) -> FrameOptions:
        """How the zoo's frames are played at the noise condition ``noise_scale``."""
        return FrameOptions(
            noise=True,
            noise_scale=noise_scale,
            max_shots=self.max_shots,
            decision_cap=self.decision_cap,
        )

    def pair(self, a: str, b: str, noise_scale: NoiseScale) -> TournamentConfig:
        """The frames of the pair ``a``, ``b`` (``a`` breaks the even ones): a two-agent round
        robin with the zoo's frames at that condition and its seed."""
        frames = self.frames_for(noise_scale)
        return TournamentConfig((a, b), frames, self.seed, self.options(noise_scale))


def load_zoo(path: str | Path = ZOO_FILE) -> Zoo:
    """The zoo defined in the JSON file ``path`` (the fields of :class:`Zoo`).

    :raises LadderError: the file is missing or holds no zoo (the message says why).
    """
    path = Path(path)
    try:
        return from_json_object(Zoo, json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:
        raise LadderError(f"{path}: not a zoo ({error})", "zoo") from None


def condition_name(noise_scale: NoiseScale) -> str:
    """A noise condition's short name, as in file names: ``1x``, ``5x``, ``0.5x``, ``variable``."""
    return VARIABLE if noise_scale == VARIABLE else f"{float(noise_scale):g}x"


def matrix_path(zoo_path: str | Path, noise_scale: NoiseScale) -> Path:
    """Where the zoo's matrix at ``noise_scale`` is kept: beside the zoo file, named after it
    (:func:`beside`), so that two zoos in one folder never share a matrix."""
    return beside(zoo_path, f"matrix-{condition_name(noise_scale)}.json")


def beside(zoo_path: str | Path, name: str) -> Path:
    """A file of the zoo ``zoo_path`` beside it: ``name`` for a zoo file called ``zoo.json``
    (the shipped zoo's layout, and every zoo's before zoos were told apart), else
    ``STEM.name`` (``two.json``'s ``two.matrix-1x.json``)."""
    path = Path(zoo_path)
    return path.with_name(name if path.name == "zoo.json" else f"{path.stem}.{name}")
