"""The whole game, as the rulebook tells it: forge the heroes and shop (Creating a
Hero), then quest after quest (a quest: room after room, each round the heroes' turns
and the monsters'), town between rooms, and levels between quests. Each is a
``phase`` of the game's flow (see ``table.py``), given the game's ``DungeonState``."""

from __future__ import annotations

from dicetable.rules.core import EventKind, Msg, msg
from dicetable.rules.minidungeon import exploring, hero_turn, monsters_turn, town
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.content import Item
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import DungeonState, Room, phase


@phase
def game(s: DungeonState) -> None:
    s.flow.first(forge_heroes(s), campaign(s))


@phase
def campaign(s: DungeonState) -> None:
    """A quest; then, the dungeon cleared, a new quest one level higher or the end."""
    s.flow.first(quest(s), s.afterwards(lambda: quest_over(s)))


def quest_over(s: DungeonState) -> None:
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

    def chosen(go_on: str) -> None:
        if go_on == "end":
            s.winner = "heroes"
            s.phase = "over"
            s.emit(EventKind.GAME_OVER, msg("The heroes have won."))
            return
        s.flow.first(gain_level(s), campaign(s))

    s.choose(
        msg("The dungeon is cleared! Begin a new quest with the same heroes, one level higher?"),
        [
            ("new_quest", msg("New quest at level {n}", n=s.level + 1)),
            ("end", msg("End the campaign")),
        ],
        chosen,
    )


# -- Creating a Hero ------------------------------------------------------------------


@phase
def forge_heroes(s: DungeonState) -> None:
    def counted(count: int) -> None:
        s.flow.first(*(forge_hero(s, index) for index in range(1, count + 1)), equip_party(s))

    s.number(msg("How many heroes enter the dungeon (2 to 4)?"), 2, 4, counted)


@phase
def forge_hero(s: DungeonState, index: int) -> None:
    """A class chosen, a motivation drawn; the mage's spell, the Avenger's target."""

    def chosen(cls: str) -> None:
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
        steps = [learn_spell(s, hero)] if cls == "mage" else []
        if motivation == "avenger":
            steps.append(nominate_target(s, hero))
        s.flow.first(*steps)

    s.choose(
        msg("Hero {n}: choose a class.", n=index),
        [(c.id, msg(c.name)) for c in s.book.classes.values()],
        chosen,
    )


@phase
def nominate_target(s: DungeonState, hero: Hero) -> None:
    def nominated(target: str) -> None:
        hero.avenger_target = target

    bosses = [s.book.mini_boss, s.book.dungeon_boss]
    s.choose(
        msg(
            "{hero}, the Avenger: nominate the target of your wrath (+1 attack against it).",
            hero=s.hero_name(hero),
        ),
        [(b, msg(s.book.monsters[b].name)) for b in bosses],
        nominated,
    )


@phase
def equip_party(s: DungeonState) -> None:
    """Each hero at the town store with the starting gold, then to the entrance."""
    s.flow.first(*(equip_hero(s, hero) for hero in s.heroes), s.afterwards(lambda: at_entrance(s)))


def at_entrance(s: DungeonState) -> None:
    s.emit(EventKind.INSTRUCTION, msg("Place the heroes outside the entrance of the dungeon."))


@phase
def equip_hero(s: DungeonState, hero: Hero) -> None:
    hero.health = fig.max_health(hero, s.book)
    budget = s.book.base["starting_gold"]
    budget = max(budget, s.book.motivations[hero.motivation].starting_gold)

    def full_health() -> None:
        hero.health = fig.max_health(hero, s.book)

    s.flow.first(starting_shop(s, hero, budget), s.afterwards(full_health))


@phase
def learn_spell(s: DungeonState, hero: Hero) -> None:
    spells = [spell for spell in s.book.spells.values() if spell.id not in hero.spells]
    if not spells:
        return
    s.choose(
        msg("{hero}: choose a spell from the spellbook.", hero=s.hero_name(hero)),
        [(spell.id, msg(spell.name)) for spell in spells],
        hero.spells.append,
    )


