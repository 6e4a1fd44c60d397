"""Rules found wrong in review, each checked against the rulebook line it breaks
(shared/seeds/dicequest.txt, sections cited per test)."""

from __future__ import annotations

from dicetable.device.answers import parse
from dicetable.rules.dicequest.data import hero_kinds, threat_deck
from dicetable.rules.dicequest.game import Dicequest
from dicetable.rules.dicequest.party import Hero

KINDS = {k.id: k for k in hero_kinds()}
ACT1 = (
    '[[adventure]]\nid = "a1"\nname = "Goblin Camp"\nact = 1\nparty = [0, 3]\n'
    'require = [{ symbol = "sword", count = 1 }]\nlight = 1\nrewards = [3]\n'
)


def answer(game: Dicequest, *lines: str) -> list:
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def solo(difficulty: str = "practice", catalogue: str = "") -> Dicequest:
    game = Dicequest(2, {"catalogue": ACT1 + catalogue})
    answer(game, "coop", "1", difficulty, "a1")
    return game


def test_wounds_are_placed_in_any_order():
    """Wound Step, Assign wounds: "Place wounds: In any order. One at a time." The
    Pirate soaks the Light Wound before the Deadly one defeats her, so the
    Blademaster goes home unhurt (deadly first would force the Light onto him)."""
    game = solo()
    game.players[0].heroes = [Hero(KINDS["pirate"], True), Hero(KINDS["blademaster"], True)]
    answer(game, "quest", "stormcaller", "roll", "red:blank blue:blank", "done")
    assert game.stage == "assign" and "Deadly" in str(game.prompt().text)
    answer(game, "first-light")
    assert "Light Wound (2 left)" in str(game.prompt().text)
    answer(game, "hero1", "hero1")  # Light on the Pirate, then the Deadly on her too
    pirate_gone = [h.name for h in game.players[0].heroes]
    assert pirate_gone == ["Blademaster"] and game.players[0].heroes[0].light == 0


def test_a_banned_colour_is_not_offered_as_a_supplier():
    """Reference: Symbols: "You cannot roll any die of a marked color for this
    Quest": the hint must not send the player to a die they may not roll."""
    game = solo("normal")
    game.threat = next(c for c in threat_deck()[0] if c.color == "yellow")
    answer(game, "ok")
    game.players[0].heroes = [Hero(KINDS["pirate"], True), Hero(KINDS["blademaster"], True)]
    answer(game, "quest", "stormcaller")
    assert "wand: yellow" not in str(game.prompt().text)
    answer(game, "roll", "red:2-swords blue:arrow")
    hint = str(game.prompt().text)
    assert "missing 1 wand" in hint and "yellow" not in hint
    assert "wand: abilities and Items only" in hint


def test_a_failed_quest_still_gives_a_guaranteed_level_up():
    """Reward Step, If you fail: "Gain all the Guaranteed Rewards"; Level Up: "Flip
    one of your Active Apprentice Heroes to their Expert side"."""
    card = (
        '[[quest]]\nid = "trial"\nname = "Trial"\nact = 1\nparty = 1\n'
        'require = [{ symbol = "wand", count = 1 }]\nguaranteed = { level_up = 1 }\n'
    )
    game = solo(catalogue=card)
    game.players[0].heroes = [Hero(KINDS["pirate"], expert=False)]
    answer(game, "quest", "trial", "roll", "blue:blank", "done")
    assert game.stage == "level_up"
    answer(game, "hero1")
    assert game.players[0].heroes[0].expert


def test_discarded_threat_tokens_leave_the_reward_step_prompt():
    """Threat Phase and Cards: Threat tokens are discarded by spending excess
    symbols; a discarded token is no longer on the Adventure."""
    game = solo()
    game.adventure_tokens = [("sword",), ("arrow",)]
    game.round = 3
    game.players[0].heroes = [Hero(KINDS["akimo"], True)]
    answer(game, "quest", "a1", "in1", "done", "roll", "red:2-swords blue:arrow", "done", "hero1")
    assert game.stage == "discard"
    answer(game, "token1")
    assert game.stage == "discard"
    text = str(game.prompt().text)
    assert "On the Adventure: arrow." in text


def test_the_wound_step_says_a_kept_shield_can_discard_threat():
    """Threat Phase and Cards: "Shields in your result may be used to discard Threat
    tokens instead of preventing wounds": the Wound Step, where a Shield is used or
    kept, names the Threat tokens it could discard."""
    game = solo()
    game.adventure_tokens = [("arrow", "wand")]
    game.round = 3
    game.players[0].heroes = [Hero(KINDS["blademaster"], True)]
    answer(game, "quest", "a1", "in1", "done", "roll", "red:shield")
    answer(game, "ability-add", "red", "red:sword", "done")
    assert game.stage == "block"
    assert "discard a Threat token instead: arrow + wand" in str(game.prompt().text)


def test_each_level_up_reward_flips_one_active_apprentice():
    """Reward Step: "Level Up - Flip one of your Active Apprentice Heroes to their
    Expert side": a card showing 2 Level Ups flips two."""
    card = (
        '[[quest]]\nid = "trial"\nname = "Trial"\nact = 1\nparty = 2\n'
        "require = []\nsuccess = { level_up = 2 }\n"
    )
    game = solo(catalogue=card)
    game.players[0].heroes = [Hero(KINDS["pirate"], False), Hero(KINDS["scavenger"], False)]
    answer(game, "quest", "trial", "roll", "blue:arrow blue:arrow", "done")
    answer(game, "hero1")
    assert game.stage == "level_up"
    answer(game, "hero2")
    assert all(h.expert for h in game.players[0].heroes)


def test_the_hint_names_a_die_that_could_roll_more_of_the_missing_symbol():
    """Example: Quest, step 8: "You choose the yellow die, as it's the only one that
    could give you the missing symbol": a red die on 1 Sword, with a Sword still
    missing, could roll 2 Swords, so it is a die to reroll."""
    game = solo()
    game.players[0].heroes = [Hero(KINDS["pirate"], True), Hero(KINDS["blademaster"], True)]
    answer(game, "quest", "stormcaller", "roll", "red:sword blue:arrow")
    hint = str(game.prompt().text)
    assert "dice to reroll: 1;" in hint and "no die in the pool" not in hint
