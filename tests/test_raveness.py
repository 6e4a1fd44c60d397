"""The Raveness at the table (issue 5, item 6): the Nevermore Die Roll, the Nevermore
dial, Feathers and Hex, and every Rules Clarification of the Raveness rulebook.

Rulebook: shared/seeds/dice-throne-outcasts-raveness.txt; each test quotes its line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.device.i18n import catalogue
from dicetable.rules.core import InvalidInput, PromptKind
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.objectives import parse_objective
from dicetable.rules.raveness.game import RavenessTable, hex_check
from dicetable.rules.raveness.rules import RavenessDataError, parse_rules

RULEBOOK = "seeds/dice-throne-outcasts-raveness.txt"
SCRIPTS = Path(__file__).parent / "scripts"


def play(game, *lines: str) -> list:
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def texts(events) -> list[str]:
    return [str(e.text) for e in events]


def options(game) -> list[str]:
    return [o.id for o in game.prompt().options]


def table(*opponents: str) -> RavenessTable:
    game = RavenessTable(1)
    play(game, str(len(opponents) or 1), *(opponents or ("barbarian",)))
    return game


def nevermore_on_opponent(game: RavenessTable, dial: int = 0, feathers: int = 0):
    """Nevermore sent to opponent 1 (Raven Sight), the dial and Feathers as given."""
    play(game, "turn", "raveness", "activate", "times-1", "move-opponent-1")
    game.nevermore.dial = dial
    game.nevermore.feathers = feathers


def die_roll(game: RavenessTable, value: int) -> list:
    """The holder's Upkeep: roll, then resolve without Feathers."""
    return play(game, "turn", "opponent-1", str(value), "resolve")


# --- setup and the six outcomes -------------------------------------------------------


def test_nevermore_starts_on_the_raveness_at_zero():
    """Hero Setup: "Begin the game with Nevermore on your Hero Board set to 0"."""
    game = table()
    assert game.view()["nevermore"] == {"holder": "raveness", "dial": 0, "max": 3}


def test_no_die_roll_while_nevermore_is_home():
    """ "If an opponent has Nevermore, they must roll 1 die during their Upkeep"."""
    game = table()
    play(game, "turn", "opponent-1")
    assert game.prompt().kind is PromptKind.CHOOSE  # no ROLL asked


def test_the_die_roll_is_read_at_the_holders_upkeep():
    """ "If an opponent has Nevermore, they must roll 1 die during their Upkeep Phase.
    This is called the Nevermore Die Roll"."""
    game = table()
    nevermore_on_opponent(game)
    play(game, "turn", "opponent-1")
    prompt = game.prompt()
    assert prompt.kind is PromptKind.ROLL and prompt.dice.count == 1
    assert "Nevermore Die Roll" in str(prompt.text)


def test_roll_1_hex():
    """ "On 1, that opponent gains Hex"."""
    game = table()
    nevermore_on_opponent(game)
    die_roll(game, 1)
    assert game.nevermore.hexed == "opponent-1"


def test_roll_2_activates_twice_each_separately():
    """ "On 2, the Raveness may Activate Nevermore two times"; Clarification: "When
    Activated multiple times, the Raveness can choose either effect for each separate
    activation (i.e. ... Absorb Vitality for the first Activation, and then move
    Nevermore for the second Activation)"."""
    game = table()
    nevermore_on_opponent(game, dial=1)
    die_roll(game, 2)
    assert "Activation 1 of 2" in str(game.prompt().text)
    events = play(game, "absorb")
    assert game.nevermore.dial == 2
    assert "Activation 2 of 2" in str(game.prompt().text)
    events += play(game, "move-raveness")
    assert game.nevermore.holder == "raveness" and game.nevermore.dial == 0
    assert events[-1].data["heal"] == 2


def test_roll_3_activates_once_and_neither_is_allowed():
    """ "On 3, the Raveness may Activate Nevermore"; "The Raveness may also choose
    neither option"."""
    game = table()
    nevermore_on_opponent(game)
    die_roll(game, 3)
    assert options(game)[-1] == "neither"
    events = play(game, "neither")
    assert "The Raveness chooses neither." in texts(events)
    assert game.nevermore.holder == "opponent-1"


def test_roll_4_discard():
    """ "On 4, that opponent discards 1 card of their choice"."""
    game = table()
    nevermore_on_opponent(game)
    events = die_roll(game, 4)
    assert "Barbarian discards 1 card of their choice." in texts(events)
    assert game.prompt().kind is PromptKind.CONFIRM


def test_roll_5_raveness_gains_cp_even_if_the_opponent_had_none():
    """ "On 5, that opponent loses 1 Combat Point (CP). The Raveness gains 1 CP";
    Clarification: "the Raveness will still gain 1 CP even if her opponent did not lose
    1 CP"."""
    game = table()
    nevermore_on_opponent(game)
    events = die_roll(game, 5)
    assert "the Raveness gains 1 CP either way" in texts(events)[-1]


