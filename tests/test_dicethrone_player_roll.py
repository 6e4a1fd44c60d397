"""The player's own roll resolved from the tray (issue 16, item 2): with the player's
hero chosen at setup (the ``player_hero`` option), the Offensive Roll is read, the
table says which abilities the dice make and the odds of each after the next re-roll,
the player picks one, and it lands through the Boss's own defence; the player's
defensive roll likewise. ``by_hand`` (the default) keeps the reported turn.

Fan solo mode v3.2 (seeds/dice-throne-fan-solo-mode-v3.2.txt), 4. Step 2: "Play a
classic Dice Throne turn."; Boss defense phase: "For any Defensible attack you
inflict on the Boss following an Offensive Roll Phase, he will use his defensive
ability."; "If you succeed in a ULTIMATE, the Boss may, if he has any, use a King's
Hand token to counter it"."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from conftest import SHARED
from fuzz_play import random_line

from dicetable.device.answers import parse
from dicetable.rules.core import Input, InvalidInput, PromptKind
from dicetable.rules.dicethrone.solo import DiceThroneSolo

SOLO = SHARED / "seeds" / "dice-throne-fan-solo-mode-v3.2.txt"


def quoted(*phrases: str) -> None:
    if SOLO.is_file():
        text = " ".join(SOLO.read_text(encoding="utf-8").split())
        for phrase in phrases:
            assert phrase in text, phrase


def game(hero: str = "barbarian", boss: str = "barbarian") -> DiceThroneSolo:
    """Past the setup, at the player's first menu."""
    g = DiceThroneSolo(3, {"boss": boss, "difficulty": "easy", "player_hero": hero})
    while g.prompt().kind is PromptKind.CONFIRM:
        g.apply(Input.confirm())
    return g


def play(g: DiceThroneSolo, *lines: str) -> list:
    events = []
    for line in lines:
        events += g.apply(parse(line, g.prompt()))
    return events


def ids(g: DiceThroneSolo) -> list[str]:
    return [o.id for o in g.prompt().options]


def test_the_roll_is_read_and_the_abilities_it_makes_are_offered() -> None:
    quoted("Play a classic Dice Throne turn.")
    g = game("barbarian")
    assert ids(g)[0] == "roll"
    play(g, "roll")
    prompt = g.prompt()
    assert prompt.kind is PromptKind.ROLL and prompt.dice.profile == "dicethrone-barbarian"
    assert prompt.dice.count == 5
    play(g, "1 1 4 5 6")  # Barbarian: 1-3 Sword, 4-5 Heart, 6 Pow
    offered = ids(g)
    assert "aim:smack" in offered and "none" in offered
    smack = next(o for o in g.prompt().options if o.id == "aim:smack")
    assert "keep 1 1" in str(smack.label) and str(Fraction(7, 8)) in str(smack.label)


def test_a_reroll_keeps_the_dice_the_table_said_and_counts_its_attempts() -> None:
    g = game("barbarian")
    play(g, "roll", "1 1 4 5 6", "aim:smack")
    prompt = g.prompt()
    assert prompt.keep == (0, 1) and "attempt 2 of 3" in str(prompt.text)
    with pytest.raises(InvalidInput, match="kept dice"):
        g.apply(parse("4 4 4 5 6", prompt))  # the two Swords were not kept
    play(g, "1 1 2 5 6")
    assert "use:smack" in ids(g)


def test_an_ability_lands_through_the_bosses_defence() -> None:
    quoted(
        "For any Defensible attack you inflict on the Boss following an Offensive Roll "
        "Phase, he will use his defensive ability."
    )
    g = game("barbarian")
    play(g, "roll", "1 1 2 2 3", "use:smack")  # 5 Sword: Smack's 8 damage
    prompt = g.prompt()
    assert prompt.kind is PromptKind.ROLL and "Boss's defence" in str(prompt.text)
    before = g.boss.health
    events = play(g, " ".join(["1"] * prompt.dice.count))  # no Heart: nothing prevented
    assert before - g.boss.health == 8
    assert any("The Boss takes 8 damage." in str(e.text) for e in events)
    assert "roll" not in ids(g)  # one Offensive Roll Phase a turn


