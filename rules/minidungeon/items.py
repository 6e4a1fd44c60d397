"""Potions, treasure chests, equipment, giving items and bribes."""

from __future__ import annotations

from fractions import Fraction

from dicetable.rules.core import (
    EventKind,
    msg,
)
from dicetable.rules.minidungeon import defence, dungeon, hero_turn
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import d3
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import DungeonState, phase


def drinkable(s: DungeonState, hero: Hero) -> list[str]:
    """The potions a hero can drink: a Mana Potion ("+3 mana") only by a hero with a
    mana die (the mage's), for anyone else it would be a wasted potion."""
    has_mana = s.book.classes[hero.cls].mana > 0
    return [
        i
        for i in dict.fromkeys(hero.backpack)
        if s.book.items[i].kind == "potion" and (has_mana or s.book.items[i].effect != "mana_3")
    ]


@phase
def do_potion(s: DungeonState, hero: Hero, _: str) -> None:
    def drink(pick: str) -> None:
        hero.backpack.remove(pick)
        hero.potion_used = True
        effect = s.book.items[pick].effect
        if effect == "heal_d3":
            s.roll_one(
                msg("Health Potion: roll a D6 for a D3 (1-2: 1, 3-4: 2, 5-6: 3)."),
                lambda value: heal(s, hero, d3(value)),
            )
        elif effect == "speed_3":
            hero.speed_left += 3
            s.emit(EventKind.INFO, msg("{hero} gains 3 speed.", hero=s.hero_name(hero)))
        elif effect == "auto_hit":
            hero.luck += 1
            s.emit(
                EventKind.INFO,
                msg("{hero}'s next attack hits automatically.", hero=s.hero_name(hero)),
            )
        elif effect == "mana_3":
            hero.mana = min(6, hero.mana + 3)
            s.emit(EventKind.INFO, msg("{hero} has {n} mana.", hero=s.hero_name(hero), n=hero.mana))
        elif effect == "invulnerable":
            hero.invulnerable = True
            s.emit(
                EventKind.INFO, msg("{hero} loses no health this round.", hero=s.hero_name(hero))
            )

    s.choose(
        msg("{hero}: which potion?", hero=s.hero_name(hero)),
        [(i, s.item_name(i)) for i in drinkable(s, hero)],
        drink,
    )


def heal(s: DungeonState, hero: Hero, amount: int) -> None:
    before = hero.health
    hero.health = min(fig.max_health(hero, s.book), hero.health + amount)
    s.emit(
        EventKind.HEAL,
        msg(
            "{hero} heals {n} ({h} health).",
            hero=s.hero_name(hero),
            n=hero.health - before,
            h=hero.health,
        ),
        hero=hero.index,
    )


@phase
def do_chest(s: DungeonState, hero: Hero, _: str) -> None:
    hero.speed_left -= 1
    s.room.chests -= 1
    s.flow.first(treasure(s, hero, gambling=False))


@phase
def treasure(s: DungeonState, hero: Hero, *, gambling: bool) -> None:
    bonus = 0
    if hero.cls == "thief":
        bonus += 1
    if hero.motivation == "treasure_hunter" and not gambling:
        bonus += 1

    def rolled(value: int) -> None:
        result = value + bonus
        result = min(result, 7 if gambling else 6)
        entry = s.book.treasure[result]
        s.emit(EventKind.INFO, msg("Treasure chart: {n}.", n=result), result=result)
        s.emit(EventKind.CARD, msg(entry.text), result=result)
        if entry.banned:
            s.banned = True
            return
        gold = entry.gold
        if hero.cls == "thief" and not gambling:
            gold += s.book.bounty["thief_chest"]
        if s.glittering and not gambling:
            s.glittering = False
            s.party_cards.remove("glittering_prizes")
            gold += 10
            s.emit(EventKind.CARD, msg("Glittering Prizes: +10 gold."))
        if gold:
            s.gold += gold
            s.emit(EventKind.SCORE, msg("{n} gold to the party chest.", n=gold), gold=s.gold)
        weapons = [weapon_from_store(s, hero) for _ in range(entry.weapons)]
        if entry.potion_choice:
            s.choose(
                msg("{hero}: which potion?", hero=s.hero_name(hero)),
                [(p, s.item_name(p)) for p in entry.potion_choice],
                lambda pick: s.flow.first(dungeon.give(s, hero, s.book.items[pick]), *weapons),
            )
        else:
            s.flow.first(*weapons)

    s.roll_one(
        msg(
            "{hero} rolls a D6 on the treasure chart (+{b}).",
            hero=s.hero_name(hero),
            b=bonus,
        ),
        rolled,
    )


@phase
def weapon_from_store(s: DungeonState, hero: Hero) -> None:
    weapons = [i for i in s.book.items.values() if i.is_weapon]
    s.choose(
        msg("{hero}: choose a weapon from the store.", hero=s.hero_name(hero)),
        [(w.id, msg(w.name)) for w in weapons],
        lambda pick: s.flow.first(dungeon.give(s, hero, s.book.items[pick])),
    )


