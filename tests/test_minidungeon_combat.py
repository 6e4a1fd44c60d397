"""Mini Dungeon Adventures: the combat assistant (issue 7, must show 3): attacks,
critical hits, defence actions and what a hit does. Each test quotes the rulebook line
it checks (``shared/seeds/mini-dungeon-adventures.txt``)."""

from __future__ import annotations

from fractions import Fraction

from test_minidungeon_helpers import (
    answer,
    give,
    in_room,
    monster,
    option_ids,
    party,
    run,
    texts,
)

from dicetable.rules.core import Actor, PromptKind
from dicetable.rules.minidungeon import (
    defence,
    dungeon,
    hero_turn,
    monsters_turn,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack, d3


def test_six_always_hits_one_always_misses_and_ties_miss():
    """ "If the attack strength is greater than the enemy's toughness, then it is a hit";
    "Any die roll of a 6 ... hits automatically"; "Any die roll of a 1 is a critical miss"."""
    assert Attack(1, 20).resolve(6) == (True, True)
    assert Attack(20, 1).resolve(1) == (False, False)
    assert Attack(4, 7).resolve(3) == (False, False)  # 4 + 3 = 7 is not greater than 7
    assert Attack(4, 7).resolve(4) == (True, False)
    assert Attack(4, 7).odds() == Fraction(1, 2) and Attack(4, 7).needs() == 4
    assert Attack(0, 20, crit_on=5).resolve(5) == (True, True)  # Poisoned Blade: 5+
    assert Attack(20, 1, miss_on=2).resolve(2) == (False, False)  # Loud Noises
    assert [d3(r) for r in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_a_hero_attack_is_a_plus_weapon_plus_d6_and_pays_speed_and_bounty():
    """ "comparing the attacking figure's attack (A) value, any bonuses granted by
    equipment and roll a D6"; "Melee attacks cost 1 speed point"; "Killing a small
    monster: +1 gold"; a Skeleton may Dodge (5+, not against critical hits)."""
    game = party(("fighter", "mage"))
    fighter = game.heroes[0]
    give(game, fighter, "sword")
    fighter.speed_left = 5
    skeleton, _ = in_room(game, 1, "skeleton", "skeleton")
    run(game, hero_turn.do_attack(game, fighter, ""))
    assert option_ids(game) == [f"m{m.uid}" for m in game.room.monsters]
    answer(game, f"m{skeleton.uid}")
    prompt = game.prompt()
    assert prompt.kind is PromptKind.ROLL and prompt.dice.count == 1 and prompt.dice.profile == "d6"
    assert str(prompt.objective).startswith("4+") and prompt.odds == Fraction(1, 2)
    answer(game, 4)  # 3 + 1 (sword) + 4 = 8 > 7
    assert game.prompt().actor is Actor.BOSS and "dodges" in str(game.prompt().text)
    events = answer(game, 4)  # the dodge fails
    assert "Skeleton 1 is defeated." in texts(events)
    assert fighter.speed_left == 4 and fighter.attacks_made == 1
    assert game.gold == 1


def test_critical_hits_cannot_be_dodged_and_weapons_change_damage():
    """ "Dodge ... may not be used against critical hits"; Greatsword: "Enemies hit by this
    weapon lose 2 health instead of 1"; Warhammer: "Critical hits cause enemies to lose 2
    health"."""
    game = party(("fighter", "mage"))
    fighter = game.heroes[0]
    give(game, fighter, "warhammer")
    troll, skeleton = in_room(game, 3, "troll", "skeleton")
    mode = fig.attack_modes(fighter, game.book)[0]
    run(game, hero_turn.hero_attack(game, fighter, troll, mode))
    answer(game, 5)  # 3 + 1 + 5 = 9 > 8: a hit, not critical
    assert troll.health == 2
    run(game, hero_turn.hero_attack(game, fighter, troll, mode))
    answer(game, 6)  # critical: 2 health
    assert troll not in game.room.monsters and game.gold == 3  # "large monster: +3 gold"
    run(game, hero_turn.hero_attack(game, fighter, skeleton, mode))
    answer(game, 6)  # no dodge prompt against a critical hit
    assert skeleton not in game.room.monsters
    fighter.hands = []
    give(game, fighter, "greatsword")
    troll = monster(game, "troll")
    great = fig.attack_modes(fighter, game.book)[0]
    assert (great.bonus, great.cost, great.damage) == (2, 2, 2)
    run(game, hero_turn.hero_attack(game, fighter, troll, great))
    answer(game, 4)
    assert troll.health == 1


def test_guard_shield_blocks_the_first_damage_each_round():
    """Guard: "1st damage is blocked by shield per round"."""
    game = party()
    fighter = game.heroes[0]
    (guard,) = in_room(game, 7, "guard")
    mode = fig.UNARMED
    run(game, hero_turn.hero_attack(game, fighter, guard, mode))
    events = answer(game, 6)
    assert guard.health == 2 and any("shield blocks" in t for t in texts(events))
    run(game, hero_turn.hero_attack(game, fighter, guard, mode))
    answer(game, 6)
    assert guard.health == 1


def test_zombies_gang_up_on_a_hero():
    """ "Zombies receive +1A against a hero for each other zombie that has attacked that
    hero in the same round"."""
    game = party()
    hero = game.heroes[0]
    first, second, third = in_room(game, 1, "zombie", "zombie", "zombie")
    assert monsters_turn.monster_attack_profile(game, first, hero, False).strength == 4
    hero.zombie_attackers = {first.uid, second.uid}
    assert monsters_turn.monster_attack_profile(game, third, hero, False).strength == 6
    assert monsters_turn.monster_attack_profile(game, first, hero, False).strength == 5


def test_no_save_follows_a_failed_one():
    """ "once a save is failed you cannot attempt another save for that particular
    attack"; "Dodge - Costs 1 speed point. Make a 5+ saving throw"."""
    game = party(("fighter", "thief"))
    hero = game.heroes[0]
    give(game, hero, "small_shield")
    hero.speed_left = 5
    hero.health = 5
    run(game, defence.hit_hero(game, hero, 1, crit=False, ranged=False, source=None))
    assert set(option_ids(game)) >= {"take", "dodge", "shield:small_shield"}
    answer(game, "dodge", 4)  # fails: 4 < 5
    assert game.prompt().kind is PromptKind.OVER  # no second save offered
    assert hero.health == 4 and hero.speed_left == 4


def test_a_successful_shield_leaves_the_rest_of_a_smash():
    """Troll: "Smash: Hits scored by this monster inflict 2 damage"; Small Shield: "1 speed
    to use prevents 1 health loss with 3+ save"; a critical hit cannot be dodged."""
    game = party()
    hero = game.heroes[0]
    give(game, hero, "small_shield")
    hero.speed_left = 5
    hero.health = 5
    (troll,) = in_room(game, 3, "troll")
    run(game, monsters_turn.monster_strike(game, troll, hero, 6, ranged=False))
    assert "dodge" not in option_ids(game)  # critical
    answer(game, "shield:small_shield", 3)
    assert "1 damage" in str(game.prompt().text)
    answer(game, "take")
    assert hero.health == 4 and hero.speed_left == 4


def test_patchwork_stuns_and_halves_next_round_speed():
    """Patchwork: "Stun: Heroes that take damage from this monster lose half their speed
    for the next round"."""
    game = party()
    hero = game.heroes[0]
    hero.speed_left = 0
    (patchwork,) = in_room(game, 3, "patchwork")
    run(game, monsters_turn.monster_strike(game, patchwork, hero, 6, ranged=False))
    assert hero.stunned
    game.room.monsters.clear()
    run(game, dungeon.round(game))
    assert hero.speed_left == fig.full_speed(hero, game.book) - fig.full_speed(hero, game.book) // 2
