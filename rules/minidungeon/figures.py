"""Heroes and monsters on the table: their sheets, their gear and the stats that follow.

The engine does not know the grid; figures' positions stay on the table and the
players tell the Pi what it cannot see (who is nearest, who shares a square)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dicetable.rules.core import Msg, Text, msg
from dicetable.rules.minidungeon.content import Item, MonsterKind, Rulebook

BACKPACK_SLOTS = 4


@dataclass
class Hero:
    index: int
    cls: str
    motivation: str
    health: int = 0
    mana: int = 0
    speed_left: int = 0
    gained: dict[str, int] = field(default_factory=lambda: {"health": 0, "attack": 0, "speed": 0})
    hands: list[str] = field(default_factory=list)
    worn: dict[str, str] = field(default_factory=dict)  # head / body / feet -> item id
    backpack: list[str] = field(default_factory=list)
    spells: list[str] = field(default_factory=list)
    avenger_target: str = ""
    wounded: bool = False
    acted: bool = False
    attacks_made: int = 0
    potion_used: bool = False
    stunned: bool = False  # Patchwork's Stun: half speed next round
    in_pit: bool = False
    invulnerable: bool = False
    luck: int = 0  # Luck Potion auto hits waiting
    cloak_used: bool = False
    aura: bool = False
    zombie_attackers: set[int] = field(default_factory=set)

    @property
    def name(self) -> str:
        return f"{self.cls.capitalize()} {self.index}"

    def label(self, book: Rulebook) -> str:
        return f"{book.classes[self.cls].name} {self.index}"

    def items(self) -> list[str]:
        return [*self.hands, *self.worn.values(), *self.backpack]


def gear(hero: Hero, book: Rulebook) -> list[Item]:
    """The equipped items (hands and worn), the only ones that give bonuses."""
    return [book.items[i] for i in (*hero.hands, *hero.worn.values())]


def max_health(hero: Hero, book: Rulebook) -> int:
    base = book.base["health"] + book.classes[hero.cls].health + hero.gained["health"]
    return base + sum(item.health for item in gear(hero, book))


def attack_value(hero: Hero, book: Rulebook) -> int:
    return book.base["attack"] + book.classes[hero.cls].attack + hero.gained["attack"]


def toughness(hero: Hero, book: Rulebook, *, melee: bool) -> int:
    worn = gear(hero, book)
    value = book.base["toughness"] + book.classes[hero.cls].toughness
    value += sum(item.toughness for item in worn)
    return value + (sum(item.toughness_melee for item in worn) if melee else 0)


def full_speed(hero: Hero, book: Rulebook) -> int:
    base = book.base["speed"] + book.classes[hero.cls].speed + hero.gained["speed"]
    return base + sum(item.speed for item in gear(hero, book))


def max_attacks(hero: Hero, book: Rulebook) -> int:
    motivation = book.motivations.get(hero.motivation)  # a Coward may discard theirs
    values = [book.base["max_attacks"], motivation.max_attacks if motivation else 0]
    values += [item.max_attacks for item in gear(hero, book)]
    return max(values)


def can_parry(hero: Hero, book: Rulebook) -> bool:
    held = [book.items[i] for i in hero.hands]
    return any(item.parry for item in held) or _sword_pair(hero, book)


def _sword_pair(hero: Hero, book: Rulebook) -> bool:
    held = [book.items[i] for i in hero.hands if book.items[i].pair_heavy_attack]
    return len(held) >= 2


def hands_needed(item: Item, cls: str, book: Rulebook) -> int:
    """Fighters "treat 2 handed weapons as 1 handed"; a pair of daggers is two blades."""
    if item.hands == 2 and not item.dual and "two_handed_as_one" in book.classes[cls].specials:
        return 1
    return item.hands


def hands_free(hero: Hero, book: Rulebook) -> int:
    return 2 - sum(hands_needed(book.items[i], hero.cls, book) for i in hero.hands)


def backpack_used(hero: Hero, book: Rulebook) -> int:
    """Potions and daggers take one small slot; other equipment takes two."""
    return sum(_pack_size(book.items[i]) for i in hero.backpack)


def _pack_size(item: Item) -> int:
    return 1 if item.kind == "potion" or item.dual else 2


def may_use(hero: Hero, item: Item) -> bool:
    return not item.available_to or hero.cls in item.available_to


def can_equip(hero: Hero, item: Item, book: Rulebook) -> bool:
    if item.kind == "potion" or not may_use(hero, item):
        return False
    if item.slot == "hand":
        return hands_free(hero, book) >= hands_needed(item, hero.cls, book)
    return item.slot not in hero.worn


def equip(hero: Hero, item: Item) -> None:
    if item.slot == "hand":
        hero.hands.append(item.id)
    else:
        hero.worn[item.slot] = item.id


def receive(hero: Hero, item: Item, book: Rulebook) -> bool:
    """Put a new item on the hero: equipped when a slot is free, else in the backpack.
    False when it fits nowhere (it stays behind)."""
    if can_equip(hero, item, book):
        equip(hero, item)
        return True
    if backpack_used(hero, book) + _pack_size(item) <= BACKPACK_SLOTS:
        hero.backpack.append(item.id)
        return True
    return False


def remove(hero: Hero, item_id: str) -> None:
    if item_id in hero.backpack:
        hero.backpack.remove(item_id)
    elif item_id in hero.hands:
        hero.hands.remove(item_id)
    else:
        hero.worn = {slot: i for slot, i in hero.worn.items() if i != item_id}


def equip_from_backpack(hero: Hero, item: Item, book: Rulebook) -> bool:
    """Move an item from the backpack to its slot, putting what was there away."""
    before = (list(hero.hands), dict(hero.worn), list(hero.backpack))
    hero.backpack.remove(item.id)
    if item.slot == "hand":
        while hands_free(hero, book) < hands_needed(item, hero.cls, book) and hero.hands:
            hero.backpack.append(hero.hands.pop(0))
    elif item.slot in hero.worn:
        hero.backpack.append(hero.worn.pop(item.slot))
    equip(hero, item)
    if backpack_used(hero, book) > BACKPACK_SLOTS:
        hero.hands, hero.worn, hero.backpack = before
        return False
    return True


@dataclass(frozen=True)
class AttackMode:
    """One way a hero can attack with what is in their hands."""

    id: str
    label: Msg
    bonus: int
    cost: int
    range: int = 0
    damage: int = 1
    crit_damage: int = 0
    crit_on: int = 6


UNARMED = AttackMode("unarmed", msg("Bare hands (+0A, 1 speed)"), 0, 1)


def attack_modes(hero: Hero, book: Rulebook, *, weapons_allowed: bool = True) -> list[AttackMode]:
    held = [book.items[i] for i in hero.hands if book.items[i].is_weapon]
    if not weapons_allowed or not held:
        return [UNARMED]
    modes: list[AttackMode] = []
    if _sword_pair(hero, book):
        sword = next(w for w in held if w.pair_heavy_attack)
        modes.append(
            AttackMode(
                "pair_heavy",
                msg(
                    "Two swords, heavy (+{a}A, {s} speed)",
                    a=sword.pair_heavy_attack,
                    s=sword.pair_heavy_cost,
                ),
                sword.pair_heavy_attack,
                sword.pair_heavy_cost,
            )
        )
    seen: set[str] = set()
    for weapon in held:
        if weapon.id in seen:
            continue
        seen.add(weapon.id)
        bonus = weapon.attack
        if weapon.free_hand_attack and hands_free(hero, book) >= 1 and len(hero.hands) == 1:
            bonus = weapon.free_hand_attack
        cost = max(weapon.cost, 2) if weapon.range else weapon.cost
        label = (
            msg(
                "{weapon} (+{a}A, range {r}, {s} speed)",
                weapon=msg(weapon.name),
                a=bonus,
                r=weapon.range,
                s=cost,
            )
            if weapon.range
            else msg("{weapon} (+{a}A, {s} speed)", weapon=msg(weapon.name), a=bonus, s=cost)
        )
        modes.append(
            AttackMode(
                weapon.id,
                label,
                bonus,
                cost,
                range=weapon.range,
                damage=weapon.damage,
                crit_damage=weapon.crit_damage,
                crit_on=weapon.crit_on,
            )
        )
    return modes


@dataclass
class Monster:
    uid: int
    kind: str
    number: int
    health: int
    max_health: int
    attack: int
    toughness: int
    speed: int
    range: int
    speed_left: int = 0
    shield_used: bool = False
    controlled: bool = False
    warped: bool = False

    def label(self, book: Rulebook) -> str:
        """ "Skeleton 2"; a boss is one of a kind unless the Pi places a second one."""
        return str(self.title(book))

    def title(self, book: Rulebook) -> Msg:
        """The label as a message, so "Skeleton 2" is "Esqueleto 2" in Spanish."""
        kind = book.monsters[self.kind]
        if kind.size in ("mini_boss", "dungeon_boss") and self.number == 1:
            return msg(kind.name)
        return msg("{name} {n}", name=msg(kind.name), n=self.number)

    def to_json(self, book: Rulebook) -> dict[str, Any]:
        kind = book.monsters[self.kind]
        return {
            "id": self.uid,
            "name": Text(self.title(book)),
            "kind": self.kind,
            "size": kind.size,
            "health": self.health,
            "max_health": self.max_health,
            "attack": self.attack,
            "toughness": self.toughness,
            "speed": self.speed,
            "speed_left": self.speed_left,
            "range": self.range,
            "specials": list(kind.specials),
        }


def new_monster(
    kind: MonsterKind,
    uid: int,
    number: int,
    *,
    heroes: int,
    level: int,
    attack_range: int,
    book: Rulebook,
) -> Monster:
    """A monster as placed: 2-hero stats where the sheet has them, level bonuses."""
    health = kind.health_two_heroes if heroes <= 2 else kind.health
    attack = kind.attack
    if level >= book.level_bonus["attack_from_level"]:
        attack += 1
    if level >= book.level_bonus["health_from_level"]:
        health += 1
    return Monster(
        uid,
        kind.id,
        number,
        health,
        health,
        attack,
        kind.toughness,
        kind.speed,
        attack_range,
        kind.speed,
    )
