"""What a Mini Dungeon Adventures rulebook holds, as records: monster kinds, the
monster generator and trap chart, spawn lists, hero classes, motivations, items,
spells, the treasure chart and event cards, and the ``Rulebook`` of them all (which
``data.py`` fills from the TOML files), with the words each record may use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SIZES = ("small", "large", "mini_boss", "dungeon_boss")
POLICIES = ("melee", "ranged", "fire_demon", "lich")
SLOTS = ("hand", "head", "body", "feet")


@dataclass(frozen=True)
class MonsterKind:
    id: str
    name: str
    size: str
    health: int
    health_two_heroes: int
    attack: int
    toughness: int
    speed: int
    range: int
    policy: str
    specials: tuple[str, ...]
    text: str
    range_alternatives: tuple[int, ...] = ()


@dataclass(frozen=True)
class GeneratorResult:
    results: tuple[int, ...]
    text: str
    small_per_hero: int = 0
    small_dice: int = 0
    small: int = 0
    large: int = 0
    mini_boss: int = 0
    chests: int = 0


@dataclass(frozen=True)
class Trap:
    result: int
    effect: str
    text: str


@dataclass(frozen=True)
class Spawn:
    rooms: tuple[int, ...]
    monsters: tuple[tuple[str, int], ...]
    lair: bool = False


@dataclass(frozen=True)
class HeroClass:
    id: str
    name: str
    text: str
    health: int = 0
    attack: int = 0
    toughness: int = 0
    speed: int = 0
    mana: int = 0
    specials: tuple[str, ...] = ()


@dataclass(frozen=True)
class Motivation:
    id: str
    name: str
    text: str
    starting_gold: int = 0
    max_attacks: int = 0


@dataclass(frozen=True)
class Item:
    """A store item: potion, armour or weapon; unused fields stay at their zero."""

    id: str
    name: str
    kind: str  # potion | armour | weapon
    price: int
    text: str
    slot: str = "hand"
    hands: int = 1
    effect: str = ""
    attack: int = 0
    range: int = 0
    cost: int = 1
    damage: int = 1
    crit_damage: int = 0
    crit_on: int = 6
    parry: bool = False
    dual: bool = False
    max_attacks: int = 0
    free_hand_attack: int = 0
    pair_heavy_attack: int = 0
    pair_heavy_cost: int = 0
    spell_attack: int = 0
    extra_spell: bool = False
    reach: bool = False
    available_to: tuple[str, ...] = ()
    save: str = ""
    save_cost: int = 0
    save_target: int = 0
    toughness: int = 0
    toughness_melee: int = 0
    health: int = 0
    speed: int = 0
    free_dodge: int = 0
    flight: bool = False

    @property
    def is_weapon(self) -> bool:
        return self.kind == "weapon"


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    speed: int
    mana: int
    target: str
    text: str
    range: int = 0
    roll: bool = False


@dataclass(frozen=True)
class TreasureResult:
    result: int
    text: str
    gold: int = 0
    potion_choice: tuple[str, ...] = ()
    weapons: int = 0
    gambling_only: bool = False
    banned: bool = False


@dataclass(frozen=True)
class EventCard:
    id: str
    title: str
    text: str
    effect: str
    requires: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    keep: str = ""


EFFECTS = (
    "instruction",
    "time_bubble",
    "must_rest",
    "charge",
    "extra_zombie",
    "no_retreat",
    "town_under_attack",
    "cunning_plan",
    "treasure_roll",
    "living_legend",
    "vicious_battle",
    "rations",
    "overcome_fear",
    "evil_alchemy",
    "pitch_black",
    "magebane",
    "merchant",
    "bounties_raised",
    "mind_war",
    "assassin",
    "boss_reroll",
    "sneak_attack",
    "loud_noises",
    "not_dead_yet",
    "trap_door",
    "glittering_prizes",
    "cha_aaargh",
    "free_item",
    "visions",
    "greed",
)
TRAP_EFFECTS = (
    "none",
    "falling_brick",
    "pitfall",
    "vines",
    "ambush",
    "double_generator",
    "both_generators",
)
POTION_EFFECTS = ("heal_d3", "speed_3", "auto_hit", "mana_3", "invulnerable")


@dataclass(frozen=True)
class Rulebook:
    """Everything the Mini Dungeon Adventures engine reads from ``data/``."""

    monsters: dict[str, MonsterKind]
    level_bonus: dict[str, int]
    rooms: int
    rooms_two_heroes: int
    rooms_short: int
    spawns: tuple[Spawn, ...]
    large_monsters: tuple[str, ...]
    mini_boss: str
    dungeon_boss: str
    generator: tuple[GeneratorResult, ...]
    traps: dict[int, Trap]
    base: dict[str, int]
    classes: dict[str, HeroClass]
    motivations: dict[str, Motivation]
    items: dict[str, Item]
    spells: dict[str, Spell]
    alchemy: dict[int, str]
    treasure: dict[int, TreasureResult]
    bounty: dict[str, int]
    events: dict[str, EventCard]
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    town: dict[str, Any] = field(default_factory=dict)

    def spawn_list(self, room: int, lair: bool) -> Spawn:
        for spawn in self.spawns:
            if spawn.lair if lair else room in spawn.rooms:
                return spawn
        return self.spawns[-1]

    def generator_result(self, value: int) -> GeneratorResult:
        for entry in self.generator:
            if value in entry.results:
                return entry
        raise KeyError(value)