def test_an_undefendable_ability_skips_his_defence_and_the_ultimate_meets_kings_hand() -> None:
    quoted("If you succeed in a ULTIMATE, the Boss may, if he has any, use a King's Hand")
    g = game("barbarian")
    before = g.boss.health
    play(g, "roll", "1 2 6 6 4", "use:sturdy-blow")  # 2 Sword + 2 Pow: undefendable
    assert g.prompt().kind is PromptKind.CHOOSE  # back at the menu, no defence roll
    assert before - g.boss.health == 4
    g = game("barbarian")
    play(g, "roll", "6 6 6 6 6", "use:rage")
    prompt = g.prompt()
    assert "King's Hand against your Ultimate" in str(prompt.text)
    before = g.boss.health
    play(g, "1 1")  # no 4-6: the Ultimate stands
    assert g.boss.health < before and g.boss.count("kings-hand") == 0


def test_an_extra_roll_adds_its_damage() -> None:
    g = game("barbarian")
    play(g, "roll", "1 2 3 6 6", "use:overpower")  # 3 Sword + 2 Pow: roll 3 more dice
    assert "roll 3 dice for its effect" in str(g.prompt().text)
    play(g, "6 5 4")  # 15 damage, and 14 or more: Concussion
    assert g.boss.count("concussion") == 1
    defence = g.prompt()
    before = g.boss.health
    play(g, " ".join(["1"] * defence.dice.count))
    assert before - g.boss.health == 15


def test_the_players_defensive_roll_is_read_too() -> None:
    g = game("barbarian")
    play(g, "roll", "1 4 5 6 6", "none", "end")
    while g.prompt().kind is not PromptKind.ROLL or "Defend against" not in str(g.prompt().text):
        prompt = g.prompt()
        if prompt.kind is PromptKind.ROLL:  # the Boss's rolls: 3 Sword, Smack (defendable)
            play(g, " ".join("11145"[: prompt.dice.count]))
        elif prompt.kind is PromptKind.CHOOSE:
            play(g, ids(g)[-1])
        elif prompt.kind is PromptKind.NUMBER:
            play(g, str(prompt.number_range[0]))
        else:
            play(g, "")
    prompt = g.prompt()
    assert prompt.dice.profile == "dicethrone-barbarian" and "Thick Skin" in str(prompt.text)
    damage = prompt.text.args["damage"]
    health = g.player.health
    events = play(g, "4 5 4")  # Thick Skin: 3 Heart, heal 2 each, before the damage lands
    assert g.player.health == min(50, health + 6) - damage
    assert any(f"You take {damage} damage." in str(e.text) for e in events)


def test_upgrades_the_player_plays_change_their_board() -> None:
    g = game("barbarian")
    play(g, "upgrade", "smack:2")
    assert g.player_levels == {"smack": 2}
    play(g, "roll", "1 1 1 1 6")  # 4 Sword and 4 of a kind on Smack II: undefendable
    before = g.boss.health
    play(g, "use:smack")
    assert g.prompt().kind is PromptKind.CHOOSE and before - g.boss.health == 7


def test_by_hand_stays_the_default_and_every_hero_can_be_the_players() -> None:
    g = DiceThroneSolo(3, {"boss": "barbarian", "difficulty": "easy"})
    while g.prompt().kind is PromptKind.CONFIRM:
        g.apply(Input.confirm())
    assert "roll" not in ids(g) and "attack" in ids(g)
    for hero in DiceThroneSolo.options_allowed["player_hero"][1:]:
        g = game(hero)
        play(g, "roll", "1 2 3 4 5")
        assert g.prompt().options[-1].id == "none", hero


@pytest.mark.parametrize("hero", ["barbarian", "moon_elf", "raveness"])
def test_random_games_with_the_players_hero_end_and_replay_the_same(hero: str) -> None:
    """Random legal answers, as the terminal would type them, to a whole game: every
    refused answer leaves the game as it was, the game ends, and replaying the log from
    the seed gives the same prompt and view (rules/core.py: undo and resume replay)."""
    rng = random.Random(hero)
    options = {"boss": "shadow_thief", "difficulty": "normal", "player_hero": hero}
    g = DiceThroneSolo(16, options)
    log: list[Input] = []
    last: tuple[str, ...] = ()
    for _ in range(3000):
        prompt = g.prompt()
        if prompt.kind is PromptKind.OVER:
            break
        line = random_line(prompt, rng, None, last)
        before = (prompt.to_json(), g.view())
        try:
            answer = parse(line, prompt)
            g.apply(answer)
        except InvalidInput:
            assert (g.prompt().to_json(), g.view()) == before
            continue
        log.append(answer)
        if prompt.kind is PromptKind.ROLL:
            last = tuple(line.split())
    assert g.prompt().kind is PromptKind.OVER
    again = DiceThroneSolo(16, options)
    for answer in log:
        again.apply(answer)
    assert (again.prompt().to_json(), again.view()) == (g.prompt().to_json(), g.view())
