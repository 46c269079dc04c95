"""Replays: a shot, or a whole frame of shots, written as a GIF or MP4 from physics trajectories.

Each shot's :class:`~kinghill.physics.Trajectory` is resampled to the replay's frame rate, then the
final position is held for a moment with the shot's ruling shown under the overlay lines.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
from gymnasium.error import DependencyNotInstalled
from PIL import Image

from kinghill.envs.drawing.gif_stream import GifStream
from kinghill.envs.drawing.render import ShotMarks, TableRenderer
from kinghill.envs.rules import Call
from kinghill.physics.names import BREAK_BALL, N_BALLS, Pocket
from kinghill.physics.result import ShotResult, Trajectory
from kinghill.physics.spec import TableSpec
from kinghill.physics.state import TableState

FORMATS = (".gif", ".mp4")
MAX_GIF_FPS = 50.0
"""The most pictures a second a GIF can show evenly (its delays are whole 1/100 s)."""


@dataclass(frozen=True)
class ReplayShot:
    """One shot of a replay: how the balls moved, the ruling, and the overlay lines to show.

    :param trajectory: the physics trajectory of the shot.
    :param caption: the ruling, shown while the final position is held.
    :param overlay: lines shown throughout the shot (e.g. the scoreboard before it).
    :param marks: the shot's cue ball and call, drawn on every picture of it.
    """

    trajectory: Trajectory
    caption: str
    overlay: tuple[str, ...] = ()
    marks: ShotMarks | None = None

    def __post_init__(self) -> None:
        times = np.asarray(self.trajectory.times)
        count = times.shape[0] if times.ndim == 1 else 0
        if count == 0 or np.any(np.diff(times) < 0):
            raise ValueError("ReplayShot: trajectory.times must be a non-empty, sorted (T,) array")
        if np.shape(self.trajectory.positions) != (count, N_BALLS, 2) or np.shape(
            self.trajectory.on_table
        ) != (count, N_BALLS):
            raise ValueError(
                f"ReplayShot: trajectory positions must be ({count}, 8, 2) and on_table "
                f"({count}, 8) for {count} times"
            )
        object.__setattr__(self, "overlay", tuple(self.overlay))

    @classmethod
    def from_result(
        cls,
        result: ShotResult,
        caption: str,
        overlay: Sequence[str] = (),
        marks: ShotMarks | None = None,
    ) -> ReplayShot:
        """The replay of a simulated shot; it must have been simulated with ``trajectory=True``."""
        if result.trajectory is None:
            raise ValueError("ReplayShot.from_result: simulate the shot with trajectory=True")
        return cls(result.trajectory, caption, tuple(overlay), marks)


def resample(trajectory: Trajectory, fps: float) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(F, 8, 2)`` and on-table flags ``(F, 8)`` every ``1/fps`` s from the first time.

    Positions are interpolated linearly; a ball pocketed between two samples stays at its last
    position until the later sample, when it leaves the table.
    """
    times = np.asarray(trajectory.times, dtype=np.float64)
    positions = np.asarray(trajectory.positions, dtype=np.float64)
    on_table = np.asarray(trajectory.on_table, dtype=bool)
    count = math.floor((times[-1] - times[0]) * fps + 1e-9) + 1
    wanted = times[0] + np.arange(count) / fps
    before = np.clip(np.searchsorted(times, wanted, side="right") - 1, 0, len(times) - 1)
    after = np.minimum(before + 1, len(times) - 1)
    span = times[after] - times[before]
    fraction = np.divide(wanted - times[before], span, out=np.zeros_like(wanted), where=span > 0)[
        :, None, None
    ]
    moving = positions[before] + fraction * (positions[after] - positions[before])
    both = (on_table[before] & on_table[after])[:, :, None]
    return np.where(both, moving, positions[before]), on_table[before]


def replay_frames(
    shots: Sequence[ReplayShot],
    renderer: TableRenderer,
    fps: float = 30,
    hold_s: float = 1.0,
    speed: float = 1.0,
) -> Iterator[tuple[np.ndarray, int]]:
    """The pictures of a replay, each with how many ``1/fps`` ticks it stays on screen.

    Per shot: one picture per tick of motion (``speed`` seconds of the shot a second: 2 plays
    twice as fast, 0.5 in slow motion), then the final position with the caption for
    ``max(1, round(hold_s * fps))`` ticks.
    """
    if not speed > 0:
        raise ValueError(f"replay_frames: speed must be > 0, got {speed}")
    hold_ticks = max(1, round(hold_s * fps))
    for shot in shots:
        positions, on_table = resample(shot.trajectory, fps / speed)
        for frame_positions, frame_on_table in zip(positions, on_table, strict=True):
            yield renderer.draw(frame_positions, frame_on_table, shot.overlay, shot.marks), 1
        last = shot.trajectory
        ending = (*shot.overlay, shot.caption)
        yield renderer.draw(last.positions[-1], last.on_table[-1], ending, shot.marks), hold_ticks


