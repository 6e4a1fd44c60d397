"""The Roll Objective language (issue 4, item 2)."""

import pytest

from dicetable.rules.core import Die
from dicetable.rules.dicethrone.objectives import ObjectiveError, parse_objective

BARBARIAN = {"sword": (1, 2, 3), "heart": (4, 5), "pow": (6,)}
PYROMANCER = {"fire": (1, 2, 3), "magma": (4,), "soul": (5,), "meteor": (6,)}


def test_n_of_a_symbol():
    """Barbarian board (reference 1.2): Smack needs 3 Sword; faces 1-3 are Sword."""
    smack = parse_objective("3 sword", BARBARIAN)
    assert smack.met_by([1, 2, 3, 6, 6])
    assert not smack.met_by([1, 2, 4, 6, 6])
    assert parse_objective("3 swords", BARBARIAN) == smack
    assert parse_objective("3x sword", BARBARIAN) == smack
    assert smack.label == "3 sword"


def test_combinations_use_different_dice():
    """Sturdy Blow: 2 Sword + 2 Pow (reference 1.2)."""
    sturdy = parse_objective("2 Sword + 2 Pow", BARBARIAN)
    assert sturdy.met_by([1, 3, 6, 6, 4])
    assert not sturdy.met_by([1, 6, 6, 6, 4])
    assert sturdy.dice_needed == 4


def test_overlapping_needs_are_matched_exactly():
    """Ranges may overlap (2 of 1-3 and one 3): both need distinct dice."""
    objective = parse_objective("2 1-3 + 1 3")
    assert objective.met_by([3, 1, 2, 6, 6])
    assert not objective.met_by([3, 1, 6, 6, 6])  # the 3 cannot count twice
    assert not objective.met_by([3, 6, 6, 6, 5])
    assert objective.met_by([3, 3, 2, 6, 5])
    assert not objective.met_by([1, 2, 6, 6, 5])


def test_one_each_of_listed_symbols():
    """Pyromancer Combustion: 1 each Fire, Magma, Fiery Soul, Meteor (reference 1.4)."""
    for text in (
        "fire + magma + soul + meteor",
        "each fire magma soul meteor",
        "one each of fire, magma, soul, meteor",
    ):
        combustion = parse_objective(text, PYROMANCER)
        assert combustion.met_by([1, 4, 5, 6, 6])
        assert not combustion.met_by([1, 2, 5, 6, 6])


def test_of_a_kind_by_number():
    """Barbarian Smack II: "on 4-of-a-kind (#'s)" counts numbers, not symbols."""
    four = parse_objective("4 of a kind")
    assert four.met_by([2, 2, 2, 2, 5])
    assert not four.met_by([1, 2, 3, 3, 3])  # three Swords but not 4 of a number
    assert parse_objective("yahtzee").met_by([6] * 5)
    assert parse_objective("4oak") == four


def test_straights():
    """Small straight = 4 numbers in a row, large = 5 (reference 1.2 Mighty Blow, Reckless)."""
    small, large = parse_objective("small straight"), parse_objective("LS")
    assert small.met_by([3, 4, 5, 6, 6]) and small.met_by([1, 2, 3, 4, 4])
    assert not small.met_by([1, 2, 3, 5, 6])
    assert large.met_by([2, 3, 4, 5, 6]) and not large.met_by([1, 2, 3, 4, 6])


def test_hex_makes_sixes_blank():
    """Raveness rulebook, Hex: "6's are considered blanks"; five 6s cannot make the
    Ultimate, and a blank has no number for straights."""
    eye = {"talon": (1, 2, 3), "wing": (4, 5), "eye": (6,)}
    ultimate = parse_objective("5 eye", eye)
    assert ultimate.met_by([6] * 5) and not ultimate.met_by([6] * 5, hex=True)
    assert not parse_objective("5 of a kind").met_by([6] * 5, hex=True)
    assert not parse_objective("small straight").met_by([3, 4, 5, 6, 1], hex=True)
    assert parse_objective("2 talon", eye).met_by([Die(1), Die(6), Die(2)], hex=True)


def test_boss_keep_rule_for_straights():
    """Fan solo mode v3.2, 4. Offensive Rolling Phase: keep one each of 2, 3, 4, 5; a 1
    or 6 only when part of a small or large straight."""
    large = parse_objective("large straight")
    assert large.boss_keep([2, 2, 3, 6, 1]) == (0, 2)
    assert large.boss_keep([1, 2, 3, 4, 6]) == (0, 1, 2, 3, 4)[:4]
    assert large.boss_keep([6, 3, 4, 5, 5]) == (0, 1, 2, 3)


def test_boss_keep_rule_for_symbols_rerolls_the_rest():
    """Fan solo mode v3.2, 4.: "roll only the dice that do not match the Rolling Objective"."""
    sturdy = parse_objective("2 sword + 2 pow", BARBARIAN)
    assert sturdy.boss_keep([1, 2, 3, 6, 4]) == (0, 1, 3)
    assert parse_objective("4 of a kind").boss_keep([5, 2, 5, 2, 1]) == (0, 2)


def test_errors_name_the_part():
    with pytest.raises(ObjectiveError, match="unknown symbol 'axe'"):
        parse_objective("3 axe", BARBARIAN)
    with pytest.raises(ObjectiveError, match="empty"):
        parse_objective("  ")
    with pytest.raises(ObjectiveError, match="1-6"):
        parse_objective("3 sword", BARBARIAN).met_by([7, 1, 1])