@phase
def starting_shop(s: DungeonState, hero: Hero, budget: int) -> None:
    offers = shop_offers(s, hero, budget, markup=0)
    if not offers:
        return

    def chosen(choice: str) -> None:
        if choice == "done":
            return
        item = s.book.items[choice]
        s.flow.first(give(s, hero, item), starting_shop(s, hero, budget - item.price))

    s.choose(
        msg(
            "{hero} has {gold} gold to equip at the town store.",
            hero=s.hero_name(hero),
            gold=budget,
        ),
        [*offers, ("done", msg("Done shopping"))],
        chosen,
    )


def shop_offers(s: DungeonState, hero: Hero, gold: int, markup: int) -> list[tuple[str, Msg]]:
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


def fits_backpack(s: DungeonState, hero: Hero, item: Item) -> bool:
    size = 1 if item.kind == "potion" or item.dual else 2
    return fig.backpack_used(hero, s.book) + size <= fig.BACKPACK_SLOTS


@phase
def give(s: DungeonState, hero: Hero, item: Item) -> None:
    if fig.receive(hero, item, s.book):
        s.emit(
            "item",
            msg("{hero} takes the {item}.", hero=s.hero_name(hero), item=msg(item.name)),
            item=item.id,
        )
        if item.extra_spell and item.id in hero.hands:
            s.flow.first(learn_spell(s, hero))
    else:
        s.confirm(
            msg(
                "{hero} has no room for the {item}; it stays behind.",
                hero=s.hero_name(hero),
                item=msg(item.name),
            )
        )


# -- a quest: room after room ---------------------------------------------------------


@phase
def quest(s: DungeonState) -> None:
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
    s.flow.first(rounds(s))


@phase
def rounds(s: DungeonState) -> None:
    """Round after round until the heroes or the dungeon boss have won."""
    if not s.winner:
        s.flow.first(round(s), rounds(s))


@phase
def round(s: DungeonState) -> None:
    """A round: the heroes' turns in the order they choose, the monsters' turn, the
    end of the round."""
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
    s.flow.first(heroes_turns(s), s.afterwards(lambda: heroes_done(s)))


@phase
def heroes_turns(s: DungeonState) -> None:
    """The heroes who have not acted, one at a time, the players choosing who."""
    if s.winner or s.room.trap == "ambush_now":
        return
    waiting = [h for h in s.active_heroes() if not h.acted]
    if not waiting:
        return

    def acts(hero: Hero) -> None:
        def acted() -> None:
            hero.acted = True

        s.flow.first(hero_turn.hero_turn(s, hero), s.afterwards(acted), heroes_turns(s))

    if len(waiting) == 1:
        acts(waiting[0])
        return
    s.choose(
        msg("Which hero acts now?"),
        [(f"h{h.index}", s.hero_name(h)) for h in waiting],
        lambda pick: acts(next(h for h in waiting if f"h{h.index}" == pick)),
    )


def heroes_done(s: DungeonState) -> None:
    if s.room.trap == "ambush_now":
        s.room.trap = "ambush"
    if s.winner:
        return
    s.phase = "monsters"
    s.flow.first(monsters_turn.monsters_turn(s), s.afterwards(lambda: monsters_done(s)))


def monsters_done(s: DungeonState) -> None:
    if not s.winner:
        s.flow.first(end_of_round(s))


@phase
def end_of_round(s: DungeonState) -> None:
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
        s.flow.first(exploring.ritual_check(s))


# -- levels ---------------------------------------------------------------------------


@phase
def gain_level(s: DungeonState) -> None:
    s.level += 1
    s.quest += 1
    s.ritual = None
    s.emit(
        EventKind.INFO,
        msg("The party reaches level {n}: monsters grow stronger too.", n=s.level),
    )
    s.flow.first(*(level_up(s, hero) for hero in s.heroes), town.town(s, penalty=False))


@phase
def level_up(s: DungeonState, hero: Hero) -> None:
    def gained(stat: str) -> None:
        hero.gained[stat] += 1
        hero.wounded = False
        hero.health = fig.max_health(hero, s.book)
        if hero.cls == "mage":
            s.flow.first(learn_spell(s, hero))

    s.choose(
        msg("{hero} gains a level: +1 to which stat?", hero=s.hero_name(hero)),
        [
            ("health", msg("Health (H)")),
            ("speed", msg("Speed (S)")),
            ("attack", msg("Attack (A)")),
        ],
        gained,
    )
