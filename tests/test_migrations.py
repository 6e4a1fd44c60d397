"""Schema versions and migrations: an upgrade of the app keeps every saved game, and a
power cut during an upgrade leaves the old version whole (issue 10, item 4)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicetable.device import store as store_module
from dicetable.device.migrations import LATEST, MIGRATIONS
from dicetable.device.session import TableSession
from dicetable.device.store import Store, StoreError
from dicetable.rules.core import Input

ROLL = json.dumps(Input.roll(2, 5).to_json(), sort_keys=True)

SAMPLES: dict[int, str] = {
    1: f"""
        INSERT INTO games (id, game, name, seed, options, created, updated)
            VALUES (1, 'dice-tray', 'Friday', 7, '{{}}', 100.0, 101.0);
        INSERT INTO inputs (game_id, seq, input, at) VALUES (1, 0, '{ROLL}', 101.0);
        INSERT INTO scores (game, mode, party, score, at, game_id)
            VALUES ('dice-tray', 'solo', 'Ana', 12, 102.0, 1);
    """,
    2: """
        INSERT INTO corrections (at, game, game_id, read, corrected, frame)
            VALUES (103.0, 'dice-tray', 1, '[2, 6]', '[2, 5]', 'corrections/1.png');
    """,
}
"""Rows a table of each schema version holds, written with that version's SQL. A new
migration needs no entry here: the rows of older versions must survive it anyway."""


def database_at(path: Path, version: int) -> Path:
    """A database as dicetable ``version`` left it, with that version's sample rows."""
    db = sqlite3.connect(path)
    for number in range(1, version + 1):
        db.executescript(
            f"BEGIN; {MIGRATIONS[number - 1]}; PRAGMA user_version = {number}; COMMIT;"
        )
    for number in range(1, version + 1):
        db.executescript(SAMPLES.get(number, ""))
    db.commit()
    db.close()
    return path


def rows(db: sqlite3.Connection) -> dict[str, set[tuple]]:
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: set(db.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables}


def test_the_sample_rows_cover_every_shipped_version():
    assert set(SAMPLES) <= set(range(1, LATEST + 1))
    assert 1 in SAMPLES


@pytest.mark.parametrize("version", range(LATEST))
def test_upgrade_from_every_older_version_keeps_the_data(tmp_path: Path, version: int):
    path = database_at(tmp_path / "dicetable.sqlite3", version)
    before = rows(sqlite3.connect(path))
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == LATEST
    after = rows(store.db)
    for table, old_rows in before.items():
        width = len(next(iter(old_rows), ()))
        kept = {row[:width] for row in after[table]}  # new columns are appended
        assert old_rows <= kept, f"rows of {table} lost upgrading from schema {version}"
    if version >= 1:  # the saved game plays on after the upgrade
        (saved,) = store.saved_games()
        assert TableSession.resume(store, saved.id).view()["history"] == [[2, 5]]
        assert store.high_scores("dice-tray")[0]["score"] == 12


def test_the_upgraded_schema_is_the_fresh_schema(tmp_path: Path):
    def schema(db: sqlite3.Connection) -> set[tuple]:
        return set(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())

    fresh = Store(tmp_path / "fresh.sqlite3")
    for version in range(LATEST):
        old = Store(database_at(tmp_path / f"v{version}.sqlite3", version))
        assert schema(old.db) == schema(fresh.db)


def test_a_failing_migration_leaves_the_old_version(tmp_path: Path, monkeypatch):
    path = database_at(tmp_path / "dicetable.sqlite3", LATEST)
    before = rows(sqlite3.connect(path))
    broken = "CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);"
    monkeypatch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS, broken))
    monkeypatch.setattr(store_module, "LATEST", LATEST + 1)
    with pytest.raises(StoreError, match="cannot be opened as a database: no such table"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert rows(db) == before  # and no table "half"


SLOW_UPGRADE = """
import sys
from dicetable.device import store
from dicetable.device.migrations import LATEST, MIGRATIONS
slow = '''
    CREATE TABLE rolls AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
        WHERE i < 400000) SELECT i, randomblob(64) AS face FROM n;
    ALTER TABLE games ADD COLUMN table_name TEXT NOT NULL DEFAULT '';
    UPDATE games SET table_name = name;
'''
store.MIGRATIONS = (*MIGRATIONS, slow)
store.LATEST = LATEST + 1
print("migrating", flush=True)
store.Store(__import__("pathlib").Path(sys.argv[1]))
print("done", flush=True)
"""


@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3, 0.6])
def test_a_power_cut_during_an_upgrade_leaves_the_old_version_whole(tmp_path: Path, delay: float):
    """The process is killed (SIGKILL) part-way through a slow migration; the database
    is then either untouched at the old version or fully at the new one, never between."""
    path = database_at(tmp_path / "dicetable.sqlite3", LATEST)
    before = rows(sqlite3.connect(path))
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_UPGRADE, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "migrating\n"
    time.sleep(delay)
    child.kill()
    child.wait()

    db = sqlite3.connect(path)  # recovery rolls back anything uncommitted
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version == LATEST:
        assert "rolls" not in tables
        assert rows(db) == before
    else:
        assert version == LATEST + 1
        assert db.execute("SELECT COUNT(*) FROM rolls").fetchone()[0] == 400000
    db.close()
    store = Store(path) if version == LATEST else None  # this version still opens it
    if store is not None:
        assert len(store.saved_games()) == 1


def test_a_cut_with_the_migration_half_written_rolls_back(tmp_path: Path):
    """Cut exactly while the migration's pages are being written (the WAL is growing)."""
    path = database_at(tmp_path / "dicetable.sqlite3", LATEST)
    before = rows(sqlite3.connect(path))
    wal = path.with_name(path.name + "-wal")
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_UPGRADE, str(path)], stdout=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while not (wal.exists() and wal.stat().st_size > 4_000_000) and child.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.002)
    child.kill()
    child.wait()
    assert child.returncode == -9, "the migration finished before it could be cut"
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert rows(db) == before
