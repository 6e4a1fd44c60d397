"""Dice Throne Adventures "Unchained" (issue 5): One-Shot Adventure (party and Boss
setup, Salves, Loot, scoring).

Rulebook: shared/seeds/dice-throne-adventures-unchained.txt; each test quotes the
line it checks.
"""

from __future__ import annotations

import pytest
from test_unchained_helpers import (
    one_shot,
    options,
    play,
    texts,
    through_setup,
)

from dicetable.rules.core import Input, InvalidInput, PromptKind
from dicetable.rules.unchained.loot import LootTable, Reward, loot_table
from dicetable.rules.unchained.party import heal_with_salve


@pytest.mark.parametrize(
    ("heroes", "health", "chests"),
    [
        (["monk"], 60, 2),
        (["monk", "paladin"], 30, 1),
        (["monk", "paladin", "ninja"], 20, 1),
        (["monk", "paladin", "ninja", "samurai"], 15, 1),
    ],
)
def test_one_shot_party_setup(heroes, health, chests):
    """Player Setup table: "1 Hero 60 2 Loot Chests / 2 Heroes 30 1 Loot Chest / 3
    Heroes 20 / 4 Heroes 15"; Example 1: "all Heroes will roll their Loot die"."""
    game = one_shot(*heroes)
    assert [h.health for h in game.heroes] == [health] * len(heroes)
    loot_prompts = 0
    while game.prompt().kind is not PromptKind.CHOOSE or "other" in options(game):
        prompt = game.prompt()
        if prompt.kind is PromptKind.NUMBER and "Loot" in str(prompt.text):
            loot_prompts += 1
            play(game, "3")
        else:
            play(
                game,
                "other"
                if prompt.kind is PromptKind.CHOOSE
                else "1"
                if prompt.kind is PromptKind.NUMBER
                else "",
            )
    assert loot_prompts == chests * len(heroes)


def test_one_shot_scoring_example_scores_45():
    """One-Shot Adventure Scoring: "18 Health + 6 Health = 24 points / One remaining
    Salve = 6 points / Defeating the Fallen Monk = 15 points / Final Score of 45"."""
    game = one_shot("barbarian", "monk")
    through_setup(game)
    play(game, "salve-symbol", "hero-1", "boss", "fallen-monk", "")
    assert game.boss_max == 45  # Boss Setup card, 2 heroes
    play(game, "health", "hero-1", "18", "health", "hero-2", "6")
    events = play(game, "boss-health", "0")
    assert game.result()["score"] == 45
    assert game.breakdown() == {"health": 24, "salves": 6, "boss_bonus": 15, "score": 45}
    assert "The Boss is defeated! Score: 45." in texts(events)
    assert game.result()["mode"] == "one-shot" and game.result()["party"] == "2 heroes"


@pytest.mark.parametrize(
    ("size", "health", "upgrade"), [(1, 40, 6), (2, 45, 7), (3, 50, 8), (4, 55, 9)]
)
def test_one_shot_boss_setup(size, health, upgrade):
    """Boss Setup card: "Health: 40 / 45 / 50 / 55 · Upgrade CP: 6 / 7 / 8 / 9 · Starting
    CP: 2"; Boss Bonus Points: the Mad King 25."""
    game = one_shot(*["monk", "paladin", "ninja", "samurai"][:size])
    through_setup(game)
    events = play(game, "boss", "mad-king")
    setup = events[0].data
    assert (setup["health"], setup["upgrade_cp"], setup["starting_cp"]) == (health, upgrade, 2)
    assert game.view()["gauge"] == {"label": "The Mad King", "value": health, "max": health}
    play(game, "", "boss-health", "0")
    assert game.breakdown()["boss_bonus"] == 25


def test_salve_heals_six_on_own_dial_capped_ten_above_start():
    """On Your Turn: "spend Salves to Heal 6 on your own Health dial"; "You can Heal up
    to a maximum of 10 Health above starting Health"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "salve-symbol", "hero-1", "salve-symbol", "hero-1", "salve-symbol", "hero-1")
    play(game, "health", "hero-1", "20", "salve", "heal")  # the only one with Salves
    assert game.heroes[0].health == 26
    play(game, "salve", "heal")
    play(game, "salve", "heal")  # 26 -> 32 -> 38
    assert game.heroes[0].health == 38
    assert game.heroes[0].salves == 0


def test_salve_cap_stops_at_forty():
    """ "a maximum of 10 Health above starting Health": 38 + 6 stops at 40."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "salve-symbol", "hero-1", "health", "hero-1", "38", "salve", "heal")
    assert game.heroes[0].health == 40
    play(game, "salve-symbol", "hero-1")
    events = play(game, "salve")
    assert "Monk is at the most Health allowed." in texts(events)  # no heal at the cap
    with pytest.raises(InvalidInput):  # and no revive of oneself
        heal_with_salve(game.heroes[0], game.salve_rules)