def test_roll_6_dial_to_zero_then_return_heals_nothing():
    """ "On 6, reduce Nevermore's dial to 0. Then return Nevermore to the Raveness"."""
    game = table()
    nevermore_on_opponent(game, dial=3)
    events = die_roll(game, 6)
    assert game.nevermore.holder == "raveness" and game.nevermore.dial == 0
    assert events[-1].data["heal"] == 0


# --- the dial and Absorb Vitality ---------------------------------------------------------


def test_absorb_vitality_only_on_an_opponent():
    """Absorb Vitality: "May only be chosen while Nevermore is on an opponent"."""
    game = table()
    play(game, "turn", "raveness", "activate", "times-1")
    assert "absorb" not in options(game)


def test_absorb_vitality_at_dial_three_still_damages():
    """Clarification: "Nevermore is still able to Absorb Vitality even if Nevermore's
    dial is set at 3 (although the dial cannot go above the value of 3)"; "that opponent
    receives 1 damage as an isolated source of undefendable damage"."""
    game = table()
    nevermore_on_opponent(game, dial=3)
    play(game, "activate", "times-1")
    events = play(game, "absorb")
    assert game.nevermore.dial == 3
    assert events[0].data == {"target": "opponent-1", "damage": 1, "dial": 3}
    assert "undefendable" in texts(events)[0]


def test_the_holder_adjusts_the_dial():
    """Clarification: "The player who has the dial on their Hero Board is the player who
    should adjust the dial"."""
    game = table()
    nevermore_on_opponent(game)
    play(game, "activate", "times-1")
    events = play(game, "absorb")
    assert texts(events)[0].startswith("Absorb Vitality: Barbarian sets Nevermore's dial to 1")


def test_return_heals_the_dial_immediately_in_that_phase():
    """ "Whenever Nevermore is moved to the Raveness, Heal the amount on Nevermore's dial.
    Then reduce the dial to zero"; Clarification: "The Heal effect from Nevermore occurs
    immediately during the Phase when he is returned to the Raveness (such as the Upkeep
    Phase)"."""
    game = table()
    nevermore_on_opponent(game, dial=3)
    play(game, "turn", "opponent-1", "3", "resolve")
    events = play(game, "move-raveness")  # still the Barbarian's Upkeep
    assert events[0].data == {"holder": "raveness", "heal": 3, "dial": 0}
    assert game.active == "opponent-1"


def test_move_between_opponents_keeps_the_dial():
    """ "Move Nevermore to a chosen player": the dial goes with him."""
    game = table("barbarian", "pyromancer")
    nevermore_on_opponent(game, dial=2)
    play(game, "activate", "times-1", "move-opponent-2")
    assert game.nevermore.holder == "opponent-2" and game.nevermore.dial == 2


# --- defeat -------------------------------------------------------------------------------


def test_defeated_holder_returns_nevermore_at_once():
    """Clarification: "If an opponent who has Nevermore is defeated, Nevermore is
    immediately returned to the Raveness"."""
    game = table("barbarian", "pyromancer")
    nevermore_on_opponent(game, dial=2)
    events = play(game, "defeated", "opponent-1")
    assert game.nevermore.holder == "raveness"
    assert events[-1].data["heal"] == 2
    assert game.outcome is None  # the Pyromancer still plays


def test_defeated_raveness_removes_nevermore():
    """Clarification: "If the Raveness is defeated, remove Nevermore from the game"."""
    game = table()
    nevermore_on_opponent(game, dial=2)
    events = play(game, "defeated", "raveness")
    assert game.nevermore.holder is None
    assert "Nevermore is removed from the game." in texts(events)
    assert game.result()["winner"] == "opponents"


def test_simultaneous_defeat_is_a_tie_without_the_heal():
    """Clarification: "If both the Raveness and her opponent are defeated simultaneously,
    the Heal from Nevermore being returned to the Raveness would not resolve until after
    damage calculations. Therefore, the game would conclude in a tie"."""
    game = table()
    nevermore_on_opponent(game, dial=3)
    events = play(game, "defeated", "together")
    assert game.result()["winner"] == "tie"
    assert not [e for e in events if e.kind == "heal"]


# --- Feathers --------------------------------------------------------------------------------


def test_feather_reroll_costs_one():
    """Feather: "1 token: Force the Nevermore Die Roll to be re-rolled"."""
    game = table()
    nevermore_on_opponent(game, feathers=1)
    play(game, "turn", "opponent-1", "6", "reroll")
    assert game.nevermore.feathers == 0
    assert game.prompt().kind is PromptKind.ROLL
    play(game, "4")
    assert options(game) == ["resolve"]  # no Feathers left


