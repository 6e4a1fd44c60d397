"""The whole game, top to bottom, as the rulebook tells it: forge the heroes and
shop (Creating a Hero), then quest after quest (a quest: room after room, each round
the heroes' turns and the monsters'), town between rooms, and levels between quests.
One generator of prompts (see ``game.py``), given the game's ``TableFlow``."""

from __future__ import annotations

from dicetable.rules.core import EventKind, Msg, msg
from dicetable.rules.minidungeon import exploring, hero_turn, monsters_turn, town
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.data import Item
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import Flow, Room, TableFlow


def game(s: TableFlow) -> Flow:
    yield from forge_heroes(s)
    while True:
        yield from quest(s)
        if s.winner == "boss":
            s.phase = "over"
            why = (
                msg("The dungeon boss wins.")  # the dark sacrifice, heroes standing
                if s.active_heroes()
                else msg("All the heroes are down: the dungeon boss wins.")
            )
            s.emit(EventKind.GAME_OVER, why)
            return
        s.quests_won += 1
        go_on = yield from s.choose(
            msg(
                "The dungeon is cleared! Begin a new quest with the same heroes, one level higher?"
            ),
            [
                ("new_quest", msg("New quest at level {n}", n=s.level + 1)),
                ("end", msg("End the campaign")),
            ],
        )
        if go_on == "end":
            s.winner = "heroes"
            s.phase = "over"
            s.emit(EventKind.GAME_OVER, msg("The heroes have won."))
            return
        yield from gain_level(s)


def forge_heroes(s: TableFlow) -> Flow:
    count = yield from s.number(msg("How many heroes enter the dungeon (2 to 4)?"), 2, 4)
    for index in range(1, count + 1):
        cls = yield from s.choose(
            msg("Hero {n}: choose a class.", n=index),
            [(c.id, msg(c.name)) for c in s.book.classes.values()],
        )
        motivation = s.motivation_deck.pop()
        card = s.book.motivations[motivation]
        hero = Hero(index, cls, motivation, mana=s.book.classes[cls].mana)
        hero.health = fig.max_health(hero, s.book)
        s.heroes.append(hero)
        s.emit(
            EventKind.CARD,
            msg(
                "{hero} draws the motivation {card}.",
                hero=s.hero_name(hero),
                card=msg(card.name),
            ),
            card=motivation,
        )
        s.emit(EventKind.CARD, msg(card.text), card=motivation)
        if cls == "mage":
            yield from learn_spell(s, hero)
        if motivation == "avenger":
            bosses = [s.book.mini_boss, s.book.dungeon_boss]
            hero.avenger_target = yield from s.choose(
                msg(
                    "{hero}, the Avenger: nominate the target of your wrath (+1 attack "
                    "against it).",
                    hero=s.hero_name(hero),
                ),
                [(b, msg(s.book.monsters[b].name)) for b in bosses],
            )
    for hero in s.heroes:
        hero.health = fig.max_health(hero, s.book)
        budget = s.book.base["starting_gold"]
        budget = max(budget, s.book.motivations[hero.motivation].starting_gold)
        yield from starting_shop(s, hero, budget)
        hero.health = fig.max_health(hero, s.book)
    s.emit(EventKind.INSTRUCTION, msg("Place the heroes outside the entrance of the dungeon."))


def learn_spell(s: TableFlow, hero: Hero) -> Flow:
    spells = [spell for spell in s.book.spells.values() if spell.id not in hero.spells]
    if not spells:
        return
    spell = yield from s.choose(
        msg("{hero}: choose a spell from the spellbook.", hero=s.hero_name(hero)),
        [(spell.id, msg(spell.name)) for spell in spells],
    )
    hero.spells.append(spell)


def starting_shop(s: TableFlow, hero: Hero, budget: int) -> Flow:
    while True:
        offers = shop_offers(s, hero, budget, markup=0)
        if not offers:
            return
        choice = yield from s.choose(
            msg(
                "{hero} has {gold} gold to equip at the town store.",
                hero=s.hero_name(hero),
                gold=budget,
            ),
            [*offers, ("done", msg("Done shopping"))],
        )
        if choice == "done":
            return
        item = s.book.items[choice]
        budget -= item.price
        yield from give(s, hero, item)


