"""SQLite storage for everything that must survive a power cut.

The database runs in WAL mode with ``synchronous=FULL``: when ``append_input``
returns, the input is on disk. A file that is not a dicetable database, is damaged,
or was written by a newer dicetable is refused with an error naming it, and is never
written to, so nothing the player saved is lost to a downgrade or a bug.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicetable.device.migrations import LATEST, MIGRATIONS
from dicetable.device.table_lock import TableBusy, TableLock
from dicetable.rules.core import NotFound

SQLITE_HEADER = b"SQLite format 3\x00"
DB_NAME = "dicetable.sqlite3"
SIDE_FILES = ("", "-wal", "-shm", "-journal")  # what SQLite opens beside the name


class StoreError(RuntimeError):
    """The database cannot be used; the message names the file and what to do.
    ``cause`` is what a failed write means at the table: "full", "read-only", "busy"
    (another program holds the database), or "" for anything else."""

    def __init__(self, message: str, cause: str = "") -> None:
        super().__init__(message)
        self.cause = cause


# SQLite's primary result codes (the low byte of an extended code) -> StoreError.cause
CAUSES = {13: "full", 8: "read-only", 5: "busy", 6: "busy"}


@dataclass(frozen=True)
class SavedGame:
    id: int
    game: str
    name: str
    seed: int
    options: dict[str, str]
    created: float
    updated: float
    over: bool
    result: dict[str, Any] | None
    inputs: int


@dataclass(frozen=True)
class NewScore:
    """A high score, written with the answer that ended its game."""

    game: str
    score: int
    mode: str = ""
    party: str = ""
    heroes: str = ""
    detail: Mapping[str, Any] | None = None


class Store:
    def __init__(self, path: Path, *, exclusive: bool = False) -> None:
        """Open (or create) the database; ``exclusive`` for a restore, which must be
        alone with it (see ``table_lock``)."""
        self.path = path
        _refuse_links(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create {path.parent}: {error.strerror}") from None
        try:
            self.lock = TableLock(path, exclusive=exclusive)
        except TableBusy as error:
            raise StoreError(str(error)) from None
        try:
            self.db = _open(path)
        except BaseException:
            self.lock.close()
            raise

    @classmethod
    def in_dir(cls, data_dir: Path, *, exclusive: bool = False) -> Store:
        return cls(data_dir / DB_NAME, exclusive=exclusive)

    def close(self) -> None:
        self.db.close()
        self.lock.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            with self.db:
                yield self.db
        except sqlite3.OperationalError as error:
            why = _unwritable(self.path.parent)
            code = getattr(error, "sqlite_errorcode", 0) & 0xFF
            cause = "read-only" if "read-only" in why else CAUSES.get(code, "")
            raise StoreError(f"{self.path}: cannot write: {error}{why}", cause) from error

    # saved games -------------------------------------------------------------
    def create_game(self, game: str, seed: int, options: Mapping[str, str], name: str = "") -> int:
        now = time.time()
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, name, seed, options, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game, name, seed, json.dumps(dict(options), sort_keys=True), now, now),
            )
        return int(cursor.lastrowid or 0)

    def append_input(
        self,
        game_id: int,
        seq: int,
        answer: Mapping[str, Any],
        *,
        result: Mapping[str, Any] | None = None,
        score: NewScore | None = None,
    ) -> None:
        """Keep one answer; with ``result`` it ended the game, and the game's end (its
        over flag, its result, its high score) is in the same transaction: a power
        cut keeps all of it or none."""
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO inputs (game_id, seq, input, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(answer, sort_keys=True), now),
            )
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
            if result is not None:
                self._finish(db, game_id, result, score)

    def drop_last_input(self, game_id: int) -> bool:
        with self.transaction() as db:
            cursor = db.execute(
                "DELETE FROM inputs WHERE game_id = ? AND seq ="
                " (SELECT MAX(seq) FROM inputs WHERE game_id = ?)",
                (game_id, game_id),
            )
            if cursor.rowcount:  # an undone ending takes its high score with it
                db.execute("UPDATE games SET over = 0, result = NULL WHERE id = ?", (game_id,))
                db.execute("DELETE FROM scores WHERE game_id = ?", (game_id,))
        return cursor.rowcount > 0

    def inputs(self, game_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT input FROM inputs WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def finish_game(
        self, game_id: int, result: Mapping[str, Any], score: NewScore | None = None
    ) -> None:
        """Mark a game over whose last answer is already kept (a resume finds it so
        after a cut under an older dicetable): its score is recorded once."""
        with self.transaction() as db:
            self._finish(db, game_id, result, score)

    def _finish(
        self,
        db: sqlite3.Connection,
        game_id: int,
        result: Mapping[str, Any],
        score: NewScore | None,
    ) -> None:
        db.execute(
            "UPDATE games SET over = 1, result = ? WHERE id = ?",
            (json.dumps(dict(result), sort_keys=True), game_id),
        )
        if (
            score is not None
            and not db.execute("SELECT 1 FROM scores WHERE game_id = ?", (game_id,)).fetchone()
        ):
            self._insert_score(db, score, game_id)

    def saved_game(self, game_id: int) -> SavedGame:
        rows = self._games("WHERE g.id = ?", (game_id,))
        if not rows:
            raise NotFound(f"no saved game {game_id} in {self.path}")
        return rows[0]

    def saved_games(self) -> list[SavedGame]:
        return self._games("", ())

    def delete_game(self, game_id: int) -> None:
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        if cursor.rowcount == 0:
            raise NotFound(f"no saved game {game_id} in {self.path}")

    def _games(self, where: str, args: tuple[Any, ...]) -> list[SavedGame]:
        rows = self.db.execute(
            "SELECT g.id, g.game, g.name, g.seed, g.options, g.created, g.updated, g.over,"
            " g.result, (SELECT COUNT(*) FROM inputs i WHERE i.game_id = g.id)"
            f" FROM games g {where} ORDER BY g.updated DESC, g.id DESC",
            args,
        ).fetchall()
        return [
            SavedGame(
                id=row[0],
                game=row[1],
                name=row[2],
                seed=row[3],
                options=json.loads(row[4]),
                created=row[5],
                updated=row[6],
                over=bool(row[7]),
                result=None if row[8] is None else json.loads(row[8]),
                inputs=row[9],
            )
            for row in rows
        ]

    # high scores -------------------------------------------------------------
    def add_score(
        self,
        game: str,
        score: int,
        *,
        mode: str = "",
        party: str = "",
        heroes: str = "",
        detail: Mapping[str, Any] | None = None,
        game_id: int | None = None,
    ) -> None:
        with self.transaction() as db:
            self._insert_score(db, NewScore(game, score, mode, party, heroes, detail), game_id)

    def _insert_score(self, db: sqlite3.Connection, score: NewScore, game_id: int | None) -> None:
        db.execute(
            "INSERT INTO scores (game, mode, party, heroes, score, detail, at, game_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                score.game,
                score.mode,
                score.party,
                score.heroes,
                score.score,
                json.dumps(dict(score.detail or {})),
                time.time(),
                game_id,
            ),
        )

    def has_score(self, game_id: int) -> bool:
        return bool(
            self.db.execute("SELECT 1 FROM scores WHERE game_id = ?", (game_id,)).fetchone()
        )

    def score_tables(self) -> list[tuple[str, str]]:
        """The (game, mode) pairs that have high scores, for listing them all."""
        rows = self.db.execute("SELECT DISTINCT game, mode FROM scores ORDER BY game, mode")
        return [(row[0], row[1]) for row in rows]

    def high_scores(self, game: str, mode: str | None = None, limit: int = 10) -> list[dict]:
        query = "SELECT mode, party, heroes, score, detail, at FROM scores WHERE game = ?"
        args: list[Any] = [game]
        if mode is not None:
            query += " AND mode = ?"
            args.append(mode)
        query += " ORDER BY score DESC, at ASC LIMIT ?"
        args.append(limit)
        keys = ("mode", "party", "heroes", "score", "detail", "at")
        return [
            dict(zip(keys, (*row[:4], json.loads(row[4]), row[5]), strict=True))
            for row in self.db.execute(query, args)
        ]


def _refuse_links(path: Path) -> None:
    for suffix in SIDE_FILES:  # SQLite follows links: one planted here would be written
        side = path.with_name(path.name + suffix)
        if side.is_symlink():
            raise StoreError(f"{side} is a symbolic link: refused, nothing is written through it")


def _open(path: Path) -> sqlite3.Connection:
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database; it was left untouched")
    exists = path.exists() and path.stat().st_size > 0
    if exists:
        with path.open("rb") as handle:
            if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                raise StoreError(
                    f"{path} is not a dicetable database (damaged or another file); "
                    "it was left untouched: move it away to start afresh"
                )
        uri = f"file:{path}?mode=rw"
    else:
        uri = f"file:{path}?mode=rwc"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        # back to implicit transactions, opened by `with db` ("" is sqlite3's DEFERRED
        # default, which typeshed leaves out of the attribute's type)
        db.isolation_level = "DEFERRED"
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 5000")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        problem = _not_ours(db, version)
        if problem:
            db.close()
            raise StoreError(
                f"{path} is not a dicetable database ({problem}); it was left "
                "untouched: move it away to start afresh"
            )
        if version > LATEST:
            db.close()
            raise StoreError(
                f"{path} was written by a newer dicetable (schema {version}, this one knows "
                f"{LATEST}); it was left untouched: upgrade dicetable to use it"
            )
        if exists and db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            db.close()
            raise StoreError(f"{path} is damaged (quick_check failed); it was left untouched")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        _migrate(db, version)
    except sqlite3.DatabaseError as error:
        raise StoreError(
            f"{path} cannot be opened as a database: {error}{_unwritable(path.parent)}"
        ) from None
    return db


def _not_ours(db: sqlite3.Connection, version: int) -> str:
    """Why a SQLite file is another program's, or "": a schema version no dicetable
    writes, or tables in a file that has no version yet (never add ours to them)."""
    if version < 0:
        return f"schema version {version}"
    if version == 0:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master ORDER BY name")]
        if tables:
            return f"schema version 0 with other tables: {', '.join(tables[:5])}"
    return ""


def _unwritable(folder: Path) -> str:
    """Why ``folder`` cannot be written, when that is the cause (an SD card the kernel
    remounted read-only after errors, or a folder owned by another user)."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f" ({folder} is on a read-only file system)"
    except OSError:
        return ""
    if not os.access(folder, os.W_OK):
        return f" ({folder} is not writable by this user)"
    return ""


def _migrate(db: sqlite3.Connection, version: int) -> None:
    for number in range(version + 1, LATEST + 1):
        # executescript commits first; BEGIN makes each migration one transaction.
        try:
            db.executescript(
                f"BEGIN; {MIGRATIONS[number - 1]}; PRAGMA user_version = {number}; COMMIT;"
            )
        except sqlite3.DatabaseError:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
