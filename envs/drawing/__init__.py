"""Drawing: top-down pictures of the table with their marks and text lines, a pygame window and
where an env's pictures go in its render mode (:mod:`.render`), replays of shots and frames as GIF
or MP4 (:mod:`.replay_video`) written a picture at a time (:mod:`.gif_stream`).

Pillow draws; pygame (the ``render`` extra) is imported only for a window. No Gymnasium.
"""

from kinghill.envs.drawing.gif_stream import GifStream
from kinghill.envs.drawing.render import (
    MIN_WIDTH_PX,
    HumanWindow,
    RenderOutput,
    ShotMarks,
    TableRenderer,
    import_pygame,
    scoreboard,
    shot_line,
)
from kinghill.envs.drawing.replay_video import (
    FORMATS,
    MAX_GIF_FPS,
    ReplayShot,
    check_replay_path,
    resample,
    write_replay,
)

__all__ = [
    "FORMATS",
    "MAX_GIF_FPS",
    "MIN_WIDTH_PX",
    "GifStream",
    "HumanWindow",
    "RenderOutput",
    "ReplayShot",
    "ShotMarks",
    "TableRenderer",
    "check_replay_path",
    "import_pygame",
    "resample",
    "scoreboard",
    "shot_line",
    "write_replay",
]
