"""Dicequest game flow: the solo/co-op Threat game, difficulty levels, Adventures,
final scoring, and a whole game through the terminal client and the session
(shared/seeds/dicequest.txt, sections cited per test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import EventKind, Input, InvalidInput, PromptKind
from dicetable.rules.dicequest import final_scoring
from dicetable.rules.dicequest.data import hero_kinds, shipped_cards, threat_deck
from dicetable.rules.dicequest.game import Dicequest
from dicetable.rules.dicequest.party import Hero, Player
from dicetable.rules.dicequest.scoring import adventure_rewards, standings

SCRIPTS = Path(__file__).parent / "scripts"
KINDS = {k.id: k for k in hero_kinds()}
CARDS = {c.id: c for c in shipped_cards()}
ACT1 = (
    '[[adventure]]\nid = "a1"\nname = "Goblin Camp"\nact = 1\nparty = [0, 3]\n'
    'require = [{ symbol = "sword", count = 1 }]\nlight = 1\nrewards = [3]\n'
)


def answer(game: Dicequest, *lines: str) -> list:
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def coop(difficulty: str, players: int = 1, seed: int = 2) -> Dicequest:
    game = Dicequest(seed, {"catalogue": ACT1})
    answer(game, "coop", str(players), difficulty, "a1")
    return game


def test_the_solo_script_plays_a_whole_game_through_the_terminal(capsys):
    """Solo & Co-op, Winning and Losing: Act III succeeds and the player has at least
    15 VP, so all players win; the result enters the high-score table."""
    script = SCRIPTS / "dicequest-solo.txt"
    code = main(["play", "dicequest", "--seed", "7", "--script", str(script), "--json"])
    assert code == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    over = [x for x in lines if x["type"] == "over"]
    assert over and over[0]["result"]["won"] is True
    assert over[0]["result"]["vp"] == {"Player 1": 23}
    assert over[0]["result"]["mode"] == "coop-normal"
    states = [x["view"] for x in lines if x["type"] == "state"]
    assert all({"panels", "cards", "turn"} <= set(v) for v in states)
    prompts = [x["prompt"] for x in lines if x["type"] == "prompt"]
    rolls = [p for p in prompts if p["kind"] == "roll"]
    assert rolls and all(p["dice"]["colors"] and p["dice"]["faces"] for p in rolls)


def test_the_session_resumes_a_game_from_its_log(tmp_path: Path):
    """Replaying the saved answers rebuilds exactly the state the table last saw."""
    store = Store.in_dir(tmp_path)
    session = TableSession.start(store, "dicequest", 7)
    answers = [
        x.split("#")[0].strip() for x in (SCRIPTS / "dicequest-solo.txt").read_text().splitlines()
    ]
    lines = [x for x in answers if x][:60]
    for line in lines:
        session.submit(parse(line, session.prompt()))
    again = TableSession.resume(Store.in_dir(tmp_path), session.id)
    assert again.view() == session.view()
    assert again.prompt() == session.prompt()


def test_practice_skips_the_threat_phase():
    """Difficulty Levels: "Practice - Skip the Threat Phase"."""
    game = coop("practice")
    assert game.stage == "tavern" and game.threat is None


def test_the_threat_phase_reveals_one_card_each_round():
    """Threat Phase and Cards: at the start of every round (not every turn) reveal
    the top card; ongoing lasts the round, immediate resolves at once."""
    game = coop("normal", players=2)
    assert game.stage == "threat" and game.prompt().actor.value == "boss"
    first = game.threat
    answer(game, "ok")
    assert game.stage == "tavern" and game.turn == 0
    answer(game, "quest", "playtime", "roll")
    assert game.turn == 1 and game.threat is first  # still round 1
    answer(game, "quest", "playtime", "roll")
    assert game.round == 2 and game.threat is not first
    cards, _ = threat_deck()
    assert len(cards) == 10 and {c.timing for c in cards} == {"ongoing", "immediate"}


def test_a_banned_colour_stays_out_of_the_pool():
    """Reference: Symbols: "You cannot roll any die of a marked color for this Quest;
    you may still use Heroes who use that die"."""
    game = coop("normal")
    game.threat = next(c for c in threat_deck()[0] if c.color == "blue")
    answer(game, "ok")
    game.players[0].heroes = [Hero(KINDS["pirate"], True), Hero(KINDS["blademaster"], True)]
    events = answer(game, "quest", "stormcaller")
    assert game.view()["attempt"]["pool"] == ["red"]
    assert any("No blue dice" in str(e.text) for e in events)
    assert "add-blue" not in [o.id for o in game.prompt().options]


