"""Mini Dungeon Adventures: the party between rooms (issue 7, must show 5): town,
wounds, the dark sacrifice, levels, event cards and items. Each test quotes the
rulebook line it checks (``shared/seeds/mini-dungeon-adventures.txt``)."""

from __future__ import annotations

from test_minidungeon_helpers import (
    answer,
    give,
    in_room,
    option_ids,
    party,
    run,
    texts,
)

from dicetable.rules.core import PromptKind
from dicetable.rules.minidungeon import (
    defence,
    dungeon,
    events,
    exploring,
    hero_turn,
    items,
    town,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.table import Room


def test_town_healing_shop_selling_and_the_gambling_ban():
    """Town card: "Heal each hero for 1 health for free or 3 health for 4 gold"; "Go
    gambling (costs 5 gold...)"; "Sell unused items and equipment for half of their store
    value"; "7- (gambling only) Banned from the establishment"; thief "+1" gambling."""
    game = party(("fighter", "thief"))
    fighter, thief = game.heroes
    give(game, fighter, "sword")
    fighter.health, thief.health = 1, 2
    game.gold = 10
    run(game, town.town(game, penalty=True))
    answer(game, None)
    ids = option_ids(game)
    assert {"heal:1", "paid:1", "heal:2", "paid:2", "gamble", "shop", "leave"} <= set(ids)
    assert "4 gold" in str(dict((o.id, o.label) for o in game.prompt().options)["paid:1"])
    answer(game, "paid:1")
    assert game.gold == 6 and fighter.health == 4
    assert "heal:1" not in option_ids(game)
    answer(game, "shop", "sell:1", "sword", "done")
    assert game.gold == 9 and "sword" not in fighter.hands
    answer(game, "gamble", "h2", 6)  # the thief: 6 + 1 = 7
    assert game.banned and game.gold == 4
    assert "gamble" not in option_ids(game)
    answer(game, "leave", None)
    assert game.retreats == 1


def test_town_prices_switch_to_the_rules_text():
    """Rules text: "up to 3 health for 2 gold"; "This costs 4 gold"."""
    game = party(options={"heal_price": "2", "gamble_price": "4"})
    game.heroes[0].health = 1
    game.gold = 4
    run(game, town.town(game, penalty=True))
    answer(game, None)
    labels = {o.id: str(o.label) for o in game.prompt().options}
    assert "2 gold" in labels["paid:1"] and "4 gold" in labels["gamble"]


def test_wounded_heroes_rejoin_after_a_retreat_and_all_down_loses():
    """ "If a hero drops to 0 health, they become wounded ... the wounded hero will rejoin
    the party at one health"; "If at any point all hero figures are wounded
    simultaneously, they are defeated and the dungeon boss has won"."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    fighter.health = 1
    run(game, defence.hurt(game, fighter, 1))
    assert fighter.wounded and game.prompt().kind is PromptKind.CONFIRM
    answer(game, None)
    assert not game.winner
    run(game, town.town(game, penalty=True))
    answer(game, None)
    assert not fighter.wounded and fighter.health == 1
    mage.health = fighter.health = 1
    run(game, defence.hurt(game, fighter, 1))
    answer(game, None)
    run(game, defence.hurt(game, mage, 2))
    answer(game, None)
    assert game.winner == "boss" and mage.health == 0


def test_love_interest_and_the_power_of_love():
    """Love Interest: "When reduced to 0 health, roll a dice. On a 5+, you get 1 health
    back from the power of love"."""
    game = party()
    hero = game.heroes[0]
    hero.motivation = "love_interest"
    run(game, defence.hurt(game, hero, hero.health))
    assert game.prompt().kind is PromptKind.ROLL
    answer(game, 5)
    assert hero.health == 1 and not hero.wounded


def test_the_dark_sacrifice_completes_after_five_rounds():
    """ "If the heroes cannot reach the center tile within five rounds, then the ritual
    succeeds and the dungeon boss wins"."""
    game = party()
    game.heroes[0].motivation = "love_interest"
    game.ritual = {"active": True, "rounds": 0}
    for _ in range(4):
        run(game, exploring.ritual_check(game))
        answer(game, "open")
        assert not game.winner
    run(game, exploring.ritual_check(game))
    answer(game, "open")
    assert game.winner == "boss"
    game.winner = ""
    game.ritual = {"active": True, "rounds": 0}
    game.heroes[0].health = 1
    run(game, exploring.ritual_check(game))
    answer(game, "stopped")
    assert not game.ritual["active"]
    assert game.heroes[0].health == fig.max_health(game.heroes[0], game.book)


def test_bounties_glory_hog_and_the_thief_chest():
    """ "You collect double the gold from monster bounties" (Glory Hog); "Open a chest
    with a thief: +1 gold"; "Add +1 to treasure charts when a chest is opened by a thief
    (max 6)"."""
    game = party(("thief", "fighter"))
    thief, fighter = game.heroes
    fighter.motivation, thief.motivation = "glory_hog", "veteran"
    skeleton, _ = in_room(game, 1, "skeleton", "skeleton")
    skeleton.speed_left = 0
    run(game, hero_turn.hit_monster(game, skeleton, 1, True, fighter))
    assert game.gold == 2
    run(game, items.treasure(game, thief, gambling=False))
    assert "(+1)" in str(game.prompt().text)
    answer(game, 6)  # 6 + 1 counts as 6: two weapons
    assert game.prompt().kind is PromptKind.CHOOSE and game.gold == 3


def test_events_need_their_motivations():
    """ "If none of the criteria are met for an event card due to specific motivation cards
    or classes not being present, then the card is discarded and another one is drawn"."""
    game = party(("fighter", "mage"))
    for hero in game.heroes:
        hero.motivation = "coward"
    game.deck = ["rations", "too_tired"]  # drawn from the end: Too Tired needs a veteran
    run(game, events.draw_event(game, game.heroes[0]))
    assert "too_tired" in game.discards and "rations" in game.drawn


def test_levels_make_heroes_and_monsters_stronger():
    """ "For every level a hero party has, it's players may increase the health (H), speed
    (S) or attack (A) stat by 1"; "All monsters will gain +1 attack at level 2, & +1
    health at level 3"."""
    game = party(("fighter", "mage"))
    fighter = game.heroes[0]
    before = fig.attack_value(fighter, game.book)
    run(game, dungeon.gain_level(game))
    answer(game, "attack", "health")
    assert fig.attack_value(fighter, game.book) == before + 1
    assert game.prompt().kind is PromptKind.CHOOSE and "spell" in str(game.prompt().text)
    game.room = Room(number=1)
    assert exploring.new_monster(game, "skeleton").attack == 5
    game.level = 3
    skeleton = exploring.new_monster(game, "skeleton")
    assert (skeleton.attack, skeleton.health) == (5, 2)


def test_next_room_event_cards_change_the_fight():
    """Vicious Battle: "double all damage dealt from both heroes and monsters"; Pitch
    Black: "-1 penalty to attack value. No ranged attacks may be made"; Mind War:
    "Weapons may not be used ... critical hits on 4 - 6"."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    give(game, fighter, "sword")
    give(game, mage, "wand")
    (troll,) = in_room(game, 3, "troll")
    game.room.effects = {"vicious_battle"}
    run(game, hero_turn.hero_attack(game, fighter, troll, fig.attack_modes(fighter, game.book)[0]))
    answer(game, 5)
    assert troll.health == 1
    game.room.effects = {"pitch_black"}
    assert [m.range for m in hero_turn.attack_modes(game, mage)] == [0]
    assert hero_turn.hero_attack_profile(game, fighter, troll, 1, 6).strength == 3 + 1 - 1
    game.room.effects = {"mind_war"}
    assert hero_turn.attack_modes(game, fighter) == [fig.UNARMED]
    assert hero_turn.hero_attack_profile(game, fighter, troll, 0, 6).crit_on == 4


def test_rations_evil_alchemy_and_glittering_prizes():
    """Rations: "Restore 1 lost health to each hero"; Evil Alchemy: "All healing potions
    are removed"; Glittering Prizes: "When the next treasure chest is opened ... Add 10
    gold"."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    fighter.health = 2
    give(game, mage, "health_potion", "speed_potion")
    book = game.book
    run(game, events.play_event(game, book.events["rations"], fighter))
    assert fighter.health == 3
    run(game, events.play_event(game, book.events["evil_alchemy"], fighter))
    assert mage.backpack == ["speed_potion"]
    run(game, events.play_event(game, book.events["glittering_prizes"], fighter))
    assert "glittering_prizes" in game.party_cards
    mage.motivation = "veteran"
    run(game, items.treasure(game, mage, gambling=False))
    answer(game, 2)  # 3 gold + 10
    assert game.gold == 13 and "glittering_prizes" not in game.party_cards


def test_giving_an_item_costs_both_heroes_a_speed_point():
    """ "Trading/giving items to a hero in the same square (both heroes spend 1 point
    each)"."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    give(game, fighter, "health_potion")
    fighter.speed_left = mage.speed_left = 3
    assert "give" in [i for i, _ in hero_turn.hero_options(game, fighter)]
    run(game, items.do_give(game, fighter, ""))
    answer(game, "health_potion")
    assert option_ids(game) == ["h2"]
    answer(game, "h2")
    assert mage.backpack == ["health_potion"] and not fighter.backpack
    assert (fighter.speed_left, mage.speed_left) == (2, 2)


def test_clairvoyance_rerolls_a_hero_die():
    """Clairvoyance: "Costs 2 speed points. Re-roll any 1 die roll made by a hero"."""
    game = party(("fighter", "mage"))
    fighter = game.heroes[0]
    fighter.speed_left, fighter.health = 3, 5
    game.clairvoyance = 1
    run(game, defence.hit_hero(game, fighter, 1, crit=False, ranged=False, source=None))
    answer(game, "dodge", 2)
    assert "Clairvoyance" in str(game.prompt().text)
    answer(game, "yes", 5)
    assert fighter.health == 5 and game.clairvoyance == 0
    (skeleton,) = in_room(game, 1, "skeleton")
    game.clairvoyance = 1
    run(game, hero_turn.hero_attack(game, fighter, skeleton, fig.UNARMED))
    answer(game, 1)  # a critical miss
    answer(game, "yes", 6)
    assert skeleton not in game.room.monsters


def test_visions_roll_the_room_before_the_door():
    """ "You have brief visions of the future! Set this card aside. You may choose to discard
    it before opening a door to roll on both the trap and monster generator tables before
    exploring"."""
    game = party(("fighter", "mage"))
    fighter = game.heroes[0]
    fighter.speed_left = 3
    game.party_cards.append("visions")
    run(game, exploring.do_door(game, fighter, ""))
    answer(game, "yes", 1, 5)  # trap 1, generator 5
    assert "Open the door to room 1 now?" in str(game.prompt().text)
    answer(game, "no")
    assert game.foreseen is not None and fighter.speed_left == 3 and game.room.number == 0
    run(game, exploring.do_door(game, fighter, ""))  # no second vision: the rolls stand
    assert game.prompt().kind is PromptKind.CONFIRM  # straight to placing the monsters
    assert len(game.room.monsters) == 6 and game.room.chests == 1  # 4 small: 4 zombies, 2 skeletons
    assert fighter.speed_left == 2 and game.foreseen is None


def test_inside_man_buys_the_mini_boss():
    """Inside Man: "If that player enters the same square as a mini-boss, they may try to
    negotiate by rolling a dice. 1-3 = The player is dealt 1 unavoidable damage. 4-6 = The
    mini-boss offers you his aid... for a price. If the players remove 5 gold ..."."""
    game = party(("fighter", "mage"))
    henchman = game.heroes[0]
    henchman.motivation, henchman.speed_left = "reformed_henchman", 3
    game.party_cards.append("inside_man")
    game.gold = 7
    demon, _ = in_room(game, 9, "fire_demon", "zombie")
    assert "negotiate" in [i for i, _ in hero_turn.hero_options(game, henchman)]
    run(game, items.do_negotiate(game, henchman, ""))
    answer(game, 4, "yes", None)
    assert demon not in game.room.monsters and game.gold == 2
    assert "inside_man" not in game.party_cards


def test_a_mana_potion_is_for_a_hero_with_a_mana_die():
    """Potions: "Mana Potion +3 mana"; Mage: "Each mage will place a D6 on the spellbook
    to keep track of their mana". A hero without a mana die gains nothing from it, so it
    is not offered to drink (before the fix a Fighter "had 3 mana")."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    give(game, fighter, "mana_potion")
    assert "potion" not in [i for i, _ in hero_turn.hero_options(game, fighter)]
    give(game, fighter, "speed_potion")
    run(game, items.do_potion(game, fighter, ""))
    assert option_ids(game) == ["speed_potion"]
    give(game, mage, "mana_potion")
    mage.mana = 2
    run(game, items.do_potion(game, mage, ""))
    answer(game, "mana_potion")
    assert mage.mana == 5


def test_not_dead_yet_puts_the_monster_back_with_d3_health():
    """Event card Not Dead Yet: "The dungeon boss selects a single monster that has been
    defeated from this room and puts it back with D3 health." The D3 is its health, even
    above the sheet's H (before the fix a Skeleton came back with 1 whatever the roll)."""
    game = party(("fighter", "mage"))
    (skeleton,) = in_room(game, 1, "skeleton")
    game.room.monsters.remove(skeleton)
    game.room.defeated.append(skeleton)
    run(game, events.play_event(game, game.book.events["not_dead_yet"], game.heroes[0]))
    answer(game, 5)  # a D3 of 3
    assert skeleton in game.room.monsters and skeleton.health == 3
    assert skeleton.max_health == 3 and game.room.cleared_round is None


def test_a_cunning_plan_rerolls_the_trap_or_the_generator_once():
    """Event card A Cunning Plan: "Discard this card to re-roll any result on the trap or
    monster generator tables"."""
    game = party(("fighter", "mage"))
    game.party_cards.append("cunning_plan")
    run(game, exploring.trap_roll(game, 1))
    answer(game, 1)  # 1 + 1 = 2, the falling brick
    assert "Trap 2. Discard A Cunning Plan" in str(game.prompt().text)
    answer(game, "yes")
    assert "Re-roll the trap chart (+1)" in str(game.prompt().text)
    events = answer(game, 6)  # 6 + 1 = 7
    assert "Trap chart: 7." in texts(events) and "cunning_plan" not in game.party_cards
    run(game, exploring.generator_roll(game, 0))
    answer(game, 3)
    assert game.prompt().kind is PromptKind.OVER or "Cunning" not in str(game.prompt().text)


def test_greed_stops_the_treasure_hunter_giving_items():
    """Event card Greed: "The player with the fortune hunter card can no longer give any
    items to other heroes" (our reading: the Treasure Hunter, "The riches inside this
    dungeon are worth the risk to you"). The Pi no longer offers them "give"; the others
    still may (before the fix the card was only shown and the menu still offered it)."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    fighter.motivation = "treasure_hunter"
    give(game, fighter, "health_potion")
    give(game, mage, "speed_potion")
    fighter.speed_left = mage.speed_left = 3
    assert "give" in [i for i, _ in hero_turn.hero_options(game, fighter)]
    run(game, events.play_event(game, game.book.events["greed"], mage))
    answer(game, None)  # the card's chest rule, played by hand
    assert "give" not in [i for i, _ in hero_turn.hero_options(game, fighter)]
    assert "give" in [i for i, _ in hero_turn.hero_options(game, mage)]


def test_a_completed_ritual_ends_the_game_as_the_ritual_not_as_a_wipe():
    """Stopping the Dark Sacrifice: "If five turns or more have passed and no hero is
    standing on the center square, then the ritual completes and the dungeon boss
    wins." The game's last words say so (before the fix they read "All the heroes are
    down" with every hero standing)."""
    game = party()
    game.heroes[0].motivation = "love_interest"
    game.ritual = {"active": True, "rounds": 4}
    events = answer(game, "h1", "end", "end", "open")
    assert game.prompt().kind is PromptKind.OVER and game.winner == "boss"
    said = texts(events)
    assert "The ritual is complete: the dungeon boss wins." in said
    assert not any("All the heroes are down" in t for t in said)


def test_at_the_merchant_only_a_hero_with_speed_left_changes_equipment(monkeypatch):
    """A Mysterious Merchant: "The players may buy items from the shop without
    retreating to town"; out of town, changing equipment is one of the "Other Actions"
    that cost 1 speed point, so a hero with none left is not offered it (a random game
    found a Mage at -1 speed)."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    monkeypatch.setattr(hero_turn, "equippable", lambda s, hero: ["daggers"])
    game.phase, fighter.speed_left, mage.speed_left = "heroes", 1, 0
    run(game, town.town_shop(game, markup=1, selling=False))
    offered = option_ids(game)
    assert "equip:1" in offered and "equip:2" not in offered
    game.phase = "town"  # in town equipment changes cost nothing
    run(game, town.town_shop(game, markup=0, selling=True))
    assert "equip:2" in option_ids(game)
