"""The wheel ships every package: each folder with an __init__.py under the five
top-level folders, and each folder of data files the package-data patterns take
(i18n/, heroes/...), is listed in pyproject.toml (they install as dicetable.*)."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("device", "vision", "ui", "rules", "hardware")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PATTERNS = [p.removeprefix("**/") for p in PROJECT["tool"]["setuptools"]["package-data"]["*"]]


def shipped(folder: Path) -> bool:
    """A folder is a package when it holds Python or a file the patterns ship, and
    its name could be imported (``leave-out/`` ships with its parent, as setuptools
    does not take it for a package)."""
    if not all(part.isidentifier() for part in folder.relative_to(ROOT).parts):
        return False
    return (folder / "__init__.py").exists() or any(
        path.is_file() and any(fnmatch.fnmatch(path.name, p) for p in PATTERNS)
        for path in folder.iterdir()
    )


def test_every_package_and_data_folder_is_listed():
    listed = set(PROJECT["tool"]["setuptools"]["packages"])
    found = {"dicetable"} | {
        "dicetable." + ".".join(folder.relative_to(ROOT).parts)
        for top in TOP
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]
        if folder.is_dir() and "__pycache__" not in folder.parts and shipped(folder)
    }
    assert found - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - found == set(), "these listed packages have no folder"
