"""Reading a text file a person wrote (settings, a card file, a script): capped in
size, UTF-8 with or without the byte-order mark Windows editors put first, and every
failure one line naming the file."""

from __future__ import annotations

from pathlib import Path

BOM_ENCODING = "utf-8-sig"  # reads plain UTF-8 too


class TextFileError(ValueError):
    """A file that cannot be read as text; the message names it and why."""


def read_text(path: Path, limit: int) -> str:
    """The text of ``path``; over ``limit`` bytes it is refused unread (a file of
    settings or answers is never that big: a 10 MB line is a mistake, not a game)."""
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise TextFileError(f"{path}: cannot be read: {error.strerror or error}") from None
    if len(data) > limit:
        raise TextFileError(f"{path}: over {_size(limit)}, too big for this file")
    try:
        return data.decode(BOM_ENCODING)
    except UnicodeDecodeError as error:
        raise TextFileError(f"{path}: not UTF-8 text (byte {error.start + 1})") from None


def _size(limit: int) -> str:
    return f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit >> 10} kB"
