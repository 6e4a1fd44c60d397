"""Dicequest content as data and the Quest Phase arithmetic
(shared/seeds/dicequest.txt: "Reward Step", "Tracking Adventure Score", "Threat
Phase and Cards", "Wound Step"; data/README.md for the schema)."""

from __future__ import annotations

import ast
import itertools
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.device.i18n import catalogue
from dicetable.rules.dicequest import final_scoring, words, wound_step
from dicetable.rules.dicequest import game as game_module
from dicetable.rules.dicequest.data import (
    COLORS,
    DataError,
    Requirement,
    default_dice,
    hero_kinds,
    parse_cards,
    parse_dice,
    shipped_cards,
    threat_deck,
)
from dicetable.rules.dicequest.tally import (
    can_discard,
    match,
    missing,
    roll_odds,
    tracked_excess,
    wounds_of,
)

PACKAGE = Path(game_module.__file__).parent
CARDS = {c.id: c for c in shipped_cards()}
SUCCESS = Requirement("success", 5, ("sword", "arrow", "wand", "shield"))


def test_dice_faces_are_data_marked_inferred_with_the_rulebook_faces():
    """Issue: red carries blank, 1-Sword and 2-Swords; blue Arrow and Rune; yellow
    Wand; green the 2-Shields face. Six faces per colour, 4 colours (Components)."""
    dice = default_dice()
    assert dice.inferred and set(dice.colors) == set(COLORS)
    assert all(len(faces) == 6 for faces in dice.colors.values())
    assert {"blank", "sword", "2-swords"} <= set(dice.colors["red"])
    assert dice.can_show("blue", "arrow") and dice.can_show("blue", "rune")
    assert dice.can_show("yellow", "wand") and "2-shields" in dice.colors["green"]
    assert dice.symbols("2-swords") == ("sword", "sword")
    text = (PACKAGE / "data" / "dice.toml").read_text()
    assert "INFERRED" in text


def test_the_rulebook_cards_ship_with_what_is_printed():
    """Example: Quest (Stormcaller: Party Size 2, 1 Deadly + 1 Light, 2 Gold and
    3 VP) and Example: Adventure (Death Dealer: Party Size 3, 5 successes, 5 Light
    + 1 Unblockable per Wand); Playtime needs no Heroes."""
    storm, death, play = CARDS["stormcaller"], CARDS["death-dealer"], CARDS["playtime"]
    assert storm.party == (2, 2) and (storm.deadly, storm.light) == (1, 1)
    assert storm.guaranteed == {"gold": 2} and storm.success == {"vp": 3}
    assert death.party == (3, 3) and death.light == 5 and death.unblockable_per == ("wand",)
    assert death.require == (SUCCESS,)
    assert play.party == (0, 0) and not play.require
    assert all(c.inferred for c in CARDS.values())


def test_threat_deck_and_heroes_are_data():
    """Components: 10 Threat cards, 36 Threat tokens (12 per act)."""
    cards, tokens = threat_deck()
    assert len(cards) == 10 and all(len(tokens[act]) == 12 for act in (1, 2, 3))
    assert {h.id for h in hero_kinds()} >= {"pirate", "blademaster", "akimo", "ward-mage"}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[[quest]]\nid = "q"\nname = "Q"\nact = 4\nparty = 1\n', "[[quest]] 'q': field 'act'"),
        ('[[quest]]\nid = "q"\nname = "Q"\nact = 1\nparty = [3, 1]\n', "field 'party'"),
        (
            '[[quest]]\nid = "q"\nname = "Q"\nact = 1\nparty = 1\n'
            'require = [{ symbol = "success", count = 2 }]\n',
            "field 'require[1].accepts'",
        ),
        (
            '[[quest]]\nid = "q"\nname = "Q"\nact = 1\nparty = 1\nsuccess = { vp = "3" }\n',
            "field 'vp'",
        ),
        (
            '[[quest]]\nid = "q"\nname = "Q"\nact = 1\nparty = 1\nrewards = [3]\n',
            "only Adventures",
        ),
        ('[[quest]]\nid = "q"\nname = "Q"\nact = 1\nparty = 1\ncolour = 1\n', "field 'colour'"),
        ("[[monster]]\n", "unknown table [[monster]]"),
    ],
)
def test_card_errors_name_the_file_the_entry_and_the_field(text, error):
    with pytest.raises(DataError) as caught:
        parse_cards(text, "mine.toml")
    assert str(caught.value).startswith("mine.toml: ") and error in str(caught.value)


def test_dice_errors_name_the_colour():
    data = tomllib.loads('[faces]\nblank = []\n[colors]\nred = ["blank"]\n')
    with pytest.raises(DataError, match=r"dice.toml: \[colors\]: field 'red': six face ids"):
        parse_dice(data, "dice.toml")


def test_a_card_round_trips_through_its_toml():
    for card in CARDS.values():
        assert parse_cards(card.to_toml(), "x") == (card,)


def test_an_acceptable_symbol_is_matched_where_it_is_needed():
    """Reward Step: "A required symbol can be matched by any one of the symbols shown
    as acceptable for it" - a greedy count would give the Wand to "any" first."""
    require = [Requirement("any", 1, ("wand", "sword")), Requirement("wand", 1, ("wand",))]
    assert match(require, {"wand": 1, "sword": 1}) == [1, 1]
    assert missing(require, {"wand": 1}) in ([1, 0], [0, 1])
    assert sum(missing(require, {"wand": 1})) == 1


