"""The rulebook as data: load and validate the TOML files in ``data/`` into the records
of ``content.py``.

Every entry is checked on load, and a mistake names the file, the entry and the
field, so a player who adds a monster or an event card sees at once what is wrong.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from dicetable.rules.data_files import DataError, Fields, read_toml
from dicetable.rules.minidungeon.content import (
    EFFECTS,
    POLICIES,
    POTION_EFFECTS,
    SIZES,
    SLOTS,
    TRAP_EFFECTS,
    EventCard,
    GeneratorResult,
    HeroClass,
    Item,
    MonsterKind,
    Motivation,
    Rulebook,
    Spawn,
    Spell,
    Trap,
    TreasureResult,
)


def _fields(file: str, where: str, table: dict[str, Any]) -> Fields:
    return Fields(f"minidungeon/data/{file}", where, table)


def _read(file: str) -> dict[str, Any]:
    return read_toml("dicetable.rules.minidungeon", "data", file, file=f"minidungeon/data/{file}")


def _entries(file: str, data: dict[str, Any], key: str) -> list[Fields]:
    tables = data.get(key, [])
    if not isinstance(tables, list) or not tables:
        raise DataError(f"minidungeon/data/{file}: needs at least one [[{key}]] entry")
    found = []
    for number, table in enumerate(tables, start=1):
        name = table.get("id", table.get("result", table.get("results", number)))
        found.append(_fields(file, f"[[{key}]] #{number} ({name})", table))
    return found


def _unique(file: str, entries: list[Any], key: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for entry in entries:
        if entry.id in found:
            raise DataError(f"minidungeon/data/{file}: two [[{key}]] entries have id {entry.id!r}")
        found[entry.id] = entry
    return found


def _monsters(data: dict[str, Any]) -> dict[str, MonsterKind]:
    kinds = []
    for e in _entries("monsters.toml", data, "monster"):
        health = e.get("health", int)
        kinds.append(
            MonsterKind(
                id=e.get("id", str),
                name=e.get("name", str),
                size=e.one_of("size", SIZES),
                health=health,
                health_two_heroes=e.get("health_two_heroes", int, health),
                attack=e.get("attack", int),
                toughness=e.get("toughness", int),
                speed=e.get("speed", int),
                range=e.get("range", int),
                policy=e.one_of("policy", POLICIES),
                specials=e.strs("specials", []),
                text=e.get("text", str),
                range_alternatives=e.ints("range_alternatives", []),
            )
        )
    return _unique("monsters.toml", kinds, "monster")


def _items(data: dict[str, Any]) -> dict[str, Item]:
    items: list[Item] = []
    for key, kind in (("potion", "potion"), ("armour", "armour"), ("weapon", "weapon")):
        for e in _entries("store.toml", data, key):
            values: dict[str, Any] = {
                "id": e.get("id", str),
                "name": e.get("name", str),
                "kind": kind,
                "price": e.get("price", int),
                "text": e.get("text", str),
            }
            if kind == "potion":
                values["slot"] = "potion"
                values["effect"] = e.one_of("effect", POTION_EFFECTS)
            elif kind == "armour":
                values["slot"] = e.one_of("slot", SLOTS)
            for name, spec in Item.__dataclass_fields__.items():
                if name in values or name not in e.table:
                    continue
                if spec.type == "int":
                    values[name] = e.get(name, int)
                elif spec.type == "bool":
                    values[name] = e.get(name, bool)
                elif spec.type == "str":
                    values[name] = e.get(name, str)
                else:
                    values[name] = e.strs(name)
            unknown = set(e.table) - set(Item.__dataclass_fields__)
            if unknown:
                raise e.fail(sorted(unknown)[0], "is not a known item field")
            items.append(Item(**values))
    return _unique("store.toml", items, "item")


def _events(data: dict[str, Any]) -> dict[str, EventCard]:
    cards = [
        EventCard(
            id=e.get("id", str),
            title=e.get("title", str),
            text=e.get("text", str),
            effect=e.one_of("effect", EFFECTS),
            requires=e.strs("requires", []),
            unless=e.strs("unless", []),
            keep=e.one_of("keep", ("", "party", "boss"), ""),
        )
        for e in _entries("events.toml", data, "event")
    ]
    return _unique("events.toml", cards, "event")


@cache
def rulebook() -> Rulebook:
    monsters_data = _read("monsters.toml")
    dungeon = _read("dungeon.toml")
    heroes = _read("heroes.toml")
    spells_data = _read("spells.toml")
    treasure_data = _read("treasure.toml")
    town = _read("town.toml")
    monsters = _monsters(monsters_data)

    spawns = []
    for e in _entries("dungeon.toml", dungeon, "spawn"):
        pairs = []
        for pair in e.get("monsters", list):
            if not (len(pair) == 2 and pair[0] in monsters and isinstance(pair[1], int)):
                raise e.fail("monsters", f"has {pair!r}: write [monster id, how many]")
            pairs.append((pair[0], pair[1]))
        spawns.append(Spawn(e.ints("rooms"), tuple(pairs), e.get("lair", bool, False)))
    generator = tuple(
        GeneratorResult(
            results=e.ints("results"),
            text=e.get("text", str),
            **{
                name: e.get(name, int, 0)
                for name in (
                    "small_per_hero",
                    "small_dice",
                    "small",
                    "large",
                    "mini_boss",
                    "chests",
                )
            },
        )
        for e in _entries("dungeon.toml", dungeon, "generator")
    )
    traps = {
        e.get("result", int): Trap(
            e.get("result", int), e.one_of("effect", TRAP_EFFECTS), e.get("text", str)
        )
        for e in _entries("dungeon.toml", dungeon, "trap")
    }
    top = _fields("dungeon.toml", "top level", dungeon)
    for name in (
        *top.strs("large_monsters"),
        top.get("mini_boss", str),
        top.get("dungeon_boss", str),
    ):
        if name not in monsters:
            raise top.fail(
                "large_monsters/mini_boss/dungeon_boss", f"names {name!r}, not a monster"
            )

    classes = _unique(
        "heroes.toml",
        [
            HeroClass(
                id=e.get("id", str),
                name=e.get("name", str),
                text=e.get("text", str),
                health=e.get("health", int, 0),
                attack=e.get("attack", int, 0),
                toughness=e.get("toughness", int, 0),
                speed=e.get("speed", int, 0),
                mana=e.get("mana", int, 0),
                specials=e.strs("specials", []),
            )
            for e in _entries("heroes.toml", heroes, "class")
        ],
        "class",
    )
    motivations = _unique(
        "heroes.toml",
        [
            Motivation(
                id=e.get("id", str),
                name=e.get("name", str),
                text=e.get("text", str),
                starting_gold=e.get("starting_gold", int, 0),
                max_attacks=e.get("max_attacks", int, 0),
            )
            for e in _entries("heroes.toml", heroes, "motivation")
        ],
        "motivation",
    )
    base_entry = _fields("heroes.toml", "[base]", heroes.get("base", {}))
    base = {
        name: base_entry.get(name, int)
        for name in ("health", "attack", "toughness", "speed", "max_attacks", "starting_gold")
    }
    spells = _unique(
        "spells.toml",
        [
            Spell(
                id=e.get("id", str),
                name=e.get("name", str),
                speed=e.get("speed", int),
                mana=e.get("mana", int),
                target=e.one_of("target", ("self", "monster", "monsters2", "hero", "square")),
                text=e.get("text", str),
                range=e.get("range", int, 0),
                roll=e.get("roll", bool, False),
            )
            for e in _entries("spells.toml", spells_data, "spell")
        ],
        "spell",
    )
    items = _items(_read("store.toml"))
    alchemy: dict[int, str] = {}
    for e in _entries("spells.toml", spells_data, "alchemy"):
        potion = e.get("potion", str)
        if potion not in items:
            raise e.fail("potion", f"names {potion!r}, not a store item")
        alchemy.update(dict.fromkeys(e.ints("results"), potion))
    treasure = {}
    for e in _entries("treasure.toml", treasure_data, "treasure"):
        choice = e.strs("potion_choice", [])
        for potion in choice:
            if potion not in items:
                raise e.fail("potion_choice", f"names {potion!r}, not a store item")
        treasure[e.get("result", int)] = TreasureResult(
            result=e.get("result", int),
            text=e.get("text", str),
            gold=e.get("gold", int, 0),
            potion_choice=choice,
            weapons=e.get("weapons", int, 0),
            gambling_only=e.get("gambling_only", bool, False),
            banned=e.get("banned", bool, False),
        )
    bounty_entry = _fields("treasure.toml", "[bounty]", treasure_data.get("bounty", {}))
    bounty = {name: bounty_entry.get(name, int) for name in (*SIZES, "thief_chest")}
    choices = {}
    for name, table in town.get("choice", {}).items():
        e = _fields("town.toml", f"[choice.{name}]", table)
        values = e.get("values", dict)
        default = e.get("default", str)
        if default not in values:
            raise e.fail("default", f"is {default!r}, not one of the values {', '.join(values)}")
        choices[name] = (default, *(v for v in values if v != default))
    level = _fields("monsters.toml", "[level_bonus]", monsters_data.get("level_bonus", {}))
    return Rulebook(
        monsters=monsters,
        level_bonus={k: level.get(k, int) for k in ("attack_from_level", "health_from_level")},
        rooms=top.get("rooms", int),
        rooms_two_heroes=top.get("rooms_two_heroes", int),
        rooms_short=top.get("rooms_short", int),
        spawns=tuple(spawns),
        large_monsters=top.strs("large_monsters"),
        mini_boss=top.get("mini_boss", str),
        dungeon_boss=top.get("dungeon_boss", str),
        generator=generator,
        traps=traps,
        base=base,
        classes=classes,
        motivations=motivations,
        items=items,
        spells=spells,
        alchemy=alchemy,
        treasure=treasure,
        bounty=bounty,
        events=_events(_read("events.toml")),
        choices=choices,
        town={k: v for k, v in town.items() if k != "choice"},
    )