def write_replay(
    path: str | Path,
    shots: Sequence[ReplayShot],
    spec: TableSpec,
    fps: float = 30,
    hold_s: float = 1.0,
    width_px: int = 800,
    speed: float = 1.0,
) -> Path:
    """Write the replay of ``shots`` to ``path``: a GIF or, with imageio-ffmpeg, an MP4.

    The format follows the suffix (GIF timing is in 1/100 s). Both are written picture by
    picture as they are drawn, so memory stays flat however long the replay.

    :param path: where to write; ``.gif`` or ``.mp4``.
    :param shots: the shots in the order played (at least one).
    :param spec: the table the shots were played on.
    :param fps: frames per second of the replay.
    :param hold_s: seconds the final position of each shot is held with its ruling shown.
    :param width_px: picture width in pixels.
    :param speed: playback speed: seconds of play shown per second of replay.
    :returns: the path written.
    """
    path = check_replay_path(path)
    suffix = path.suffix.lower()
    if not shots:
        raise ValueError("write_replay: no shots to replay")
    if not (fps > 0 and hold_s >= 0 and speed > 0):
        raise ValueError(
            f"write_replay: fps and speed must be > 0 and hold_s >= 0, got {fps}, {speed}, {hold_s}"
        )
    if suffix == ".gif" and fps > MAX_GIF_FPS:
        raise ValueError(
            f"write_replay: GIF delays are whole 1/100 s; use fps <= {MAX_GIF_FPS:g} or an .mp4"
        )
    renderer = TableRenderer(spec, width_px, max(len(shot.overlay) for shot in shots) + 1)
    frames = replay_frames(shots, renderer, fps, hold_s, speed)
    if suffix == ".gif":
        _write_gif(path, frames, fps, _gif_palette(renderer))
    else:
        _write_mp4(path, frames, fps, (renderer.shape[1], renderer.shape[0]))
    return path


def check_replay_path(path: str | Path) -> Path:
    """``path`` as a Path if a replay can be written there in its format: it ends in ``.gif``
    or ``.mp4``, and for an MP4 imageio-ffmpeg is installed.

    :raises ValueError: another suffix.
    :raises DependencyNotInstalled: an MP4 without imageio-ffmpeg.
    """
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"write_replay: {path} must end in one of {FORMATS}")
    if path.suffix.lower() == ".mp4":
        _import_ffmpeg()
    return path


def _import_ffmpeg() -> ModuleType:
    """imageio-ffmpeg, or a clear error naming the extra that installs it."""
    try:
        import imageio_ffmpeg
    except ImportError as error:
        raise DependencyNotInstalled(
            'MP4 replays need imageio-ffmpeg; run `pip install "kinghill[video]"` (or write a .gif)'
        ) from error
    return imageio_ffmpeg


def _gif_palette(renderer: TableRenderer) -> Image.Image:
    """A 256-colour palette of everything the renderer draws: the table, every ball and text."""
    rack = TableState.rack(renderer.spec)
    text = ["P0 whites 0/8 fouls 0 | to move: P1 (shot) 0123456789"] * renderer.overlay_lines
    call = Call.plain(BREAK_BALL, Pocket.REAR_LEFT)  # the marks' colours: cue ring, call line
    marks = ShotMarks.of(BREAK_BALL, call, rack.positions, rack.spec)
    return Image.fromarray(renderer.draw_state(rack, text, marks)).quantize(256)


def _write_gif(
    path: Path, frames: Iterator[tuple[np.ndarray, int]], fps: float, palette: Image.Image
) -> None:
    """Stream the pictures into a looping GIF as they are drawn, each mapped onto ``palette``
    (fast, no flicker, and memory that does not grow with the replay's length).

    GIF delays are whole 1/100 s: each delay is rounded so that the running total stays exact.
    """
    elapsed_ticks, shown_cs = 0, 0
    with GifStream(path, palette) as gif:
        for picture, ticks in frames:
            elapsed_ticks += ticks
            until_cs = round(elapsed_ticks * 100 / fps)
            gif.add(picture, until_cs - shown_cs)
            shown_cs = until_cs


def _write_mp4(
    path: Path, frames: Iterator[tuple[np.ndarray, int]], fps: float, size: tuple[int, int]
) -> None:
    """Stream the pictures to ffmpeg (H.264), repeating each for its ticks."""
    mp4 = _import_ffmpeg().write_frames(str(path), size, fps=fps, macro_block_size=2)
    mp4.send(None)
    try:
        for picture, ticks in frames:
            for _ in range(ticks):
                mp4.send(picture.tobytes())
    finally:
        mp4.close()
