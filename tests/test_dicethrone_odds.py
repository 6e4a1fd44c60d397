"""Exact odds of Roll Objectives (issue 4, item 3), checked against published figures."""

from fractions import Fraction

import pytest

from dicetable.rules.dicethrone.objectives import parse_objective
from dicetable.rules.dicethrone.odds import best_keep, chance, chance_from

BARBARIAN = {"sword": (1, 2, 3), "heart": (4, 5), "pow": (6,)}


def test_single_roll_figures_match_counting():
    """Well-known one-roll Yahtzee figures (e.g. primegrid.com forum thread 8460: small
    straight 200/1296; large straight 240/7776; Yahtzee 6/7776; 4 of a kind 156/7776)."""
    assert chance(parse_objective("yahtzee"), rolls=1) == Fraction(6, 7776)
    assert chance(parse_objective("large straight"), rolls=1) == Fraction(240, 7776)
    assert chance(parse_objective("small straight"), rolls=1) == Fraction(200, 1296)
    assert chance(parse_objective("4 of a kind"), rolls=1) == Fraction(156, 7776)
    assert chance(parse_objective("3 of a kind"), rolls=1) == Fraction(1656, 7776)


def test_yahtzee_within_three_rolls_is_the_published_figure():
    """Wikipedia "Yahtzee": a Yahtzee within three rolls, keeping the most common
    number, is 2,783,176 / 60,466,176 ≈ 4.60%."""
    yahtzee = parse_objective("5 of a kind")
    assert chance(yahtzee, rolls=3) == Fraction(2783176, 60466176)
    assert chance(yahtzee, rolls=3, keep="boss") == Fraction(2783176, 60466176)


def test_large_straight_with_the_solo_boss_keep_rule_matches_the_published_exact_value():
    """math.stackexchange.com/questions/4032313 ("strict re-roll rules": keep one each
    of 2-5, a 1 or 6 only as part of a straight; the fan solo mode v3.2 rule, section
    4 "Offensive Rolling Phase") gives 295073737/1224440064 ≈ 0.24099 by Markov chain."""
    large = parse_objective("large straight")
    assert chance(large, rolls=3, keep="boss") == Fraction(295073737, 1224440064)
    assert chance(large, rolls=3) > chance(large, rolls=3, keep="boss")  # optimal ≥ rule


def test_a_specific_symbol_five_times_is_a_specific_yahtzee():
    """5 Pow (Barbarian Rage!, one face of six) is a specific-number Yahtzee; keeping
    the Pow dice is optimal, so both keep rules agree."""
    rage = parse_objective("5 pow", BARBARIAN)
    assert chance(rage, 1) == Fraction(1, 7776)
    assert chance(rage, 3) == chance(rage, 3, keep="boss")
    # one die: 1 - (5/6)^3 within three rolls
    assert chance(parse_objective("pow", BARBARIAN), 3, dice=1) == 1 - Fraction(5, 6) ** 3


def test_more_rolls_never_hurt_and_hex_only_hurts():
    """Raveness rulebook, Hex: 6s are blank, so a Hexed roll never does better."""
    for text in ("3 sword", "2 sword + 2 pow", "small straight", "4 of a kind"):
        objective = parse_objective(text, BARBARIAN)
        odds = [chance(objective, r) for r in (1, 2, 3)]
        assert odds == sorted(odds)
        assert chance(objective, 3, hex=True) <= odds[-1]
    assert chance(parse_objective("5 pow", BARBARIAN), 3, hex=True) == 0


def test_from_the_table_and_which_dice_to_keep():
    """With 1-2-3-4 and a 6 and one reroll, keep 1-2-3-4: a 5 makes the straight (1/6)."""
    large = parse_objective("large straight")
    assert best_keep(large, [1, 2, 3, 4, 6], 1) == (0, 1, 2, 3)
    assert chance_from(large, [1, 2, 3, 4, 6], 1) == Fraction(1, 6)
    assert chance_from(large, [1, 2, 3, 4, 5], 0) == 1
    assert chance_from(large, [1, 1, 3, 4, 6], 0) == 0
    sturdy = parse_objective("2 sword + 2 pow", BARBARIAN)
    # with one reroll, keeping 1 Sword + the Pow beats keeping 2 Swords + the Pow:
    # 3 fresh dice need a Sword and a Pow (1/3) against a Pow on 2 dice (11/36)
    assert [[1, 1, 6, 4, 4][i] for i in best_keep(sturdy, [1, 1, 6, 4, 4], 1)] == [1, 6]
    assert chance_from(sturdy, [1, 1, 6, 4, 4], 1) == Fraction(1, 3)
    assert chance_from(sturdy, [1, 1, 6, 4, 4], 1, keep="boss") == Fraction(11, 36)


def test_bad_requests_say_what_is_wrong():
    with pytest.raises(ValueError, match="7 dice"):
        chance(parse_objective("3 of a kind"), dice=7)
    with pytest.raises(ValueError, match="keep"):
        chance(parse_objective("3 of a kind"), keep="lucky")


def test_small_straight_rerolls_match_a_published_hand_count():
    """primegrid.com/forum_thread.php?id=8460 (one reroll, best keep, out of 1296):
    keeping 2,3,4 -> 720; 1,2,4 -> 396; 3,4 -> 468; 2,4 -> 324; and "if you don't have
    a 3 or 4, roll them all again" (200 beats keeping 2,5 at 180)."""
    small = parse_objective("small straight")
    assert chance_from(small, [2, 3, 4, 6, 6], 1) == Fraction(720, 1296)
    assert chance_from(small, [1, 2, 4, 6, 6], 1) == Fraction(396, 1296)
    assert chance_from(small, [3, 4, 6, 6, 6], 1) == Fraction(468, 1296)
    assert chance_from(small, [2, 4, 6, 6, 6], 1) == Fraction(324, 1296)
    assert chance_from(small, [2, 5, 6, 6, 6], 1) == Fraction(200, 1296)
    assert best_keep(small, [2, 5, 6, 6, 6], 1) == ()
