"""ARCHITECTURE.md's import rules, checked on the source: a forbidden import fails here.

Every ``import`` and ``from ... import`` of the package is read with ``ast`` (those
under ``if TYPE_CHECKING:`` too: a type is a dependency), and so is every call that
writes a file, for the layers that must not write any.
"""

from __future__ import annotations

import ast
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "vision", "hardware", "device", "ui")

#: package -> the packages it must never import (ARCHITECTURE.md, "What may import what")
FORBIDDEN = {
    "rules": ("device", "ui", "hardware", "vision"),
    "vision": ("device", "ui", "rules"),
    "hardware": ("device", "ui", "rules"),
    "ui": ("vision",),
}
#: the only modules of the table package a screen may import
UI_MAY_USE_OF_THE_TABLE = {"dicetable.device.table.runtime", "dicetable.device.table.snapshots"}
#: what writes a file: a method of these names (``Path``'s), anything of ``os`` or
#: ``shutil`` that changes files, ``open`` with a mode that writes
WRITERS = {"write_text", "write_bytes", "mkdir", "unlink", "touch", "rmdir"}
FILE_CHANGES = {
    "os": {"replace", "rename", "remove", "unlink", "makedirs", "mkdir"},
    "shutil": None,
}
WRITE_MODES = ("w", "a", "x", "+")
#: layers that write no files
PURE = ("rules",)


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every dicetable module ``path`` imports, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno
            for alias in node.names:  # ``from dicetable.device import session``
                yield f"{node.module}.{alias.name}", node.lineno


def writes(path: Path) -> Iterator[tuple[str, int]]:
    """Every call in ``path`` that writes a file, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else ""
            changes = FILE_CHANGES.get(owner, set())
            if func.attr in WRITERS or (
                owner in FILE_CHANGES and (not changes or func.attr in changes)
            ):
                yield func.attr, node.lineno
        elif isinstance(func, ast.Name) and func.id == "open":
            modes = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "mode")]
            for mode in modes:
                value = mode.value if isinstance(mode, ast.Constant) else ""
                if isinstance(value, str) and any(m in value for m in WRITE_MODES):
                    yield "open", node.lineno


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "dicetable" else ""


def breaches(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[tuple[str, str, str]]:
    """(file, what, why it is forbidden) for every breach of the rules."""
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            where = str(path.relative_to(root))
            for module, line in imports(path):
                target = package_of(module)
                if target in FORBIDDEN.get(package, ()):
                    found.append((where, f"{target}/", f"line {line}: imports {module}"))
                table = module.startswith("dicetable.device.table")
                if package == "ui" and table and module.count(".") >= 3:
                    first = ".".join(module.split(".")[:4])
                    if first not in UI_MAY_USE_OF_THE_TABLE:
                        found.append((where, first, f"line {line}: a screen uses {first}"))
            if package in PURE:
                for call, line in writes(path):
                    found.append((where, call, f"line {line}: {package}/ writes a file"))
    return found


def test_no_layer_imports_what_architecture_md_forbids() -> None:
    found = [f"{where}: {why} ({what})" for where, what, why in breaches()]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("package", "line", "breach"),
    [
        ("rules", "from dicetable.device.session import TableSession", True),
        ("rules", "import dicetable.ui.app", True),
        ("hardware", "from dicetable.device import session", True),
        ("vision", "from dicetable.rules.core import Die", True),
        ("ui", "from dicetable.device.table.tray_process import UseProfile", True),
        ("ui", "from dicetable.device.table.snapshots import Notice", False),
        ("device", "from dicetable.ui.app import DiceTableApp", False),
    ],
)
def test_the_check_catches_a_forbidden_import(
    package: str, line: str, breach: bool, tmp_path: Path
) -> None:
    """The check is not blind: one forbidden line in a copy of a layer is found."""
    folder = tmp_path / package
    folder.mkdir()
    (folder / "added.py").write_text(f"{line}\n", encoding="utf-8")
    assert bool(breaches(tmp_path, (package,))) is breach


def test_the_check_catches_a_file_write_in_a_pure_layer(tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "added.py").write_text(
        "from pathlib import Path\n\ndef f(p: Path) -> None:\n"
        "    p.write_text('x')\n    open(p, 'a').close()\n    open(p).close()\n"
        "    os.replace(p, p)\n    'a'.replace('a', 'b')\n",
        encoding="utf-8",
    )
    assert sorted(what for _, what, _ in breaches(tmp_path, ("rules",))) == [
        "open",
        "replace",
        "write_text",
    ]


def test_architecture_md_states_the_rules_this_test_checks() -> None:
    text = " ".join((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").split())
    for package, forbidden in FORBIDDEN.items():
        for target in forbidden:
            assert f"`{package}/` imports no `{target}/`" in text, (package, target)
    assert "`rules/` writes no files" in text
    for module in UI_MAY_USE_OF_THE_TABLE:
        assert module.removeprefix("dicetable.").replace(".", "/") + ".py" in text, module


#: a file longer than this says at the top of its docstring why, in a line starting
#: with ``LONG_ON_PURPOSE`` (issue 14: "no file over 500 lines without a reason")
LONGEST = 500
LONG_ON_PURPOSE = "Over 500 lines on purpose:"


def tracked_python_files(root: Path = ROOT) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", "*.py"], cwd=root, capture_output=True, check=True
    )
    return [root / name for name in listed.stdout.decode().split("\0") if name]


def long_files_without_a_reason(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Files over ``LONGEST`` lines whose module docstring gives no reason, with
    their length."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines <= LONGEST:
            continue
        docstring = ast.get_docstring(ast.parse(text)) or ""
        reasons = [line for line in docstring.splitlines() if line.startswith(LONG_ON_PURPOSE)]
        if not any(line.removeprefix(LONG_ON_PURPOSE).strip() for line in reasons):
            found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def test_no_file_is_over_500_lines_without_a_reason_at_its_top() -> None:
    found = long_files_without_a_reason(tracked_python_files())
    assert not found, f"split these, or say why under {LONG_ON_PURPOSE!r}:\n" + "\n".join(found)


def test_the_length_check_wants_a_reason_written_out(tmp_path: Path) -> None:
    body = "x = 1\n" * LONGEST
    cases = {
        "short.py": '"""Short."""\n' + "x = 1\n" * (LONGEST - 1),
        "silent.py": '"""A long module."""\n' + body,
        "empty.py": f'"""A long module.\n\n{LONG_ON_PURPOSE}\n"""\n' + body,
        "comment.py": f"# {LONG_ON_PURPOSE} a comment is not the docstring\n" + body,
        "reason.py": f'"""A long module.\n\n{LONG_ON_PURPOSE} one table.\n"""\n' + body,
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = long_files_without_a_reason(sorted(tmp_path.iterdir()), tmp_path)
    assert [line.split(":")[0] for line in found] == ["comment.py", "empty.py", "silent.py"]
