"""``ladder``: rate candidates against the frozen zoo on a fixed scale; ``build_zoo``: play the
zoo's own matrix. ``kinghill ladder`` runs them.

Every pair's frames are played once into a frame log of its own under the cache folder
(``CACHE/<condition>/<a>--<b>/<key>/``, a two-agent round robin of
:mod:`kinghill.experiments.tournaments`, :func:`pair_folder`): a second run of the same
candidate finds them there and plays nothing, and an interrupted run resumes; a candidate whose
model file or plug-in code changed gets another key, and its frames are played again. The
zoo's matrix is committed beside the zoo (:mod:`.matrix`), with its agents' content keys; a
candidate's rows are computed from its frame logs and rated against the zoo's ratings held
fixed (:mod:`.rating`).
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from kinghill.agents import AgentSpecError, make_agent
from kinghill.envs.game.noise import NoiseScale, check_noise_scale
from kinghill.experiments.ladder.errors import LadderError
from kinghill.experiments.ladder.matrix import Matrix
from kinghill.experiments.ladder.standings import LadderResult, standings
from kinghill.experiments.ladder.tally import PairRow, tally_pair
from kinghill.experiments.ladder.zoo import ZOO_FILE, Zoo, condition_name, load_zoo, matrix_path
from kinghill.experiments.tournaments.agent_content import content_key
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.frames import FramePlayer
from kinghill.experiments.tournaments.round_robin import Lineup, SpecMaker, run_tournament
from kinghill.experiments.tournaments.runners import FrameRunner, in_process

DEFAULT_CACHE = Path.home() / ".cache" / "kinghill" / "ladder"
"""Where the pairs' frame logs are kept unless told otherwise."""


def pair_folder(cache: Path, config: TournamentConfig) -> Path:
    """The frame log of the pair ``config`` under ``cache``: ``<condition>/<a>--<b>/<key>``,
    ``key`` a digest of the whole config (frames, seed, options and the agents' content keys,
    :mod:`~kinghill.experiments.tournaments.agent_content`), so that a pair played with another
    model file or plug-in code, or by another zoo, is another folder: a stale entry is played
    again, never reused."""
    a, b = config.agents
    text = json.dumps(config.to_dict(), sort_keys=True)
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    condition = condition_name(config.options.noise_scale)
    return cache / condition / f"{_file_name(a)}--{_file_name(b)}" / key


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
    makers = {id: SpecMaker(spec) for id, spec in specs.items()}
    if player is None:
        player = Lineup(makers)
    contents = {id: maker.content() for id, maker in makers.items()}
    rows = []
    for k, (a, b) in enumerate(pairs):
        config = replace(zoo.pair(a, b, noise_scale), contents=(contents[a], contents[b]))
        label = f"pair {k + 1}/{len(pairs)}: {a} v {b}"
        folder = pair_folder(cache, config)
        records = run_tournament(config, folder, player, runner, progress, label)
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
    rows = tuple(found[frozenset(p)] for p in pairs)
    matrix = Matrix(noise_scale, frames, zoo.seed, rows, _contents(zoo))
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
    ids = set(zoo.ids) - set(_changed(zoo, matrix))  # a changed agent's rows are played again
    return {frozenset(row.agents): row for row in matrix.rows if set(row.agents) <= ids}


def _contents(zoo: Zoo) -> tuple[tuple[str, str], ...]:
    """The zoo agents' content keys (:mod:`~kinghill.experiments.tournaments.agent_content`),
    those that have one, as a matrix records them."""
    keys = ((agent.id, content_key(agent.spec)) for agent in zoo.agents)
    return tuple((id, key) for id, key in keys if key)


def _changed(zoo: Zoo, matrix: Matrix) -> list[str]:
    """The zoo agents whose content key is not the one ``matrix`` was played with (none for a
    matrix that recorded no keys: written before they were)."""
    if not matrix.contents:
        return []
    recorded, now = dict(matrix.contents), dict(_contents(zoo))
    return [id for id in zoo.ids if recorded.get(id, "") != now.get(id, "")]


def load_matrix(zoo: Zoo, zoo_path: str | Path, noise_scale: NoiseScale) -> Matrix:
    """The zoo's committed matrix at ``noise_scale``, checked against the zoo.

    :raises LadderError: there is none (build it with :func:`build_zoo`), or it was played with
        other frames or another seed than the zoo's, or with other files or code of a zoo agent
        (its content key), or its pairs are not the zoo's (an agent added to the zoo or taken
        out since).
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
    changed = _changed(zoo, matrix)
    if changed:
        raise LadderError(
            f"{path} was played with other files or code of {', '.join(changed)} than the zoo "
            "names now: its ratings would be stale; rebuild it (build_zoo, kinghill ladder "
            "--build-zoo: their pairs are played again)",
            "zoo",
        )
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
    scale against the zoo's committed matrix (see the module docstring). A zoo agent that
    cannot be built here (one that needs an extra not installed, ``rllib-selfplay@1`` without
    the ``rllib`` extra) is not played, and said so (``LadderResult.skipped``); its place on
    the scale is the matrix's all the same.

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
    skipped: dict[str, str] = {}
    if player is None:  # a zoo agent that cannot be built here (an extra not installed)
        for agent in zoo.agents:
            try:
                _built(agent.spec, f"zoo agent {agent.id}", "zoo")
            except LadderError as error:
                skipped[agent.id] = error.message
    specs = {agent.id: agent.spec for agent in zoo.agents} | {c: c for c in candidates}
    opponents = [id for id in zoo.ids if id not in skipped]
    pairs = [(id, candidate) for candidate in candidates for id in opponents]
    rows = play_pairs(zoo, pairs, specs, noise_scale, Path(cache), runner, player, progress)
    result = standings(zoo, matrix, rows, candidates, samples)
    return replace(result, skipped=tuple(skipped.items()))


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
