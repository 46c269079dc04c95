"""``ladder``: rate candidates against the frozen zoo on a fixed scale; ``build_zoo``: play the
zoo's own matrix. ``kinghill ladder`` runs them.

Every pair's frames are played once into a frame log of its own under the cache folder
(``CACHE/<condition>/<a>--<b>/``, a two-agent round robin of
:mod:`kinghill.experiments.tournaments`): a second run of the same candidate finds them there
and plays nothing, and an interrupted run resumes. The zoo's matrix is committed beside the zoo
(:mod:`.matrix`); a candidate's rows are computed from its frame logs and rated against the
zoo's ratings held fixed (:mod:`.rating`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from pathlib import Path

from kinghill.agents import AgentSpecError, make_agent
from kinghill.envs.game.noise import NoiseScale, check_noise_scale
from kinghill.experiments.ladder.errors import LadderError
from kinghill.experiments.ladder.matrix import Matrix
from kinghill.experiments.ladder.standings import LadderResult, standings
from kinghill.experiments.ladder.tally import PairRow, tally_pair
from kinghill.experiments.ladder.zoo import ZOO_FILE, Zoo, condition_name, load_zoo, matrix_path
from kinghill.experiments.tournaments.frames import FramePlayer
from kinghill.experiments.tournaments.round_robin import Lineup, SpecMaker, run_tournament
from kinghill.experiments.tournaments.runners import FrameRunner, in_process

DEFAULT_CACHE = Path.home() / ".cache" / "kinghill" / "ladder"
"""Where the pairs' frame logs are kept unless told otherwise."""


def pair_folder(cache: Path, noise_scale: NoiseScale, a: str, b: str) -> Path:
    """The frame log of the pair ``a``, ``b`` at ``noise_scale`` under ``cache``."""
    return cache / condition_name(noise_scale) / f"{_file_name(a)}--{_file_name(b)}"


def _file_name(id: str) -> str:
    """``id`` as a file name: kept when it is one, else its safe characters and a checksum."""
    safe = re.sub(r"[^A-Za-z0-9@._-]+", "_", id)[:60]
    return safe if safe == id else f"{safe}-{zlib.crc32(id.encode()):08x}"


def play_pairs(
    zoo: Zoo,
    pairs: Sequence[tuple[str, str]],
    specs: dict[str, str],
    noise_scale: NoiseScale,
    cache: Path,
    runner: FrameRunner = in_process,
    player: FramePlayer | None = None,
    progress: bool | None = None,
) -> list[PairRow]:
    """The rows of ``pairs`` (ids, each built from ``specs``), their frames played into the
    cache where they are not there yet (:func:`run_tournament`), by ``player`` (default: the
    agents built from their specs)."""
    if player is None:
        player = Lineup({id: SpecMaker(spec) for id, spec in specs.items()})
    rows = []
    for a, b in pairs:
        config = zoo.pair(a, b, noise_scale)
        folder = pair_folder(cache, noise_scale, a, b)
        records = run_tournament(config, folder, player, runner, progress)
        rows.append(tally_pair((a, b), records))
    return rows


def build_zoo(
    zoo_path: str | Path = ZOO_FILE,
    noise_scale: NoiseScale = 1.0,
    cache: str | Path = DEFAULT_CACHE,
    runner: FrameRunner = in_process,
    player: FramePlayer | None = None,
    progress: bool | None = None,
) -> Matrix:
    """Play every pair of the zoo at ``path`` at ``noise_scale`` (pairs already in the cache or
    in the committed matrix are not played again) and write its matrix beside the zoo file
    (:func:`matrix_path`).

    :raises LadderError: a zoo agent that cannot be built (checked before any frame).
    """
    noise_scale = _condition(noise_scale)
    zoo = load_zoo(zoo_path)
    ids = zoo.ids
    pairs = [(ids[i], ids[j]) for i in range(len(ids)) for j in range(i + 1, len(ids))]
    specs = {agent.id: agent.spec for agent in zoo.agents}
    if player is None:
        for id, spec in specs.items():
            _built(spec, f"zoo agent {id}", "zoo")
    kept = _committed_rows(zoo, zoo_path, noise_scale)
    missing = [pair for pair in pairs if frozenset(pair) not in kept]
    played = play_pairs(zoo, missing, specs, noise_scale, Path(cache), runner, player, progress)
    found = kept | {frozenset(row.agents): row for row in played}
    frames = zoo.frames_for(noise_scale)
    matrix = Matrix(noise_scale, frames, zoo.seed, tuple(found[frozenset(p)] for p in pairs))
    matrix.save(matrix_path(zoo_path, noise_scale))
    return matrix


