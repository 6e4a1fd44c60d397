"""Solo-mode decks as data (issue 4 item 5): the project's own cards for the four
bosses, validated on load, covering every objective on each board and every effect."""

import pytest

from dicetable.rules.dicethrone.decks import (
    BONUS_KINDS,
    REINFORCEMENT_KEYS,
    deck_ids,
    load_decks,
    parse_decks,
)
from dicetable.rules.dicethrone.heroes import HeroDataError, load_hero
from dicetable.rules.dicethrone.solo import BOSSES


def test_all_four_bosses_have_both_decks():
    """Fan solo mode v3.2, 3.: "2 decks are automatically generated": Boss AI and Action."""
    assert set(deck_ids()) == set(BOSSES)


@pytest.mark.parametrize("boss", BOSSES)
def test_every_offensive_ability_is_some_ai_cards_objective(boss):
    """Each ability of the boss's printed board can be the turn's Roll Objective."""
    decks, hero = load_decks(boss), load_hero(boss)
    objectives = {card.objective for card in decks.ai}
    for ability in hero.board():
        if ability.kind != "defensive":
            assert objectives & {t.objective for t in ability.tiers}, ability.name


@pytest.mark.parametrize("boss", BOSSES)
def test_every_bonus_colour_and_reinforcement_occurs(boss):
    """4. Income phase: reinforcement (with D) and the Active Player's bonus; 4. Main
    phase: blue and orange cards."""
    decks = load_decks(boss)
    assert {c.bonus for c in decks.action} == set(BONUS_KINDS)
    assert {c.colour for c in decks.action} == {"blue", "orange"}
    kinds = {c.reinforcement.key for c in decks.ai if c.reinforcement}
    assert kinds == set(REINFORCEMENT_KEYS)
    assert any(c.reinforcement is None for c in decks.ai)
    assert any(c.reinforcement and c.reinforcement.amount.per_d for c in decks.ai)


def test_a_typed_in_deck_is_checked_card_by_card():
    deck = {
        "boss": "barbarian",
        "ai": [{"name": "Mine", "objective": "3 axe"}],
        "action": [],
    }
    with pytest.raises(HeroDataError, match=r"mine.toml: ai\[0\] \(Mine\).objective"):
        parse_decks(deck, "mine.toml")
    deck["ai"] = [{"name": "Mine", "objective": "3 sword", "reinforcement": {"inflict": "evasive"}}]
    with pytest.raises(HeroDataError, match="not a negative token"):
        parse_decks(deck, "mine.toml")
    deck["ai"] = [{"name": "Mine", "objective": "3 sword"}]
    deck["action"] = [{"name": "A", "colour": "red", "cost": 1, "bonus": {}, "effect": {}}]
    with pytest.raises(HeroDataError, match=r"action\[0\] \(A\).colour"):
        parse_decks(deck, "mine.toml")
    deck["action"] = [
        {
            "name": "A",
            "colour": "blue",
            "cost": 1,
            "bonus": {"kind": "salve"},
            "effect": {"heal": 2},
        }
    ]
    assert parse_decks(deck, "mine.toml").action[0].describe().startswith("Blue (Main Phase), 1 CP")


def test_card_text_for_the_screen_applies_d():
    card = next(c for c in load_decks("barbarian").ai if c.name == "Iron Will")
    assert (
        card.describe(2) == "Roll Objective: 3 sword. Reinforcement: the Boss gains 2 King's Hand."
    )
