"""The player's Dicequest catalogue: cards typed in once and kept under the data
folder, validated with errors naming the file, the entry and the field, and given to
a game as a snapshot so a saved game never changes when the catalogue does."""

from __future__ import annotations

import re
from pathlib import Path

from dicetable.device import dicequest_cards as cards
from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.data import parse_cards
from dicetable.rules.dicequest.game import Dicequest

GOBLINS = """
[[adventure]]
id = "goblin-camp"
name = "Goblin Camp"
act = 1
party = [1, 3]
require = [{ symbol = "sword", count = 2 }, { symbol = "arrow", count = 1 }]
light = 2
rewards = [5, 3, 1]
"""


def test_cards_are_kept_listed_and_forgotten(isolated_data: Path):
    card = parse_cards(GOBLINS, "x")[0]
    path = cards.add(isolated_data, card)
    assert path == isolated_data / "dicequest" / "cards" / "goblin-camp.toml"
    assert catalogue.load(isolated_data) == (card,)
    assert cards.remove(isolated_data, "goblin-camp")
    assert catalogue.load(isolated_data) == ()
    assert not cards.remove(isolated_data, "goblin-camp")


def test_a_bad_file_is_named_with_its_entry_and_field(isolated_data: Path):
    folder = catalogue.cards_dir(isolated_data)
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text('[[quest]]\nid = "q"\nname = "Q"\nact = 1\nparty = 9\n')
    (problem,) = catalogue.read(isolated_data).problems
    assert re.search(r"mine.toml: \[\[quest\]\] 'q': field 'party'", problem)
    assert catalogue.load(isolated_data) == ()  # left out, and the rest still loads


def test_the_command_line_keeps_cards_and_plays_with_them(
    tmp_path: Path, isolated_data: Path, capsys
):
    source = tmp_path / "cards.toml"
    source.write_text(GOBLINS)
    assert main(["dicequest", "add", str(source)]) == 0
    assert main(["dicequest", "check"]) == 0
    assert main(["dicequest", "cards"]) == 0
    assert "goblin-camp" in capsys.readouterr().out
    script = tmp_path / "s.txt"
    script.write_text("coop\n1\npractice\ngoblin-camp\n")
    assert main(["dicequest", "play", "--seed", "4", "--script", str(script)]) == 0
    assert "Adventure revealed: Goblin Camp." in capsys.readouterr().out
    # the game keeps its snapshot: forgetting the card does not break the saved game
    assert main(["dicequest", "remove", "goblin-camp"]) == 0
    session = TableSession.resume(Store.in_dir(isolated_data), 1)
    assert session.game.adventure.name == "Goblin Camp"
    (catalogue.cards_dir(isolated_data) / "bad.toml").write_text("[[quest]]\nid = 3\n")
    assert main(["dicequest", "check"]) == 2
    assert "bad.toml: [[quest]] #1: field 'id'" in capsys.readouterr().err


def test_cards_typed_in_during_a_game_can_be_kept(isolated_data: Path, capsys):
    """ "the quest card they drew, typed in once, kept in a catalogue" (issue 6)."""
    store = Store.in_dir(isolated_data)
    session = TableSession.start(store, "dicequest", 1)
    answers = ["coop", "1", "practice", "type", "", "1", "3", "2", "0", "0", "0", "0", "0"]
    answers += ["2", "0", "0", "none", "required", "4", "2", "1"]
    for line in answers:
        session.submit(parse(line, session.prompt()))
    assert main(["dicequest", "keep", str(session.id)]) == 0
    kept = catalogue.load(isolated_data)
    assert [c.id for c in kept] == ["typed-adventure-1"] and kept[0].rewards == (4, 2, 1)
    assert kept[0].name == "Typed Adventure 1 (Act 1)"  # Enter took the name offered
    assert "kept" in capsys.readouterr().out


def test_corrected_dice_faces_reach_the_game(isolated_data: Path):
    """dice.toml is inferred; the player's own faces replace it."""
    path = catalogue.dice_file(isolated_data)
    path.parent.mkdir(parents=True)
    faces = '["blank", "sword", "sword", "sword", "sword", "2-swords"]'
    path.write_text(
        '[faces]\nblank = []\nsword = ["sword"]\n2-swords = ["sword", "sword"]\n'
        f"[colors]\nred = {faces}\nblue = {faces}\nyellow = {faces}\ngreen = {faces}\n"
    )
    game = Dicequest(1, {"catalogue": catalogue.snapshot(isolated_data)})
    assert game.dice.colors["blue"][1] == "sword" and not game.dice.inferred
    assert "rune" not in game.dice.faces


def test_a_session_listener_keeps_cards_typed_in_on_the_touchscreen(isolated_data: Path):
    """The screen's session subscribes ``dicequest_cards.keeper``: a card typed in once is
    in the catalogue for every later game."""
    session = TableSession.start(Store.in_dir(isolated_data), "dicequest", 2)
    session.subscribe(cards.keeper(isolated_data))
    answers = ["coop", "1", "practice", "type", "Goblin Cave", "0", "3", "1", "0", "0", "0"]
    answers += ["0", "0", "0", "1", "0", "none", "required", "3", "2", "1"]
    for line in answers:
        session.submit(parse(line, session.prompt()))
    kept = catalogue.load(isolated_data)
    assert [(c.id, c.name) for c in kept] == [("typed-adventure-1", "Goblin Cave")]
    later = Dicequest(3, {"catalogue": catalogue.snapshot(isolated_data)})
    assert "typed-adventure-1" in later.cards
