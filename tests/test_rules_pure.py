"""The rules are the pure layer (issue 14, item 4): no module under rules/ imports the
device, the screens, the hardware or the camera, nor anything that writes files or
databases, nor opens a file other than to read it. Keeping, importing and exporting a
player's cards is ``device/dicequest_cards.py``'s job; the rules only read them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "rules"
#: packages the rules never import, with why
OTHER_LAYERS = {
    "dicetable.device": "the table's runtime and storage sit above the rules",
    "dicetable.ui": "the screens show the rules, never the other way round",
    "dicetable.hardware": "buttons and lights sit above the rules",
    "dicetable.vision": "the camera gives dice; the rules only take them",
}
#: standard modules that write files, folders or databases
WRITERS = ("os", "shutil", "tempfile", "sqlite3", "subprocess", "io")
#: method names that write through pathlib
WRITE_METHODS = {"write_text", "write_bytes", "mkdir", "unlink", "rmdir", "rename", "touch"}
READ_MODES = {"r", "rb", "rt"}


def imported(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def impurities(path: Path) -> list[str]:
    """What in one module is not pure: other layers, writers, writing calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(RULES.parent)
    found = []
    for name in imported(tree):
        for layer, why in OTHER_LAYERS.items():
            if name == layer or name.startswith(layer + "."):
                found.append(f"{where} imports {name} ({why})")
        if name.split(".")[0] in WRITERS:
            found.append(f"{where} imports {name}, which writes")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in WRITE_METHODS:
            found.append(f"{where}:{node.lineno} calls .{node.func.attr}()")
        if isinstance(node.func, ast.Name) and node.func.id == "open":
            mode = node.args[1] if len(node.args) > 1 else None
            mode = next((k.value for k in node.keywords if k.arg == "mode"), mode)
            text = mode.value if isinstance(mode, ast.Constant) else "r" if mode is None else "?"
            if text not in READ_MODES:
                found.append(f"{where}:{node.lineno} opens a file with mode {text!r}")
    return found


def module_name(path: Path) -> str:
    return str(path.relative_to(RULES))


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=module_name)
def test_a_rules_module_is_pure(path: Path) -> None:
    assert impurities(path) == []


def test_the_check_finds_what_is_not_pure(tmp_path: Path, monkeypatch) -> None:
    """The check itself: a device import, a writing module, a write and an open for
    writing are all caught."""
    module = tmp_path / "rules" / "bad.py"
    module.parent.mkdir()
    module.write_text(
        "import shutil\n"
        "from dicetable.device import data_folder\n"
        "from pathlib import Path\n"
        "Path('x').write_text('y')\n"
        "open('x', 'w')\n"
        "open('x')\n"
    )
    monkeypatch.setattr(f"{__name__}.RULES", module.parent)
    found = impurities(module)
    assert len(found) == 4, found