def test_each_new_adventure_gets_a_threat_token_per_player():
    """Setup and Threat tokens: "each player takes one random Threat token from the
    current Act and places it face-up on the new Adventure card"."""
    game = coop("practice", players=3)
    assert len(game.adventure_tokens) == 3


def play_playtime_rounds(game: Dicequest, until_round: int) -> None:
    while game.round < until_round:
        if game.stage == "threat":
            answer(game, "ok")
        answer(game, "quest", "playtime", "roll")
        if game.stage == "threat":
            answer(game, "ok")


@pytest.mark.parametrize(
    ("difficulty", "over", "act3_tokens"),
    [("normal", False, 1), ("hard", False, 1), ("legendary", True, 0), ("godly", True, 0)],
)
def test_a_failed_adventure_by_difficulty(difficulty, over, act3_tokens):
    """Adventure failure: tokens move to the Act III Adventure; Hard: 1 new token
    per player instead; Legendary and Godly: "If you fail an Adventure, you lose"."""
    game = coop(difficulty)
    game.threat_deck = [c for c in game.threat_deck if c.effect == "instruction"] * 9
    old = list(game.adventure_tokens)
    play_playtime_rounds(game, 3)
    if game.stage == "threat":
        answer(game, "ok")
    # round 3: the Adventure (Party Size 0-3) is forced; with no dice it fails
    answer(game, "quest", "a1", "roll")
    assert game.is_over is over
    if over:
        assert game.result()["won"] is False
        return
    assert len(game.act3_tokens) == act3_tokens and game.adventure_tokens == []
    assert (game.act3_tokens == old) is (difficulty == "normal")
    assert game.stage == "reveal" and game.act == 2


def test_adventure_rounds_force_the_adventure():
    """The Adventure Path: rounds 3, 6 and 9 force the Adventure when the party can
    meet its Party Size."""
    game = coop("practice")
    play_playtime_rounds(game, 3)
    game.players[0].heroes = [Hero(KINDS["pirate"], True)]
    answer(game, "quest")
    assert [o.id for o in game.prompt().options] == ["a1"]


def test_tie_rule_gives_tied_players_the_next_reward():
    """Completing Adventures: "if two players tie for first, both receive the
    second-place Reward"."""
    assert adventure_rewards({1: 4, 2: 4, 3: 1}, [8, 5, 3]) == {1: 5, 2: 5, 3: 3}
    assert adventure_rewards({1: 2, 2: 2, 3: 2}, [8, 5]) == {1: 0, 2: 0, 3: 0}
    assert adventure_rewards({1: 0}, [8, 5, 3]) == {1: 8}


def test_final_ranking_breaks_ties_by_heroes_then_shares():
    """Goal of the Game: most VP; tie: most Heroes; still tied: shared victory."""
    assert standings({1: 20, 2: 20, 3: 18}, {1: 2, 2: 3, 3: 3}) == [[2], [1], [3]]
    assert standings({1: 20, 2: 20}, {1: 2, 2: 2}) == [[1, 2]]


def test_final_vp_adds_heroes_backpack_achievements_and_tokens():
    """Goal of the Game: Heroes, Backpack Items, graduated Heroes and Quests in the
    Achievements Zone, Victory Point tokens."""
    player = Player(1, quest_vp=7, vp_tokens=3)
    player.final = {"heroes": 4, "backpack": 2, "graduated": 5}
    assert player.total_vp() == 21


