"""What the player's own ability does to the Boss (issue 16, item 2), read from the
same hero files the Boss plays by (``heroes/*.toml``): damage, undefendable, tokens,
the extra roll, and the player's defence."""

from __future__ import annotations

from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.player_abilities import attack, defence, extra_roll, prevented


def _met(hero_id: str, ability_id: str, values: list[int]):
    hero = load_hero(hero_id)
    ability = hero.ability(ability_id)
    tier = ability.met_tier(values)
    assert tier is not None
    return hero, ability, tier


def test_smack_with_five_swords_is_its_highest_tier() -> None:
    hero, ability, tier = _met("barbarian", "smack", [1, 1, 2, 2, 3])
    outcome = attack(hero, ability, tier, [1, 1, 2, 2, 3], {}, 0)
    assert outcome.damage == 8 and not outcome.undefendable and not outcome.ultimate


def test_an_undefendable_ability_and_the_ultimate() -> None:
    values = [1, 2, 6, 6, 4]  # 2 Sword + 2 Pow: Sturdy Blow, undefendable
    hero, ability, tier = _met("barbarian", "sturdy-blow", values)
    assert attack(hero, ability, tier, values, {}, 0).undefendable
    hero, ability, tier = _met("barbarian", "rage", [6, 6, 6, 6, 6])
    outcome = attack(hero, ability, tier, [6] * 5, {}, 0)
    assert outcome.ultimate and outcome.undefendable and outcome.damage > 0


def test_moon_elf_inflicts_on_the_boss_and_gains_for_the_player() -> None:
    values = [1, 2, 3, 4, 5]  # a large straight
    hero = load_hero("moon_elf")
    met = hero.met_abilities(values)
    assert met
    ability, tier = next((a, t) for a, t in met if "blinded" in t.inflict or t.gain)
    outcome = attack(hero, ability, tier, values, {}, 0)
    assert set(tier.inflict) <= set(outcome.effects.inflict)
    assert set(tier.gain) <= set(outcome.effects.gain)


def test_an_extra_roll_adds_its_sum() -> None:
    hero, _, tier = _met("barbarian", "overpower", [1, 2, 3, 6, 6])
    assert tier.roll_dice == 3
    damage, effects = extra_roll(hero, tier, [6, 5, 4])
    assert damage == 15 and effects.inflict == ["concussion"]  # 14 or more: Concussion
    damage, effects = extra_roll(hero, tier, [1, 1, 1])
    assert damage == 3 and effects.inflict == []


def test_the_players_defence_heals_and_prevents() -> None:
    hero = load_hero("barbarian")
    thick_skin = hero.defense()
    shown, texts = defence(hero, thick_skin, [4, 5, 1])  # 2 Heart: heal 2 each
    assert shown.heal == 4 and texts == []
    elf = load_hero("moon_elf")
    shown, _ = defence(elf, elf.defense(), [4, 4, 1, 1, 1])
    feet = sum(1 for v in (4, 4, 1, 1, 1) if elf.faces[v] == "foot")
    assert shown.prevent_half == (feet >= 2)
    assert prevented(9, shown) == (4 if feet >= 2 else 9)  # half of 9, rounded up, is 5
