"""A game's end is atomic (issue 18, item 5): the last answer, the over flag, the
result and the high score are one transaction, so a SIGKILL anywhere in it keeps all
of them or none; and a game left half-ended by an older dicetable is finished, with
its score recorded once, when it is resumed."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.device.terminal import Terminal

SCRIPT = Path(__file__).parent / "scripts" / "dicethrone-solo-shadow-thief-win.txt"
GAME, SEED, SCORE = "dicethrone-solo", 4, 17

# Plays the whole winning game and, in the answer that ends it, SIGKILLs itself right
# after the SQL statement that starts with argv[2] has run (before its commit).
KILLER = f"""
import io, os, signal, sys
from pathlib import Path
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.device.terminal import Terminal

class Killing:
    def __init__(self, db, start):
        self._db, self._start = db, start
    def __getattr__(self, name):
        return getattr(self._db, name)
    def __enter__(self):
        return self._db.__enter__()
    def __exit__(self, *exc):
        return self._db.__exit__(*exc)
    def execute(self, sql, *args):
        cursor = self._db.execute(sql, *args)
        if session.game.is_over and sql.startswith(self._start):
            os.kill(os.getpid(), signal.SIGKILL)
        return cursor

store = Store.in_dir(Path(sys.argv[1]))
session = TableSession.start(store, {GAME!r}, {SEED})
store.db = Killing(store.db, sys.argv[2])
lines = Path({str(SCRIPT)!r}).read_text().splitlines()
Terminal(session, io.StringIO(), as_json=False).run(lines, script=True)
"""


def consistent(data: Path) -> tuple[bool, int, int]:
    """(over, answers kept, scores) of the one saved game, after checking that its
    record agrees with a clean replay of its answers."""
    store = Store.in_dir(data)
    try:
        (saved,) = store.saved_games()
        over_on_disk = saved.over
        scores_on_disk = len(store.high_scores(GAME, limit=100))
        session = TableSession.resume(store, saved.id)  # would finish a half-ended game
        assert over_on_disk == session.game.is_over, "the over flag disagrees with the replay"
        assert scores_on_disk == (1 if over_on_disk else 0), "score without the end, or not"
        assert saved.result == (session.game.result() if over_on_disk else None)
        return over_on_disk, saved.inputs, scores_on_disk
    finally:
        store.close()


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO inputs",
        "UPDATE games SET updated",
        "UPDATE games SET over",
        "INSERT INTO scores",
    ],
)
def test_a_kill_inside_the_last_answer_keeps_all_of_the_end_or_none(tmp_path: Path, statement):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", KILLER, str(tmp_path), statement],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -9, done.stderr  # killed, as a power cut would
    # the ending answer was never acknowledged: it went, and the end with it
    assert consistent(tmp_path) == (False, 55, 0)


def play_whole_game(store: Store) -> TableSession:
    session = TableSession.start(store, GAME, SEED)
    Terminal(session, io.StringIO(), as_json=False).run(
        SCRIPT.read_text().splitlines(), script=True
    )
    return session


def test_the_whole_game_ends_with_its_score(tmp_path: Path):
    store = Store.in_dir(tmp_path)
    assert play_whole_game(store).game.is_over
    store.close()
    assert consistent(tmp_path) == (True, 56, 1)


def half_ended(data: Path, *, keep_over: bool) -> int:
    """The state an older dicetable left after a cut: every answer kept, but the game
    not marked over (or marked over), and no high score."""
    store = Store.in_dir(data)
    session = play_whole_game(store)
    with store.transaction() as db:
        db.execute("DELETE FROM scores")
        if not keep_over:
            db.execute("UPDATE games SET over = 0, result = NULL")
    store.close()
    return session.id


@pytest.mark.parametrize("keep_over", [False, True])
def test_resuming_a_half_ended_game_finishes_it_and_scores_it_once(tmp_path: Path, keep_over):
    game_id = half_ended(tmp_path, keep_over=keep_over)
    for _ in range(2):  # resumed twice: still one score
        store = Store.in_dir(tmp_path)
        session = TableSession.resume(store, game_id)
        assert session.saved.over and session.game.is_over
        store.close()
    store = Store.in_dir(tmp_path)
    assert [s["score"] for s in store.high_scores(GAME)] == [SCORE]
    assert store.saved_game(game_id).over
    store.close()
