"""Drawing: top-down pictures of the table and a pygame window (:mod:`.render`), replays of shots
and frames as GIF or MP4 (:mod:`.replay_video`) written a picture at a time (:mod:`.gif_stream`).

Pillow draws; pygame (the ``render`` extra) is imported only for a window. No Gymnasium.
"""

from kinghill.envs.drawing.gif_stream import GifStream
from kinghill.envs.drawing.render import HumanWindow, RenderOutput, ShotMarks, TableRenderer
from kinghill.envs.drawing.replay_video import ReplayShot, write_replay

__all__ = [
    "GifStream",
    "HumanWindow",
    "RenderOutput",
    "ReplayShot",
    "ShotMarks",
    "TableRenderer",
    "write_replay",
]
