"""Dicequest cards beyond the rulebook's three (issue 16, item 5): one card in one
line, with its printed name; a set of cards imported from a TOML file (read, never
written) and exported again (written only inside the data folder); every bad input
one line saying what and where."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dicetable.device import dicequest_cards as cards
from dicetable.device.cli import main
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.card_line import card_id, card_line, parse_line
from dicetable.rules.dicequest.data import DataError, shipped_cards

GOBLIN_CAVE = (
    "Goblin Cave; adventure act 1; party 1-3; require 2 sword, 1 rune, 2 success; "
    "light 1; deadly 1; rewards 8 5 3"
)


def test_a_card_in_one_line_with_its_printed_name() -> None:
    card = parse_line(GOBLIN_CAVE)
    assert (card.id, card.name, card.kind, card.act, card.party) == (
        "goblin-cave",
        "Goblin Cave",
        "adventure",
        1,
        (1, 3),
    )
    assert [(r.symbol, r.count) for r in card.require] == [
        ("sword", 2),
        ("rune", 1),
        ("success", 2),
    ]
    # "generic successes" are any Sword, Arrow, Wand or Shield (Example: Adventure)
    assert card.require[2].accepts == ("sword", "arrow", "wand", "shield")
    assert (card.light, card.deadly, card.rewards) == (1, 1, (8, 5, 3))
    quest = parse_line(
        "Rat Cellar; quest act 2; party 1; require 1 shield; guaranteed 1 gold;"
        " success 2 vp, 1 basic_item"
    )
    assert quest.kind == "quest" and quest.success == {"vp": 2, "basic_item": 1}


@pytest.mark.parametrize("card", shipped_cards(), ids=lambda card: card.id)
def test_every_shipped_card_reads_back_from_its_line(card) -> None:
    """Their notes hold ';' (the ``inferred`` part is last and takes the rest)."""
    assert parse_line(card_line(card)) == card


def test_a_name_without_letters_needs_an_id_and_accents_are_kept_out_of_it() -> None:
    assert card_id("Cueva del Dragón") == "cueva-del-dragon"
    assert parse_line("¡¿!; quest act 1; party 1; id my-card").id == "my-card"
    with pytest.raises(DataError, match="give the card an id"):
        parse_line("¡¿!; quest act 1; party 1")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("; adventure act 1", "the card's printed name comes first"),
        ("X; adventure act 9; party 1", "field 'act': 1, 2 or 3"),
        ("X; adventure act one; party 1", "write the act as 'act 1'"),
        ("X; quest act 1; party 1-7", "field 'party': sizes from 0 to 3"),
        ("X; quest act 1; party 1; require 2 swords", "'swords' is not a symbol"),
        ("X; quest act 1; party 1; require two sword", "should be a count and a name"),
        ("X; quest act 1; party 1; light 99999999999999999999", "not a whole number from 0 to 99"),
        ("X; quest act 1; party 1; colour red", "'colour' is not a card field"),
        ("X; quest act 1; adventure act 2; party 1", "'adventure' is given twice"),
        ("X; quest act 1; party 1; success 2 diamonds", "'diamonds' is not one of gold"),
        ("X; quest act 1; party 1; rewards 3 2 1", "only Adventures track symbols"),
        ("X\x1b[2J; quest act 1; party 1", "has a control character (U+001B)"),
        ("X; quest act 1; party 1; id ../../etc/passwd", "is not an id"),
        ("X" * 2000, "over 1000 characters"),
    ],
)
def test_a_bad_line_is_refused_in_one_line(line: str, says: str) -> None:
    with pytest.raises(DataError) as error:
        parse_line(line, "the card's line")
    text = str(error.value)
    assert says in text and text.startswith("the card's line") and "\n" not in text


def test_one_line_in_the_terminal_keeps_the_card(
    isolated_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dicequest", "new", GOBLIN_CAVE]) == 0
    assert "kept 'Goblin Cave' (goblin-cave)" in capsys.readouterr().out
    assert [c.name for c in catalogue.load(isolated_data)] == ["Goblin Cave"]
    assert main(["dicequest", "cards", "--lines"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert parse_line(line) == parse_line(GOBLIN_CAVE)
    # a card typed in at the table gets its printed name by its id, on one line
    renamed = line.replace("Goblin Cave", "Goblin Warren") + "; id goblin-cave"
    assert main(["dicequest", "new", renamed]) == 0
    assert [c.name for c in catalogue.load(isolated_data)] == ["Goblin Warren"]
    assert main(["dicequest", "new", "Goblin Cave; adventure act 4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "field 'act'" in err and "Traceback" not in err


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_cards_are_exported_and_imported_on_another_table(
    tmp_path: Path,
    isolated_data: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for line in (GOBLIN_CAVE, "Rat Cellar; quest act 2; party 1; require 1 shield"):
        cards.add(isolated_data, parse_line(line))
    assert main(["dicequest", "export"]) == 0
    exported = isolated_data / "dicequest" / "exports" / "cards.toml"
    assert f"exported 2 cards to {exported}" in capsys.readouterr().out
    assert main(["dicequest", "export", "--stdout"]) == 0
    assert capsys.readouterr().out == exported.read_text()
    # another table: the file is read where the player put it, and never written
    given = tmp_path / "usb" / "cards.toml"
    given.parent.mkdir()
    given.write_bytes(exported.read_bytes())
    os.chmod(given, 0o444)
    before = given.stat().st_mtime_ns
    other = tmp_path / "other-table"
    monkeypatch.setenv("DICETABLE_DATA", str(other))
    assert main(["dicequest", "import", str(given)]) == 0
    out = capsys.readouterr().out
    assert "kept 'Goblin Cave'" in out and "kept 'Rat Cellar'" in out
    assert sorted(c.id for c in catalogue.load(other)) == ["goblin-cave", "rat-cellar"]
    assert given.stat().st_mtime_ns == before
    assert main(["dicequest", "import", str(given)]) == 0
    assert "replaced 'Goblin Cave'" in capsys.readouterr().out
    assert set(_tree(tmp_path / "usb")) == {"cards.toml"}


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("[[adventure]]\nid = 'x'\nname = 'X'\nact = 1\nparty = 9\n", "field 'party'"),
        ("[[adventure]\n", "cards.toml: "),
        ("a = " + "[" * 50000 + "]" * 50000, "nested too deeply"),
        ("n = " + "9" * 5000, "a value cannot be read"),
        ("[[monster]]\nid = 'x'\n", "unknown table [[monster]]"),
        ("# nothing\n", "no [[quest]] or [[adventure]] card in it"),
        (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    ],
)
def test_a_bad_import_keeps_nothing_and_says_why_in_one_line(
    tmp_path: Path,
    isolated_data: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | bytes,
    says: str,
) -> None:
    given = tmp_path / "cards.toml"
    good = "[[quest]]\nid = 'good'\nname = 'Good'\nact = 1\nparty = 1\n\n"
    if isinstance(content, bytes):
        given.write_bytes(content)
    else:
        given.write_text(good + content if "party = 9" in content else content)
    assert main(["dicequest", "import", str(given)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert catalogue.load(isolated_data) == ()  # not even the good card before the bad


def test_an_import_that_is_too_big_or_missing_is_refused(
    tmp_path: Path, isolated_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (catalogue.MAX_FILE_BYTES + 1))
    assert main(["dicequest", "import", str(big)]) == 2
    assert "over 1 MB" in capsys.readouterr().err
    assert main(["dicequest", "import", str(tmp_path / "none.toml")]) == 2
    assert "cannot be read" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["../../x", "/tmp/x", "a/b", "..", ""])
def test_an_export_name_is_a_name_never_a_path(
    tmp_path: Path, isolated_data: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    cards.add(isolated_data, parse_line(GOBLIN_CAVE))
    before = _tree(tmp_path)
    assert main(["dicequest", "export", name]) == 2
    assert "is not an export name" in capsys.readouterr().err
    assert _tree(tmp_path) == before


def test_an_export_through_a_planted_link_is_refused(
    tmp_path: Path, isolated_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards.add(isolated_data, parse_line(GOBLIN_CAVE))
    outside = tmp_path / "etc"
    outside.mkdir()
    (isolated_data / "dicequest" / "exports").symlink_to(outside)
    assert main(["dicequest", "export"]) == 2
    assert "link" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
