"""Dice corrected by touch, kept with the frame they were misread from.

Each correction is a row in the store's ``corrections`` table (what was read, where,
how sure; what the player said it is) and, when there was a frame, a PNG beside the
database. Together they are a labelled set of the reader's real mistakes on this
table, this light and these dice: the material to tune or re-teach the reader.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dicetable.device.store import Store


class CorrectionLog:
    def __init__(self, store: Store, folder: Path) -> None:
        self.store = store
        self.folder = folder

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
            frame_path = str(path)
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
                "frame": r[6],
            }
            for r in rows
        ]
