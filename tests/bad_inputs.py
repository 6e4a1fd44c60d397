"""The bad-input corpus of issue 18: settings, scripts, answers and card files as a
hostile or unlucky person writes them. Each must give one clear line (exit 2, no
traceback, naming what is wrong), or, when it is fine after all (a byte-order mark),
work; and none may do harm (an empty saved game left behind, a catalogue that no
longer loads). Used by tests/test_bad_inputs.py and benchmarks/fault_bench.py."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dicetable.device.cli import main
from dicetable.device.store import Store

BOM = "\ufeff"
DEEP = "[" * 5000 + "]" * 5000
HUGE = "9" * 4301
LONG = "3" * 10_000_000
CARD = '[[quest]]\nid = "{id}"\nname = {name}\nact = 1\nparty = 1\n'
TO_NAME = "coop\n1\npractice\ntype\n"  # Dicequest answers to the name of a card typed in


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]  # "{dir}" is the case's folder
    files: dict[str, str] = field(default_factory=dict)  # relative to the case's folder
    said: str = ""  # a word the one line must hold ("" when the input is fine)
    stdin: str = ""
    harm: Callable[[Path], str] | None = None  # what harm was done, or ""


@dataclass
class Outcome:
    case: Case
    kind: str  # "clear", "works", "traceback", "misleading", "accepted", "harmful"
    detail: str = ""


def no_empty_game(folder: Path) -> str:
    store = Store.in_dir(folder / "data")
    try:
        empty = [g.id for g in store.saved_games() if g.inputs == 0]
    finally:
        store.close()
    return f"empty saved games left: {empty}" if empty else ""


def catalogue_loads(folder: Path) -> str:
    """The catalogue still lists, plays and forgets after the bad card."""
    for argv in (["dicequest", "cards"], ["dicequest", "remove", "bad"]):
        code, _err, crash = run(folder, argv, "")
        if crash or code not in (0, 2):
            return f"`{' '.join(argv)}` failed: {crash or code}"
    return ""


def settings(name: str, text: str, said: str) -> Case:
    return Case(f"settings: {name}", ("config",), {"config.toml": text}, said)


def script(name: str, text: str, said: str, game: str = "dice-tray") -> Case:
    argv = ("play", game, "--seed", "1", "--script", "{dir}/script.txt")
    return Case(f"script: {name}", argv, {"script.txt": text}, said, harm=no_empty_game)


def card(name: str, text: str, said: str) -> Case:
    argv = ("dicequest", "add", "{dir}/cards.toml")
    return Case(f"card: {name}", argv, {"cards.toml": text}, said, harm=catalogue_loads)


CORPUS: tuple[Case, ...] = (
    *(
        settings(f"{key} = {value}", f"[{key.split('.')[0]}]\n{key.split('.')[1]} = {value}\n",
                 "finite number")
        for key in ("camera.timeout", "vision.settle_seconds", "buttons.hold_time")
        for value in ("nan", "inf", "-inf", "+nan")
    ),
    settings("leds.brightness = nan", "[leds]\nbrightness = nan\n", "finite number"),
    settings("camera.tray with nan", "[camera]\ntray = [nan, 0, 1, 1]\n", "camera.tray"),
    settings("5000-deep list", f"[ui]\nx = {DEEP}\n", "nested too deeply"),
    settings("4301-digit number", f"[camera]\nfps = {HUGE}\n", "cannot be read"),
    settings("superscript digit", "[camera]\nfps = ³\n", "not valid TOML"),
    settings("10 MB line", f"[ui]\nlanguage = '{LONG}'\n", "too big"),
    settings("not UTF-8", "[ui]\nlanguage = '\udcff'\n", "not UTF-8"),
    settings("a NUL byte", "[ui]\x00\n", "not valid TOML"),
    Case("settings: BOM first", ("config",), {"config.toml": f"{BOM}[ui]\nlanguage = 'es'\n"}),
    script("superscript choice", "³\n", "script line 1", game="dicethrone-solo"),
    script("superscript dice", "³ 2\n", "script line 1"),
    script("4301-digit die", f"{HUGE}\n", "script line 1"),
    script("4301-digit choice", f"{HUGE}\n", "script line 1", game="dicethrone-solo"),
    script("10 MB line", f"{LONG}\n", "too big"),
    script("a long line", "3" * 5000 + "\n", "one short line"),
    script("first answer fails", "banana\n", "script line 1"),
    script("not UTF-8", "3 4\n\udcff\n", "not UTF-8"),
    Case("script: BOM first", ("play", "dice-tray", "--seed", "1", "--script",
         "{dir}/script.txt"), {"script.txt": f"{BOM}3 4\nquit\n"}, harm=no_empty_game),
    Case("typed: superscript", ("play", "dice-tray", "--seed", "1"), stdin="³\n3 4\nquit\n"),
    Case("typed: 10 MB line", ("play", "dice-tray", "--seed", "1"), stdin=f"{LONG}\nquit\n"),
    script("card name: escape sequence", f"{TO_NAME}\x1b[2J\n", "can be shown", game="dicequest"),
    script("card name: 61 letters", f"{TO_NAME}{'x' * 61}\n", "too long", game="dicequest"),
    Case("typed: card name with a NUL", ("play", "dicequest", "--seed", "1"),
         stdin=f"{TO_NAME}a\x00b\n\nquit\n"),
    card("NUL in a name", CARD.format(id="bad", name='"a\\u0000b"'), "control character"),
    card("newline in a name", CARD.format(id="bad", name='"a\\nb"'), "control character"),
    card("5000-deep list", f"x = {DEEP}\n", "nested too deeply"),
    card("4301-digit act", CARD.format(id="bad", name='"A"').replace("act = 1", f"act = {HUGE}"),
         "cannot be read"),
    card("BOM first", BOM + CARD.format(id="fine", name='"A"'), ""),
    card("climbing id", CARD.format(id="../../x", name='"A"'), "is not an id"),
    card("10 MB file", f"# {LONG}\n", "too big"),
)  # fmt: skip


def run(folder: Path, argv: list[str], stdin: str) -> tuple[int, str, str]:
    """``dicetable ARGV`` in this process: exit code, standard error, and the
    exception when one escaped (a traceback)."""
    err = io.StringIO()
    saved = {k: os.environ.get(k) for k in ("DICETABLE_DATA", "DICETABLE_CONFIG")}
    os.environ["DICETABLE_DATA"] = str(folder / "data")
    os.environ["DICETABLE_CONFIG"] = str(folder / "config.toml")
    real_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(argv)
        return code, err.getvalue(), ""
    except BaseException as error:  # a traceback is what is counted
        return -1, err.getvalue(), f"{type(error).__name__}: {error}"[:200]
    finally:
        sys.stdin = real_stdin
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def try_case(case: Case, folder: Path) -> Outcome:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in case.files.items():
        (folder / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    if case.name.startswith("card: ") and case.harm is catalogue_loads:
        cards = folder / "data" / "dicequest" / "cards"
        cards.mkdir(parents=True, exist_ok=True)  # a card written by an older dicetable
        (cards / "bad.toml").write_bytes(b'[[quest]]\nid = "bad"\nname = "a\x00b"\n')
    argv = [a.replace("{dir}", str(folder)) for a in case.argv]
    code, err, crash = run(folder, argv, case.stdin)
    if crash or "Traceback" in err:
        return Outcome(case, "traceback", crash or err[-200:])
    harm = case.harm(folder) if case.harm else ""
    if harm:
        return Outcome(case, "harmful", harm)
    if not case.said:
        return Outcome(case, "works" if code == 0 else "misleading", err.strip()[:200])
    if code == 0:
        return Outcome(case, "accepted", "exit 0")
    lines = err.strip().splitlines()
    if code == 2 and len(lines) == 1 and case.said in lines[0]:
        return Outcome(case, "clear", lines[0][:200])
    return Outcome(case, "misleading", err.strip()[:200])
