"""Teaching a dice set ("show me each face"): one example of each face, from the tray.

The session only learns from the frames it is handed and saves the profile; which
roll then reads with it is ``dice_sets``' business, asked by the runtime.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicetable.device.table.snapshots import TeachableSet
from dicetable.rules.registry import dice_sets

#: the table's own pip dice, taught: read for every plain ``d6`` roll
TAUGHT_D6 = "taught-d6"
PIP_FACES = ("1", "2", "3", "4", "5", "6")


def taught_name(profile: str) -> str:
    """The name a dice set is taught under: its own, but ``d6`` (the built-in pip
    reader, which no file may shadow) is kept as ``TAUGHT_D6``."""
    return TAUGHT_D6 if profile == "d6" else profile


def teachable_sets(data_dir: Path, waiting: set[str]) -> list[TeachableSet]:
    """The dice sets the installed games read with: the ones a roll is ``waiting``
    for first, each marked taught or not on this table."""
    from dicetable.vision.profiles import list_profiles

    taught = set(list_profiles(data_dir))
    sets = [
        TeachableSet(dice, dice.profile in waiting, taught_name(dice.profile) in taught)
        for dice in dice_sets(data_dir)
    ]
    return sorted(sets, key=lambda teachable: not teachable.waiting)


class TeachSession:
    """One dice set being taught; ``name`` is the profile it is saved as."""

    def __init__(self, teacher: Any) -> None:
        self.teacher = teacher  # a vision ``Teacher``

    @classmethod
    def start(
        cls, profile: str, faces: tuple[str, ...], values: tuple[int | None, ...] | None
    ) -> TeachSession:
        """A session teaching ``profile`` (the plain ``d6`` as ``taught-d6``)."""
        from dicetable.vision.teaching import Teacher

        return cls(Teacher(taught_name(profile), faces, values))

    @property
    def name(self) -> str:
        return str(self.teacher.name)

    def missing(self) -> list[str]:
        return list(self.teacher.missing())

    def learn(
        self, frame: Any, box: tuple[int, int, int, int] | None, face_index: int
    ) -> list[str] | int:
        """The die settled in ``frame`` shows face ``face_index``: the faces still
        missing, or the number of dice seen when that is not exactly one. Only the
        tray ``box`` is looked at: not a spare die beside it."""
        if box is not None:
            left, top, right, bottom = box
            frame = frame[top:bottom, left:right]
        if not self.teacher.add_example(frame, face_index):
            return int(self.teacher.last_seen)
        return self.missing()

    def save(self, data_dir: Path) -> Path:
        """Learn and store the profile beside the saved games; returns its path."""
        return Path(self.teacher.save(data_dir))
