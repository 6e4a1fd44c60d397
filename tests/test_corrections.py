"""Corrections keep their frames through a move: rows name the frame relative to the
data folder, and ``dicetable export`` / ``import`` carry the ``corrections/`` folder,
so a labelled set of misreads gathered on one Pi can be studied on another."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from dicetable.device.commands.backup import export_backup, import_backup
from dicetable.device.corrections import CorrectionLog
from dicetable.device.store import Store


def _log_one(data_dir: Path) -> dict:
    store = Store.in_dir(data_dir)
    try:
        log = CorrectionLog(store, data_dir / "corrections")
        log.log(
            read={"value": 1},
            corrected={"value": 4, "face": "4", "color": ""},
            frame=np.full((8, 8, 3), 200, np.uint8),
            game="dice-tray",
        )
        return log.entries()[0]
    finally:
        store.close()


def _stored_frames(data_dir: Path) -> list[str]:
    db = sqlite3.connect(data_dir / "dicetable.sqlite3")
    try:
        return [row[0] for row in db.execute("SELECT frame FROM corrections")]
    finally:
        db.close()


def test_a_row_names_its_frame_relative_to_the_data_folder(tmp_path: Path) -> None:
    entry = _log_one(tmp_path)
    (stored,) = _stored_frames(tmp_path)
    assert not Path(stored).is_absolute() and stored.startswith("corrections/")
    assert Path(entry["frame"]) == tmp_path / stored
    assert Path(entry["frame"]).read_bytes()[:4] == b"\x89PNG"


def test_an_old_absolute_row_is_still_found_here_and_after_a_move(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        log = CorrectionLog(store, tmp_path / "corrections")
        (tmp_path / "corrections").mkdir()
        (tmp_path / "corrections" / "old.png").write_bytes(b"\x89PNG")
        here = str(tmp_path / "corrections" / "old.png")
        assert log.frame_path(here) == here
        moved = "/home/pi/.local/share/dicetable/corrections/old.png"
        assert log.frame_path(moved) == here
        assert log.frame_path("") == ""
    finally:
        store.close()


def test_export_and_import_carry_the_corrected_frames(tmp_path: Path) -> None:
    old_pi, new_pi = tmp_path / "old", tmp_path / "new"
    _log_one(old_pi)
    backup = tmp_path / "table.zip"
    export_backup(old_pi, backup)
    import_backup(new_pi, backup)
    store = Store.in_dir(new_pi)
    try:
        (entry,) = CorrectionLog(store, new_pi / "corrections").entries()
    finally:
        store.close()
    assert Path(entry["frame"]).parent == new_pi / "corrections"
    assert Path(entry["frame"]).read_bytes()[:4] == b"\x89PNG"
    import_backup(new_pi, backup)  # a second import doubles neither rows nor frames
    assert len(list((new_pi / "corrections").iterdir())) == 1
    assert len(_stored_frames(new_pi)) == 1
