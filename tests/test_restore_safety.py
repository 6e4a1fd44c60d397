"""Import and restore cannot damage a table (issue 18, item 2): a restore is refused
while a game is open, builds the project's own schema, takes only rows that mean what
their columns mean, stays within a real table's sizes, and a database that is not the
table's is named and left byte-identical."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from dicetable.device.cli import main
from dicetable.device.commands import backup as backup_module
from dicetable.device.commands.backup import (
    DATABASE,
    MANIFEST,
    BackupError,
    export_backup,
    import_backup,
)
from dicetable.device.session import TableSession
from dicetable.device.store import Store, StoreError
from dicetable.rules.core import Input


def table(data: Path, seed: int, rolls: int = 2, score: int | None = 10) -> int:
    """A table with one game of ``rolls`` answers and (optionally) a high score."""
    store = Store.in_dir(data)
    session = TableSession.start(store, "dice-tray", seed=seed)
    for n in range(rolls):
        session.submit(Input.roll(1 + n % 6, 2))
    if score is not None:
        store.add_score("dice-tray", score, party="Ana", game_id=session.id)
    store.close()
    return session.id


def files(data: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(data)): p.read_bytes()
        for p in sorted(data.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock")
    }


def doctored(tmp_path: Path, change: str, name: str = "doctored.zip") -> Path:
    """A backup of a small table whose database went through the SQL ``change``."""
    there = tmp_path / f"there-{name}"
    table(there, seed=2)
    store = Store.in_dir(there)
    store.db.executescript(change)
    store.close()
    target = tmp_path / name
    export_backup(there, target)
    return target


def test_a_restore_is_refused_while_a_game_is_open_in_a_terminal(tmp_path: Path):
    here = tmp_path / "here"
    table(here, seed=1)
    backup = tmp_path / "other.zip"
    table(tmp_path / "other", seed=7, rolls=5)
    export_backup(tmp_path / "other", backup)
    env = {**os.environ, "DICETABLE_DATA": str(here)}
    command = [sys.executable, "-m", "dicetable.device.cli"]
    game = subprocess.Popen(
        [*command, "play", "dice-tray", "--seed", "3", "--json"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert game.stdin is not None and game.stdout is not None
    try:
        game.stdin.write("3 4\n")
        game.stdin.flush()
        while '"type": "state"' not in game.stdout.readline():
            pass  # the first answer is on disk
        before = files(here)
        restore = subprocess.run(
            [*command, "import", "--replace", str(backup)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert restore.returncode == 2
        assert "open in another dicetable" in restore.stderr
        assert "nothing was changed" in restore.stderr
        assert len(restore.stderr.strip().splitlines()) == 1
        assert files(here) == before
        game.stdin.write("5 6\nquit\n")
        game.stdin.close()
        assert game.wait(timeout=60) == 0
    finally:
        game.kill()
    store = Store.in_dir(here)
    (mine,) = [g for g in store.saved_games() if g.seed == 3]
    assert [i["dice"] for i in store.inputs(mine.id)] == [
        [{"value": 3, "face": "3", "color": ""}, {"value": 4, "face": "4", "color": ""}],
        [{"value": 5, "face": "5", "color": ""}, {"value": 6, "face": "6", "color": ""}],
    ]
    assert len(store.saved_games()) == 2  # the backup's game did not come in


def test_a_restore_is_refused_while_the_app_has_the_store_open(tmp_path: Path):
    here = tmp_path / "here"
    table(here, seed=1)
    backup = tmp_path / "other.zip"
    table(tmp_path / "other", seed=7)
    export_backup(tmp_path / "other", backup)
    app_store = Store.in_dir(here)  # what the running app holds
    try:
        with pytest.raises(StoreError, match="open in another dicetable"):
            import_backup(here, backup, replace=True)
    finally:
        app_store.close()
    import_backup(here, backup, replace=True)  # with the app stopped, it goes through


def test_a_restore_keeps_none_of_the_backups_triggers(tmp_path: Path):
    backup = doctored(
        tmp_path,
        """
        CREATE TRIGGER wipe AFTER INSERT ON games BEGIN DELETE FROM scores; END;
        CREATE TRIGGER sixth BEFORE INSERT ON inputs WHEN NEW.seq >= 5
            BEGIN SELECT RAISE(ABORT, 'refused'); END;
        CREATE VIEW everything AS SELECT * FROM games;
        CREATE INDEX odd ON inputs (at);
        """,
    )
    here = tmp_path / "here"
    table(here, seed=1)
    import_backup(here, backup, replace=True)
    table(here, seed=5, rolls=8, score=None)  # a new game of 8 answers
    store = Store.in_dir(here)
    kinds = store.db.execute("SELECT type, name FROM sqlite_master WHERE sql IS NOT NULL")
    assert {name for _kind, name in kinds} == {
        "games", "inputs", "scores", "corrections", "scores_by_game"
    }  # fmt: skip
    assert [s["score"] for s in store.high_scores("dice-tray")] == [10]
    assert max(g.inputs for g in store.saved_games()) == 8


BAD_ROWS = [
    ("UPDATE games SET options = 'not json'", "table games, row 1, column options"),
    ("UPDATE games SET options = '{\"a\": 1}'", "table games, row 1, column options"),
    ("UPDATE games SET result = '[1, 2]', over = 1", "table games, row 1, column result"),
    ("UPDATE games SET seed = 'abc'", "table games, row 1, column seed"),
    ("UPDATE games SET over = 7", "table games, row 1, column over"),
    ("UPDATE scores SET detail = 'x'", "table scores, row 1, column detail"),
    ("UPDATE scores SET score = 'ten'", "table scores, row 1, column score"),
    ("UPDATE scores SET score = 2.5", "table scores, row 1, column score"),
    ("UPDATE inputs SET input = '{}' WHERE seq = 1", "table inputs, row 2, column input"),
    ("UPDATE inputs SET input = '" + "[" * 5000 + "' WHERE seq = 0", "column input"),
    (
        "INSERT INTO corrections (at, read, corrected, frame) VALUES (1, '{}', '{}', '../x')",
        "table corrections, row 1, column frame",
    ),
    ("PRAGMA foreign_keys = OFF; UPDATE scores SET game_id = 99", "column game_id"),
]


@pytest.mark.parametrize(("change", "named"), BAD_ROWS)
@pytest.mark.parametrize("replace", [False, True])
def test_a_backup_with_a_row_that_breaks_its_column_is_refused_whole(
    tmp_path: Path, change: str, named: str, replace: bool
):
    backup = doctored(tmp_path, change)
    here = tmp_path / "here"
    table(here, seed=1)
    before = files(here)
    with pytest.raises(BackupError, match=named) as refused:
        import_backup(here, backup, replace=replace)
    assert "nothing was imported" in str(refused.value)
    assert files(here) == before
    assert main(["--data", str(here), "saves"]) == 0
    assert main(["--data", str(here), "scores"]) == 0


def test_a_table_name_with_a_quote_gives_a_clear_refusal(tmp_path: Path):
    backup = doctored(tmp_path, 'CREATE TABLE "ev""il" (x); INSERT INTO "ev""il" VALUES (1);')
    here = tmp_path / "here"
    table(here, seed=1)
    with pytest.raises(BackupError, match=r"cannot merge \(ev\"il\)"):
        import_backup(here, backup)
    summary = import_backup(here, backup, replace=True)
    assert summary.left_out == ['ev"il']


def a_zip(path: Path, entries: dict[str, bytes]) -> Path:
    good = path.with_name("good.zip")
    table(path.with_name("good"), seed=4)
    export_backup(path.with_name("good"), good)
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name in (MANIFEST, DATABASE):
            out.writestr(name, source.read(name))
        for name, data in entries.items():
            out.writestr(name, data)
    return path


def test_a_profile_larger_than_any_real_one_is_refused_before_extracting(tmp_path: Path):
    big = b"\0" * (backup_module.MAX_PROFILE_BYTES + 1)
    bomb = a_zip(tmp_path / "bomb.zip", {"profiles/bone.npz": big})
    assert bomb.stat().st_size < 100_000  # a small file that would expand 16 MiB
    here = tmp_path / "here"
    table(here, seed=1)
    before = files(here)
    with pytest.raises(BackupError, match="profiles/bone.npz would unpack to 16 MiB"):
        import_backup(here, bomb)
    assert files(here) == before


def test_a_profile_folder_larger_than_any_real_one_is_refused(tmp_path: Path):
    half = b"\0" * (backup_module.MAX_PROFILE_BYTES // 2 + 1)
    bomb = a_zip(tmp_path / "bomb.zip", {"profiles/bone/a": half, "profiles/bone/b": half})
    with pytest.raises(BackupError, match="profile 'bone' is 16 MiB, larger than any real"):
        import_backup(tmp_path / "here", bomb)


def test_the_total_and_the_entries_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    frames = {f"corrections/{n}.png": b"\0" * 1000 for n in range(30)}
    bomb = a_zip(tmp_path / "many.zip", frames)
    monkeypatch.setattr(backup_module, "MAX_ENTRIES", 20)
    with pytest.raises(BackupError, match="has 32 entries, more than a table's 20"):
        import_backup(tmp_path / "here", bomb)
    monkeypatch.setattr(backup_module, "MAX_ENTRIES", 100)
    monkeypatch.setattr(backup_module, "MAX_TOTAL_BYTES", 20_000)
    with pytest.raises(BackupError, match="would unpack to"):
        import_backup(tmp_path / "here", bomb)
    assert not (tmp_path / "here" / "corrections").exists()


def another_programs_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ana');")
    db.close()


def negative_version(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript("PRAGMA user_version = -1;")
    db.close()


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (another_programs_database, "not a dicetable database (schema version 0 with other"),
        (negative_version, "not a dicetable database (schema version -1)"),
        (lambda path: path.mkdir(), "is a folder, not a database"),
    ],
)
def test_a_database_path_that_is_not_the_tables_is_named_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make, said: str
):
    data = tmp_path / "data"
    data.mkdir()
    path = data / DATABASE
    make(path)
    before = path.read_bytes() if path.is_file() else None
    for command in (["saves"], ["scores"], ["play", "dice-tray", "--seed", "1"]):
        assert main(["--data", str(data), *command]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, err
    assert (path.read_bytes() if path.is_file() else None) == before
    assert sorted(p.name for p in data.iterdir()) in ([DATABASE], [DATABASE, f"{DATABASE}.lock"])


def test_a_backup_whose_database_is_another_programs_is_refused(tmp_path: Path):
    foreign = tmp_path / "foreign.sqlite3"
    another_programs_database(foreign)
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr(MANIFEST, json.dumps({"format": "dicetable-backup",
            "format_version": 1, "schema_version": 2}))  # fmt: skip
        archive.write(foreign, DATABASE)
    with pytest.raises(BackupError, match="not a dicetable database"):
        import_backup(tmp_path / "here", bad, replace=True)
