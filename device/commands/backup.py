"""``export`` and ``import``: a table's saved games, high scores, dice profiles and
corrected dice in one file, to move them to another Pi or keep them safe before an
upgrade.

The file is a zip: ``manifest.json`` (format, schema version, counts), a consistent
snapshot of the database taken with SQLite's backup API (safe while the app is
playing), the ``profiles/`` folder and the ``corrections/`` folder (the frames of dice
corrected by touch; their rows, in the database, name them relative to the data
folder). Import never loses anything already on the
table: it first exports the current data to ``<data>/backups/``, then merges in one
transaction (a game or score already here is not doubled), or refuses with a reason.

Over 500 lines on purpose: export and import write and read one file format, kept
together so that they cannot drift apart.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from dicetable.device import backup_rows, data_folder
from dicetable.device.commands import load_config
from dicetable.device.migrations import LATEST
from dicetable.device.store import Store, StoreError

FORMAT = "dicetable-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DATABASE = "dicetable.sqlite3"
PROFILES = "profiles"
CORRECTIONS = "corrections"  # device.corrections.FOLDER
FOLDERS = (PROFILES, CORRECTIONS)  # copied whole beside the database
BACKUPS = "backups"
# What a real table's backup stays far below; a zip over them is refused before a byte
# is extracted (a 2 MB zip can expand to gigabytes on the SD card).
MAX_ENTRIES = 20_000
MAX_TOTAL_BYTES = 1 << 30
MAX_DATABASE_BYTES = 512 << 20
MAX_PROFILE_BYTES = 16 << 20  # a taught profile is a few hundred kB
MAX_FRAME_BYTES = 64 << 20  # a 12 MP PNG of a corrected frame
CHUNK = 1 << 20


class BackupError(ValueError):
    """A backup that cannot be written or read; the message names the file and why."""


@dataclass
class Summary:
    games: int = 0
    scores: int = 0
    profiles: int = 0
    skipped_games: int = 0
    skipped_scores: int = 0
    renamed_profiles: dict[str, str] = field(default_factory=dict)
    safety_copy: Path | None = None
    left_out: list[str] = field(default_factory=list)  # unknown tables, on --replace


def register(commands: argparse._SubParsersAction) -> None:
    export = commands.add_parser(
        "export", help="save games, high scores, dice profiles and corrections to one file"
    )
    export.add_argument("file", type=Path, help="the backup to write (a .zip)")
    export.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    export.set_defaults(func=run_export)

    restore = commands.add_parser(
        "import", help="add the games, scores, profiles and corrections of a backup here"
    )
    restore.add_argument("file", type=Path, help="a file written by `dicetable export`")
    restore.add_argument(
        "--replace",
        action="store_true",
        help="make this table's data exactly the backup's (the current data is exported"
        " to the data folder's backups/ first)",
    )
    restore.set_defaults(func=run_import)


def run_export(args: argparse.Namespace) -> int:
    target: Path = args.file
    if target.exists() and not args.force:
        raise BackupError(f"{target} exists: choose another name or add --force")
    folder = target.absolute().parent
    if not folder.is_dir():  # a mistyped USB path must not fill the SD card instead
        raise BackupError(
            f"{folder} is not a folder (a USB stick not mounted, or a typo?): nothing was written"
        )
    summary = export_backup(load_config(args).data_dir, target)
    print(
        f"Exported {summary.games} saved games, {summary.scores} high scores and "
        f"{summary.profiles} dice profiles to {target}."
    )
    return 0


def run_import(args: argparse.Namespace) -> int:
    summary = import_backup(load_config(args).data_dir, args.file, replace=args.replace)
    verb = "Restored" if args.replace else "Imported"
    print(
        f"{verb} {summary.games} saved games, {summary.scores} high scores and "
        f"{summary.profiles} dice profiles from {args.file}."
    )
    if summary.skipped_games or summary.skipped_scores:
        print(
            f"Already here, not doubled: {summary.skipped_games} games, "
            f"{summary.skipped_scores} high scores."
        )
    for old, new in summary.renamed_profiles.items():
        print(f"Dice profile {old!r} differs from the one here: imported as {new!r}.")
    if summary.left_out:
        print(
            f"Left out, unknown to this dicetable: the tables {', '.join(summary.left_out)} "
            f"(still in {args.file})."
        )
    if summary.safety_copy:
        print(f"The data from before the import is in {summary.safety_copy}.")
    if args.replace:
        print("Start the app again to play on: sudo systemctl start dicetable")
    return 0


# export ----------------------------------------------------------------------------
def export_backup(data_dir: Path, target: Path) -> Summary:
    """Write the backup to ``target`` atomically (a power cut leaves no half file)."""
    store = Store.in_dir(data_dir)
    try:
        with tempfile.TemporaryDirectory(prefix="dicetable-export-") as tmp:
            snapshot = Path(tmp) / DATABASE
            _snapshot(store.db, snapshot)
            return _write_file(snapshot, data_dir, target)
    finally:
        store.close()


def _snapshot(source: sqlite3.Connection, path: Path) -> None:
    """A consistent copy through SQLite's backup API, as one self-contained file."""
    copy = sqlite3.connect(path)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")
    finally:
        copy.close()


