"""The player's own Offensive Roll (issue 16, item 2): which abilities the dice make,
and the exact chance of each after the next re-roll with the best keep for it.

Fan solo mode v3.2, 4. Step 2: "Play a classic Dice Throne turn" (up to 3 Roll
Attempts, keeping any dice between them); the chances are exact fractions, checked
here against counts done by hand."""

from __future__ import annotations

from fractions import Fraction

from dicetable.rules.dicethrone.ability_odds import ability_chances
from dicetable.rules.dicethrone.heroes import hero_ids, load_hero


def _by_name(hero: str, dice: list[int], rerolls: int) -> dict:
    return {c.ability.name: c for c in ability_chances(load_hero(hero), dice, rerolls)}


def test_what_the_dice_make_now_and_after_the_next_reroll() -> None:
    # Barbarian: 1-3 Sword, 4-5 Heart, 6 Pow
    found = _by_name("barbarian", [1, 1, 4, 5, 6], 2)
    smack = found["Smack"]  # 3 Sword: keep the two Swords, one of 3 dice must be a Sword
    assert smack.met is None and smack.chance == 1 - Fraction(1, 2) ** 3
    assert smack.keep == (0, 1)
    # a small straight from 1 2 3 6 6: keep 1 2 3, a 4 on one of two dice (11/36)
    straight = _by_name("barbarian", [1, 2, 3, 6, 6], 1)["Mighty Blow"]
    assert straight.chance == 1 - Fraction(5, 6) ** 2
    assert sorted(straight.keep) == [0, 1, 2]
    # met now: chance 1, every die kept, the highest tier met
    met = _by_name("barbarian", [1, 2, 3, 3, 6], 2)["Smack"]
    assert met.met is not None and met.met.damage == 6 and met.chance == 1
    assert met.keep == (0, 1, 2, 3, 4)


def test_met_abilities_come_first_in_board_order_then_the_likeliest() -> None:
    chances = ability_chances(load_hero("barbarian"), [1, 2, 3, 4, 5], 1)
    met = [c for c in chances if c.met is not None]
    assert chances[: len(met)] == met
    board = load_hero("barbarian").met_abilities([1, 2, 3, 4, 5])
    assert [c.ability.id for c in met] == [a.id for a, _ in board]
    rest = [c.chance for c in chances[len(met) :]]
    assert rest == sorted(rest, reverse=True)


def test_with_no_reroll_left_only_what_is_met_counts() -> None:
    chances = ability_chances(load_hero("barbarian"), [1, 1, 4, 5, 6], 0)
    assert {c.chance for c in chances} == {0}


def test_every_hero_has_odds_for_every_offensive_ability() -> None:
    for hero_id in hero_ids():
        hero = load_hero(hero_id)
        chances = ability_chances(hero, [1, 2, 3, 4, 6], 1)
        offensive = [a for a in hero.board() if a.kind != "defensive"]
        assert len(chances) == len(offensive)
        assert all(0 <= c.chance <= 1 for c in chances)