def test_feather_plus_or_minus_one_costs_two():
    """Feather: "2 tokens: Increase or decrease the value of the Nevermore Die Roll by 1";
    Clarification: "Multiple Feather tokens can be spent in the same turn"."""
    game = table()
    nevermore_on_opponent(game, feathers=5)
    play(game, "turn", "opponent-1", "4", "down", "down")
    assert game.nevermore.feathers == 1
    assert "Nevermore Die Roll 2" in str(game.prompt().text)
    play(game, "reroll", "1")
    assert "up" not in options(game)  # only 0 Feathers left
    play(game, "resolve")
    assert game.nevermore.hexed == "opponent-1"


def test_no_plus_past_six_or_minus_below_one():
    """Feather: "Increase or decrease the value of the Nevermore Die Roll by 1" (a die
    shows 1 to 6, so a 6 can only go down)."""
    game = table()
    nevermore_on_opponent(game, feathers=2)
    play(game, "turn", "opponent-1", "6")
    assert "up" not in options(game) and "down" in options(game)
    play(game, "down")
    assert game.nevermore.feathers == 0


def test_feather_activate_costs_three_then_the_roll_resolves():
    """Feather: "3 tokens: Activate Nevermore"."""
    game = table()
    nevermore_on_opponent(game, dial=0, feathers=3)
    play(game, "turn", "opponent-1", "4", "activate", "absorb")
    assert game.nevermore.feathers == 0 and game.nevermore.dial == 1
    assert "Nevermore Die Roll 4" in str(game.prompt().text)  # back to the roll
    play(game, "resolve")
    assert game.prompt().kind is PromptKind.CONFIRM  # the discard


def test_the_roll_acts_on_the_opponent_who_rolled_after_a_feather_activation():
    """Companion: Nevermore: "If an opponent has Nevermore, they must roll 1 die ...
    On 1, that opponent gains Hex." A Feather Activation that moves Nevermore back to
    the Raveness before the roll resolves still leaves "that opponent" as the one who
    rolled (before the fix the 1 was aimed at the Raveness and the game stuck)."""
    game = table("barbarian", "pyromancer")
    nevermore_on_opponent(game, dial=2, feathers=3)
    events = play(game, "turn", "opponent-1", "1", "activate", "move-raveness", "resolve")
    assert game.nevermore.hexed == "opponent-1"
    assert game.nevermore.holder == "raveness"
    assert any("heals 2" in t for t in texts(events))
    game = table("barbarian", "pyromancer")
    nevermore_on_opponent(game, feathers=3)
    play(game, "turn", "opponent-1", "4", "activate", "move-opponent-2", "resolve")
    assert "Barbarian (1) discards 1 card" in str(game.prompt().text)


def test_feather_stack_limit_five_and_spend_to_make_room():
    """Feather: "Stack limit: 5"; Clarification: "If you are about to gain more Feather
    beyond the Stack Limit, you can spend some to make room for the incoming tokens, as
    spending status effects is an Instant Action"."""
    game = table()
    nevermore_on_opponent(game)
    play(game, "feathers", "4")
    play(game, "feathers", "3")
    assert options(game) == ["activate", "gain"]
    play(game, "activate")
    play(game, "absorb")
    assert game.nevermore.feathers == 4  # 4 - 3 + 3
    events = play(game, "feathers", "3", "gain")
    assert game.nevermore.feathers == 5
    assert "2 Feather lost to the stack limit of 5." in texts(events)


def test_mirror_match_only_own_feathers_alter_the_roll():
    """Clarification: "Nevermore is considered unique to each Raveness player. The
    Nevermore Die Roll of your unique Nevermore may only be altered by your own Feather
    tokens": the Feather window spends this Raveness's Feathers only."""
    game = table()
    nevermore_on_opponent(game, feathers=0)
    play(game, "turn", "opponent-1", "3")
    assert options(game) == ["resolve"]
    assert game.prompt().actor.value == "player"


# --- Hex -------------------------------------------------------------------------------------


def test_hex_blanks_sixes_in_roll_objectives():
    """Hex: "treat all of their die faces with a 6 as if those faces are completely
    blank"; Clarification: "A blank die is considered to have no symbol and no number
    value" (through the Dice Throne Roll Objectives, ``hex=True``)."""
    large = parse_objective("large straight")
    assert large.met_by([2, 3, 4, 5, 6]) and not large.met_by([2, 3, 4, 5, 6], hex=True)
    assert parse_objective("small straight").met_by([2, 3, 4, 5, 6], hex=True)
    assert not parse_objective("2 of a kind").met_by([6, 6, 1, 2, 3], hex=True)


