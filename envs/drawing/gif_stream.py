"""A looping GIF written one picture at a time, so a replay's memory is that of one picture
whatever its length (Pillow's ``save(save_all=True)`` holds every frame until the end).

Every picture is mapped onto one fixed palette, stored once as the GIF's global colour table;
each is encoded with Pillow's GIF helpers (``getheader``/``getdata``) as soon as the next one
shows whether it changed (only the changed rectangle is stored, as Pillow's own writer does).
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import numpy as np
from PIL import GifImagePlugin, Image

MAX_DELAY_CS = 0xFFFF
"""The longest a GIF picture can be shown, in hundredths of a second."""


class GifStream:
    """Write a looping GIF picture by picture: ``add(picture, delay_cs)``, then ``close()``.

    Use it as a context manager; a stream closed after an error removes its unfinished file.

    :param path: the file to write.
    :param palette: a ``P`` image whose palette every picture is mapped onto (no dithering).
    """

    def __init__(self, path: str | Path, palette: Image.Image) -> None:
        if palette.mode != "P":
            raise ValueError(f"GifStream: the palette is a 'P' image, got mode {palette.mode!r}")
        self.path = Path(path)
        self.palette = palette
        self.pictures = 0
        """Pictures stored so far (a repeated picture is not stored again)."""
        self._previous: np.ndarray | None = None
        self._pending: tuple[Image.Image, tuple[int, int], int] | None = None
        self._file: BinaryIO | None = open(self.path, "wb")  # noqa: SIM115 (closed in close())

    def add(self, picture: np.ndarray, delay_cs: int) -> None:
        """Append an ``(H, W, 3)`` uint8 picture shown for ``delay_cs`` hundredths of a second.

        Only the rectangle that changed since the previous picture is stored (drawn over it),
        and a picture equal to the previous one only lengthens its delay, as Pillow does.
        """
        if self._file is None:
            raise ValueError("GifStream.add: the stream is closed")
        if not (isinstance(delay_cs, int) and 0 <= delay_cs <= MAX_DELAY_CS):
            raise ValueError(f"GifStream.add: delay_cs is 0-{MAX_DELAY_CS}, got {delay_cs!r}")
        image = Image.fromarray(picture).quantize(palette=self.palette, dither=Image.Dither.NONE)
        indices = np.asarray(image)
        previous = self._previous
        if previous is None:
            header, _ = GifImagePlugin.getheader(image, info={"loop": 0, "optimize": False})
            self._file.write(b"".join(header))
            box = (0, 0, image.width, image.height)
        elif indices.shape != previous.shape:
            raise ValueError(f"GifStream.add: picture {indices.shape} is not {previous.shape}")
        else:
            assert self._pending is not None
            changed = indices != previous
            rows, columns = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            if not rows.size and self._pending[2] + delay_cs <= MAX_DELAY_CS:
                self._pending = (*self._pending[:2], self._pending[2] + delay_cs)
                return
            if rows.size:
                box = (int(columns[0]), int(rows[0]), int(columns[-1]) + 1, int(rows[-1]) + 1)
            else:  # the same picture, but its delay would overflow: a one-pixel frame
                box = (0, 0, 1, 1)
            self._write_pending()
        self._pending = (image.crop(box), box[:2], delay_cs)
        self._previous = indices
        self.pictures += 1

    def _write_pending(self) -> None:
        """Encode the picture held back (its delay may still have grown)."""
        assert self._file is not None and self._pending is not None
        image, offset, delay_cs = self._pending
        data = GifImagePlugin.getdata(image, offset, duration=10 * delay_cs, disposal=1)
        self._file.write(b"".join(data))
        self._pending = None

    def close(self) -> None:
        """End the GIF (its trailer) and close the file; a GIF with no picture is an error."""
        if self._file is None:
            return
        try:
            if self._pending is None:
                raise ValueError("GifStream.close: no picture was added")
            self._write_pending()
            self._file.write(b";")
        except BaseException:
            self.abandon()
            raise
        self._file.close()
        self._file = None

    def abandon(self) -> None:
        """Close the file and remove it (a replay cut short leaves no broken GIF behind)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> GifStream:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()
