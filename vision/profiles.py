"""Dice profiles: how to turn a found top face into a face name and a value.

The built-in ``d6`` reads pips with the shipped face reader and needs no teaching.
Any other dice (symbols, a skull for 1, a hero's emblems, or simply the user's own
d6) are taught from a few labelled photos or captures: ``teaching.Teacher`` collects
examples and saves a ``TaughtFaces`` under ``<data_dir>/profiles/<name>.npz``, which
names the faces and their values.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dicetable.vision.face_reader import FaceLooks
    from dicetable.vision.reader import DiceReader, Named

D6_FACES = ("1", "2", "3", "4", "5", "6")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class FaceNamer(Protocol):
    """A taught model that names the faces the reader found (``teaching.TaughtFaces``)."""

    finder_threshold: float | None

    def name(self, looks: FaceLooks, index: int, profile: Profile, pips: int | None) -> Named:
        """What find ``index`` shows; ``pips``: what the untaught reader reads it as."""
        ...


class ProfileError(ValueError):
    """A profile that cannot be loaded or taught; the message names the file and what."""


@dataclass
class Profile:
    """A dice set: its face names, the value of each face (None for a pure symbol), and,
    once taught, the examples it recognises faces by."""

    name: str
    faces: tuple[str, ...] = D6_FACES
    values: tuple[int | None, ...] = (1, 2, 3, 4, 5, 6)
    model: FaceNamer | None = None
    meta: dict[str, object] = field(default_factory=dict)


def builtin_d6() -> Profile:
    return Profile(name="d6")


def profiles_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "profiles"


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise ProfileError(
            f"profile name {name!r}: use letters, digits, '-', '_' or '.' (at most 64)"
        )
    return name


def face_file(path: Path) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Face names and values from a profile file (TOML)::

    faces = ["skull", "2", "3", "4", "5", "crown"]   # face index i = class i
    values = [1, 2, 3, 4, 5, 6]                      # optional; 0 means no value
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ProfileError(f"{path}: cannot be read as TOML: {error}") from None
    faces = data.get("faces")
    if not isinstance(faces, list) or not faces or not all(isinstance(f, str) for f in faces):
        raise ProfileError(f"{path}: 'faces' must be a list of face names")
    raw = data.get("values", [_default_value(name, i) for i, name in enumerate(faces)])
    if not isinstance(raw, list) or len(raw) != len(faces):
        raise ProfileError(f"{path}: 'values' must list one integer per face ({len(faces)})")
    values: list[int | None] = []
    for i, value in enumerate(raw):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProfileError(f"{path}: values[{i}] = {value!r} must be an integer")
        values.append(value or None)
    return tuple(faces), tuple(values)


def _default_value(name: str, index: int) -> int:
    return int(name) if name.isdigit() else index + 1


def load_profile(name: str, data_dir: Path) -> Profile:
    """The built-in ``d6``, or a profile taught earlier and stored in ``data_dir``."""
    if name == "d6":
        return builtin_d6()
    check_name(name)
    folder = profiles_dir(data_dir)
    model_path = folder / f"{name}.npz"
    if not model_path.exists():
        known = ", ".join(["d6", *list_profiles(data_dir)])
        raise ProfileError(f"no dice profile {name!r} in {folder} (known: {known})")
    from dicetable.vision.teaching import load_taught

    return load_taught(model_path)


def list_profiles(data_dir: Path) -> list[str]:
    folder = profiles_dir(data_dir)
    return sorted(p.stem for p in folder.glob("*.npz")) if folder.is_dir() else []


def make_reader(profile: Profile | None = None) -> DiceReader:
    """The reader for ``profile`` (the built-in pip d6 when None)."""
    from dicetable.vision.reader import DiceReader

    return DiceReader(profile)
