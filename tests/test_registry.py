"""Games are found by folder; one broken game package never takes the others down.
The dice sets games read with are found the same way (``DICE_SETS``)."""

import pytest

from dicetable import rules
from dicetable.device.i18n import translate
from dicetable.rules import registry
from dicetable.rules.dicequest.data import default_dice
from dicetable.rules.dicethrone.heroes import load_hero


@pytest.fixture
def fresh_registry():
    registry._load.cache_clear()
    registry._dice_sets.cache_clear()
    yield
    registry._load.cache_clear()
    registry._dice_sets.cache_clear()


def test_a_broken_game_package_is_reported_and_the_rest_still_load(
    tmp_path, monkeypatch, fresh_registry, caplog
):
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text("raise ValueError('decks/boss.toml: entry 3: no cost')\n")
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(tmp_path)])
    assert "dice-tray" in registry.games()
    assert registry.broken() == {"brokengame": "ValueError: decks/boss.toml: entry 3: no cost"}
    assert "game package brokengame not loaded" in caplog.text
    with pytest.raises(KeyError, match="brokengame failed to load: ValueError"):
        registry.game_class("brokengame")


def test_every_shipped_game_loads(fresh_registry):
    assert registry.broken() == {}
    assert "dice-tray" in registry.games()


def test_the_dice_sets_of_the_installed_games_name_their_faces_from_the_games_data(
    fresh_registry,
):
    """Issue 3, item 3: "a profile file names the faces, e.g. Dice Throne hero symbols":
    each set is named as the game's ROLL prompt asks for it, its faces come from the
    game's own data (a hero file's [faces], Dicequest's dice.toml), each look once."""
    sets = {dice.profile: dice for dice in registry.dice_sets()}
    assert {"d6", "dicequest", "dicethrone-barbarian", "dicethrone-pyromancer"} <= set(sets)
    barbarian = sets["dicethrone-barbarian"]
    hero = load_hero("barbarian")
    assert [(f.name, f.value) for f in barbarian.faces] == sorted(
        ((symbol, n) for n, symbol in hero.faces.items()), key=lambda face: face[1]
    )
    assert translate(barbarian.faces[0].label, "es") == "1: espada"
    assert translate(barbarian.title, "es") == "Dice Throne: dados de Bárbaro"
    quest = sets["dicequest"]
    dice = default_dice()
    # 4 colours x 6 faces, but fewer distinct looks: each is taught once, by name
    assert [f.name for f in quest.faces] == list(dice.faces)
    assert len(quest.faces) < sum(len(faces) for faces in dice.colors.values())
    assert all(f.value is None for f in quest.faces)  # read by symbol, not number
    assert translate(quest.faces[0].label, "es") == "vacía (en cualquier dado)"
    assert [f.value for f in sets["d6"].faces] == [1, 2, 3, 4, 5, 6]


def test_a_game_whose_dice_sets_fail_to_load_hides_only_its_own(
    tmp_path, monkeypatch, fresh_registry, caplog
):
    package = tmp_path / "brokendice"
    package.mkdir()
    (package / "__init__.py").write_text(
        "def DICE_SETS(data_dir):\n"
        "    raise ValueError('heroes/x.toml: faces: all of 1-6 are needed')\n"
    )
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(tmp_path)])
    assert "dicequest" in {dice.profile for dice in registry.dice_sets()}
    assert "dice sets of brokendice not loaded: ValueError: heroes/x.toml" in caplog.text


def test_dicequest_teaches_the_dice_the_player_corrected(tmp_path, fresh_registry, caplog):
    """rules/dicequest/data/dice.toml: "Correct it for your copy: put a file with the
    same tables in <data folder>/dicequest/dice.toml ... the camera's teach mode learns
    the real faces": the set taught is the corrected one; a broken correction is
    said in the log and the shipped faces are taught, as a game would play them."""
    corrected = tmp_path / "dicequest" / "dice.toml"
    corrected.parent.mkdir()
    corrected.write_text(
        '[faces]\nblank = []\nsword = ["sword"]\narrow-wand = ["arrow", "wand"]\n'
        "[colors]\n"
        'red = ["blank", "sword", "sword", "sword", "sword", "blank"]\n'
        'blue = ["blank", "arrow-wand", "arrow-wand", "sword", "sword", "blank"]\n'
    )
    sets = {dice.profile: dice for dice in registry.dice_sets(tmp_path)}
    quest = sets["dicequest"]
    assert [f.name for f in quest.faces] == ["blank", "sword", "arrow-wand"]
    assert translate(quest.faces[2].label, "en") == "arrow-wand (on a blue die)"
    corrected.write_text("[faces]\nblank = 3\n")
    sets = {dice.profile: dice for dice in registry.dice_sets(tmp_path)}
    assert [f.name for f in sets["dicequest"].faces] == list(default_dice().faces)
    assert "Dicequest dice not corrected" in caplog.text


def test_dicequest_faces_are_named_in_words_in_english_too(fresh_registry):
    """The teach flow asks for each face by name: "2 swords (on a red die)", as the
    rulebook says them ("1-Sword and 2-Swords"; "an Arrow and a Rune", Example:
    Adventure, step 8), not the data file's ids ("2-swords", "arrow-rune")."""
    quest = {dice.profile: dice for dice in registry.dice_sets()}["dicequest"]
    labels = {face.name: translate(face.label, "en") for face in quest.faces}
    assert labels["2-swords"] == "2 swords (on a red die)"
    assert labels["arrow-rune"] == "arrow and rune (on a blue die)"
    assert not [label for label in labels.values() if "-" in label], labels