def _write_zip(snapshot: Path, data_dir: Path, out: BinaryIO) -> Summary:
    """The backup of ``snapshot`` and the data folder's profiles and corrections."""
    db = sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)
    try:
        counts = {table: _count(db, table) for table in _tables(db)}
        schema = db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()
    profiles = data_dir / PROFILES
    files = [p for name in FOLDERS for p in data_folder.regular_files(data_dir, name)]
    kept = [p for p in files if p.is_relative_to(profiles)]
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": schema,
        "app_version": _app_version(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "counts": counts,
        "profiles": sorted({p.relative_to(profiles).parts[0] for p in kept}),
        "corrections": len(files) - len(kept),
    }
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))
        archive.write(snapshot, DATABASE)
        for path in files:
            archive.write(path, path.relative_to(data_dir).as_posix())
    return Summary(
        games=counts.get("games", 0),
        scores=counts.get("scores", 0),
        profiles=len(manifest["profiles"]),
    )


def _write_file(snapshot: Path, data_dir: Path, target: Path) -> Summary:
    """The backup in ``target``, a path the admin chose, written atomically."""
    target = target.absolute()
    partial = target.with_name(f".{target.name}.partial")
    try:
        with partial.open("wb") as out:
            summary = _write_zip(snapshot, data_dir, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, target)
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself survives a power cut
        finally:
            os.close(folder)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot write {target}: {error.strerror or error}") from None
    return summary


# import ----------------------------------------------------------------------------
def import_backup(data_dir: Path, source: Path, *, replace: bool = False) -> Summary:
    """Merge (or with ``replace``, restore) a backup into ``data_dir``.

    Everything is checked before anything changes; the current data is exported to
    ``<data_dir>/backups/`` first; the database changes in one transaction. A restore
    needs the table to itself: it is refused while the app or a game has it open.
    """
    with tempfile.TemporaryDirectory(prefix="dicetable-import-") as tmp:
        incoming = _unpack(source, Path(tmp))
        for folder in _written_folders(Path(tmp)):  # a planted link stops it here
            data_folder.check(data_dir, folder)
        try:
            backup = Store(incoming)  # checks it and migrates an older schema
        except StoreError as error:
            raise BackupError(f"{source}: its database cannot be used: {error}") from None
        try:
            problem = backup_rows.first_problem(backup.db)
            if problem:
                raise BackupError(f"{source}: {problem}; nothing was imported")
            unknown = [t for t in _tables(backup.db) if t not in backup_rows.schema()]
            unknown = [t for t in unknown if _count(backup.db, t)]
            if unknown and not replace:
                raise BackupError(
                    f"{source} holds data this dicetable cannot merge "
                    f"({', '.join(unknown)}); nothing was changed. Use --replace to make "
                    "this table's data the backup's (the current data is saved first)"
                )
            store = Store.in_dir(data_dir, exclusive=replace)
            try:
                summary = Summary(safety_copy=_safety_copy(store, data_dir))
                try:
                    if replace:
                        _restore(backup.db, store, Path(tmp))
                        summary.games = _count(backup.db, "games")
                        summary.scores = _count(backup.db, "scores")
                        summary.left_out = unknown
                    else:
                        _merge(backup.db, store, summary)
                except sqlite3.IntegrityError as error:
                    raise BackupError(
                        f"{source}: its rows break the table's rules ({error}); nothing was "
                        "imported"
                    ) from None
                _import_profiles(Path(tmp) / PROFILES, data_dir, replace, summary)
                _import_corrections(Path(tmp) / CORRECTIONS, data_dir, replace)
            finally:
                store.close()
        finally:
            backup.close()
    return summary


