"""Saved games: every input on disk before it is shown, undo by replay, refusing
databases it cannot trust (issue 2, item 4)."""

import sqlite3
from pathlib import Path

import pytest

from dicetable.device.migrations import LATEST
from dicetable.device.session import ReplayError, TableSession
from dicetable.device.store import Store, StoreError
from dicetable.rules.core import Input, InvalidInput


@pytest.fixture
def store(isolated_data: Path) -> Store:
    return Store.in_dir(isolated_data)


def test_database_runs_wal_with_full_sync(store: Store):
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == LATEST


def test_every_input_is_on_disk_when_submit_returns(store: Store):
    session = TableSession.start(store, "dice-tray", seed=7)
    session.submit(Input.roll(1, 2, 3))
    # a second connection, as after a power cut, sees it
    other = sqlite3.connect(store.path)
    assert other.execute("SELECT COUNT(*) FROM inputs").fetchone()[0] == 1


def test_a_wrong_answer_changes_nothing(store: Store):
    session = TableSession.start(store, "dice-tray", seed=7)
    session.submit(Input.roll(4))
    with pytest.raises(InvalidInput):
        session.submit(Input.roll(9))
    assert store.inputs(session.id) == [Input.roll(4).to_json()]
    assert session.view()["history"] == [[4]]


def test_undo_repeatedly_back_to_the_start(store: Store):
    session = TableSession.start(store, "dice-tray", seed=7)
    rolls = [(1,), (2, 2), (3, 4, 5), (6, 6, 6, 6)]
    views = [session.view()]
    for roll in rolls:
        session.submit(Input.roll(*roll))
        views.append(session.view())
    for expected in reversed(views[:-1]):
        assert session.undo()
        assert session.view() == expected
    assert not session.undo()
    assert session.view() == views[0]


def test_resume_replays_to_the_same_state(store: Store):
    session = TableSession.start(store, "dice-tray", seed=7, name="Friday")
    for roll in [(1, 2), (5, 5, 5)]:
        session.submit(Input.roll(*roll))
    again = TableSession.resume(Store(store.path), session.id)
    assert again.view() == session.view()
    assert again.saved.name == "Friday"


def test_listeners_hear_events_after_they_are_saved(store: Store):
    session = TableSession.start(store, "dice-tray", seed=7)
    heard = []
    session.subscribe(lambda s, events: heard.append((len(store.inputs(s.id)), events)))
    session.submit(Input.roll(3))
    assert heard[0][0] == 1 and heard[0][1][0].kind == "rolled"


def test_saved_games_are_listed_and_deleted(store: Store):
    first = TableSession.start(store, "dice-tray", seed=1)
    second = TableSession.start(store, "dice-tray", seed=2)
    second.submit(Input.roll(1))
    assert [g.id for g in store.saved_games()] == [second.id, first.id]
    store.delete_game(first.id)
    assert [g.id for g in store.saved_games()] == [second.id]
    with pytest.raises(KeyError, match="no saved game"):
        store.delete_game(first.id)


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(isolated_data: Path):
    isolated_data.mkdir(parents=True)
    path = isolated_data / "dicetable.sqlite3"
    path.write_bytes(b"this is a shopping list, not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a dicetable database.*left untouched"):
        Store(path)
    assert path.read_bytes() == before


def test_a_damaged_database_is_refused_and_left_alone(store: Store):
    TableSession.start(store, "dice-tray", seed=1).submit(Input.roll(2))
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(store.path.read_bytes())
    data[4096 : 4096 + 200] = b"\xff" * 200  # scribble over the first table page
    store.path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="left untouched|cannot be opened"):
        Store(store.path)
    assert store.path.read_bytes() == bytes(data)


def test_a_newer_database_is_refused_and_left_alone(store: Store):
    store.db.execute(f"PRAGMA user_version = {LATEST + 1}")
    store.close()
    before = store.path.read_bytes()
    with pytest.raises(StoreError, match="newer dicetable.*left untouched"):
        Store(store.path)
    assert store.path.read_bytes() == before


def test_another_programs_database_is_not_taken_over(tmp_path: Path):
    """A SQLite file with tables but no schema version is another program's: our
    tables are never added to it (issue 18, item 2)."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE unrelated (x); PRAGMA user_version = 0;")
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a dicetable database .*unrelated"):
        Store(path)
    assert path.read_bytes() == before


def test_a_log_that_no_longer_fits_the_rules_says_which_input(store: Store):
    session = TableSession.start(store, "dice-tray", seed=1)
    store.append_input(session.id, 0, Input.roll(9).to_json())  # as if the rules changed
    with pytest.raises(ReplayError, match="input 1 of 1 no longer fits"):
        TableSession.resume(store, session.id)


def test_a_read_only_database_gives_a_clear_error(store: Store, monkeypatch):
    session = TableSession.start(store, "dice-tray", seed=1)
    store.db.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="cannot write"):
        session.submit(Input.roll(3))
    store.db.execute("PRAGMA query_only = OFF")
    assert session.view()["rolls"] == 0  # the unsaved roll was not kept in memory either


def test_a_bug_in_a_game_leaves_the_state_as_it_was(store: Store, monkeypatch):
    session = TableSession.start(store, "dice-tray", seed=7)
    session.submit(Input.roll(4))
    broken = session.game

    def half_apply_then_crash(answer):
        broken.history.append([9, 9])  # the game changed something, then fell over
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(broken, "apply", half_apply_then_crash)
    with pytest.raises(ZeroDivisionError):
        session.submit(Input.roll(5))
    assert session.game is not broken  # rebuilt from the log
    assert session.view()["history"] == [[4]]
    assert len(store.inputs(session.id)) == 1