def test_co_op_players_below_the_minimum_lose():
    """Winning and Losing: every player needs at least the minimum VP (Heroic: 20)."""
    game = coop("heroic", players=2)
    game.players[0].quest_vp = 25
    game.players[1].quest_vp = 19
    final_scoring.start_final(game)
    answer(game, "0", "0", "0", "0", "0", "0")
    result = game.result()
    assert result["min_vp"] == 20 and result["won"] is False
    assert game.prompt().kind is PromptKind.OVER


def test_dice_that_do_not_match_the_pool_are_refused():
    """The roll must be the Dice Pool: colours and faces each colour can show."""
    game = coop("practice")
    game.players[0].heroes = [Hero(KINDS["pirate"], True), Hero(KINDS["blademaster"], True)]
    answer(game, "quest", "stormcaller", "roll")
    with pytest.raises(InvalidInput, match="Expected dice"):
        game.apply(parse("red:sword red:sword", game.prompt()))
    with pytest.raises(InvalidInput, match="no wand face"):
        game.apply(parse("red:wand blue:arrow", game.prompt()))
    assert game.stage == "roll"


def test_a_reroll_token_is_used_once_until_a_quest_fails():
    """Using the Reroll token: flip it to reroll any number of unlocked dice at
    once; it turns active again when you fail a Quest."""
    game = coop("practice")
    game.players[0].heroes = [Hero(KINDS["pirate"], True), Hero(KINDS["blademaster"], True)]
    answer(game, "quest", "stormcaller", "roll", "red:blank blue:blank")
    answer(game, "reroll-token", "die1", "die2", "go", "red:sword blue:arrow")
    assert "reroll-token" not in [o.id for o in game.prompt().options]
    events = answer(game, "done", "hero1", "hero2")
    assert any(e.kind == EventKind.OBJECTIVE_MISSED for e in events)
    assert game.players[0].reroll_active


def test_a_card_typed_in_at_the_table_is_kept_for_the_game():
    """A Quest the game does not know is typed in once, logged, and offered again."""
    game = coop("practice")
    answer(game, "quest", "type")
    values = ["1", "2", "0", "0", "1", "0", "0", "0", "1", "0", "0", "none"]
    answer(game, *values, "1", "2", "3", "0", "0", "0")
    card = game.typed_cards[0]
    assert card.party == (1, 2) and card.require[0].symbol == "wand"
    assert card.success == {"gold": 2, "vp": 3} and card.guaranteed == {"gold": 1}
    assert card.id in [o.id for o in game.prompt().options] or game.players[0].heroes == []
    assert "[[quest]]" in card.to_toml()


def test_a_bad_catalogue_option_names_the_entry_and_field():
    with pytest.raises(ValueError, match=r"\[\[quest\]\] 'x': field 'party'"):
        Dicequest.check_options({"catalogue": '[[quest]]\nid = "x"\nname = "X"\nact = 1\n'})
    assert Input.confirm().kind.value == "confirm"


def test_the_view_shows_threat_as_the_gauge_and_the_unlocked_board_actions():
    """Unlocking Board Actions after Act I; the Threat left is the table's gauge."""
    game = coop("practice", players=2)
    view = game.view()
    assert view["gauge"] == {"label": "Threat on the Adventure", "value": 2, "max": 2}
    rows = dict(view["panels"][0]["rows"])
    assert rows["Board actions"].startswith("Refresh") and rows["Minimum VP"] == 15
    play_playtime_rounds(game, 3)
    while game.stage != "reveal":
        answer(game, "quest", "a1", "roll")
    rows = dict(game.view()["panels"][0]["rows"])
    assert rows["Board actions"].startswith("Pay 3 Gold: draw the top Basic Item")
    assert "gauge" not in Dicequest(1).view()