def _unpack(source: Path, tmp: Path) -> Path:
    """The backup's database (and its folders) in ``tmp``, after checking the file:
    its names, its manifest, its checksums and its sizes."""
    try:
        archive = zipfile.ZipFile(source)
    except FileNotFoundError:
        raise BackupError(f"{source} does not exist") from None
    except (zipfile.BadZipFile, IsADirectoryError, OSError):
        raise BackupError(f"{source} is not a dicetable backup (not a zip file)") from None
    with archive:
        entries = [e for e in archive.infolist() if not e.is_dir()]
        names = [e.filename for e in entries]
        if MANIFEST not in names or DATABASE not in names:
            raise BackupError(f"{source} is not a dicetable backup (no {MANIFEST} or {DATABASE})")
        _check_sizes(source, entries)
        try:
            manifest = json.loads(archive.read(MANIFEST))
        except (ValueError, RecursionError, zipfile.BadZipFile) as error:
            raise BackupError(f"{source}: {MANIFEST} is damaged: {error}") from None
        _check_manifest(source, manifest)
        for name in names:
            path = PurePosixPath(name)
            inside = name in (MANIFEST, DATABASE) or (
                path.parts[0] in FOLDERS and ".." not in path.parts and not path.is_absolute()
            )
            if not inside or "\\" in name or "\x00" in name:
                raise BackupError(f"{source}: unexpected entry {name!r}; nothing was imported")
        damaged = archive.testzip()
        if damaged is not None:
            raise BackupError(f"{source} is damaged ({damaged} fails its checksum)")
        for entry in entries:
            if entry.filename != MANIFEST:
                _extract(source, archive, entry, tmp)
    return tmp / DATABASE


def _limit(name: str) -> int:
    if name == DATABASE:
        return MAX_DATABASE_BYTES
    return MAX_PROFILE_BYTES if name.startswith(f"{PROFILES}/") else MAX_FRAME_BYTES


def _check_sizes(source: Path, entries: list[zipfile.ZipInfo]) -> None:
    """Refuse, from the zip's directory, more entries or bytes than a real table has."""
    if len(entries) > MAX_ENTRIES:
        raise BackupError(
            f"{source} has {len(entries)} entries, more than a table's {MAX_ENTRIES}; "
            "nothing was imported"
        )
    total = sum(e.file_size for e in entries)
    if total > MAX_TOTAL_BYTES:
        raise BackupError(
            f"{source} would unpack to {total >> 20} MiB, more than {MAX_TOTAL_BYTES >> 20} "
            "MiB; nothing was imported"
        )
    profiles: dict[str, int] = {}
    for entry in entries:
        if entry.file_size > _limit(entry.filename):
            raise BackupError(
                f"{source}: {entry.filename} would unpack to {entry.file_size >> 20} MiB, "
                f"more than {_limit(entry.filename) >> 20} MiB; nothing was imported"
            )
        parts = PurePosixPath(entry.filename).parts
        if parts[0] == PROFILES and len(parts) > 1:
            profiles[parts[1]] = profiles.get(parts[1], 0) + entry.file_size
    for name, size in profiles.items():
        if size > MAX_PROFILE_BYTES:
            raise BackupError(
                f"{source}: profile {name!r} is {size >> 20} MiB, larger than any real "
                f"profile ({MAX_PROFILE_BYTES >> 20} MiB); nothing was imported"
            )


