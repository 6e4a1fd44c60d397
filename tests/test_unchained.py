"""Dice Throne Adventures "Unchained" (issue 5): the campaign with Witch Keys, the
Vault Witch setup, One-Shot Adventure and Minion Rush.

Rulebook: shared/seeds/dice-throne-adventures-unchained.txt; each test quotes the
line it checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.device.i18n import catalogue, translate
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import Game, Input, InvalidInput, PromptKind
from dicetable.rules.unchained.campaign import Campaign
from dicetable.rules.unchained.loot import LootTable, Reward, loot_table
from dicetable.rules.unchained.minion_rush import MinionRush
from dicetable.rules.unchained.minion_tree import MinionTree, tree_layout
from dicetable.rules.unchained.one_shot import OneShot
from dicetable.rules.unchained.party import heal_with_salve
from dicetable.rules.unchained.vault_witch import BossCard, vault_witch_setup

SCRIPTS = Path(__file__).parent / "scripts"
RULEBOOK = "seeds/dice-throne-adventures-unchained.txt"


def play(game: Game, *lines: str) -> list:
    """Answer prompts as the terminal would; returns all events."""
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def texts(events) -> list[str]:
    return [str(e.text) for e in events]


def options(game: Game) -> list[str]:
    return [o.id for o in game.prompt().options]


# --- Vault Witch setup --------------------------------------------------------------


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


# --- the campaign ---------------------------------------------------------------------


def campaign(heroes: int = 3) -> Campaign:
    game = Campaign(1)
    play(game, str(heroes), *["barbarian", "monk", "raveness", "paladin"][:heroes])
    return game


def win(game: Campaign, points: int = 10) -> list:
    return play(game, "won", str(points))


def lose(game: Campaign, points: int = 0) -> list:
    """A loss, with its instructions confirmed."""
    events = play(game, "lost", str(points))
    while game.prompt().kind is PromptKind.CONFIRM:
        play(game, "")
    return events


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


# --- One-Shot Adventure ----------------------------------------------------------------


def one_shot(*heroes: str) -> OneShot:
    game = OneShot(1)
    play(game, str(len(heroes)), *heroes)
    return game


def through_setup(game: OneShot) -> None:
    """Answer the starting Loot Chest rolls (asked as 'other') and the map."""
    while game.prompt().kind is not PromptKind.CHOOSE or "other" in options(game):
        prompt = game.prompt()
        if prompt.kind is PromptKind.NUMBER:
            play(game, "5" if "Loot" in str(prompt.text) else "1")
        elif prompt.kind is PromptKind.CHOOSE:
            play(game, "other")
        else:
            play(game, "")


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


# --- Minion Rush -----------------------------------------------------------------------


def rush() -> MinionRush:
    game = MinionRush(1)
    play(game, "moon-elf", "", "", "no")
    return game


def defeat(game: MinionRush, loot: str = "3") -> None:
    play(game, "defeated", loot, "other", "")


def test_minion_rush_example_scores_12_before_health():
    """Conclusion / Points: "if you were only able to defeat 2 of each Level I/II/III
    Minions ... 1 x 2 + 2 x 2 + 3 x 2 = 12 points"; "add your Health total as bonus
    points"."""
    game = rush()
    defeat(game)  # the Level I start
    play(game, "left", "position-4", "level-1", "no")
    defeat(game)
    play(game, "level-2", "no")  # position 5, the only one left uncovered
    defeat(game)
    play(game, "level-2", "no")  # position 3
    defeat(game)
    play(game, "position-1", "level-3", "no")
    defeat(game)
    play(game, "level-3", "no")  # position 2
    defeat(game)
    assert game.breakdown()["minion_points"] == 12
    events = play(game, "no", "health", "0")  # the Level IV is revealed; the hero falls
    assert game.result()["score"] == 12
    # Conclusion: the table says the score, not only the screen's numbers
    assert "Score 12: 12 points for the Minions defeated + 0 Health." in texts(events)
    play_result = game.result()
    assert (play_result["mode"], play_result["party"], play_result["heroes"]) == (
        "minion-rush",
        "1 hero",
        "Moon Elf",
    )


