"""The rulebook's two worked examples, step by step, to their printed results
(shared/seeds/dicequest.txt, "Example: Quest" and "Example: Adventure")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dicetable.device.answers import parse
from dicetable.rules.core import EventKind, Input
from dicetable.rules.dicequest.data import hero_kinds, shipped_cards
from dicetable.rules.dicequest.game import Dicequest
from dicetable.rules.dicequest.party import Hero

KINDS = {k.id: k for k in hero_kinds()}
CARDS = {c.id: c for c in shipped_cards()}


def answer(game: Dicequest, *lines: str) -> list:
    """Answer prompts as the terminal would read them; return all events."""
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def missing(game: Dicequest) -> dict[str, int]:
    return game.view()["attempt"]["missing"]


def solo_at_tavern(seed: int = 1) -> Dicequest:
    """Solo Practice (no Threat Phase) with an Act I Adventure from the catalogue."""
    catalogue = (
        '[[adventure]]\nid = "a1"\nname = "Goblin Camp"\nact = 1\nparty = [0, 3]\n'
        'require = [{ symbol = "sword", count = 1 }]\nrewards = [3]\n'
    )
    game = Dicequest(seed, {"catalogue": catalogue})
    answer(game, "coop", "1", "practice", "a1")
    assert game.stage == "tavern"
    return game


def test_example_quest_stormcaller():
    """Example: Quest, steps 1-17: Pirate + wounded Blademaster + Arcane Potion roll
    1 blue, 2 red, 1 yellow; the Wand comes from the Staff of Lightning's Rune; the
    Shield blocks the Deadly Wound; the Pirate takes the Light Wound and lives;
    2 Gold and 3 VP, the Reroll token stays used, no Gold on the card."""
    game = solo_at_tavern()
    player = game.players[0]
    player.heroes = [
        Hero(KINDS["pirate"], expert=True),
        Hero(KINDS["blademaster"], expert=True, light=1),  # "the Blademaster is wounded"
    ]
    answer(game, "quest", "stormcaller")  # steps 1-2: Party Size 2, both go
    # step 3: "Dice Pool: 1 blue die, 2 red dice" (Blademaster: if wounded, +1 red die)
    assert sorted(game.view()["attempt"]["pool"]) == ["blue", "red", "red"]
    assert "wand: yellow" in str(game.prompt().text)  # which dice could give the Wand
    answer(game, "add-yellow")  # step 5: the Arcane Potion adds 1 yellow die
    assert sorted(game.view()["attempt"]["pool"]) == ["blue", "red", "red", "yellow"]
    answer(game, "roll")
    roll = game.prompt()
    assert roll.dice.count == 4 and roll.odds is not None and 0 < roll.odds < 1
    answer(game, "red:2-swords red:shield blue:arrow yellow:blank")  # step 7
    assert missing(game) == {"wand": 1}  # "you are missing one Wand symbol"
    assert "wand: yellow, green" not in str(game.prompt().text)
    assert "dice to reroll: 4" in str(game.prompt().text)
    assert game.prompt().odds == Fraction(1, 2)  # yellow: wand, wand, wand-rune of six
    answer(game, "ability-reroll", "die4", "yellow:blank")  # step 8: Pirate, 2 Gold
    assert missing(game) == {"wand": 1}
    assert player.reroll_active
    answer(game, "reroll-token", "die4", "go")  # step 9: the Reroll token
    assert game.prompt().keep == (0, 1, 2)
    answer(game, "yellow:blank")
    assert not player.reroll_active and missing(game) == {"wand": 1}
    # step 10: Scroll of Shiny Rune -> 1 Rune -> Staff of Lightning -> a Wand
    answer(game, "gain-rune", "spend-rune", "symbol", "wand")
    assert missing(game) == {}
    answer(game, "done")
    # step 11: 1 Deadly + 1 Light; the rolled Shield blocks the Deadly Wound
    assert game.stage == "block"
    answer(game, "deadly")
    assert game.stage == "assign"
    events = answer(game, "hero1")  # step 12: the Light Wound goes to the Pirate
    assert player.heroes[0].light == 1 and not player.heroes[0].defeated
    assert [h.name for h in player.heroes] == ["Pirate", "Blademaster"]
    met = [e for e in events if e.kind == EventKind.OBJECTIVE_MET]
    assert met and met[0].data == {"vp": 3, "gold": 2}  # step 13: 2 Gold, 3 VP
    assert player.quests == ["Stormcaller"] and player.quest_vp == 3  # step 14
    assert any("Reveal a new Act 1 Quest" in str(e.text) for e in events)  # step 15
    assert not player.reroll_active  # step 16
    assert game.quest_gold["stormcaller"] == 0  # step 17


def test_stormcaller_failed_turns_the_reroll_token_and_puts_gold_on_the_card():
    """Reward Step, If you fail: Reroll token active, Guaranteed Rewards, 1 Gold on
    the Quest card; a later success takes that Gold."""
    game = solo_at_tavern()
    player = game.players[0]
    player.heroes = [Hero(KINDS["pirate"], expert=True), Hero(KINDS["blademaster"], expert=True)]
    player.reroll_active = False
    answer(game, "quest", "stormcaller", "roll", "red:blank blue:blank")
    events = answer(game, "done", "hero1", "hero2")  # no Shield: the Deadly defeats one
    assert any(e.kind == EventKind.OBJECTIVE_MISSED for e in events)
    assert player.reroll_active and game.quest_gold["stormcaller"] == 1
    assert [h.name for h in player.heroes] == ["Blademaster"]  # the Pirate fell


def competitive_at_death_dealer() -> Dicequest:
    game = Dicequest(3)
    answer(game, "competitive", "2")
    game.act, game.round = 3, 9
    game.adventure = CARDS["death-dealer"]
    game.stage = "tavern"
    for player in game.players:
        player.heroes = [
            Hero(KINDS["scavenger"], expert=True, light=1),
            Hero(KINDS["akimo"], expert=True, light=1),
            Hero(KINDS["ward-mage"], expert=True),
        ]
    return game


def test_example_adventure_death_dealer():
    """Example: Adventure, steps 1-17: 5 generic successes, 5 Light Wounds + 1
    Unblockable per Wand kept; Shield + Charm of Liothan + Ward Mage block 3; 3 Light
    Wounds taken (1 Unblockable); Scavenger and Akimo defeated, the Ward Mage lives;
    Adventure Score 2."""
    game = competitive_at_death_dealer()
    player = game.players[0]
    answer(game, "quest")
    # round 9 is an Adventure space: the Adventure is the only Quest offered
    assert [o.id for o in game.prompt().options] == ["death-dealer"]
    answer(game, "death-dealer")  # steps 1-2: Party Size 3, all go
    answer(game, "add-green")  # step 5: Dragonskin Potion
    # step 6: "2 blue, 1 red, 1 green, 1 yellow = 5 dice total"
    assert sorted(game.view()["attempt"]["pool"]) == ["blue", "blue", "green", "red", "yellow"]
    answer(game, "roll", "red:sword blue:blank blue:arrow green:shield yellow:wand")
    assert missing(game) == {"success": 1}  # step 7: missing one success
    answer(game, "ability-reroll", "die2", "blue:arrow-rune")  # step 8: Frost Knives
    assert missing(game) == {}
    answer(game, "ability-set", "die1", "2-swords")  # step 9: Akimo, Sword -> 2 Swords
    # step 10: Scroll of Shiny Rune -> Charm of Liothan prevents 1 Light Wound
    answer(game, "gain-rune", "spend-rune", "bonus", "prevent")
    # step 11: the blue die's Rune -> Ward Mage (its shown icon: a Shield)
    answer(game, "spend-rune", "die2", "symbol", "shield")
    attempt = game.view()["attempt"]
    assert attempt["symbols"].get("rune", 0) == 0  # spent Runes no longer count
    assert attempt["dice"][1]["locked"]
    assert missing(game) == {}  # step 12: defeated
    answer(game, "done")
    # step 13: 5 Light + 1 Unblockable; 3 blocked -> 3 Light Wounds, 1 Unblockable
    assert game.view()["attempt"]["wounds"] == {"light": 4, "deadly": 0, "unblockable": 1}
    answer(game, "light", "light")
    assert game.view()["attempt"]["wounds"] == {"light": 2, "deadly": 0, "unblockable": 1}
    assert game.stage == "assign" and "Unblockable" in str(game.prompt().text)
    # step 14: Scavenger and Akimo are defeated, the Ward Mage survives
    answer(game, "hero1")  # the Unblockable Light Wound on the Scavenger (2nd wound)
    answer(game, "hero2")  # Akimo (2nd wound)
    events = answer(game, "hero3")  # the Ward Mage
    assert [h.name for h in player.heroes] == ["Ward Mage"]
    assert game.adventure_scores[1] == 2  # step 15: "place your Reroll token on 2"
    assert any("Adventure Score 2" in str(e.text) for e in events)


@pytest.mark.parametrize(
    ("scores", "vp"),
    [((2, 1), (10, 6)), ((1, 1), (6, 6)), ((0, 3), (6, 10))],
)
def test_death_dealer_ranks_the_scores(scores, vp):
    """Example: Adventure, steps 16-17 and Completing Adventures: VP by rank, tied
    players both get the next reward."""
    game = competitive_at_death_dealer()
    game.round = 9
    for player, score in zip(game.players, scores, strict=True):
        game.turn = player.number - 1
        game.stage = "tavern"
        answer(game, "quest", "death-dealer", *(["add-red"] * score), "roll")
        # 2 Swords + 2 Arrows + 1 Wand meet the 5 successes; each extra Sword is excess
        answer(
            game,
            " ".join(["red:2-swords blue:arrow blue:arrow yellow:wand"] + ["red:sword"] * score),
        )
        while game.stage == "combat":
            answer(game, "done")
        while game.stage in ("block", "assign"):
            answer(game, game.prompt().options[0].id)
    assert [p.vp_tokens for p in game.players] == list(vp)


def test_unblockable_wounds_cannot_be_blocked():
    """Wound Step: "Unblockable wounds cannot be blocked with Shields"."""
    game = competitive_at_death_dealer()
    answer(game, "quest", "death-dealer", "add-green")
    answer(game, "roll", "red:2-swords blue:arrow blue:arrow green:2-shields yellow:wand")
    answer(game, "done", "light", "light")
    assert game.view()["attempt"]["wounds"] == {"light": 3, "deadly": 0, "unblockable": 1}
    assert Input.confirm  # the block prompt is gone: no Shield left
    assert game.stage == "assign"