def _extract(source: Path, archive: zipfile.ZipFile, entry: zipfile.ZipInfo, tmp: Path) -> None:
    """One entry into ``tmp``, stopping at its declared size (a lying header is caught)."""
    target = tmp.joinpath(*PurePosixPath(entry.filename).parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with archive.open(entry) as data, target.open("wb") as out:
        while chunk := data.read(CHUNK):
            written += len(chunk)
            if written > entry.file_size:
                raise BackupError(f"{source}: {entry.filename} is larger than it says")
            out.write(chunk)


def _written_folders(unpacked: Path) -> list[str]:
    """The folders of the data folder an import writes into, relative to it."""
    written = {BACKUPS, *FOLDERS}
    for name in FOLDERS:
        for path in (unpacked / name).rglob("*"):
            written.add(path.parent.relative_to(unpacked).as_posix())
    return sorted(written)


def _check_manifest(source: Path, manifest: Any) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{source} is not a dicetable backup ({MANIFEST} says otherwise)")
    version = manifest.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise BackupError(
            f"{source} is in backup format {version!r}; this dicetable reads up to "
            f"{FORMAT_VERSION}: upgrade dicetable to import it"
        )
    schema = manifest.get("schema_version")
    if not isinstance(schema, int) or schema > LATEST:
        raise BackupError(
            f"{source} was exported by a newer dicetable (schema {schema}, this one knows "
            f"{LATEST}): upgrade dicetable to import it"
        )


def _restore(backup: sqlite3.Connection, store: Store, tmp: Path) -> None:
    """Make the table's database the backup's rows in the project's own schema: none
    of the backup's triggers, views or indexes come along."""
    fresh = Store(tmp / "restored.sqlite3")
    try:
        with fresh.transaction() as db:
            for table in backup_rows.INSERT_ORDER:
                columns = backup_rows.schema()[table]
                listed = ", ".join(backup_rows.quote(c) for c in columns)
                rows = backup.execute(
                    f"SELECT {listed} FROM {backup_rows.quote(table)} ORDER BY rowid"
                )
                db.executemany(
                    f"INSERT INTO {backup_rows.quote(table)} ({listed})"
                    f" VALUES ({', '.join('?' * len(columns))})",
                    rows,
                )
        fresh.db.backup(store.db)  # page by page, under SQLite's locks
    finally:
        fresh.close()


def _safety_copy(store: Store, data_dir: Path) -> Path | None:
    """Export the current data before an import touches it; None when there is none."""
    has_rows = any(_count(store.db, t) for t in _tables(store.db))
    folders = [data_dir / folder for folder in FOLDERS]
    if not has_rows and not any(f.is_dir() and any(f.iterdir()) for f in folders):
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"before-import-{stamp}.zip"
    number = 1
    while os.path.lexists(data_dir / BACKUPS / name):
        number += 1
        name = f"before-import-{stamp}-{number}.zip"
    with tempfile.TemporaryDirectory(prefix="dicetable-export-") as tmp:
        snapshot = Path(tmp) / DATABASE
        _snapshot(store.db, snapshot)
        with data_folder.atomic_file(data_dir, f"{BACKUPS}/{name}") as out:
            _write_zip(snapshot, data_dir, out)
    return data_dir / BACKUPS / name


def _merge(backup: sqlite3.Connection, store: Store, summary: Summary) -> None:
    """Add the backup's games (with their inputs), then the rows of every other table
    (scores, corrections...) with their ``game_id`` pointing at the games here. What is
    here already, the same game with the same answers or an identical row, is not
    doubled."""
    new_ids: dict[int, int] = {}
    with store.transaction() as db:
        columns = [c for c in backup_rows.schema()["games"] if c != "id"]
        listed = ", ".join(columns)
        key = ("game", "seed", "options", "created")
        for row in backup.execute(f"SELECT id, {listed} FROM games ORDER BY id").fetchall():
            old_id, values = row[0], dict(zip(columns, row[1:], strict=True))
            inputs = backup.execute(
                "SELECT seq, input, at FROM inputs WHERE game_id = ? ORDER BY seq", (old_id,)
            ).fetchall()
            same = _same_game(db, tuple(values[k] for k in key), inputs)
            if same is not None:
                new_ids[old_id] = same
                summary.skipped_games += 1
                continue
            cursor = db.execute(
                f"INSERT INTO games ({listed}) VALUES ({', '.join('?' * len(columns))})",
                tuple(values.values()),
            )
            new_ids[old_id] = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO inputs (game_id, seq, input, at) VALUES (?, ?, ?, ?)",
                [(new_ids[old_id], *row) for row in inputs],
            )
            summary.games += 1
        for table in backup_rows.LINKED:
            if table == "inputs":
                continue
            added, skipped = _merge_rows(backup, db, table, new_ids)
            if table == "scores":
                summary.scores, summary.skipped_scores = added, skipped


