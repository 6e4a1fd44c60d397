"""The fan-made Dice Throne solo mode v3.2 (issue 4, item 4): the status effects on the
Boss and on the player (Evasive, Concussion, Knockdown, Stun, Hex, the tokens the
Boss gives) and the heroes' own defences and attacks against him.

Rule references are to shared/seeds/dice-throne-fan-solo-mode-v3.2.txt.
"""

from __future__ import annotations

import pytest
from test_dicethrone_solo import boss_turn, confirm_all, new_game, stack, to_menu

from dicetable.rules.core import Input, PromptKind


@pytest.mark.parametrize(
    ("health", "damage", "used"), [(80, 9, True), (80, 8, False), (5, 5, True), (5, 4, False)]
)
def test_evasive_above_8_damage_or_against_a_lethal_blow(health, damage, used):
    """7. Evasive: used "for any Avoidable damage ... greater than 8 damage after his
    defense roll or if the damage results in game over"."""
    game = new_game()
    to_menu(game)
    game.boss.health = health
    game.boss.add("evasive", 1)
    game.apply(Input.choose("undefendable"))
    game.apply(Input.enter(damage))
    assert (game.boss.count("evasive") == 0) == used
    if used:
        game.apply(Input.roll(2))  # 1-2: avoided
        assert game.boss.health == health


def test_evasive_keeps_going_until_one_works():
    """7. Evasive: "He will use his tokens until one of them prevents the damage"."""
    game = new_game()
    to_menu(game)
    game.boss.add("evasive", 2)
    game.apply(Input.choose("undefendable"))
    game.apply(Input.enter(10))
    game.apply(Input.roll(5))
    assert game.prompt().kind is PromptKind.ROLL
    game.apply(Input.roll(6))
    assert game.boss.health == 70 and game.boss.count("evasive") == 0


def test_concussion_skips_maintenance_income_reinforcement_and_the_action_card():
    """7. Concussion: no maintenance, no +1 CP, no reinforcement, the Action card is
    not used (and no CP for it); the player still gains the bonus."""
    game = new_game()
    to_menu(game)
    game.boss.add("concussion")
    game.boss.add("poison")
    boss_turn(game, "Iron Will", "War Paint")
    assert game.boss.cp == 2 and game.boss.count("kings-hand") == 2
    assert game.boss.health == 80
    assert game.salve == 1
    assert not game.action_used
    assert game.prompt().kind is PromptKind.ROLL  # he still rolls for the objective


def test_knockdown_is_paid_or_a_card_is_discarded_for_it():
    """4. Special situations: without the CP to discard Knockdown he draws a card and
    discards it for the CP that removes it (no bonus for the player)."""
    game = new_game()
    to_menu(game)
    game.boss.add("knockdown")
    boss_turn(game, "Brute Force", "Heavy Swing")
    assert game.boss.count("knockdown") == 0 and game.boss.cp == 1  # 2 + 1 - 2
    game = new_game()
    to_menu(game)
    game.boss.add("knockdown")
    game.boss.cp = 0
    salves = game.salve
    piles = len(game.action_pile)
    boss_turn(game, "Brute Force", "Heavy Swing")
    assert game.boss.count("knockdown") == 0
    assert len(game.action_pile) == piles - 1  # one card drawn for the turn, one discarded
    assert game.salve == salves


def test_stun_skips_the_offensive_roll():
    game = new_game()
    to_menu(game)
    game.boss.add("stun")
    boss_turn(game, "Brute Force", "Plunder")
    assert game.boss.count("stun") == 0
    assert game.queue[0][0] in {"menu", "salves"} and game.turn == 2


def test_back_strike_retaliates_with_half_a_die():
    """6. Back-Strike: when you receive damage from an Offensive Roll phase, roll 1 die
    and deal half of it (rounded up), or the face-down card's value."""
    game = new_game()
    game.levels = {}
    boss_turn(game, "Sturdy Stance", "Intimidate")  # bonus Back Strike
    assert game.back_strike
    game.apply(Input.roll(1, 2, 6, 6, 4))  # Sturdy Blow: 4 undefendable
    confirm_all(game)
    assert game.player.health == 46
    game.apply(Input.choose("roll"))
    game.apply(Input.roll(5))
    confirm_all(game)
    assert game.boss.health == 77 and not game.back_strike


def test_moon_elf_elusive_step_prevents_half():
    """Moon Elf (reference 1.3): Elusive Step, 2 Foot prevent half the damage (rounded up)."""
    game = new_game("moon_elf")
    game.levels = {}
    to_menu(game)
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(9))
    game.apply(Input.roll(4, 5, 1, 1, 6))
    assert game.boss.health == 80 - 4


def test_pyromancer_fire_mastery_adds_damage():
    """Pyromancer (reference 1.4): Ignite, gain 2 Fire Mastery, then 4 + 2 per FM."""
    game = new_game("pyromancer")
    game.levels = {}
    boss_turn(game, "Wildfire", "Ember Tithe")
    game.boss.tokens["fire-mastery"] = 1
    game.apply(Input.roll(1, 2, 3, 4, 5))
    assert game.prompt().number_range == (0, 4 + 2 * 3)


def test_shadow_thief_kidney_shot_deals_his_cp():
    """Shadow Thief (reference 1.5): Kidney Shot, gain 4 CP, damage = CP."""
    game = new_game("shadow_thief")
    game.levels = {}
    boss_turn(game, "Heist", "Pocket Change")  # CP 2 + 1 + 2 (Pocket Change)
    game.apply(Input.roll(2, 3, 4, 5, 6))
    assert game.boss.cp == 9
    assert game.prompt().number_range == (0, 9)


def test_hex_on_the_boss_blanks_his_sixes_until_his_turn_ends():
    """Raveness rulebook, Hex: "6's are considered blanks" for the afflicted player, and
    the token is removed at the conclusion of their turn; the odds shown follow it."""
    game = new_game()
    game.levels = {}
    to_menu(game)
    game.apply(Input.choose("status"))
    game.apply(Input.choose("hex"))
    stack(game, "Unbridled Rage", "Plunder")  # 5 pow: impossible when 6s are blank
    game.apply(Input.choose("end"))
    confirm_all(game)
    assert game.prompt().odds == 0
    rolls = 0
    while game.queue[0][0] == "offense":
        game.apply(Input.roll(6, 6, 6, 6, 6))
        rolls += 1
    assert rolls == 9  # 3 rolls, then one retry per King's Hand (2): nothing is met
    confirm_all(game)
    assert game.boss.count("hex") == 0 and game.player.health == 50


def test_tokens_the_boss_gave_the_player_act_in_the_players_upkeep():
    """4. Income phase: negative reinforcement tokens go to the player; Poison and Burn
    then hurt at the player's Upkeep (reference 1.4/3: Burn 2), Concussion skips the
    player's Income Phase (7. Concussion)."""
    game = new_game()
    confirm_all(game)
    game.player.add("poison", 2)
    game.player.add("concussion")
    cp = game.player.cp
    boss_turn(game, "Brute Force", "Plunder")
    for _ in range(3):
        if game.queue[0][0] == "offense":
            game.apply(Input.roll(4, 4, 5, 5, 6))
    confirm_all(game)
    assert game.turn == 2
    assert game.player.health == 50 - 2 and game.player.cp == cp
    assert game.player.count("concussion") == 0 and game.player.count("poison") == 2