@phase
def do_equip(s: DungeonState, hero: Hero, _: str) -> None:
    def equip(pick: str) -> None:
        if s.phase != "town":
            hero.speed_left -= 1
        if fig.equip_from_backpack(hero, s.book.items[pick], s.book):
            s.emit(
                "item",
                msg(
                    "{hero} equips the {item}.",
                    hero=s.hero_name(hero),
                    item=s.item_name(pick),
                ),
            )
        else:
            s.emit(EventKind.INFO, msg("No room in the backpack for what it would replace."))
        hero.health = min(hero.health, fig.max_health(hero, s.book))

    s.choose(
        msg(
            "{hero}: equip which item (what it replaces goes to the backpack)?",
            hero=s.hero_name(hero),
        ),
        [(i, s.item_name(i)) for i in hero_turn.equippable(s, hero)],
        equip,
    )


def receivers(s: DungeonState, hero: Hero) -> list[Hero]:
    return [h for h in s.active_heroes() if h is not hero and h.speed_left >= 1]


@phase
def do_give(s: DungeonState, hero: Hero, _: str) -> None:
    """ "Trading/giving items to a hero in the same square (both heroes spend 1 point
    each)"; the one who receives takes it where it fits."""

    def to_whom(item_id: str) -> None:
        s.choose(
            msg("To which hero on {hero}'s square?", hero=s.hero_name(hero)),
            [(f"h{h.index}", s.hero_name(h)) for h in receivers(s, hero)],
            lambda pick: given(item_id, s.heroes[int(pick[1:]) - 1]),
        )

    def given(item_id: str, other: Hero) -> None:
        item = s.book.items[item_id]
        if not (fig.can_equip(other, item, s.book) or dungeon.fits_backpack(s, other, item)):
            s.confirm(
                msg(
                    "{hero} has no room for the {item}.",
                    hero=s.hero_name(other),
                    item=msg(item.name),
                )
            )
            return
        hero.speed_left -= 1
        other.speed_left -= 1
        fig.remove(hero, item_id)
        hero.health = min(hero.health, fig.max_health(hero, s.book))
        s.flow.first(dungeon.give(s, other, item))

    s.choose(
        msg("{hero}: give which item?", hero=s.hero_name(hero)),
        [(i, s.item_name(i)) for i in dict.fromkeys(hero.items())],
        to_whom,
    )


@phase
def do_bribe(s: DungeonState, hero: Hero, _: str) -> None:
    monsters = [m for m in s.room.monsters if s.book.monsters[m.kind].size in ("small", "large")]

    def bribed(target: Monster) -> None:
        s.gold -= 5
        s.room.monsters.remove(target)
        s.emit(
            EventKind.INFO,
            msg("{monster} takes 5 gold and disappears.", monster=s.mon_name(target)),
        )
        s.confirm(
            msg("Remove {monster} from the dungeon.", monster=s.mon_name(target)),
            then=lambda: room_empty(s, hero),
        )

    hero_turn.pick_monster(
        s,
        msg("Bribe which monster on {hero}'s square?", hero=s.hero_name(hero)),
        monsters,
        bribed,
    )


def room_empty(s: DungeonState, hero: Hero) -> None:
    """A monster gone by a deal rather than a blow may still clear the room."""
    if not s.room.monsters:
        s.flow.first(hero_turn.room_cleared(s, hero))


@phase
def do_negotiate(s: DungeonState, hero: Hero, _: str) -> None:
    """Inside Man: "roll a dice. 1-3 = The player is dealt 1 unavoidable damage. 4-6 =
    The mini-boss offers you his aid... for a price" of 5 gold."""
    s.party_cards.remove("inside_man")
    target = next(m for m in s.room.monsters if s.book.monsters[m.kind].size == "mini_boss")

    def rolled(value: int) -> None:
        if value <= 3:
            s.flow.first(defence.hurt(s, hero, 1))
        elif s.gold >= 5:
            s.yes_no(
                msg("{monster} offers its aid for 5 gold. Pay?", monster=s.mon_name(target)),
                paid,
            )

    def paid(pay: bool) -> None:
        if not pay:
            return
        s.gold -= 5
        s.room.monsters.remove(target)
        s.confirm(
            msg(
                "{monster} fights for the heroes until the room is cleared (play it as a "
                "hero), then disappears.",
                monster=s.mon_name(target),
            ),
            then=lambda: room_empty(s, hero),
        )

    s.roll_one(
        msg(
            "{hero} negotiates with {monster}: roll a D6 (4+).",
            hero=s.hero_name(hero),
            monster=s.mon_name(target),
        ),
        rolled,
        objective=msg("4+"),
        odds=Fraction(1, 2),
    )
