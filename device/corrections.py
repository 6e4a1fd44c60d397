"""Dice corrected by touch, kept with the frame they were misread from.

Each correction is a row in the store's ``corrections`` table (what was read, where,
how sure; what the player said it is) and, when there was a frame, a PNG beside the
database. Together they are a labelled set of the reader's real mistakes on this
table, this light and these dice: the material to tune or re-teach the reader.

A row names its frame relative to the data folder (``corrections/<time>.png``), so
rows and frames stay together through ``dicetable export`` / ``import`` onto a Pi
with another data folder. Rows written before that hold absolute paths: they are
still found, at that path or, moved, by their file name in ``corrections/``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dicetable.device.store import Store

FOLDER = "corrections"  # beside the database, in the data folder


class CorrectionLog:
    def __init__(self, store: Store, folder: Path) -> None:
        self.store = store
        self.folder = folder  # <data_dir>/corrections: rows name frames from its parent

    def log(
        self,
        *,
        read: Mapping[str, Any],
        corrected: Mapping[str, Any],
        frame: Any = None,
        game: str = "",
        saved_id: int | None = None,
    ) -> int:
        """Save one correction; returns its row id. The frame (BGR, as the camera gave
        it) is written as ``<folder>/<time>-<n>.png``."""
        now = time.time()
        frame_path = ""
        if frame is not None:
            import cv2

            self.folder.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
            path = self.folder / f"{stamp}-{int(now * 1000) % 1000:03d}.png"
            if not cv2.imwrite(str(path), frame):
                raise OSError(f"cannot write the corrected frame to {path}")
            frame_path = path.relative_to(self.folder.parent).as_posix()
        with self.store.transaction() as db:
            cursor = db.execute(
                "INSERT INTO corrections (at, game, game_id, read, corrected, frame)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    now,
                    game,
                    saved_id,
                    json.dumps(dict(read), sort_keys=True),
                    json.dumps(dict(corrected), sort_keys=True),
                    frame_path,
                ),
            )
        return int(cursor.lastrowid or 0)

    def entries(self) -> list[dict[str, Any]]:
        rows = self.store.db.execute(
            "SELECT id, at, game, game_id, read, corrected, frame FROM corrections ORDER BY id"
        ).fetchall()
        return [
            {
                "id": r[0],
                "at": r[1],
                "game": r[2],
                "game_id": r[3],
                "read": json.loads(r[4]),
                "corrected": json.loads(r[5]),
                "frame": self.frame_path(r[6]),
            }
            for r in rows
        ]

    def frame_path(self, stored: str) -> str:
        """Where the frame of a row is on this table ("" when it has none)."""
        if not stored:
            return ""
        path = Path(stored)
        if not path.is_absolute():
            return str(self.folder.parent / path)
        if path.exists():
            return stored
        return str(self.folder / path.name)  # an old absolute row, moved with its frame
