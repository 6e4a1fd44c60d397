"""Issue 15 item 6: `dicetable odds` reads as a person reads odds: a percentage
("26.1%"), the fraction only with --exact; the dice to keep named by their values;
and the README's own example, `dicetable odds "3 sword"`, runs as written (the
Barbarian's dice unless --hero names another), or says which --hero to give."""

from __future__ import annotations

from dicetable.device.cli import main
from dicetable.device.commands.odds import percent


def test_percentages_as_people_read_them() -> None:
    assert [percent(x) for x in (0.013, 0.2611, 0.5, 1.0, 0.0, 0.0004)] == [
        "1.3%",
        "26.1%",
        "50%",
        "100%",
        "0%",
        "<0.1%",
    ]


def test_the_readme_example_runs_as_written(capsys) -> None:
    assert main(["odds", "3 sword"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 sword: 98.4%\n") and "Barbarian's dice (--hero for another)" in out
    assert "/" not in out.splitlines()[0]  # no fraction unless --exact
    assert main(["odds", "large straight"]) == 0
    assert capsys.readouterr().out.startswith("large straight: 26.1%\n")


def test_a_symbol_no_hero_shows_says_which_hero_to_give(capsys) -> None:
    assert main(["odds", "3 axe"]) == 2
    err = capsys.readouterr().err
    assert "names symbols of no hero: give --hero (" in err and "barbarian," in err
    assert "Traceback" not in err


def test_the_dice_to_keep_are_named_by_value(capsys) -> None:
    args = ["odds", "small straight", "--dice", "1", "2", "3", "6", "6", "--rolls", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "keep 1 2 3; re-roll the other 2" in out and "dice 1, 2" not in out
