"""Writing inside the data folder without ever writing outside it.

The data folder belongs to the service's user, who can plant symbolic links in it;
the admin's commands (``import``, ``dicequest add``...) run as root. So every write
below the folder walks to its target one name at a time from a descriptor of the
folder, opening each name with ``O_NOFOLLOW``: a link anywhere on the way is refused
with one line naming it, and the file itself is created by descriptor and renamed
into place (atomic: a power cut leaves the old file or the new one).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import BinaryIO

FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_MODE = 0o644
FOLDER_MODE = 0o755
PARTIAL = ".partial"  # suffix of a file or folder being written


class UnsafePathError(ValueError):
    """A path inside the data folder that is a link, or not what it should be."""


def names(relative: str | PurePosixPath) -> tuple[str, ...]:
    """The names of a path relative to the data folder; '..', absolute paths and
    empty names are refused, so a name from a file can never climb out."""
    text = str(relative)
    parts = PurePosixPath(text).parts
    if not parts or text.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise UnsafePathError(f"{text!r} is not a path inside the data folder")
    return parts


@contextmanager
def folder(root: Path, relative: str | PurePosixPath = "", *, create: bool = True) -> Iterator[int]:
    """A descriptor of ``root/relative``, reached without following any link below
    ``root`` (``root`` itself is the configured folder and is taken as it is)."""
    if create:
        root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        where = root
        for name in names(relative) if str(relative) not in ("", ".") else ():
            where = where / name
            parent, fd = fd, -1
            try:
                fd = _step(parent, name, where, create)
            finally:
                os.close(parent)
        yield fd
    finally:
        if fd >= 0:
            os.close(fd)


def check(root: Path, relative: str | PurePosixPath) -> None:
    """Refuse, before anything changes, a path that a write would refuse later: a
    link (or a file) where a folder of ``relative`` is, as far as it exists."""
    if not root.exists():
        return
    for end in range(1, len(names(relative)) + 1):
        try:
            with folder(root, "/".join(names(relative)[:end]), create=False):
                pass
        except FileNotFoundError:
            return


def _step(parent: int, name: str, where: Path, create: bool) -> int:
    """Open the folder ``name`` in ``parent``, never through a link."""
    try:
        try:
            return os.open(name, FOLDER_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise
            os.mkdir(name, FOLDER_MODE, dir_fd=parent)
            return os.open(name, FOLDER_FLAGS, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise UnsafePathError(
                f"{where} is a symbolic link or not a folder: nothing is written through it"
            ) from None
        raise


@contextmanager
def atomic_file(root: Path, relative: str | PurePosixPath) -> Iterator[BinaryIO]:
    """A new file for ``root/relative``, put in place when the block ends without an
    error (fsynced, then renamed over what was there; a link there is replaced, never
    followed)."""
    *parents, name = names(relative)
    with folder(root, "/".join(parents)) as fd:
        partial = f".{name}{PARTIAL}"
        _remove_entry(fd, partial)  # left by a power cut
        out = os.fdopen(os.open(partial, NEW_FILE_FLAGS, FILE_MODE, dir_fd=fd), "wb")
        try:
            with out:
                yield out
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            _remove_entry(fd, partial)
            raise
        os.fsync(fd)  # the rename itself survives a power cut


def write_bytes(root: Path, relative: str | PurePosixPath, data: bytes) -> None:
    with atomic_file(root, relative) as out:
        out.write(data)


def remove(root: Path, relative: str | PurePosixPath) -> bool:
    """Remove ``root/relative`` (a file, a link or a whole folder, never what a link
    points to); False when it was not there."""
    *parents, name = names(relative)
    try:
        with folder(root, "/".join(parents), create=False) as fd:
            return _remove_entry(fd, name)
    except FileNotFoundError:
        return False


def replace(root: Path, relative: str | PurePosixPath, new_name: str) -> None:
    """Rename ``root/relative`` to ``new_name`` in the same folder (atomically)."""
    *parents, name = names(relative)
    (target,) = names(new_name)
    with folder(root, "/".join(parents)) as fd:
        os.replace(name, target, src_dir_fd=fd, dst_dir_fd=fd)
        os.fsync(fd)


def _remove_entry(fd: int, name: str) -> bool:
    try:
        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(name, dir_fd=fd)  # descriptor-based: safe against planted links
    else:
        os.unlink(name, dir_fd=fd)
    return True


def regular_files(root: Path, relative: str) -> list[Path]:
    """The regular files under ``root/relative`` (not links, not dot files), found
    without following a link: what a backup takes from the data folder."""
    top = root / relative
    if not top.is_dir() or top.is_symlink():
        return []
    found: list[Path] = []
    for here, folders, files in os.walk(top, followlinks=False):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in files:
            path = Path(here) / name
            if not name.startswith(".") and path.is_file() and not path.is_symlink():
                found.append(path)
    return sorted(found)
