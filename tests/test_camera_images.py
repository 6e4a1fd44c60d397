"""The folder camera takes only pictures a camera could send (issue 18, item 3): a
picture too small to show a die, or one whose header says more pixels than the limit
(a 20000x20000 PNG of a few hundred kB), is skipped with one warning naming it, and
is never decoded."""

from __future__ import annotations

import logging
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetable.hardware.camera import CameraError, FolderSource
from dicetable.vision.images import MAX_PIXELS

SIDE = 20_000  # 400 MP: 1.2 GB once decoded to BGR


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png(path: Path) -> Path:
    """A real, valid grey PNG of SIDE x SIDE, compressed to a few hundred kB."""
    packer = zlib.compressobj(9)
    row = b"\0" * (SIDE + 1)  # filter byte, then the row
    data = b"".join(packer.compress(row) for _ in range(SIDE)) + packer.flush()
    header = struct.pack(">IIBBBBB", SIDE, SIDE, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )
    return path


def test_pictures_no_camera_sends_are_skipped_and_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    cv2.imwrite(str(tmp_path / "a.png"), np.full((30, 40, 3), 10, np.uint8))
    cv2.imwrite(str(tmp_path / "b.png"), np.full((1, 1, 3), 99, np.uint8))
    cv2.imwrite(str(tmp_path / "c.png"), np.full((2, 2, 3), 99, np.uint8))
    assert huge_png(tmp_path / "d.png").stat().st_size < 2_000_000
    assert SIDE * SIDE > MAX_PIXELS
    caplog.set_level(logging.WARNING)
    with FolderSource(tmp_path, 10, 0, hold=0.1, realtime=False) as source:
        frames = [source.read() for _ in range(4)]
        assert source.current == tmp_path / "a.png"
    assert all(frame.shape == (30, 40, 3) for frame in frames)
    said = {name: [r.getMessage() for r in caplog.records if name in r.getMessage()]
            for name in ("b.png", "c.png", "d.png")}  # fmt: skip
    assert all(len(lines) == 1 for lines in said.values()), said  # once each
    assert "too small" in said["b.png"][0] and "too small" in said["c.png"][0]
    assert f"{SIDE}x{SIDE}" in said["d.png"][0]


def test_a_folder_of_only_such_pictures_is_a_camera_error(tmp_path: Path):
    cv2.imwrite(str(tmp_path / "tiny.png"), np.full((1, 1, 3), 9, np.uint8))
    with FolderSource(tmp_path, 10, 0, realtime=False) as source, pytest.raises(CameraError):
        source.read()
