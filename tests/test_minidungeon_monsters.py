"""Mini Dungeon Adventures: the monsters' turn (issue 7, must show 4), played by the
policy of data/POLICY.md. Each test quotes the rulebook line it checks
(``shared/seeds/mini-dungeon-adventures.txt``)."""

from __future__ import annotations

from test_minidungeon_helpers import (
    answer,
    in_room,
    monster,
    option_ids,
    party,
    run,
)

from dicetable.rules.core import Actor, Input, PromptKind
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon import monsters_turn
from dicetable.rules.minidungeon.table import Room


def test_melee_monster_moves_then_attacks_with_its_speed():
    """ "Se gasta 1 punto de Velocidad para mover 1 casilla"; melee attacks cost 1 speed;
    "Up to four attacks may be attempted per turn"."""
    game = party(("fighter", "mage"))
    mage = game.heroes[1]
    (skeleton,) = in_room(game, 1, "skeleton")
    skeleton.speed_left = 4
    run(game, monsters_turn.policy_melee(game, skeleton))
    assert option_ids(game) == ["h1", "h2"]
    answer(game, "h2")
    assert game.prompt().kind is PromptKind.NUMBER and "spear" in str(game.prompt().text)
    answer(game, 1)
    prompt = game.prompt()
    assert prompt.dice.count == 3 and prompt.actor is Actor.BOSS
    assert "Move Skeleton 1 1 squares to Mage 2" in str(prompt.text)
    answer(game, Input.roll(2, 2, 2))
    assert skeleton.speed_left == 0 and mage.health == fig.max_health(mage, game.book)


def test_out_of_reach_the_monster_only_moves():
    """Movement before attacks: a monster that cannot reach a hero spends its speed
    moving towards them (an instruction to move the figure)."""
    game = party(("fighter", "mage"))
    (zombie,) = in_room(game, 1, "zombie")
    zombie.speed_left = 4
    run(game, monsters_turn.policy_melee(game, zombie))
    answer(game, "h1", 9)
    assert game.prompt().kind is PromptKind.CONFIRM
    assert "Move Zombie 1 4 squares towards Fighter 1" in str(game.prompt().text)


def test_ranged_minion_keeps_its_distance_and_pays_two_a_shot():
    """ "Ranged attacks cost 2 speed points per attempt"; Minion "Crossbow: Range 3"."""
    game = party(("fighter", "mage"))
    (minion,) = in_room(game, 1, "minion")
    minion.speed_left = 5
    run(game, monsters_turn.policy_ranged(game, minion))
    answer(game, "h1")
    assert "within range 3" in str(game.prompt().text)
    answer(game, 0)
    assert game.prompt().dice.count == 2  # 5 speed: 2 shots of 2


def test_the_lich_raises_the_dead_then_drains():
    """Lich: "Raise Dead: Costs 2 speed points. Place a zombie on the same square";
    "Soul Drinker ... If this attack succeeds, restore 1 health to the Lich King. (this may
    not increase his health beyond 5)"."""
    game = party(("fighter", "mage"))
    fighter, _ = game.heroes
    game.room = Room(number=6, lair=True)
    lich = monster(game, "lich")
    lich.speed_left = 6
    lich.health = 3
    run(game, monsters_turn.policy_lich(game, lich))
    answer(game, "h1", "none", "none")  # the fighter is on its square
    assert "Soul Drinker on Fighter 1" in str(game.prompt().text)
    answer(game, 6)  # a critical hit: no save (and no speed left to save with)
    assert lich.health == 4 and fighter.health == fig.max_health(fighter, game.book) - 1
    assert "Raise Dead" in str(game.prompt().text)
    answer(game, None, None)  # twice: "fewer zombies than heroes"
    assert [m.kind for m in game.room.monsters].count("zombie") == 2
    assert lich.speed_left == 0


def test_fire_demon_vortex_pulls_heroes_then_sweeps():
    """Fire Demon: "Vortex of Doom: Cost 2 speed points. Make an attack that targets every
    hero in the room ... If the attack succeeds, deal no damage, instead move that hero 1
    square closer"; "Sweep: Target every figure ... on the same square"."""
    game = party(("fighter", "mage"))
    fighter, mage = game.heroes
    (demon, zombie) = in_room(game, 9, "fire_demon", "zombie")
    demon.speed_left = 5
    run(game, monsters_turn.policy_fire_demon(game, demon))
    answer(game, "no")  # no hero on its square: the vortex
    prompt = game.prompt()
    assert prompt.dice.count == 2 and prompt.actor is Actor.BOSS
    answer(game, Input.roll(6, 1))
    assert "Move Fighter 1 1 square closer" in str(game.prompt().text)
    health = fighter.health
    answer(game, None, "h1", 0, "h2", f"m{zombie.uid}")  # each list ends when all are picked
    assert game.prompt().dice.count == 3  # 5 - 2 (vortex) speed left, 1 an attack
    answer(game, Input.roll(6, 1, 1))
    assert fighter.health == health - 1 and mage.health == fig.max_health(mage, game.book) - 1
    assert zombie not in game.room.monsters  # the sweep hits monsters too