def test_level_i_first_then_a_path():
    """ "You must first defeat the Level I Minion (green box). Once it has been
    defeated, you must choose to progress left or right"."""
    game = rush()
    assert game.tree.engaged == "start"
    defeat(game)
    assert options(game) == ["left", "right"]


def test_cannot_pass_a_minion_lying_on_top():
    """ "You cannot progress to the next Minion unless all Minions laying on top of it
    are defeated"."""
    tree = MinionTree()
    tree.defeated.append("start")
    tree.path = "left"
    assert {n.id for n in tree.reachable()} == {"4", "5"}
    tree.defeated.append("4")
    assert {n.id for n in tree.reachable()} == {"5"}  # 3 still lies under 5
    tree.defeated.append("5")
    assert [n.id for n in tree.reachable()] == ["3"]


def test_cannot_switch_path_until_the_side_is_done_and_level_iv_scores_6():
    """ "Once you have chosen a path, you cannot switch to the other until all Minions
    have been defeated on a single path"; "Level IV Minion 6"."""
    game = rush()
    defeat(game)
    play(game, "right")
    for _ in range(5):
        prompt = game.prompt()
        if "uncovered" in str(prompt.text):
            assert all(
                o.removeprefix("position-") in ["6", "7", "8", "9", "10"] for o in options(game)
            )
            play(game, options(game)[0])
        play(game, "level-1", "no")
        defeat(game)
    assert game.prompt().kind is PromptKind.CHOOSE and "Solo" in str(game.prompt().text)
    play(game, "no")  # the Level IV: no level asked
    assert game.tree.levels["IV-right"] == 4
    defeat(game)
    assert game.tree.path == "left" or "left" in game.tree.path
    assert game.breakdown()["minion_points"] == 1 + 5 + 6


def test_solo_symbol_minion_is_replaced():
    """Rules Clarifications: "Whenever you reveal a Solo symbol, discard this Minion and
    replace it with a new random Minion of the same level"."""
    game = MinionRush(1)
    play(game, "moon-elf", "", "")
    events = play(game, "yes")
    assert "replace it with a new random Level I Minion" in texts(events)[0]
    play(game, "")
    assert "Solo symbol" in str(game.prompt().text)  # the replacement is checked too
    play(game, "no")
    assert game.tree.engaged == "start"


def test_minion_rush_kings_hand_succeeds_on_4_to_6():
    """King's Hand Tokens: "A successful King's Hand roll value is 4-6"."""
    game = rush()
    play(game, "kings-hand")
    prompt = game.prompt()
    assert prompt.kind is PromptKind.ROLL and str(prompt.odds) == "1/2"
    assert play(game, "3")[0].data["success"] is False
    assert play(game, "kings-hand", "4")[0].data["success"] is True


def test_rush_ends_when_every_minion_is_defeated():
    """Conclusion: "if you defeat all Minions, your Rush has ended"."""
    game = rush()
    defeat(game)
    play(game, "left")
    while not game.over:
        prompt = game.prompt()
        if "uncovered" in str(prompt.text) or "path" in str(prompt.text):
            play(game, options(game)[0])
        elif "which level" in str(prompt.text):
            play(game, "level-2")
        elif "Solo" in str(prompt.text):
            play(game, "no")
        else:
            defeat(game)
    assert len(game.tree.defeated) == len(tree_layout())
    assert game.result()["minion_points"] == 1 + 10 * 2 + 2 * 6
    assert game.result()["score"] == 1 + 20 + 12 + 30


def test_tree_view_gives_the_screen_what_to_draw():
    """Issue 5 item 4: the tree as a picture with revealed, defeated and reachable."""
    game = rush()
    defeat(game)
    play(game, "left")
    tree = game.view()["tree"]
    nodes = {n["id"]: n for n in tree["nodes"]}
    assert nodes["start"]["defeated"] and nodes["start"]["revealed"]
    assert nodes["4"]["reachable"] and nodes["5"]["reachable"] and not nodes["3"]["reachable"]
    assert nodes["IV-left"]["level"] == 4 and not nodes["IV-left"]["revealed"]
    assert (tree["rows"], tree["cols"]) == (5, 7)
    assert any("[S:Ix]" in line for line in tree["text"])
    assert any("[4:?>]" in line for line in tree["text"])


