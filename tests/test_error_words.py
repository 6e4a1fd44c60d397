"""Errors say what happened (issue 18, item 6): a card that is full, read-only or
busy is said so and the answer is said not saved (no traceback: it is not a bug);
undo on such a card keeps the terminal client going; a real bug keeps its traceback
in the log and says "bug"; a listing piped to `head` ends quietly; an export into a
folder that is not there is refused."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicetable.device.cli import main
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.device.terminal import Terminal


def terminal(store: Store) -> tuple[TableSession, Terminal, io.StringIO]:
    session = TableSession.start(store, "dice-tray", seed=1)
    out = io.StringIO()
    return session, Terminal(session, out, as_json=False), out


def read_only(store: Store) -> None:
    store.db.execute("PRAGMA query_only = ON")


def full(store: Store) -> None:
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")
    store.db.execute("PRAGMA cache_size = 0")


def busy(store: Store) -> sqlite3.Connection:
    store.db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    return other


@pytest.mark.parametrize(
    ("card", "said"),
    [
        (read_only, "The answer was not saved: the SD card is read-only"),
        (full, "The answer was not saved: the SD card is full: free some space"),
        (busy, "The answer was not saved: another program holds the database"),
    ],
)
def test_a_card_that_refuses_the_write_is_named_and_the_answer_said_not_saved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, card, said: str
):
    store = Store.in_dir(tmp_path)
    session, client, out = terminal(store)
    client.run(["3 4"], script=False)
    holder = card(store)
    for _ in range(2000):  # a full card refuses once the last free page is used
        before = session.count
        client.run(["6 6 6 6 6 6"], script=False)
        if session.count == before:
            break
    text = out.getvalue()
    assert said in text, text
    assert "bug" not in text
    assert session.count == before
    assert not [r for r in caplog.records if r.exc_info], "a card's refusal is not a bug"
    if holder is not None:
        holder.rollback()
        holder.close()


def test_undo_on_a_read_only_card_keeps_the_client_going(tmp_path: Path):
    store = Store.in_dir(tmp_path)
    session, client, out = terminal(store)
    client.run(["3 4"], script=False)
    read_only(store)
    client.run(["undo", "view", "quit"], script=False)  # no exception ends it
    text = out.getvalue()
    assert "Nothing was undone: the SD card is read-only" in text
    assert "Saved as game" in text  # the lines after undo were still read
    assert session.count == 1


def test_a_bug_in_a_game_keeps_its_traceback_in_the_log_and_says_bug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
):
    store = Store.in_dir(tmp_path)
    session, client, out = terminal(store)

    def broken(answer):
        raise KeyError("hero")

    monkeypatch.setattr(session.game, "apply", broken)
    client.run(["3 4"], script=False)
    assert "hit a bug" in out.getvalue()
    (record,) = [r for r in caplog.records if r.exc_info]
    assert record.exc_info[0] is KeyError


def test_a_bug_in_a_command_says_bug_with_its_traceback_a_mistake_does_not(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    assert main(["resume", "99"]) == 2  # the user's mistake: one line
    err = capsys.readouterr().err
    assert err.startswith("dicetable: no saved game 99") and len(err.splitlines()) == 1

    from dicetable.device.commands import play

    def broken(args):
        return {}["missing"]

    monkeypatch.setattr(play, "run_saves", broken)
    assert main(["saves"]) == 1
    err = capsys.readouterr().err  # the log is standard error
    assert "dicetable: bug: KeyError: 'missing'" in err
    assert "Traceback (most recent call last)" in err


def many_saved_games(data: Path, count: int) -> None:
    store = Store.in_dir(data)
    with store.transaction() as db:
        db.executemany(
            "INSERT INTO games (game, name, seed, options, created, updated)"
            " VALUES ('dice-tray', ?, 1, '{}', ?, ?)",
            [(f"game number {n}", time.time(), time.time()) for n in range(count)],
        )
    store.close()


def test_a_listing_piped_to_head_ends_without_a_broken_pipe(tmp_path: Path):
    many_saved_games(tmp_path / "data", 5000)  # far more than a pipe's buffer
    env = {**os.environ, "DICETABLE_DATA": str(tmp_path / "data")}
    listing = subprocess.Popen(
        [sys.executable, "-m", "dicetable.device.cli", "saves"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert listing.stdout is not None and listing.stderr is not None
    listing.stdout.readline()
    listing.stdout.close()  # what `head -1` does
    err = listing.stderr.read().decode()
    assert listing.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_export_into_a_folder_that_is_not_there_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    many_saved_games(tmp_path / "data", 1)
    target = tmp_path / "media" / "usb-stick" / "table.zip"  # the stick is not mounted
    assert main(["--data", str(tmp_path / "data"), "export", str(target)]) == 2
    err = capsys.readouterr().err
    assert "is not a folder" in err and "nothing was written" in err
    assert not (tmp_path / "media").exists()
