"""`dicetable export` / `import`: saved games, high scores and dice profiles move to
another Pi in one file, and an import never loses what the table already had
(issue 10, item 5)."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from dicetable.device.cli import main
from dicetable.device.commands.backup import (
    DATABASE,
    MANIFEST,
    BackupError,
    export_backup,
    import_backup,
)
from dicetable.device.migrations import LATEST, MIGRATIONS
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import Input


def play_table(data: Path, seed: int, rolls: list[tuple[int, ...]], score: int) -> dict:
    """A table with one game in play, a high score and a taught dice profile."""
    store = Store.in_dir(data)
    session = TableSession.start(store, "dice-tray", seed=seed, name=f"table {seed}")
    for roll in rolls:
        session.submit(Input.roll(*roll))
    store.add_score("dice-tray", score, mode="solo", party="Ana", game_id=session.id)
    view = session.view()
    store.close()
    profile = data / "profiles" / f"bone-{seed}"
    profile.mkdir(parents=True)
    (profile / "profile.json").write_text(json.dumps({"faces": 6, "seed": seed}))
    return view


def games(data: Path) -> list[tuple]:
    store = Store.in_dir(data)
    try:
        return sorted(
            (g.game, g.name, g.seed, tuple(map(str, store.inputs(g.id))))
            for g in store.saved_games()
        )
    finally:
        store.close()


def scores(data: Path) -> list[tuple]:
    store = Store.in_dir(data)
    try:
        return [(s["score"], s["party"]) for s in store.high_scores("dice-tray")]
    finally:
        store.close()


def test_a_table_moves_to_another_pi(tmp_path: Path):
    old_pi, new_pi = tmp_path / "old", tmp_path / "new"
    view = play_table(old_pi, seed=5, rolls=[(1, 2), (6, 6, 6)], score=42)
    backup = tmp_path / "table.zip"
    summary = export_backup(old_pi, backup)
    assert (summary.games, summary.scores, summary.profiles) == (1, 1, 1)

    imported = import_backup(new_pi, backup)
    assert (imported.games, imported.scores, imported.profiles) == (1, 1, 1)
    assert imported.safety_copy is None  # nothing was here to keep
    assert games(new_pi) == games(old_pi)
    assert scores(new_pi) == [(42, "Ana")]
    assert (new_pi / "profiles/bone-5/profile.json").read_bytes() == (
        old_pi / "profiles/bone-5/profile.json"
    ).read_bytes()
    store = Store.in_dir(new_pi)
    (saved,) = store.saved_games()
    assert TableSession.resume(store, saved.id).view() == view  # play goes on where it was


def test_the_file_holds_a_consistent_snapshot_and_a_manifest(tmp_path: Path):
    data = tmp_path / "data"
    play_table(data, seed=1, rolls=[(3,)], score=7)
    writer = sqlite3.connect(data / "dicetable.sqlite3")
    writer.execute("BEGIN IMMEDIATE")  # a game half-way through saving an answer
    writer.execute("DELETE FROM scores")
    export_backup(data, tmp_path / "table.zip")
    writer.rollback()
    with zipfile.ZipFile(tmp_path / "table.zip") as archive:
        manifest = json.loads(archive.read(MANIFEST))
        names = archive.namelist()
        archive.extract(DATABASE, tmp_path / "out")
    assert manifest["format"] == "dicetable-backup" and manifest["schema_version"] == LATEST
    assert manifest["counts"]["games"] == 1 and manifest["counts"]["scores"] == 1
    assert manifest["profiles"] == ["bone-1"]
    assert not any(name.endswith(("-wal", "-shm")) for name in names)  # one self-contained db
    snapshot = sqlite3.connect(tmp_path / "out" / DATABASE)
    assert snapshot.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert snapshot.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 1


def test_import_merges_and_never_doubles(tmp_path: Path):
    here, there = tmp_path / "here", tmp_path / "there"
    play_table(here, seed=1, rolls=[(2,)], score=10)
    play_table(there, seed=2, rolls=[(4, 4)], score=20)
    export_backup(there, tmp_path / "there.zip")
    before = games(here)

    first = import_backup(here, tmp_path / "there.zip")
    assert (first.games, first.scores, first.profiles) == (1, 1, 1)
    assert games(here) == sorted(before + games(there))
    assert sorted(scores(here)) == [(10, "Ana"), (20, "Ana")]

    again = import_backup(here, tmp_path / "there.zip")
    assert (again.games, again.scores, again.profiles) == (0, 0, 0)
    assert (again.skipped_games, again.skipped_scores) == (1, 1)
    assert len(games(here)) == 2

    # the automatic copy taken before the first import holds the table as it was
    assert first.safety_copy is not None and first.safety_copy.parent == here / "backups"
    import_backup(tmp_path / "check", first.safety_copy)
    assert games(tmp_path / "check") == before


def test_a_game_played_further_here_is_not_doubled(tmp_path: Path):
    data = tmp_path / "data"
    play_table(data, seed=3, rolls=[(1,)], score=5)
    export_backup(data, tmp_path / "early.zip")
    store = Store.in_dir(data)
    (saved,) = store.saved_games()
    TableSession.resume(store, saved.id).submit(Input.roll(2, 2))
    store.close()
    summary = import_backup(data, tmp_path / "early.zip")
    assert summary.games == 0 and summary.skipped_games == 1
    assert len(games(data)[0][3]) == 2  # the later state is kept


def test_a_different_profile_with_the_same_name_keeps_both(tmp_path: Path):
    here, there = tmp_path / "here", tmp_path / "there"
    (here / "profiles").mkdir(parents=True)
    (there / "profiles").mkdir(parents=True)
    (here / "profiles/red.json").write_text('{"colour": "red"}')
    (there / "profiles/red.json").write_text('{"colour": "crimson"}')
    export_backup(there, tmp_path / "there.zip")
    summary = import_backup(here, tmp_path / "there.zip")
    assert summary.renamed_profiles == {"red.json": "red-imported.json"}
    assert (here / "profiles/red.json").read_text() == '{"colour": "red"}'
    assert (here / "profiles/red-imported.json").read_text() == '{"colour": "crimson"}'


def rewrite(backup: Path, target: Path, *, manifest: dict | None = None, extra: dict | None = None):
    """A copy of ``backup`` with its manifest changed and entries added."""
    with zipfile.ZipFile(backup) as source, zipfile.ZipFile(target, "w") as out:
        for name in source.namelist():
            data = source.read(name)
            if name == MANIFEST and manifest is not None:
                data = json.dumps({**json.loads(data), **manifest}).encode()
            out.writestr(name, data)
        for name, data in (extra or {}).items():
            out.writestr(name, data)
    return target


def snapshot_of(data: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data)): p.read_bytes() for p in data.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    ("damage", "error"),
    [
        ("not-a-zip", "not a dicetable backup (not a zip file)"),
        ("no-manifest", "not a dicetable backup (no manifest.json"),
        ("newer-schema", "exported by a newer dicetable"),
        ("newer-format", "upgrade dicetable to import it"),
        ("escaping-entry", "unexpected entry '../../etc/evil'"),
        ("damaged-database", "its database cannot be used"),
    ],
)
def test_a_bad_file_is_refused_and_nothing_changes(tmp_path: Path, damage: str, error: str):
    here = tmp_path / "here"
    play_table(here, seed=1, rolls=[(2,)], score=10)
    export_backup(here, tmp_path / "good.zip")
    bad = tmp_path / "bad.zip"
    if damage == "not-a-zip":
        bad.write_text("hello")
    elif damage == "no-manifest":
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr(DATABASE, b"")
    elif damage == "newer-schema":
        rewrite(tmp_path / "good.zip", bad, manifest={"schema_version": LATEST + 1})
    elif damage == "newer-format":
        rewrite(tmp_path / "good.zip", bad, manifest={"format_version": 99})
    elif damage == "escaping-entry":
        rewrite(tmp_path / "good.zip", bad, extra={"../../etc/evil": b"x"})
    else:
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr(MANIFEST, json.dumps({"format": "dicetable-backup",
                "format_version": 1, "schema_version": 1}))  # fmt: skip
            archive.writestr(DATABASE, b"SQLite format 3\x00" + b"\xff" * 2000)
    before = snapshot_of(here)
    with pytest.raises(BackupError, match=error.replace("(", r"\(").replace(")", r"\)")):
        import_backup(here, bad)
    assert snapshot_of(here) == before
    assert not (tmp_path / "etc").exists()


def test_a_backup_from_an_older_dicetable_is_upgraded_on_import(tmp_path: Path):
    """An old Pi's export (schema 1) imports into this version's schema."""
    old = tmp_path / "old.sqlite3"
    db = sqlite3.connect(old)
    db.executescript(f"{MIGRATIONS[0]}; PRAGMA user_version = 1;")
    db.execute(
        "INSERT INTO games (id, game, seed, created, updated) VALUES (1, 'dice-tray', 9, 1, 1)"
    )
    db.execute("INSERT INTO inputs VALUES (1, 0, ?, 1)", (json.dumps(Input.roll(5).to_json()),))
    db.execute("INSERT INTO scores (game, score, at, game_id) VALUES ('dice-tray', 3, 1, 1)")
    db.commit()
    db.close()
    backup = tmp_path / "old.zip"
    with zipfile.ZipFile(backup, "w") as archive:
        archive.writestr(MANIFEST, json.dumps({"format": "dicetable-backup",
            "format_version": 1, "schema_version": 1}))  # fmt: skip
        archive.write(old, DATABASE)
    summary = import_backup(tmp_path / "new", backup)
    assert (summary.games, summary.scores) == (1, 1)
    store = Store.in_dir(tmp_path / "new")
    (saved,) = store.saved_games()
    assert TableSession.resume(store, saved.id).view()["history"] == [[5]]


def test_unknown_data_is_refused_unless_replacing_with_a_safety_copy(tmp_path: Path):
    """A restore copies the rows of the project's own tables only, and says which
    tables it left out (issue 18, item 2)."""
    here, there = tmp_path / "here", tmp_path / "there"
    play_table(here, seed=1, rolls=[(2,)], score=10)
    play_table(there, seed=2, rolls=[(3,)], score=30)
    store = Store.in_dir(there)
    with store.transaction() as db:  # a future table that links to something else
        db.execute("CREATE TABLE leagues (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("CREATE TABLE seasons (id INTEGER PRIMARY KEY, league REFERENCES leagues)")
        db.execute("INSERT INTO leagues VALUES (1, 'Friday')")
        db.execute("INSERT INTO seasons VALUES (1, 1)")
    store.close()
    export_backup(there, tmp_path / "there.zip")
    before = snapshot_of(here)
    with pytest.raises(BackupError, match=r"cannot merge \(leagues, seasons\); nothing was"):
        import_backup(here, tmp_path / "there.zip")
    assert snapshot_of(here) == before

    summary = import_backup(here, tmp_path / "there.zip", replace=True)
    assert games(here) == games(there)
    assert summary.left_out == ["leagues", "seasons"]
    tables = Store.in_dir(here).db.execute("SELECT name FROM sqlite_master").fetchall()
    assert ("leagues",) not in tables and ("seasons",) not in tables
    assert sorted(p.name for p in (here / "profiles").iterdir()) == ["bone-2"]
    assert summary.safety_copy is not None
    import_backup(tmp_path / "check", summary.safety_copy)
    assert scores(tmp_path / "check") == [(10, "Ana")]


def test_commands_export_and_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    here, there = tmp_path / "here", tmp_path / "there"
    play_table(here, seed=1, rolls=[(2,)], score=10)
    target = tmp_path / "table.zip"
    assert main(["--data", str(here), "export", str(target)]) == 0
    assert "Exported 1 saved games, 1 high scores and 1 dice profiles" in capsys.readouterr().out
    assert main(["--data", str(here), "export", str(target)]) == 2  # not overwritten
    assert "exists: choose another name or add --force" in capsys.readouterr().err
    assert main(["--data", str(there), "import", str(target)]) == 0
    assert "Imported 1 saved games" in capsys.readouterr().out
    assert main(["--data", str(there), "import", str(tmp_path / "missing.zip")]) == 2
    assert "missing.zip does not exist" in capsys.readouterr().err