def shop_offers(s: TableFlow, hero: Hero, gold: int, markup: int) -> list[tuple[str, Msg]]:
    offers = []
    for item in s.book.items.values():
        price = item.price + markup
        if price > gold or not fig.may_use(hero, item):
            continue
        if not (fig.can_equip(hero, item, s.book) or fits_backpack(s, hero, item)):
            continue
        offers.append(
            (
                item.id,
                msg("{item} ({price} gold)", item=msg(item.name), price=price),
            )
        )
    return offers


def fits_backpack(s: TableFlow, hero: Hero, item: Item) -> bool:
    size = 1 if item.kind == "potion" or item.dual else 2
    return fig.backpack_used(hero, s.book) + size <= fig.BACKPACK_SLOTS


def give(s: TableFlow, hero: Hero, item: Item) -> Flow:
    if fig.receive(hero, item, s.book):
        s.emit(
            "item",
            msg("{hero} takes the {item}.", hero=s.hero_name(hero), item=msg(item.name)),
            item=item.id,
        )
        if item.extra_spell and item.id in hero.hands:
            yield from learn_spell(s, hero)
    else:
        yield from s.confirm(
            msg(
                "{hero} has no room for the {item}; it stays behind.",
                hero=s.hero_name(hero),
                item=msg(item.name),
            )
        )


# -- a quest: room after room ------------------------------------------------------


def quest(s: TableFlow) -> Flow:
    hero_count = len(s.heroes)
    if s.options["dungeon"] == "short":
        s.rooms_total = s.book.rooms_short
    else:
        s.rooms_total = s.book.rooms_two_heroes if hero_count <= 2 else s.book.rooms
    s.room = Room()
    s.retreats = 0
    s.banned = False
    s.round = 0
    s.winner = ""
    s.phase = "dungeon"
    while not s.winner:
        yield from round(s)


def round(s: TableFlow) -> Flow:
    s.round += 1
    s.drawn = []
    for hero in s.heroes:
        speed = fig.full_speed(hero, s.book)
        if hero.stunned:
            speed -= speed // 2
            hero.stunned = False
        if "time_bubble" in s.room.effects:
            speed = (speed + 1) // 2
        hero.speed_left = speed
        hero.acted = hero.wounded
        hero.attacks_made = 0
    s.emit(EventKind.INFO, msg("Round {n}.", n=s.round), round=s.round)
    s.phase = "heroes"
    while not s.winner and s.room.trap != "ambush_now":
        waiting = [h for h in s.active_heroes() if not h.acted]
        if not waiting:
            break
        hero = waiting[0]
        if len(waiting) > 1:
            pick = yield from s.choose(
                msg("Which hero acts now?"),
                [(f"h{h.index}", s.hero_name(h)) for h in waiting],
            )
            hero = next(h for h in waiting if f"h{h.index}" == pick)
        yield from hero_turn.hero_turn(s, hero)
        hero.acted = True
    if s.room.trap == "ambush_now":
        s.room.trap = "ambush"
    if s.winner:
        return
    s.phase = "monsters"
    yield from monsters_turn.monsters_turn(s)
    if s.winner:
        return
    yield from end_of_round(s)


def end_of_round(s: TableFlow) -> Flow:
    for hero in s.heroes:
        hero.in_pit = False
        hero.invulnerable = False
        hero.cloak_used = False
        hero.aura = False
        hero.potion_used = False
        hero.zombie_attackers = set()
    for monster in s.room.monsters:
        monster.shield_used = False
        monster.controlled = False
    if s.ritual and s.ritual["active"]:
        yield from exploring.ritual_check(s)


# -- levels ---------------------------------------------------------------------


def gain_level(s: TableFlow) -> Flow:
    s.level += 1
    s.quest += 1
    s.ritual = None
    s.emit(
        EventKind.INFO,
        msg("The party reaches level {n}: monsters grow stronger too.", n=s.level),
    )
    for hero in s.heroes:
        stat = yield from s.choose(
            msg("{hero} gains a level: +1 to which stat?", hero=s.hero_name(hero)),
            [
                ("health", msg("Health (H)")),
                ("speed", msg("Speed (S)")),
                ("attack", msg("Attack (A)")),
            ],
        )
        hero.gained[stat] += 1
        hero.wounded = False
        hero.health = fig.max_health(hero, s.book)
        if hero.cls == "mage":
            yield from learn_spell(s, hero)
    yield from town.town(s, penalty=False)