def test_adventure_score_counts_only_excess_tracked_symbols():
    """Tracking Adventure Score: "only count excess symbols that you did not need to
    succeed"; untracked symbols are used up first."""
    require = [Requirement("success", 3, ("sword", "arrow"))]
    assert tracked_excess(require, {"sword": 3, "arrow": 2}, ["sword"]) == 2
    assert tracked_excess(require, {"sword": 1, "arrow": 4}, ["sword"]) == 1
    assert tracked_excess(require, {"sword": 2}, ["sword"]) == 0
    # the Death Dealer example's final result: 2 excess (step 15)
    final = {"sword": 2, "arrow": 2, "wand": 1, "shield": 2}
    assert tracked_excess([SUCCESS], final, CARDS["death-dealer"].tracked) == 2


def test_threat_tokens_need_all_their_symbols_in_excess():
    """Threat Phase and Cards: requires 2 Swords + 2 Arrows, result has 1 excess Wand
    and 1 excess Arrow: the Wand + Arrow token goes; "a single excess Wand or Arrow
    alone is not enough"; unused Shields may stand in for a symbol."""
    require = [Requirement("sword", 2, ("sword",)), Requirement("arrow", 2, ("arrow",))]
    result = {"sword": 2, "arrow": 3, "wand": 1}
    assert can_discard(require, result, [("wand", "arrow")])
    assert not can_discard(require, {"sword": 2, "arrow": 2, "wand": 1}, [("wand", "arrow")])
    with_shield = {"sword": 2, "arrow": 2, "wand": 1, "shield": 1}
    assert can_discard(require, with_shield, [("wand", "arrow")])
    assert not can_discard(require, with_shield, [("wand", "arrow")], shields_blocking=1)


def test_wounds_per_symbol_kept():
    """Example: Adventure step 3: 5 Light Wounds plus one Unblockable Light Wound for
    every Wand kept in the final roll."""
    wounds = wounds_of(CARDS["death-dealer"], Counter(wand=2, sword=3), extra_light=1)
    assert (wounds.light, wounds.deadly, wounds.unblockable) == (6, 0, 2)


def test_roll_odds_are_exact():
    """One yellow die for a Wand: faces blank, wand, wand, rune, rune, wand-rune."""
    wand = [Requirement("wand", 1, ("wand",))]
    assert roll_odds(wand, {}, ["yellow"], default_dice()) == Fraction(1, 2)
    assert roll_odds(wand, {"wand": 1}, [], default_dice()) == 1
    assert roll_odds(wand, {}, ["yellow", "yellow"], default_dice()) == Fraction(3, 4)
    assert roll_odds(wand, {}, ["red"], default_dice()) == 0


def _literal_messages() -> set[str]:
    texts = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "msg" and node.args:
                first = node.args[0]
                branches = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
                texts |= {b.value for b in branches if isinstance(b, ast.Constant)}
    return texts


def test_spanish_covers_every_message_and_data_text():
    """Brief: the Spanish translation of every message, card names and texts too."""
    spanish = catalogue("es")
    wanted = _literal_messages()
    wanted |= {*wound_step.PLACE_WOUND.values(), *wound_step.TAKE_WOUND.values()}
    wanted |= {*wound_step.BLOCK_WOUND.values(), *game_module.DIFFICULTY_TEXT.values()}
    wanted |= set(wound_step.PLACE_FIRST.values())
    wanted |= {text for _, text in final_scoring.FINAL_FIELDS}
    wanted |= {*words.SEPARATORS.values(), *words.REWARD_WORDS.values()}
    wanted |= {a for actions in game_module.BOARD_ACTIONS.values() for a in actions}
    cards, _ = threat_deck()
    wanted |= {c.text for c in cards} | {c.name for c in cards}
    wanted |= {c.name for c in shipped_cards()} | {h.name for h in hero_kinds()}
    dice = default_dice()
    wanted |= set(dice.faces) | set(dice.colors) | {"success", "nothing", "none", "no dice"}
    assert len(wanted) > 200
    assert sorted(wanted - set(spanish)) == []


GENERIC4 = ("sword", "arrow", "wand", "shield")


@settings(max_examples=40, deadline=None)
@given(
    needs=st.lists(
        st.tuples(st.integers(1, 3), st.sets(st.sampled_from((*GENERIC4, "rune")), min_size=1)),
        min_size=1,
        max_size=3,
    ),
    pool=st.lists(st.sampled_from(COLORS), min_size=0, max_size=3),
    kept=st.dictionaries(st.sampled_from(GENERIC4), st.integers(0, 2)),
)
def test_roll_odds_agree_with_counting_every_roll(needs, pool, kept):
    """The fast odds (Hall's condition on capped counts) equal enumerating every roll
    and checking it with the matching used for the Reward Step."""
    require = [Requirement(f"r{i}", n, tuple(sorted(a))) for i, (n, a) in enumerate(needs)]
    dice = default_dice()
    hits = 0
    rolls = list(itertools.product(*(dice.colors[c] for c in pool)))
    for roll in rolls:
        symbols = Counter(kept)
        for face in roll:
            symbols.update(dice.symbols(face))
        hits += not any(missing(require, symbols))
    assert roll_odds(require, kept, pool, dice) == Fraction(hits, len(rolls))
