"""Dice Throne Adventures "Unchained" (issue 5): the Vault Witch setup and the campaign
with Witch Keys.

Rulebook: shared/seeds/dice-throne-adventures-unchained.txt; each test quotes the
line it checks.
"""

from __future__ import annotations

import pytest
from test_unchained_helpers import (
    campaign,
    lose,
    options,
    play,
    texts,
    win,
)

from dicetable.rules.core import PromptKind
from dicetable.rules.unchained.vault_witch import BossCard, vault_witch_setup


def test_vault_witch_worked_example_three_heroes_scenario_two():
    """Vault Witch Setup Example: "For a 3-Hero game when advancing to Scenario 2 ...
    Boss Health: 85 ... Upgrade CP: 10 ... King's Hand tokens: 5 ... Starting CP: 2";
    the original card's 75 / 9 / 3 / 2 are what those figures come from (+10 Health for
    3 players, +1 Upgrade CP, +2 King's Hand tokens, Starting CP unchanged)."""
    setup = vault_witch_setup(BossCard(75, 9, 3, 1, 2), heroes=3)
    assert (setup.health, setup.upgrade_cp, setup.kings_hand_tokens, setup.starting_cp) == (
        85,
        10,
        5,
        2,
    )
    assert setup.kings_hand_success == (3, 6)  # "Successful roll values: 3-6"
    assert setup.kings_hand_max_per_turn == 2  # "Max tokens used per turn: +1 token"


@pytest.mark.parametrize(("heroes", "increase"), [(1, 5), (2, 5), (3, 10), (4, 15)])
def test_vault_witch_health_increase_by_party_size(heroes, increase):
    """ "Boss Health: increase by 5 / 5 / 10 / 15 (for 1 / 2 / 3 / 4 players)";
    "Upgrade CP: increase by an additional 1"."""
    setup = vault_witch_setup(BossCard(60, 8, 2, 1, 3), heroes)
    assert setup.health == 60 + increase
    assert setup.upgrade_cp == 9
    assert setup.starting_cp == 3


def test_vault_witch_needs_one_to_four_heroes():
    with pytest.raises(ValueError, match="1 to 4 heroes"):
        vault_witch_setup(BossCard(60, 8, 2, 1, 2), 5)


def test_campaign_worked_example_through_the_table():
    """Vault Witch Setup Example through the campaign: 3 heroes win Scenario 1 (a Witch
    Key), spend it at Scenario 2, enter the original card; the table says 85 / 10 / 5 /
    2 and the King's Hand roll succeeds on 3-6."""
    game = campaign(3)
    win(game)
    assert game.scenario == 2 and game.witch_keys == 1
    assert options(game) == ["vault-witch", "fallen-boss"]
    events = play(game, "vault-witch", "75", "9", "3", "1", "2")
    assert game.witch_keys == 0  # "When you use a Witch Key, return one Key"
    setup = next(e for e in events if e.data.get("health")).data
    assert (setup["health"], setup["upgrade_cp"], setup["kings_hand_tokens"]) == (85, 10, 5)
    assert setup["starting_cp"] == 2
    play(game, "")  # set up
    assert options(game)[0] == "kings-hand"
    roll = play(game, "kings-hand", "3")
    assert roll[0].data["success"] is True
    assert play(game, "kings-hand", "2")[0].data["success"] is False
    assert game.view()["vault_witch"]["health"] == 85


def test_a_witch_key_per_success_at_most_three():
    """How to Collect Witch Keys: "Every time your party successfully completes a
    scenario, your team will gain 1 Witch Key" and "a maximum of 3 Witch Keys at any
    given time"; a lost scenario gains none."""
    game = campaign(2)
    lose(game)
    assert game.witch_keys == 0 and game.scenario == 1  # replayed, no key
    win(game)
    assert game.witch_keys == 1
    play(game, "fallen-boss")
    win(game)
    win(game)
    assert game.witch_keys == 3  # after Scenarios 1, 2 and 3
    play(game, "fallen-boss")
    events = win(game)  # Scenario 4
    assert game.witch_keys == 3
    assert "The party already holds 3 Witch Keys, the most allowed." in texts(events)


def test_key_is_collected_at_the_start_of_the_conclusion_before_the_next_offer():
    """ "Collect this key at the start of the Scenario Conclusion step": the key won at
    Scenario 1 can already be spent at Scenario 2."""
    game = campaign(1)
    events = win(game)
    assert texts(events).index("The party gains a Witch Key (1 held).") < texts(events).index(
        "Scenario 2: Boss Battle."
    )
    assert game.may_face_vault_witch()