def test_five_sixes_under_hex_cannot_activate_the_ultimate():
    """Clarification: "If your opponent rolls five - 6's, they cannot activate their
    Ultimate Ability (because all of their die faces are considered blank)"."""
    barbarian = load_hero("barbarian")
    assert any(a.kind == "ultimate" for a, _ in barbarian.met_abilities([6] * 5))
    events = hex_check("barbarian", "Barbarian", [6] * 5)
    assert events[1].data["met"] == []
    assert "Rage!" in events[1].data["lost_to_hex"]
    assert texts(events)[0] == "Under Hex the dice read blank blank blank blank blank."


def test_hex_removed_at_the_end_of_the_afflicted_players_turn():
    """Hex: "At the conclusion of their turn, remove this token"."""
    game = table()
    nevermore_on_opponent(game)
    die_roll(game, 1)
    assert game.nevermore.hexed == "opponent-1"
    assert "hex-roll" in options(game)
    play(game, "hex-roll", "6 6 6 6 6")
    play(game, "turn", "raveness")
    assert game.nevermore.hexed is None


def test_hex_is_unique_and_not_transferable():
    """Hex: "Unique Status Effect. Stack limit: 1"; "This token may not be transferred by
    any means (but can be removed)": no transfer is offered; inflicting it elsewhere
    takes it from the first player, and an effect can remove it."""
    game = table("barbarian", "pyromancer")
    events = play(game, "hex", "opponent-1")
    events += play(game, "hex", "opponent-1")
    assert "Barbarian (1) already has Hex (stack limit 1)." in texts(events)
    events = play(game, "hex", "opponent-2")
    assert game.nevermore.hexed == "opponent-2"
    assert "Hex is unique: it leaves Barbarian (1)." in texts(events)
    assert not [o for o in options(game) if "transfer" in o]
    play(game, "hex-remove")
    assert game.nevermore.hexed is None


def test_wrong_answers_change_nothing():
    """core contract: a refused answer leaves the state as it was."""
    game = table()
    before = game.view()
    with pytest.raises(InvalidInput):
        game.apply(parse("7", game.prompt()))
    assert game.view() == before


def test_data_errors_name_the_entry_and_field():
    """Brief: data validated on load, the error naming file, entry and field."""
    with pytest.raises(RavenessDataError, match=r"outcome #1: field 'effect'"):
        parse_rules({"feather_cost": {}, "outcome": [{"roll": 1, "effect": "fly"}]})


def test_the_script_plays_to_the_end(capsys):
    """Issue 5 item 7: the terminal client plays it through."""
    script = SCRIPTS / "raveness-match.txt"
    assert main(["play", "raveness", "--seed", "1", "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert "Lost to Hex: Rage!, Crit Bash." in out and "Game over." in out


def test_every_message_has_a_spanish_translation():
    """Brief: Spanish for every message in ``rules/raveness/i18n/es.toml``."""
    import ast

    spanish = catalogue("es")
    folder = Path(__file__).parents[1] / "rules" / "raveness"
    missing = [
        f"{source.name}: {node.args[0].value}"
        for source in folder.glob("*.py")
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "msg"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value not in spanish
    ]
    assert not missing, "\n".join(missing)


def test_rulebook_quotes_are_in_the_seed(shared_dir: Path):
    """The quotes these tests check are the rulebook's own."""
    text = (shared_dir / RULEBOOK).read_text()
    for quote in (
        "Stack limit: 5",
        "On 6, reduce Nevermore's dial to 0",
        "the game would conclude in a tie",
        "(max 3)",
    ):
        assert quote in text, quote


def test_the_session_resumes_and_undoes_the_match(tmp_path: Path):
    """Issue 5 item 7: the Raveness plays through the session runtime; a resumed game
    (the log replayed) shows exactly what was shown and undo takes back one answer,
    Feather windows and Activations included (they are rebuilt by the replay)."""
    import json

    from dicetable.device.session import TableSession
    from dicetable.device.store import Store

    store = Store.in_dir(tmp_path)
    session = TableSession.start(store, "raveness", seed=3)
    answers = [
        raw.split("#", 1)[0].strip()
        for raw in (SCRIPTS / "raveness-match.txt").read_text().splitlines()
        if raw.strip() and not raw.strip().startswith("#")
    ]
    for i, line in enumerate(answers):
        session.submit(parse(line, session.prompt()))
        if i in (len(answers) // 3, 2 * len(answers) // 3):
            shown = json.dumps(session.view(), sort_keys=True)
            prompt = session.prompt().to_json()
            again = TableSession.resume(store, session.id)
            assert json.dumps(again.view(), sort_keys=True) == shown
            assert again.prompt().to_json() == prompt
            assert session.undo()
            session.submit(parse(line, session.prompt()))
            assert json.dumps(session.view(), sort_keys=True) == shown
    assert session.game.is_over and store.saved_game(session.id).over
