"""Mini Dungeon Adventures: exploring a room (issue 7, must show 2): the monster
generator and its modifiers, the spawn lists, placement and the trap chart. Each test
quotes the rulebook line it checks (``shared/seeds/mini-dungeon-adventures.txt``)."""

from __future__ import annotations

from test_minidungeon_helpers import (
    answer,
    explore,
    party,
    run,
)

from dicetable.rules.core import Actor, PromptKind
from dicetable.rules.minidungeon import exploring
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.table import Room


def test_small_monsters_come_from_the_list_in_order_zombies_counting_half():
    """ "if 4 skeletons are listed before 2 minions and the monster generator requirement
    calls for 2 small monsters, then the 2 of the 4 skeletons are placed"; "2 zombies
    count as 1 small monster"."""
    game = party()
    order = game.book.spawn_list(1, lair=False).monsters
    assert [m.kind for m in exploring.small_monsters(game, order, 2)] == ["zombie"] * 4
    three = exploring.small_monsters(game, order, 3)
    assert [m.kind for m in three] == ["zombie"] * 4 + ["skeleton"]
    assert len(exploring.small_monsters(game, order, 99)) == 9  # the list is all there is


def test_the_generator_roll_and_its_modifiers_from_the_tray():
    """ "For each time the heroes retreat to town, add +1 to the die result for every
    monster generator roll afterward"; "Monster generator rolls are modified by +1 for
    every party level"; "1-2 - 1 small monster for each hero"."""
    game = party(("fighter", "mage"), options={"traps": "off"})
    game.retreats = 2
    run(game, exploring.explore(game, game.heroes[0]))
    prompt = game.prompt()
    assert prompt.actor is Actor.BOSS and "(+2)" in str(prompt.text)
    answer(game, 1)  # 1 + 2 = 3: D6 + 1 small monsters
    assert "number of small monsters" in str(game.prompt().text)
    answer(game, 2)  # 3 small: 4 zombies and a skeleton
    assert [m.kind for m in game.room.monsters] == ["zombie"] * 4 + ["skeleton"]
    assert game.prompt().kind is PromptKind.CONFIRM and "farthest" in str(game.prompt().text)
    game.level = 2
    assert exploring.level_modifier(game) == 1
    assert exploring.level_modifier(game.__class__(1, {"generator_level": "level"})) == 1


def test_largest_first_with_chests_and_the_mini_boss():
    """ "7- Mini boss, + 1 large monster, +1 small monster for each hero +1 treasure chest";
    "Monsters are placed from largest to smallest"."""
    game = party(("fighter", "mage"), options={"traps": "off"})
    game.retreats = 3
    explore(game, game.heroes[0], 6)  # 6 + 3 = 9, counted as 7
    kinds = [m.kind for m in game.room.monsters]
    assert kinds == ["fire_demon", "troll", "zombie", "zombie", "zombie", "zombie"]
    assert game.room.chests == 1
    assert game.room.monsters[0].health == 4  # "*5 (4)": two heroes


def test_trap_chart_timing_and_the_thief():
    """ "If the heroes manage to explore the next room on the same round that a room has
    been cleared, they do not have to roll on the trap chart. If they delay too long (2 or
    more rounds later or retreat to town) the trap will have a +1 modifier"; thief:
    "Trap results are -1 when a room is first explored by a thief"."""
    game = party(("fighter", "thief"))
    fighter, thief = game.heroes
    game.round = 4
    game.room.number, game.room.cleared_round = 1, 4
    run(game, exploring.explore(game, fighter))
    assert "monster generator" in str(game.prompt().text)  # no trap roll
    game.room = Room(number=1, cleared_round=3)
    run(game, exploring.explore(game, fighter))
    assert "trap chart for the boss (+0)" in str(game.prompt().text)
    game.room = Room(number=1, cleared_round=2)
    run(game, exploring.explore(game, fighter))
    assert "(+1)" in str(game.prompt().text)
    game.room = Room(number=1, cleared_round=2)
    run(game, exploring.explore(game, thief))
    assert "(+0)" in str(game.prompt().text)  # +1 late, -1 thief
    game.room = Room(number=1, cleared_round=4)
    game.town_visited_since_clear = True
    run(game, exploring.explore(game, fighter))
    assert "(+1)" in str(game.prompt().text)


def test_trap_two_brick_and_six_double_generator():
    """ "2 - The hero that opened the door is hit by a falling brick ... or lose 1
    health"; "6 - When rolling for the monster generator, roll twice. If the monster
    generator roll has any +1 modifiers, the second result is unmodified"."""
    game = party(("fighter", "mage"))
    fighter = game.heroes[0]
    fighter.speed_left = 0
    game.retreats = 1
    explore(game, fighter, 1, 1, None)  # trap 1+0; generator 1+1 = 2
    game.room = Room(number=1, cleared_round=game.round)
    game.round += 2  # late: trap +1
    run(game, exploring.explore(game, fighter))
    answer(game, 5)  # trap 6
    assert "(+1)" in str(game.prompt().text)
    answer(game, 1)
    assert "again" in str(game.prompt().text) and "(+0)" in str(game.prompt().text)
    answer(game, 1, None)
    assert len(game.room.monsters) == 8  # 2 small a hero, twice: zombies count half
    game.room = Room(number=1, cleared_round=game.round - 1)
    health = fighter.health
    explore(game, fighter, 2, 1, None)  # trap 2: no speed left, so no save
    assert fighter.health == health - 1


def test_ambush_ends_the_heroes_turn():
    """ "5 - The monsters are waiting in ambush! After the monsters are placed, the hero turn
    immediately ends (the heroes retain any unused speed points)"."""
    game = party(("fighter", "mage"))
    while game.prompt().text.text == "Which hero acts now?":
        answer(game, "h1")
    answer(game, "door", 5, 1, None, None)
    assert game.room.trap == "ambush"
    assert game.phase == "monsters"
    assert game.heroes[1].speed_left == fig.full_speed(game.heroes[1], game.book)
