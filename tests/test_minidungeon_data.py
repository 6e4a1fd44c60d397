"""Mini Dungeon Adventures: the rulebook as data (issue 7, must show 1).

The rulebook is ``shared/seeds/mini-dungeon-adventures.txt``; each test quotes the line
it checks."""

from __future__ import annotations

import re
import tomllib

import pytest

from dicetable.rules.minidungeon.data import DataError, _events, _monsters, rulebook
from dicetable.rules.minidungeon.game import MiniDungeon

BOOK = rulebook()


def test_monster_stats_match_the_boss_screen():
    """Boss screen: "Skeleton H A T S 1 4 7 4", "Zombie 1 4 7 4 0", "Minion 2 4 8 5",
    "Guard 2 4 8 3 0", "Troll ... 3 5 8 4 0", "Patchwork 3 4 10 4 0"."""
    stats = {k: (m.health, m.attack, m.toughness, m.speed) for k, m in BOOK.monsters.items()}
    assert stats["skeleton"] == (1, 4, 7, 4)
    assert stats["zombie"] == (1, 4, 7, 4)
    assert stats["minion"] == (2, 4, 8, 5)
    assert stats["guard"] == (2, 4, 8, 3)
    assert stats["troll"] == (3, 5, 8, 4)
    assert stats["patchwork"] == (3, 4, 10, 4)
    assert stats["fire_demon"] == (5, 5, 10, 5)
    assert BOOK.monsters["troll"].size == "large" and "smash" in BOOK.monsters["troll"].specials
    assert "stun" in BOOK.monsters["patchwork"].specials


def test_variable_stats_per_number_of_heroes():
    """ "stats marked with an asterisk are variable ... For a 3-4 hero game, use the first
    value. for a 2 hero game, use the one in parentheses": Fire Demon and Lich *5 (4)."""
    for kind in ("fire_demon", "lich"):
        assert (BOOK.monsters[kind].health, BOOK.monsters[kind].health_two_heroes) == (5, 4)


def test_spawn_lists_in_spawn_order(shared_dir):
    """ "Rooms 1-2: 4 zombies 3 skeletons 2 minions" ... "Room 11: 2 guards 3 minions 4
    zombies": every list printed in the rulebook is in the data, in the same order."""
    text = (shared_dir / "seeds" / "mini-dungeon-adventures.txt").read_text(encoding="utf-8")
    printed = re.findall(r"Rooms? ([\d-]+): ((?:\d+ [a-z]+ ?)+)", text)
    assert len(printed) >= 6
    for rooms, listing in printed:
        first = int(rooms.split("-")[0])
        wanted = [(kind.rstrip("s"), int(n)) for n, kind in re.findall(r"(\d+) ([a-z]+)", listing)]
        assert list(BOOK.spawn_list(first, lair=False).monsters) == wanted, rooms


def test_room_10_and_the_lair_have_lists():
    """The text jumps from "Room 9" to "Room 11" (room 10 shares room 9's list) and
    "Room 12: Dungeon Boss' Choice" is the Pi's own list."""
    assert BOOK.spawn_list(10, lair=False) == BOOK.spawn_list(9, lair=False)
    assert BOOK.spawn_list(12, lair=True).lair


def test_generator_trap_and_treasure_charts_are_complete():
    """Monster generator 1-2 ... 7, trap chart 1 ... 7, treasure chart 1 ... 7
    ("7- (gambling only) Banned from the establishment")."""
    assert sorted(r for g in BOOK.generator for r in g.results) == list(range(1, 8))
    assert sorted(BOOK.traps) == list(range(1, 8))
    assert sorted(BOOK.treasure) == list(range(1, 8))
    assert BOOK.treasure[7].banned and BOOK.treasure[7].gambling_only
    seven = BOOK.generator_result(7)
    assert (seven.mini_boss, seven.large, seven.small_per_hero, seven.chests) == (1, 1, 1, 1)


def test_classes_store_and_bounties():
    """ "Mage - +1A -1T", "Thief - +1S -1A"; "Greatsword: 2 handed +2A 2 speed per attack
    ... lose 2 health"; "Killing a small monster: +1 gold -Killing a large monster: +3"."""
    assert (BOOK.classes["mage"].attack, BOOK.classes["mage"].toughness) == (1, -1)
    assert (BOOK.classes["thief"].speed, BOOK.classes["thief"].attack) == (1, -1)
    greatsword = BOOK.items["greatsword"]
    assert (greatsword.attack, greatsword.cost, greatsword.damage, greatsword.hands) == (2, 2, 2, 2)
    assert BOOK.items["poisoned_blade"].crit_on == 5
    assert BOOK.items["warhammer"].crit_damage == 2
    assert BOOK.bounty == {
        "small": 1,
        "large": 3,
        "mini_boss": 4,
        "dungeon_boss": 5,
        "thief_chest": 1,
    }
    assert len(BOOK.motivations) == 9 and len(BOOK.spells) == 8 and len(BOOK.events) >= 30


def test_contradictions_keep_both_values_as_options():
    """Town: "up to 3 health for 2 gold" vs "3 health for 4 gold"; gambling "costs 4
    gold" vs "costs 5 gold"; Minion range 2 vs "Crossbow: Range 3"."""
    allowed = MiniDungeon.options_allowed
    assert allowed["heal_price"] == ("4", "2")
    assert allowed["gamble_price"] == ("5", "4")
    assert allowed["minion_range"] == ("3", "2")
    assert allowed["mana_cost"] == ("attempt", "success")
    assert MiniDungeon(1, {"minion_range": "2"}).monster_ranges["minion"] == 2
    with pytest.raises(ValueError, match="heal_price"):
        MiniDungeon(1, {"heal_price": "3"})


def test_a_bad_entry_names_file_entry_and_field():
    """Game content is data, validated on load with an error naming what is wrong."""
    data = tomllib.loads('[[monster]]\nid = "imp"\nname = "Imp"\nsize = "tiny"\nhealth = 1\n')
    with pytest.raises(DataError, match=r"monsters.toml: \[\[monster\]\] #1 \(imp\): field 'size'"):
        _monsters(data)
    data = tomllib.loads('[[monster]]\nid = "imp"\nname = "Imp"\n')
    with pytest.raises(DataError, match="field 'health' is missing"):
        _monsters(data)
    data = tomllib.loads('[[event]]\nid = "x"\ntitle = "X"\ntext = "Y"\neffect = "explode"\n')
    with pytest.raises(DataError, match="events.toml.*field 'effect' is 'explode'"):
        _events(data)