def test_the_competitive_script_ranks_adventures_and_names_the_winner(capsys):
    """Completing Adventures (a tie for first: both get the second reward; then 6/4
    and 10/6 VP by rank) and Goal of the Game (most VP wins)."""
    script = SCRIPTS / "dicequest-competitive.txt"
    code = main(["play", "dicequest", "--seed", "11", "--script", str(script), "--json"])
    assert code == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    scores = [x["data"] for x in lines if x["type"] == "event" and x["kind"] == "score"]
    tokens = [(s["player"], s["vp"]) for s in scores if "vp" in s]
    assert tokens == [(1, 3), (2, 3), (1, 6), (2, 4), (1, 10), (2, 6)]
    result = next(x for x in lines if x["type"] == "over")["result"]
    assert result["vp"] == {"Player 1": 23, "Player 2": 15}
    assert result["winners"] == ["Player 1"] and result["mode"] == "competitive"


def test_the_terminal_speaks_spanish(isolated_data: Path, tmp_path: Path, capsys):
    """Every message has a Spanish text (rules/dicequest/i18n/es.toml)."""
    (tmp_path / "config.toml").write_text('[ui]\nlanguage = "es"\n')
    script = SCRIPTS / "dicequest-solo.txt"
    assert main(["play", "dicequest", "--seed", "7", "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert "Resultado: 1 flecha, 2 espada. Falta: 1 varita." in out
    assert "Invocatormentas se cumple: toma 2 de Oro; 3 PV en la Zona de Logros." in out
    assert "¡Todos los jugadores ganan!" in out


def test_threat_on_quests_moves_to_the_adventure_unless_the_quest_succeeds():
    """Threat on Quests: "a limit of 1 Threat per Quest ... it will be moved to your
    next Adventure when it's time to attempt it ... If you succeed at a Quest,
    discard the Threat token on it"."""
    catalogue = ACT1 + '[[quest]]\nid = "q2"\nname = "Rats"\nact = 1\nparty = [0, 1]\n'
    game = Dicequest(2, {"catalogue": catalogue})
    answer(game, "coop", "1", "practice", "a1", "threaten", "stormcaller")
    assert list(game.quest_threat) == ["stormcaller"]
    answer(game, "threaten")
    assert [o.id for o in game.prompt().options] == ["q2", "back"]  # 1 per Quest
    answer(game, "q2")
    events = answer(game, "quest", "q2", "roll")  # Rats needs nothing: it succeeds
    assert any(e.kind == "threat_discarded" for e in events)
    assert list(game.quest_threat) == ["stormcaller"]
    before = len(game.adventure_tokens)
    play_playtime_rounds(game, 3)
    assert len(game.adventure_tokens) == before + 1 and game.quest_threat == {}


def test_a_spent_rune_no_longer_counts_and_ability_wounds_are_unblockable():
    """Combat Step, Spent Runes: "If you spend a Rune, it does not count toward Quest
    success anymore"; Ability Clarifications: Scarifier "Assign 1 Unblockable Light
    Wound token to one of your Active Heroes to gain 1 Rune"."""
    catalogue = (
        ACT1 + '[[quest]]\nid = "runes"\nname = "Runes"\nact = 1\nparty = 1\n'
        'require = [{ symbol = "rune", count = 1 }]\n'
    )
    game = Dicequest(2, {"catalogue": catalogue})
    answer(game, "coop", "1", "practice", "a1")
    game.players[0].heroes = [Hero(KINDS["ward-mage"], True)]
    answer(game, "quest", "runes", "roll", "yellow:rune")
    assert game.view()["attempt"]["missing"] == {}
    answer(game, "spend-rune", "die1", "other")
    assert game.view()["attempt"]["missing"] == {"rune": 1}
    answer(game, "self-wound", "gain-rune")  # the Scarifier's Rune
    assert game.view()["attempt"]["missing"] == {}
    answer(game, "done")
    assert game.stage == "assign" and "Unblockable" in str(game.prompt().text)