def test_salve_revives_a_teammate_never_oneself():
    """ "Salves can also be used to revive fallen teammates to 1 Health but may not be
    used to revive yourself"; End of Battle: "If any Hero's Health was reduced to 0 and
    could not be revived from a teammate's Salve, your party loses!"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "salve-symbol", "hero-2", "health", "hero-2", "0")
    # Paladin holds the only Salve and has fallen: nobody can revive him
    assert game.outcome == "lost"
    assert game.result() == {**game.result(), "won": False} and "score" not in game.result()

    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "salve-symbol", "hero-1", "health", "hero-2", "0")
    assert options(game) == ["hero-1", "none"]
    events = play(game, "hero-1")
    assert game.heroes[1].health == 1 and game.heroes[0].salves == 0
    assert "Monk spends a Salve: Paladin is revived to 1 Health." in texts(events)


def test_no_salve_against_an_ultimate():
    """End of Battle: "Note: A Salve may not be used if a Boss activates their
    Ultimate!"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "salve-symbol", "hero-1", "boss", "fallen-barbarian", "", "health", "hero-2", "0")
    play(game, "yes")
    assert game.outcome == "lost" and game.heroes[0].salves == 1


def test_solo_hero_at_zero_loses():
    """Salves "may not be used to revive yourself": alone at 0, the party loses."""
    game = one_shot("monk")
    through_setup(game)
    play(game, "salve-symbol", "health", "0")  # alone: no "which hero?" question
    assert game.heroes[0].salves == 1
    assert game.outcome == "lost" and game.prompt().kind is PromptKind.OVER


def test_salve_stack_limit_is_15():
    """Dice Throne Adventures Rule Changes: "Salve Stack Limit is 15"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    for _ in range(16):
        events = play(game, "salve-symbol", "hero-1")
    assert game.heroes[0].salves == 15
    assert "the stack limit" in texts(events)[0]


def test_minion_defeat_rolls_loot_for_every_hero():
    """If You Defeat the Minion: "all Heroes will roll their Loot die and receive a
    reward from the new One-Shot Loot Table"; "Any Gold rewards received from Minions
    are ignored"; Gain Loot Cards: "Deal the top 3 ... Choose one ... Place the other
    two cards on the bottom"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "engage", "level-2", "")
    assert game.engaged == 2
    play(game, "minion-defeated")
    events = play(game, "7", "rare")
    assert "deal the top 3 Rare Loot cards faceup; add one" in texts(events)[0]
    assert "Solo" not in texts(events)[0]
    play(game, "")
    events = play(game, "12", "gold")
    assert "Gold has no effect in this mode; ignored." in texts(events)[0]
    play(game, "")
    assert game.engaged is None and game.minions_defeated == [2]


def test_solo_loot_card_replaces_solo_symbol_cards():
    """Gain Loot Cards: "If you are playing solo, immediately replace any cards with the
    Solo symbol"."""
    game = one_shot("monk")
    events = play(game, "4", "epic")
    assert "replacing any card with the Solo symbol" in texts(events)[0]


def test_loot_table_rows_are_looked_up():
    """One-Shot Loot Table: rolls transcribed from the players' own table need no
    question."""
    table = LootTable(
        20,
        {"rare": Reward("rare", "loot-card", "Rare Loot Card", "Rare")},
        ((1, 10, "rare"),),
    )
    assert table.lookup(10).rarity == "Rare"
    assert table.lookup(11) is None
    shipped = loot_table()
    assert {r.kind for r in shipped.rewards.values()} == {"loot-card", "gold", "other"}


def test_wrong_answers_change_nothing():
    """core contract: a refused answer leaves the state as it was (e.g. "If You Defeat
    the Minion" is not offered while no Minion is engaged)."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    before = game.view()
    with pytest.raises(InvalidInput):
        game.apply(Input.choose("minion-defeated"))  # not engaged
    with pytest.raises(InvalidInput):
        game.apply(Input.enter(3))
    assert game.view() == before