# --- the whole thing: scripts, session, high scores, replays ------------------------------


@pytest.mark.parametrize(
    "script",
    sorted(SCRIPTS.glob("unchained-*.txt")),
    ids=lambda p: p.stem,
)
def test_scripts_play_to_the_end(script: Path, capsys):
    """Issue 5 item 7: every mode plays in the terminal client from start to end."""
    game_id = script.stem.rsplit("-", 1)[0]
    assert main(["play", game_id, "--seed", "1", "--script", str(script)]) == 0
    assert "Game over." in capsys.readouterr().out


def test_high_scores_per_party_and_hero_best_first(tmp_path: Path):
    """Issue 5 item 5: One-Shot and Minion Rush results kept per party and hero, best
    first, through the session."""
    store = Store.in_dir(tmp_path)
    start = ("moon-elf", "", "", "no")
    one = (*start, "defeated", "3", "other", "", "right", "position-9", "level-3", "no")
    two = (*one, "defeated", "3", "other", "", "level-1", "no")
    for lines in (one, two, start):
        session = TableSession.start(store, "unchained-minion-rush", seed=1)
        for line in (*lines, "health", "0"):
            session.submit(parse(line, session.prompt()))
    scores = store.high_scores("unchained-minion-rush")
    assert [s["score"] for s in scores] == [4, 1, 0]
    assert scores[0]["heroes"] == "Moon Elf" and scores[0]["mode"] == "minion-rush"


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_one_shots_end_and_replay_identically(data):
    """Property: random table answers keep Health within 0..start+10, Salves within
    0..15, and a replay of the same inputs gives the same view."""
    game = OneShot(7)
    log = []
    for _ in range(120):
        prompt = game.prompt()
        if prompt.kind is PromptKind.OVER:
            break
        if prompt.kind is PromptKind.CHOOSE:
            answer = Input.choose(data.draw(st.sampled_from([o.id for o in prompt.options])))
        elif prompt.kind is PromptKind.NUMBER:
            low, high = prompt.number_range
            answer = Input.enter(data.draw(st.integers(low, high)))
        elif prompt.kind is PromptKind.ROLL:
            answer = Input.roll(data.draw(st.integers(1, 6)))
        else:
            answer = Input.confirm()
        try:
            game.apply(answer)
        except InvalidInput:
            continue
        log.append(answer)
        for hero in game.heroes:
            assert 0 <= hero.health <= hero.start_health + 10
            assert 0 <= hero.salves <= 15
    again = OneShot(7)
    for answer in log:
        again.apply(answer)
    assert again.view() == game.view()


def test_data_errors_name_file_entry_and_field(monkeypatch):
    """Brief: data validated on load, the error naming file, entry and field."""
    from dicetable.rules.unchained import data

    monkeypatch.setattr(data, "load", lambda name: {"heroes": ["A", "A"]})
    data.hero_names.cache_clear()
    try:
        with pytest.raises(data.DataError, match=r"data/heroes.toml: top level: field 'heroes'"):
            data.hero_names()
    finally:
        monkeypatch.undo()
        data.hero_names.cache_clear()


def test_every_message_has_a_spanish_translation():
    """Brief: Spanish for every message of the package."""
    import ast

    spanish = catalogue("es")
    missing = []
    folder = Path(__file__).parents[1] / "rules" / "unchained"
    for source in folder.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                text = node.args[0].value
                if text not in spanish:
                    missing.append(f"{source.name}: {text}")
    assert not missing, "\n".join(missing)


def test_rulebook_quotes_are_in_the_seed(shared_dir: Path):
    """The figures tested here are the rulebook's own."""
    text = (shared_dir / RULEBOOK).read_text()
    for quote in (
        "Boss Health: 85",
        "Upgrade CP: 10",
        "Final Score of 45 points",
        "1 x 2 + 2 x 2 + 3 x 2 = 12 points",
        "Salve Stack Limit is 15",
        "A successful King's Hand roll value is 4-6",
        "Successful roll values: 3-6",
    ):
        assert quote in text, quote