def _merge_rows(
    backup: sqlite3.Connection, db: sqlite3.Connection, table: str, new_ids: dict[int, int]
) -> tuple[int, int]:
    """Copy the rows of ``table`` not already here (all columns equal but the ids)."""
    columns = [c for c in backup_rows.schema()[table] if c != "id"]
    compared = [c for c in columns if c != "game_id"]
    quote = backup_rows.quote
    same = " AND ".join(f"{quote(c)} IS ?" for c in compared) or "1"
    listed = ", ".join(quote(c) for c in columns)
    added = skipped = 0
    for row in backup.execute(f"SELECT {listed} FROM {quote(table)} ORDER BY id").fetchall():
        values = dict(zip(columns, row, strict=True))
        if db.execute(
            f"SELECT 1 FROM {quote(table)} WHERE {same}", [values[c] for c in compared]
        ).fetchone():
            skipped += 1
            continue
        if "game_id" in values:
            values["game_id"] = new_ids.get(values["game_id"])
        db.execute(
            f"INSERT INTO {quote(table)} ({listed}) VALUES ({', '.join('?' * len(columns))})",
            list(values.values()),
        )
        added += 1
    return added, skipped


def _same_game(
    db: sqlite3.Connection, key: tuple[Any, ...], inputs: list[tuple[Any, ...]]
) -> int | None:
    """The id of a game here started at the same moment with the same seed and options
    whose answers begin with the backup's; a game that went on differently is kept as
    another game."""
    for (game_id,) in db.execute(
        "SELECT id FROM games WHERE game = ? AND seed = ? AND options = ? AND created = ?", key
    ).fetchall():
        here = db.execute(
            "SELECT seq, input, at FROM inputs WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        if here[: len(inputs)] == inputs:  # the same, or played further here
            return game_id
    return None


def _import_profiles(source: Path, data_dir: Path, replace: bool, summary: Summary) -> None:
    """Copy each profile (a top-level file or folder of ``profiles/``) in whole; one that
    differs from the one here keeps both, the backup's under a new name."""
    if replace:
        data_folder.remove(data_dir, PROFILES)  # the safety copy holds it
    if not source.is_dir():
        return
    here = data_dir / PROFILES
    for entry in sorted(source.iterdir()):
        name = entry.name
        destination = name
        if os.path.lexists(here / name):
            if not (here / name).is_symlink() and _digest(here / name) == _digest(entry):
                continue
            stem, suffix = (entry.stem, entry.suffix) if entry.is_file() else (name, "")
            number = 1
            while os.path.lexists(here / destination):
                destination = f"{stem}-imported{'' if number == 1 else number}{suffix}"
                number += 1
            summary.renamed_profiles[name] = destination
        staging = f"{PROFILES}/.{destination}{data_folder.PARTIAL}"
        data_folder.remove(data_dir, staging)
        if entry.is_dir():
            with data_folder.folder(data_dir, staging):
                pass  # an empty profile folder is still copied
            for file in sorted(p for p in entry.rglob("*") if p.is_file()):
                relative = file.relative_to(entry).as_posix()
                data_folder.write_bytes(data_dir, f"{staging}/{relative}", file.read_bytes())
        else:
            data_folder.write_bytes(data_dir, staging, entry.read_bytes())
        data_folder.replace(data_dir, staging, destination)
        summary.profiles += 1


def _import_corrections(source: Path, data_dir: Path, replace: bool) -> None:
    """Copy the corrected frames beside the rows that name them. A frame of the same
    name already here is the same correction (names are times to the millisecond on
    the table that made them) and is left as it is."""
    if replace:
        data_folder.remove(data_dir, CORRECTIONS)  # the safety copy holds it
    if not source.is_dir():
        return
    for entry in sorted(p for p in source.rglob("*") if p.is_file()):
        relative = f"{CORRECTIONS}/{entry.relative_to(source).as_posix()}"
        if not os.path.lexists(data_dir / relative):
            data_folder.write_bytes(data_dir, relative, entry.read_bytes())


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        digest.update(str(file.relative_to(path) if path.is_dir() else "").encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


# helpers ---------------------------------------------------------------------------
def _tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    )
    return [row[0] for row in rows]


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"SELECT COUNT(*) FROM {backup_rows.quote(table)}").fetchone()[0])


def _app_version() -> str:
    try:
        return metadata.version("dicetable")
    except metadata.PackageNotFoundError:
        return "unknown"
