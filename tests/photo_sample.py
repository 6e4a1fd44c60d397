"""A sample of a labelled photo folder, for tests that score a reader on a few photos."""

from __future__ import annotations

from pathlib import Path

from dicetable.vision.evaluation import labelled_images


def sample_folder(folder: Path, every: int, into: Path) -> Path:
    """Every ``every``-th labelled photo of ``folder``, linked with its labels into ``into``
    (made here): a folder ``evaluate`` scores like the whole one."""
    into.mkdir(parents=True, exist_ok=True)
    for image in labelled_images(folder)[::every]:
        for path in (image, image.with_suffix(".txt")):
            (into / path.name).symlink_to(path)
    return into
