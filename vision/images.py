"""Photos from files, refused before decoding when they could not be a camera's frame.

A 1 MB PNG can decode to 20000x20000 pixels (1.2 GB); the camera never sends more
than 12 MP, so the pixel count is read from the file's header first and a file over
``MAX_PIXELS`` is refused without decoding. A picture too small to hold a die is
refused too, with the same one-line error naming the file.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

MAX_PIXELS = 16_000_000  # a 12 MP camera frame with a third to spare
MIN_SIDE = 16  # pixels: smaller pictures cannot show a die's face
MAX_FILE_BYTES = 64 * 1024 * 1024


class ImageError(ValueError):
    """A file that is not a photo the reader takes; the message names the file."""


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, JPEG or BMP header, or None for other formats."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def decode_image(data: bytes, where: str) -> np.ndarray:
    """A BGR frame from encoded bytes, or ImageError saying what is wrong with it."""
    size = header_size(data)
    if size is not None:
        width, height = size
        if width * height > MAX_PIXELS:
            raise ImageError(
                f"{where}: {width}x{height} is over the {MAX_PIXELS // 1_000_000} MP"
                " this reader takes"
            )
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageError(f"{where}: not an image that can be read")
    height, width = frame.shape[:2]
    if width * height > MAX_PIXELS:
        raise ImageError(f"{where}: {width}x{height} is over the limit of this reader")
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"{where}: {width}x{height} is too small to show a die")
    return frame


def load_image(path: Path) -> np.ndarray:
    """A photo from ``path`` (see ``decode_image``); a missing or huge file is an
    ImageError too."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ImageError(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"{path}: over {MAX_FILE_BYTES // (1024 * 1024)} MB, not a photo")
    return decode_image(data, str(path))
