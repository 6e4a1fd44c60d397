"""Who has a table's database open, as a lock file beside it.

Every ``Store`` (the app, a terminal game, ``export``, a merging ``import``) holds a
shared ``flock`` on ``<database>.lock`` while it is open; ``import --replace`` needs
it exclusively, so a restore never swaps the data under a game that is being played
(its next answers would land in another game of the backup). The kernel drops a lock
when its process dies, so a killed app never leaves the table locked.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from pathlib import Path

SUFFIX = ".lock"
SHARED_WAIT_SECONDS = 10.0  # a restore in progress takes a few seconds
RETRY_SECONDS = 0.1
OPEN_FLAGS = os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
MODE = 0o644  # the service's user and root both open it


class TableBusy(RuntimeError):
    """The lock is held the other way; the message says by whom and what to do."""


class TableLock:
    """A shared (or exclusive) hold on the database at ``database``."""

    def __init__(self, database: Path, *, exclusive: bool = False) -> None:
        self.path = database.with_name(database.name + SUFFIX)
        self.fd = _open(self.path)
        if self.fd is None:
            return  # a read-only folder with no lock file: nobody can write here anyway
        try:
            if exclusive:
                self._take(fcntl.LOCK_EX, 0.0, _in_use(database))
            else:
                self._take(fcntl.LOCK_SH, SHARED_WAIT_SECONDS, _restoring(database))
        except BaseException:
            self.close()
            raise

    def _take(self, kind: int, wait: float, busy: str) -> None:
        assert self.fd is not None
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(self.fd, kind | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TableBusy(busy) from None
                time.sleep(RETRY_SECONDS)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None


def _open(path: Path) -> int | None:
    for flags in (os.O_RDWR | OPEN_FLAGS, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC):
        try:
            return os.open(path, flags, MODE)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise TableBusy(f"{path} is a symbolic link: refused") from None
            if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT):
                raise
    return None


def _in_use(database: Path) -> str:
    return (
        f"{database} is open in another dicetable (the app, or a game in a terminal): "
        "nothing was changed; stop it first (sudo systemctl stop dicetable) and try again"
    )


def _restoring(database: Path) -> str:
    return f"{database} is being restored by `dicetable import --replace`: try again when it ends"