def test_offer_only_at_scenarios_2_4_6_never_after_6():
    """How to Fight the Vault Witch: "Each time your party would normally advance to a
    Boss Battle (i.e. Scenario 2, 4, or 6)"; "The Vault Witch cannot be faced once you
    advance past Scenario 6"."""
    game = campaign(2)
    offered = []
    while not game.finished:
        if game.prompt().options and options(game)[0] == "vault-witch":
            offered.append(game.scenario)
            play(game, "fallen-boss")
        win(game)
    assert offered == [2, 4, 6]
    assert game.result()["wins"] == 8


def test_no_offer_without_a_key():
    """ "you may choose to spend a Witch Key": no key, no choice."""
    game = campaign(2)
    lose(game)
    assert game.witch_keys == 0
    win(game)
    play(game, "fallen-boss")
    lose(game)
    assert game.scenario == 2
    assert options(game) == ["vault-witch", "fallen-boss"]  # the key from Scenario 1


def test_defeat_by_the_witch_salves_and_repeat():
    """Conclusion, Upon Defeat: "Record loss on score sheet and increase Starting Salves
    by 3" and "Repeat this scenario (requires additional Witch Keys) or setup original
    Boss"; Defeated by the Vault Witch: "Otherwise, you must face the original Fallen
    Boss"."""
    game = campaign(2)
    win(game)
    play(game, "vault-witch", "50", "6", "2", "1", "2", "")
    events = lose(game)
    assert game.starting_salves_bonus == 3
    assert game.scenario == 2 and game.witch_keys == 0
    assert game.opponent == "fallen-boss"  # no key left: the original Boss
    assert "Boss Loot: the same as the original Boss's." in texts(events)
    assert game.records[-1]["won"] is False


def test_defeated_by_the_witch_may_face_her_again_with_a_key():
    """Defeated by the Vault Witch: "If you have any remaining Witch Keys, you can
    choose to face her again at the current scenario level"."""
    game = campaign(2)
    win(game)
    play(game, "fallen-boss")
    win(game)
    win(game)  # Scenario 3: now 3 keys
    assert game.scenario == 4 and game.witch_keys == 3
    play(game, "vault-witch", "60", "7", "3", "1", "2", "")
    lose(game)
    assert game.scenario == 4
    assert options(game) == ["vault-witch", "fallen-boss"]
    play(game, "vault-witch", "60", "7", "3", "1", "2", "")
    assert game.witch_keys == 1


def test_victory_over_the_witch_bonus_and_once_per_campaign():
    """Conclusion, Upon Victory: "Record win on score sheet with a +5 bonus to the
    scenario score"; "count the win as successfully completing the original Boss
    Battle"; "You may only defeat the Vault Witch ONCE during a single campaign"."""
    game = campaign(3)
    win(game, 10)
    play(game, "vault-witch", "75", "9", "3", "1", "2", "")
    events = play(game, "won", "20")
    assert game.records[-1]["bonus"] == 5
    assert game.witch_defeated
    assert "Boss Loot: the same as the original Boss's." in texts(events)
    # the key of this conclusion may at once become extra Boss Loot
    assert game.prompt().kind is PromptKind.CONFIRM
    play(game, "")
    assert game.prompt().number_range == (0, 1)
    play(game, "0")
    assert game.scenario == 3 and game.witch_keys == 1
    win(game)
    play(game, "0")
    assert game.scenario == 4
    assert not game.may_face_vault_witch()  # keys held, but she is beaten
    assert game.total_score == 10 + 25 + 10


def test_keys_convert_after_her_defeat():
    """Defeating the Vault Witch: "any held Witch Keys, as well as any Witch Keys gained
    when completing future scenarios, may be converted into ... 5 Gold (if you completed
    a Portal Crawl) ... 1 additional Boss Loot (if you completed a Boss Battle)"."""
    game = campaign(2)
    win(game)
    play(game, "vault-witch", "50", "6", "2", "1", "2", "")
    play(game, "won", "15", "", "1")  # Boss Battle: 1 key -> 1 Boss Loot
    assert game.boss_loot_from_keys == 1 and game.witch_keys == 0
    play(game, "won", "10", "1")  # Portal Crawl (Scenario 3): 1 key -> 5 Gold
    assert game.gold_from_keys == 5
    play(game, "won", "10", "0")  # Scenario 4: keep it
    assert game.witch_keys == 1
    play(game, "won", "10", "2")  # Scenario 5: held + new -> 10 Gold
    assert game.gold_from_keys == 15 and game.witch_keys == 0


def test_campaign_result_is_a_high_score_with_mode_party_heroes():
    """Issue 5 item 5: results kept per party and hero."""
    game = campaign(2)
    while not game.finished:
        if game.prompt().options and options(game)[0] == "vault-witch":
            play(game, "fallen-boss")
        events = win(game, 10)
    result = game.result()
    assert result["score"] == 80
    assert "The campaign is complete: 80 points." in texts(events)
    assert (result["mode"], result["party"], result["heroes"]) == (
        "campaign",
        "2 heroes",
        "Barbarian, Monk",
    )
