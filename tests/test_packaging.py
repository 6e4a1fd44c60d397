"""The wheel ships every package: each folder with an __init__.py under the five
top-level folders is listed in pyproject.toml (they install as dicetable.*)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("device", "vision", "ui", "rules", "hardware")


def test_every_package_folder_is_listed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(project["tool"]["setuptools"]["packages"])
    found = {
        "dicetable." + ".".join(init.parent.relative_to(ROOT).parts)
        for top in TOP
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - found == set(), "these listed packages have no folder"