def test_a_six_sided_loot_die_is_read_from_the_tray_and_rows_looked_up(monkeypatch):
    """One-Shot Loot Table: a table transcribed into the data file needs no question;
    a Loot die the tray can read is asked as a ROLL."""
    from dicetable.rules.flow import FlowGame
    from dicetable.rules.unchained import data, loot

    transcribed = {
        "loot_die_sides": 6,
        "reward": [
            {"id": "rare", "kind": "loot-card", "rarity": "Rare", "text": "Rare Loot Card"},
            {"id": "gold", "kind": "gold", "text": "Gold"},
        ],
        "row": [{"low": 1, "high": 3, "reward": "gold"}, {"low": 4, "high": 6, "reward": "rare"}],
    }
    real = data.load
    monkeypatch.setattr(data, "load", lambda name: transcribed if name == "t.toml" else real(name))

    class Table(FlowGame):
        id, title = "t", "t"

        def view(self) -> dict:
            return {}

    game = Table(1)
    loot.queue_loot_rolls(game.flow, ["Monk", "Ninja"], "why", solo=False, table_file="t.toml")
    assert game.prompt().kind is PromptKind.ROLL and game.prompt().dice.count == 1
    events = play(game, "5")
    assert events[0].data["reward"] == "rare" and game.prompt().kind is PromptKind.CONFIRM
    events = play(game, "", "2")
    assert "Gold has no effect" in texts(events)[0]
    loot.loot_table.cache_clear()


def test_loot_table_rows_must_not_overlap(monkeypatch):
    """Brief: data validated on load, the error naming file, entry and field."""
    from dicetable.rules.unchained import data, loot

    bad = {
        "loot_die_sides": 6,
        "reward": [{"id": "gold", "kind": "gold", "text": "Gold"}],
        "row": [{"low": 1, "high": 4, "reward": "gold"}, {"low": 3, "high": 6, "reward": "gold"}],
    }
    monkeypatch.setattr(data, "load", lambda name: bad)
    with pytest.raises(data.DataError, match=r"data/bad.toml: row #2: field 'low' overlaps"):
        loot.loot_table("bad.toml")


@pytest.mark.parametrize("script", sorted(SCRIPTS.glob("unchained-*.txt")), ids=lambda p: p.stem)
def test_every_mode_survives_a_power_cut_and_undo(script: Path, tmp_path: Path):
    """Issue 5 item 7 and the brief: through the session runtime, a resumed game (the
    log replayed) shows exactly what was shown; undo takes back one answer."""
    import json

    store = Store.in_dir(tmp_path)
    session = TableSession.start(store, script.stem.rsplit("-", 1)[0], seed=3)
    answers = [
        raw.split("#", 1)[0].strip()
        for raw in script.read_text().splitlines()
        if raw.strip() and not raw.strip().startswith("#")
    ]
    for i, line in enumerate(answers):
        session.submit(parse(line, session.prompt()))
        if i == len(answers) // 2:
            shown = json.dumps(session.view(), sort_keys=True)
            again = TableSession.resume(store, session.id)
            assert json.dumps(again.view(), sort_keys=True) == shown
            assert session.undo()
            session.submit(parse(line, session.prompt()))
            assert json.dumps(session.view(), sort_keys=True) == shown
    assert session.game.is_over
    assert store.saved_game(session.id).over
    result = session.game.result()
    filed = store.high_scores(session.saved.game)
    assert [(s["score"], s["mode"], s["party"], s["heroes"]) for s in filed] == [
        (result["score"], result["mode"], result["party"], result["heroes"])
    ]
    expected = {"unchained-one-shot": 45, "unchained-minion-rush": 12, "unchained-campaign": 145}
    assert result["score"] == expected[session.saved.game]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_minion_rushes_keep_the_tree_rules(data):
    """Property: a Minion is only ever revealed once every card on top of it is
    defeated, the path only changes when a side is done, the score is the points plus
    Health, and a replay gives the same view."""
    game = MinionRush(5)
    log = []
    for _ in range(200):
        prompt = game.prompt()
        if prompt.kind is PromptKind.OVER:
            assert game.over and game.result() is not None  # never over by accident
            break
        if prompt.kind is PromptKind.CHOOSE:
            answer = Input.choose(data.draw(st.sampled_from([o.id for o in prompt.options])))
        elif prompt.kind is PromptKind.NUMBER:
            low, high = prompt.number_range
            answer = Input.enter(data.draw(st.integers(low, high)))
        elif prompt.kind is PromptKind.ROLL:
            answer = Input.roll(data.draw(st.integers(1, 6)))
        else:
            answer = Input.confirm()
        path_before = game.tree.path
        side_left = path_before and game.tree.remaining(path_before)
        try:
            game.apply(answer)
        except InvalidInput:
            continue
        log.append(answer)
        tree = game.tree
        if tree.engaged is not None:
            node = tree.node(tree.engaged)
            assert all(above in tree.defeated for above in node.on_top)
        if side_left and tree.path != path_before:
            raise AssertionError("the path changed before its side was done")
        assert game.breakdown()["score"] == sum(
            game.rules.points[level] for level in tree.defeated_levels()
        ) + (game.hero.health if game.hero else 0)
    again = MinionRush(5)
    for answer in log:
        again.apply(answer)
    assert again.view() == game.view()