def _committed_rows(
    zoo: Zoo, zoo_path: str | Path, noise_scale: NoiseScale
) -> dict[frozenset[str], PairRow]:
    """The rows of the zoo's committed matrix at ``noise_scale`` between agents still in the
    zoo, when it was played on the zoo's frames at that condition and its seed (none
    otherwise): an agent added to the zoo plays only its own pairs. A zoo id names one spec
    for good (a changed agent gets a new id), and a pair's frames are fixed by its seeds."""
    path = matrix_path(zoo_path, noise_scale)
    if not path.exists():
        return {}
    matrix = Matrix.load(path)
    if (matrix.frames, matrix.seed) != (zoo.frames_for(noise_scale), zoo.seed):
        return {}
    ids = set(zoo.ids)
    return {frozenset(row.agents): row for row in matrix.rows if set(row.agents) <= ids}


def load_matrix(zoo: Zoo, zoo_path: str | Path, noise_scale: NoiseScale) -> Matrix:
    """The zoo's committed matrix at ``noise_scale``, checked against the zoo.

    :raises LadderError: there is none (build it with :func:`build_zoo`), or it was played with
        other frames or another seed than the zoo's, or its pairs are not the zoo's (an agent
        added to the zoo or taken out since).
    """
    path = matrix_path(zoo_path, noise_scale)
    if not path.exists():
        raise LadderError(
            f"the zoo has no matrix at {condition_name(noise_scale)} noise ({path}); build it "
            "first (build_zoo, kinghill ladder --build-zoo)",
            "noise_scale",
        )
    matrix = Matrix.load(path)
    if (matrix.frames, matrix.seed) != (zoo.frames_for(noise_scale), zoo.seed):
        raise LadderError(f"{path} was played with other frames or another seed", "zoo")
    played = {frozenset(row.agents) for row in matrix.rows}
    ids = zoo.ids
    wanted = {frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :]}
    if played != wanted:
        odd = sorted(" v ".join(sorted(pair)) for pair in played ^ wanted)
        raise LadderError(
            f"{path} does not hold the zoo's pairs ({', '.join(odd[:3])}"
            f"{', ...' if len(odd) > 3 else ''}): rebuild it (build_zoo, kinghill ladder "
            "--build-zoo; the pairs already played are kept in the cache)",
            "zoo",
        )
    return matrix


def ladder(
    candidates: Sequence[str],
    zoo_path: str | Path = ZOO_FILE,
    noise_scale: NoiseScale = 1.0,
    cache: str | Path = DEFAULT_CACHE,
    runner: FrameRunner = in_process,
    player: FramePlayer | None = None,
    samples: int = 1000,
    progress: bool | None = None,
) -> LadderResult:
    """Rate the agent specs ``candidates`` against the zoo at ``noise_scale``: each plays every
    zoo agent on the zoo's frames (once: the frames are cached), and is rated on the fixed
    scale against the zoo's committed matrix (see the module docstring).

    :param runner: how frames are run (:mod:`kinghill.experiments.tournaments.runners`).
    :param player: a frame player other than the agents built from their specs (tests).
    :param samples: posterior draws for the rating intervals.
    :raises LadderError: a candidate that cannot be built or is a zoo id, or a zoo without a
        matrix at ``noise_scale``.
    """
    noise_scale = _condition(noise_scale)
    zoo = load_zoo(zoo_path)
    matrix = load_matrix(zoo, zoo_path, noise_scale)
    for candidate in candidates:
        if candidate in zoo.ids:
            raise LadderError(f"{candidate!r} is in the zoo already", "candidates")
        if player is None:
            _built(candidate, f"candidate {candidate}", "candidates")
    if len(set(candidates)) != len(candidates):
        raise LadderError("a candidate is given twice", "candidates")
    specs = {agent.id: agent.spec for agent in zoo.agents} | {c: c for c in candidates}
    pairs = [(id, candidate) for candidate in candidates for id in zoo.ids]
    rows = play_pairs(zoo, pairs, specs, noise_scale, Path(cache), runner, player, progress)
    return standings(zoo, matrix, rows, candidates, samples)


def _built(spec: str, what: str, parameter: str) -> None:
    """Build the agent ``spec`` once, so that one that cannot be built fails before any frame
    (a missing checkpoint, a missing extra) rather than halfway through the matrix."""
    try:
        make_agent(spec, 0)
    except (AgentSpecError, ImportError, OSError) as error:
        raise LadderError(f"{what}: {error}", parameter) from None


def _condition(noise_scale: NoiseScale) -> NoiseScale:
    try:
        return check_noise_scale(noise_scale)
    except ValueError:
        raise LadderError(
            f"must be a number >= 0 or 'variable' (got {noise_scale!r})", "noise_scale"
        ) from None
