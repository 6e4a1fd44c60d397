"""What a backup's rows must be before they enter a table's database.

SQLite keeps whatever a column is given, so a backup (a file anyone can write) may hold
an ``options`` that is not JSON or a score that is text; imported, such a row breaks
``dicetable saves``, ``scores`` and the screen's lists for every game. Each row of the
project's tables is checked here against what its column means, and the first that
does not fit is named by table, row and column.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from functools import cache
from typing import Any

from dicetable.device import data_folder
from dicetable.device.migrations import MIGRATIONS
from dicetable.rules.core import Input

Check = Callable[[Any], str]  # a value -> what is wrong with it, or ""
LINKED = ("inputs", "scores", "corrections")  # tables whose game_id names a game
INSERT_ORDER = ("games", "inputs", "scores", "corrections")  # games before what links to them


def quote(name: str) -> str:
    """A table or column name as SQL, whatever it holds (``ev"il`` included)."""
    return '"' + name.replace('"', '""') + '"'


@cache
def schema() -> dict[str, tuple[str, ...]]:
    """The project's tables and their columns, from its own migrations."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(";".join(MIGRATIONS))
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            t: tuple(r[1] for r in db.execute(f"PRAGMA table_info({quote(t)})")) for t in tables
        }
    finally:
        db.close()


def _json(value: Any) -> tuple[Any, str]:
    if not isinstance(value, str):
        return None, "is not JSON text"
    try:
        return json.loads(value), ""
    except (ValueError, RecursionError):
        return None, "is not JSON"


def _object(value: Any) -> str:
    data, problem = _json(value)
    return problem or ("" if isinstance(data, dict) else "is not a JSON object")


def _options(value: Any) -> str:
    data, problem = _json(value)
    if problem:
        return problem
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        return "is not a JSON object of texts"
    return ""


def _answer(value: Any) -> str:
    data, problem = _json(value)
    if problem:
        return problem
    try:
        Input.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        return "is not an answer"
    return ""


def _integer(value: Any) -> str:
    return "" if isinstance(value, int) else "is not a whole number"


def _number(value: Any) -> str:
    ok = isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
    return "" if ok else "is not a number"


def _text(value: Any) -> str:
    return "" if isinstance(value, str) else "is not text"


def _flag(value: Any) -> str:
    return "" if value in (0, 1) and isinstance(value, int) else "is not 0 or 1"


def _count(value: Any) -> str:
    return _integer(value) or ("" if value >= 0 else "is negative")


def _frame(value: Any) -> str:
    if _text(value) or value == "":
        return _text(value)
    try:
        parts = data_folder.names(value)
    except data_folder.UnsafePathError:
        return "is not a path inside the data folder"
    return "" if parts[0] == "corrections" and len(parts) > 1 else "is not under corrections/"


def _nullable(check: Check) -> Check:
    return lambda value: "" if value is None else check(value)


COLUMNS: dict[str, dict[str, Check]] = {
    "games": {
        "id": _integer, "game": _text, "name": _text, "seed": _integer, "options": _options,
        "created": _number, "updated": _number, "over": _flag, "result": _nullable(_object),
    },
    "inputs": {"game_id": _integer, "seq": _count, "input": _answer, "at": _number},
    "scores": {
        "id": _integer, "game": _text, "mode": _text, "party": _text, "heroes": _text,
        "score": _integer, "detail": _object, "at": _number, "game_id": _nullable(_integer),
    },
    "corrections": {
        "id": _integer, "at": _number, "game": _text, "game_id": _nullable(_integer),
        "read": _object, "corrected": _object, "frame": _frame,
    },
}  # fmt: skip


def first_problem(db: sqlite3.Connection) -> str:
    """The first thing in the backup ``db`` that does not fit the project's tables, as
    "table T, row R, column C: problem", or ""."""
    games: set[int] = set()
    for table in INSERT_ORDER:
        checks = COLUMNS[table]
        here = {r[1] for r in db.execute(f"PRAGMA table_info({quote(table)})")}
        for column in sorted(set(schema()[table]) ^ here):
            what = "is missing" if column in checks else "is not a column this dicetable knows"
            return f"table {table}, column {column}: {what}"
        listed = ", ".join(quote(c) for c in checks)
        for row in db.execute(f"SELECT rowid, {listed} FROM {quote(table)} ORDER BY rowid"):
            for column, value in zip(checks, row[1:], strict=True):
                problem = checks[column](value)
                if not problem and column == "game_id" and value is not None:
                    problem = "" if value in games else f"names no game ({value})"
                if problem:
                    return f"table {table}, row {row[0]}, column {column}: {value!r:.40} {problem}"
            if table == "games":
                games.add(row[1])
    return ""