def test_views_are_json_and_panel_labels_translate():
    """Brief: view() is JSON-able; panel labels are English keys the screen translates."""
    import json

    spanish = catalogue("es")
    game = campaign(2)
    for view in (game.view(), rush().view(), one_shot("monk").view()):
        json.dumps(view)
        for panel in view["panels"]:
            for label, _value in panel["rows"]:
                assert label in spanish, label


def test_damage_is_entered_as_the_table_announces_it():
    """One-Shot Boss Battle: the Boss's and each hero's Health dials go down by the
    damage announced ("Keep all Heroes' remaining Health separate"); Minion Rush:
    "If your Health is reduced to 0 ... your Rush has ended"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "boss", "fallen-gunslinger", "", "boss-damage", "20")
    assert game.boss_health == 25 and game.view()["gauge"]["value"] == 25
    play(game, "damage", "hero-2", "7")
    assert [h.health for h in game.heroes] == [30, 23]
    assert game.prompt().kind is PromptKind.CHOOSE
    play(game, "boss-damage", "25")
    assert game.result()["score"] == 30 + 23 + 15

    game = rush()
    play(game, "damage", "12")
    assert game.hero.health == 18 and not game.over
    play(game, "damage", "18")
    assert game.over and game.result()["score"] == 0


def test_two_heroes_with_the_same_name_are_still_two_heroes():
    """One-Shot Player Setup: "Have each Hero set their starting Health"; each hero
    keeps their own dial ("Keep all Heroes' remaining Health separate"). Two players
    entered under the same name ("Other hero") must each be pickable: before the fix
    both were offered as hero-1 and the second could never take damage or a Salve."""
    game = one_shot("other-hero", "other-hero")
    through_setup(game)
    play(game, "damage")
    assert options(game) == ["hero-1", "hero-2"]
    play(game, "hero-2", "5")
    assert [h.health for h in game.heroes] == [30, 25]
    assert [h.name for h in game.heroes] == ["Other hero", "Other hero (2)"]


def test_hero_names_in_messages_are_translated():
    """A hero's name shown in a message is translated like the option that chose it
    (the Spanish screen said "Barbarian" in texts after offering "Bárbaro"); a repeated
    name keeps its number."""
    game = one_shot("barbarian", "other-hero", "other-hero")
    through_setup(game)
    events = play(game, "salve-symbol", "hero-3")
    assert translate(events[0].text, "es") == "Otro héroe (3) gana un Ungüento (1 en mano)."
    events = play(game, "salve-symbol", "hero-1")
    assert translate(events[0].text, "es").startswith("Bárbaro ")
