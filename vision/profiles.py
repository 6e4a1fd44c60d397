"""Dice profiles: how to turn a found top face into a face name and a value.

The built-in ``d6`` counts pips and needs no teaching. Any other dice (symbols, a
skull for 1, a hero's emblems, or simply the user's own d6) are taught from a few
labelled photos: ``Teacher`` collects face crops, ``learn()`` gives a ``Profile`` with
a small nearest-neighbour model on rotation-normalised crops, stored under
``<data_dir>/profiles/<name>.npz`` beside a ``<name>.toml`` naming the faces.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from dicetable.vision.faces import Face

D6_FACES = ("1", "2", "3", "4", "5", "6")
# Why a found face cannot be read whatever the dice are: its print is not all in view.
# No profile names such a face (a Six cut to two columns matches a taught Three);
# the reason stays, so the player is told to move the die.
UNSEEN = frozenset({"partly out of view"})
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class FaceNamer(Protocol):
    """A taught model that names a found face (``teaching.FaceModel``)."""

    def read(
        self, work: np.ndarray, face: Face, profile: Profile
    ) -> tuple[int | None, str, str | None, float]: ...


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

    def read_face(self, work: np.ndarray, face: Face) -> tuple[int | None, str, str | None, float]:
        """(value, face name, reason when no value, confidence) for one found face."""
        if face.reason in UNSEEN:
            return None, "", face.reason, _confidence(face) * 0.5
        if self.model is not None:
            return self.model.read(work, face, self)
        return read_pip_face(face, self)


def read_pip_face(face: Face, profile: Profile) -> tuple[int | None, str, str | None, float]:
    if face.value is None:
        return None, "", face.reason or "unreadable", _confidence(face) * 0.5
    index = face.value - 1
    name = profile.faces[index] if index < len(profile.faces) else str(face.value)
    value = profile.values[index] if index < len(profile.values) else face.value
    return value, name, None, _confidence(face)


def _confidence(face: Face) -> float:
    """1 for a crisp pip layout inside a clear die edge; lower as either blurs."""
    layout = max(0.0, 1.0 - face.fit / 0.25)
    return round(float(min(1.0, 0.25 + 0.75 * layout) * min(1.0, face.edge_found / 0.9)), 3)


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
    from dicetable.vision.teaching import FaceModel

    return FaceModel.load_profile(model_path)


def list_profiles(data_dir: Path) -> list[str]:
    folder = profiles_dir(data_dir)
    return sorted(p.stem for p in folder.glob("*.npz")) if folder.is_dir() else []


def make_reader(profile: Profile | None = None):
    """The reader for ``profile``: the pip reader for the built-in d6, the taught
    reader (dice found by their bodies, named by the taught faces) for a taught one."""
    from dicetable.vision.reader import DiceReader

    if profile is None or profile.model is None:
        return DiceReader(profile)
    from dicetable.vision.teaching import TaughtReader

    return TaughtReader(profile)
