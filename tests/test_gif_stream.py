"""Issue 10, item 8: GIF replays are written picture by picture as they are drawn, so memory stays
flat whatever the frame's length; the streamed GIF reads back picture for picture."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest
from PIL import Image

from kinghill.envs.drawing.gif_stream import GifStream

PALETTE = Image.fromarray(
    np.array([[[0, 0, 0], [255, 0, 0], [0, 128, 0], [255, 255, 255]]], dtype=np.uint8)
).quantize(4)


def picture(spot: tuple[int, int] | None, colour: tuple[int, int, int] = (255, 0, 0)) -> np.ndarray:
    """A 40x30 green picture with a 3x3 coloured spot at ``spot`` (x, y)."""
    pixels = np.zeros((30, 40, 3), dtype=np.uint8)
    pixels[:, :] = (0, 128, 0)
    if spot is not None:
        x, y = spot
        pixels[y : y + 3, x : x + 3] = colour
    return pixels


def test_pictures_read_back_exactly_with_their_delays(tmp_path: Path) -> None:
    pictures = [picture((2, 2)), picture((20, 10)), picture((20, 10)), picture(None)]
    pictures.append(picture((30, 25), (255, 255, 255)))
    delays = [4, 4, 6, 10, 50]
    path = tmp_path / "spot.gif"
    with GifStream(path, PALETTE) as gif:
        for p, d in zip(pictures, delays, strict=True):
            gif.add(p, d)
    assert gif.pictures == 4  # the repeated picture only lengthened the one before
    frames = iio.imread(path, index=None)
    expected = [pictures[0], pictures[1], pictures[3], pictures[4]]
    assert frames.shape == (4, 30, 40, 3)
    for got, want in zip(frames, expected, strict=True):
        np.testing.assert_array_equal(
            got, want
        )  # each frame whole, though only its change is stored
    assert [iio.immeta(path, index=i)["duration"] for i in range(4)] == [40, 100, 100, 500]
    assert iio.immeta(path, index=0)["loop"] == 0


def test_an_unfinished_gif_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.gif"
    with pytest.raises(RuntimeError), GifStream(path, PALETTE) as gif:
        gif.add(picture((1, 1)), 5)
        raise RuntimeError("the replay was cut short")
    assert not path.exists()
    empty = GifStream(tmp_path / "empty.gif", PALETTE)
    with pytest.raises(ValueError, match="no picture was added"):
        empty.close()
    assert not (tmp_path / "empty.gif").exists()


def test_bad_pictures_are_refused(tmp_path: Path) -> None:
    with GifStream(tmp_path / "x.gif", PALETTE) as gif:
        gif.add(picture((1, 1)), 5)
        with pytest.raises(ValueError, match="delay_cs is 0-65535"):
            gif.add(picture((2, 2)), -1)
        with pytest.raises(ValueError, match=r"picture \(20, 40\) is not \(30, 40\)"):
            gif.add(picture((2, 2))[:20], 5)
    with pytest.raises(ValueError, match="'P' image"):
        GifStream(tmp_path / "y.gif", Image.new("RGB", (1, 1)))


PEAK = """
import resource, sys
import numpy as np
from kinghill.envs.drawing.replay_video import ReplayShot, write_replay
from kinghill.physics import TableSpec, TableState, Trajectory

spec = TableSpec()
times = np.arange(0.0, 2.0 + 1e-9, 1 / 25)
positions = np.repeat(TableState.rack(spec).positions[None], len(times), axis=0)
positions[:, 1, 0] = 0.4 + 1.0 * times
on_table = np.ones((len(times), 8), dtype=bool)
shot = ReplayShot(Trajectory(times, positions, on_table), "ruling", ("scoreboard",))
write_replay(sys.argv[2], [shot], spec, fps=25, width_px=400)  # imports, fonts, palette
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
write_replay(sys.argv[2], [shot] * int(sys.argv[1]), spec, fps=25, width_px=400)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
"""


def peak_growth_mb(shots: int, path: Path) -> float:
    """How much a fresh process's peak memory grows while it writes a replay of ``shots``."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(shots), str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return float(done.stdout)


def test_memory_stays_flat_however_long_the_replay(tmp_path: Path) -> None:
    """12 shots (about 660 pictures at 400 px) peak no higher than 1 shot: when every picture
    was held until the end, the long replay's peak grew by about 120 MB."""
    short = peak_growth_mb(1, tmp_path / "short.gif")
    long = peak_growth_mb(12, tmp_path / "long.gif")
    assert long - short < 15, (short, long)
    assert len(iio.imread(tmp_path / "long.gif", index=None)) > 600
