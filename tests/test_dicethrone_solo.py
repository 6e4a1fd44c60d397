"""The fan-made Dice Throne solo mode v3.2 with dicetable as the Boss (issue 4, items 4-7):
setup, the Boss's turn and cards, his Offensive Roll and defence, the game's end. The
status effects are in test_dicethrone_solo_status.py, which uses the helpers here.

Rule references are to shared/seeds/dice-throne-fan-solo-mode-v3.2.txt.
"""

from __future__ import annotations

import pytest

from dicetable.rules.core import EventKind, Input, InvalidInput, PromptKind
from dicetable.rules.dicethrone.decks import load_decks
from dicetable.rules.dicethrone.odds import chance, chance_from
from dicetable.rules.dicethrone.solo import DiceThroneSolo


def new_game(boss: str = "barbarian", difficulty: str = "normal", seed: int = 1) -> DiceThroneSolo:
    game = DiceThroneSolo(seed)
    game.apply(Input.choose(boss))
    game.apply(Input.choose(difficulty))
    return game


def confirm_all(game: DiceThroneSolo) -> list:
    events = []
    while game.prompt().kind is PromptKind.CONFIRM:
        events += game.apply(Input.confirm())
    return events


def to_menu(game: DiceThroneSolo) -> None:
    confirm_all(game)
    assert game.queue[0][0] == "menu", game.queue[0]


def stack(game: DiceThroneSolo, ai: str | None = None, action: str | None = None) -> None:
    """Put these cards on top of the Boss AI and Action decks."""
    decks = load_decks(game.boss_id)
    if ai:
        game.ai_pile.append(next(i for i, c in enumerate(decks.ai) if c.name == ai))
    if action:
        game.action_pile.append(next(i for i, c in enumerate(decks.action) if c.name == action))


def boss_turn(game: DiceThroneSolo, ai: str, action: str) -> list:
    """End the player's turn with these cards on top; confirm the instructions."""
    to_menu(game)
    stack(game, ai, action)
    events = game.apply(Input.choose("end"))
    return events + confirm_all(game)


def rows(game: DiceThroneSolo, panel: int) -> dict:
    return dict(game.view()["panels"][panel]["rows"])


def test_setup_values():
    """2.1: player 50 Health, 2 CP, no bonus tokens; 2.2.1: boss 80 Health, 2 King's
    Hand; 2.2.3: "the Boss starts the game with 2" CP; 4.: the Active Player always
    has his Income Phase on his first turn (+1 CP)."""
    game = new_game()
    assert game.prompt().kind is PromptKind.CONFIRM
    assert rows(game, 0)["Health"] == 80 and rows(game, 0)["CP"] == 2
    assert rows(game, 0)["King's Hand"] == 2
    you = rows(game, 1)
    assert (you["Health"], you["CP"], you["Salve"], you["Bonus Damage"]) == (50, 2, 0, 0)
    assert game.view()["gauge"] == {"label": "Barbarian", "value": 80, "max": 80}
    confirm_all(game)
    assert rows(game, 1)["CP"] == 3 and game.view()["turn"] == 1


@pytest.mark.parametrize(("difficulty", "d"), [("easy", 0), ("normal", 1), ("hard", 2)])
def test_difficulty_sets_d(difficulty, d):
    """2.2.2: Easy/Normal/Hard give D = 0/1/2 (and 10/12/15 CP for upgrades)."""
    assert new_game(difficulty=difficulty).d == d


def test_upgrades_are_drawn_and_paid_until_one_cannot_be():
    """2.2.3: pay each drawn upgrade; a higher level pays only the difference; stop at
    the first card the Boss cannot pay. Normal = 12 CP (2.2.2). In file order:
    Smack II 2, Smack III 3-2=1, Sturdy II 1, Sturdy III 1-1=0, Mighty II 2, Crit II 2,
    Fortitude II 2, Overpower II 2 (12 spent), Reckless II unpaid."""
    game = DiceThroneSolo(1)
    game.apply(Input.choose("barbarian"))
    game.rng.shuffle = lambda cards: None
    events = game.apply(Input.choose("normal"))
    assert game.levels == {
        "smack": 3,
        "sturdy-blow": 3,
        "mighty-blow": 2,
        "crit-bash": 2,
        "fortitude": 2,
        "overpower": 2,
    }
    assert "Upgrade Reckless II costs 2 CP: not paid, setup ends." in [str(e.text) for e in events]
    assert game.boss.cp == 2


def test_a_lower_upgrade_under_a_higher_one_is_discarded_for_free():
    """2.2.3: "If a level 2 upgrade is revealed when a level 3 upgrade is already
    placed ... the Boss discards the drawn card without gaining an extra" CP."""
    game = DiceThroneSolo(1)
    game.apply(Input.choose("barbarian"))

    def smack_first(cards: list) -> None:
        if cards and not isinstance(cards[0], int):
            cards.sort(key=lambda c: (c.ability != "smack", -c.level))

    game.rng.shuffle = smack_first
    events = [str(e.text) for e in game.apply(Input.choose("easy"))]
    assert events[:2] == [
        "Upgrade Smack III placed for 3 CP.",
        "Upgrade Smack II discarded: a higher level is placed.",
    ]
    assert game.levels["smack"] == 3


def test_salves_heal_six_each():
    """4. Step 1: "For each Salve spent, you gain 6 Life Points"."""
    game = new_game()
    confirm_all(game)
    game.player.health, game.salve = 30, 2
    game.then(("salves", {}))
    assert game.prompt().number_range == (0, 2)
    game.apply(Input.enter(2))
    assert game.player.health == 42 and game.salve == 0


def test_income_cards_reinforcement_with_d_and_player_bonus():
    """4. Income phase: +1 CP; one Boss AI and one Action card; reinforcement A with D;
    the Active Player gains the Action card's bonus B at once."""
    game = new_game(difficulty="hard")  # D = 2
    events = boss_turn(game, "Iron Will", "Crushing Blow")  # gain D King's Hand; bonus Salve
    assert game.boss.count("kings-hand") == 4
    assert game.boss.cp == 3
    assert game.salve == 1
    titles = [c["title"] for c in game.view()["cards"]]
    assert titles == ["Iron Will", "Crushing Blow"]
    assert any(e.kind == EventKind.CARD for e in events)


def test_a_negative_reinforcement_goes_to_the_player():
    """4. Income phase: "If this reinforcement is a negative status alteration token,
    the Boss inflicts it on the Active Player"."""
    game = new_game()
    to_menu(game)
    stack(game, "Skull Crusher", "Plunder")
    events = game.apply(Input.choose("end"))
    assert game.player.count("concussion") == 1
    assert game.prompt().kind is PromptKind.CONFIRM
    assert any(e.kind == EventKind.INSTRUCTION and "Concussion" in str(e.text) for e in events)


def test_blue_card_is_paid_and_resolved_or_discarded_for_one_cp():
    """4. Main phase, blue card: pay and resolve it if he can; if he cannot pay it or
    cannot resolve it, discard it and gain 1 CP."""
    game = new_game()
    boss_turn(game, "Brute Force", "Plunder")  # cost 0: +2 CP
    assert game.boss.cp == 2 + 1 + 2
    game = new_game()
    boss_turn(game, "Brute Force", "War Paint")  # heal 3 at full Health: cannot resolve
    assert game.boss.cp == 2 + 1 + 1 and game.boss.health == 80
    game = new_game()
    boss_turn(game, "Brute Force", "Battle Cry")  # costs 3, he has 3 after income
    assert game.boss.cp == 0
    assert game.action_used


def test_free_text_effects_become_instructions_to_confirm():
    """Issue 4 item 6: an effect the engine cannot automate is shown and confirmed."""
    game = new_game()
    to_menu(game)
    stack(game, "Brute Force", "Battle Cry")
    events = game.apply(Input.choose("end"))
    texts = [str(e.text) for e in events if e.kind == EventKind.INSTRUCTION]
    assert "Discard 1 card of your choice from your hand." in texts
    confirms = []
    while game.prompt().kind is PromptKind.CONFIRM:
        confirms.append(str(game.prompt().text))
        game.apply(Input.confirm())
    assert "Discard 1 card of your choice from your hand." in confirms


def test_offensive_roll_prompt_keeps_matching_dice_with_exact_odds():
    """4. Offensive Rolling Phase: roll 5 dice, then roll only the dice that do not
    match the Roll Objective, up to 3 rolls; the prompt says which to keep and the odds."""
    game = new_game()
    boss_turn(game, "Sturdy Stance", "Heavy Swing")
    prompt = game.prompt()
    objective = load_decks("barbarian").ai[2].objective
    assert prompt.kind is PromptKind.ROLL and prompt.dice.count == 5
    assert str(prompt.objective) == "2 sword + 2 pow"
    assert prompt.odds == chance(objective, 3, "boss")
    game.apply(Input.roll(1, 2, 3, 6, 4))
    prompt = game.prompt()
    assert prompt.keep == (0, 1, 3)
    assert prompt.odds == chance_from(objective, [1, 2, 3, 6, 4], 2, "boss")
    with pytest.raises(InvalidInput, match="kept dice"):
        game.apply(Input.roll(4, 4, 4, 4, 4))
    assert game.dice == [1, 2, 3, 6, 4] and game.attempt == 1  # unchanged


def test_strongest_met_ability_and_reckless_self_damage():
    """4.: "he activates the strongest Offensive Ability ... furthest to the right ...
    then the one furthest down"; Reckless (large straight) deals 15 and the Barbarian
    takes 4 in return (reference 1.2)."""
    game = new_game()
    game.levels = {}
    boss_turn(game, "Berserk Charge", "Plunder")
    events = game.apply(Input.roll(1, 2, 3, 4, 5))
    assert "The Boss activates Reckless." in [str(e.text) for e in events]
    assert game.prompt().number_range == (0, 15)  # the player's defensive roll
    game.apply(Input.enter(0))
    game.apply(Input.enter(0))  # no counter damage
    assert game.player.health == 35
    assert game.boss.health == 76


def test_kings_hand_buys_a_new_roll_phase_after_three_misses():
    """6. King's Hand: none of his abilities after his 3 rolls: he spends one to retry
    the same Roll Objective."""
    game = new_game()
    game.levels = {}
    boss_turn(game, "Unbridled Rage", "Plunder")  # 5 pow
    for _ in range(3):
        events = game.apply(Input.roll(1, 2, 4, 5, 6))
    assert game.boss.count("kings-hand") == 1
    assert EventKind.OBJECTIVE_MISSED in [e.kind for e in events]
    assert game.attempt == 0 and game.prompt().kind is PromptKind.ROLL
    assert game.prompt().keep == ()


def test_kings_hand_against_the_players_ultimate():
    """6. King's Hand: against an Ultimate he spends all he has, 1 die each; a 4-6
    forces the player to re-roll 1 die. The Ultimate cannot be avoided (reference 1.8)."""
    game = new_game()
    to_menu(game)
    game.boss.add("evasive", 2)
    game.apply(Input.choose("ultimate"))
    assert game.prompt().dice.count == 2 and game.boss.count("kings-hand") == 0
    game.apply(Input.roll(4, 1))
    assert "Re-roll 1 of your dice" in str(game.prompt().text)
    game.apply(Input.choose("yes"))
    game.apply(Input.enter(20))
    assert game.boss.health == 60 and game.boss.count("evasive") == 2


def test_a_broken_ultimate_deals_nothing():
    game = new_game()
    to_menu(game)
    game.apply(Input.choose("ultimate"))
    game.apply(Input.roll(6, 5))
    game.apply(Input.choose("no"))
    assert game.boss.health == 80 and game.queue[0][0] == "menu"


def test_boss_defends_every_defendable_attack():
    """4. Boss defense phase: for any defendable attack he uses his defensive ability,
    rolled in the tray (Thick Skin: 3 dice, heal 2 per Heart)."""
    game = new_game()
    game.levels = {}
    to_menu(game)
    game.boss.health = 70
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(6))
    assert game.prompt().dice.count == 3
    game.apply(Input.roll(4, 5, 1))
    assert game.boss.health == 70 - 6 + 4


def test_bonus_damage_tokens_add_to_an_attack():
    """6. Bonus Damage: an attack modifier at the end of the Offensive Roll phase."""
    game = new_game()
    to_menu(game)
    game.bonus_damage = 2
    game.apply(Input.choose("undefendable"))
    game.apply(Input.enter(5))
    game.apply(Input.enter(2))
    assert game.boss.health == 73 and game.bonus_damage == 0


def test_the_game_ends_at_zero_health_and_saves_the_result():
    """5. Endgame: at 0 Health the game ends; the result and the turn count are saved."""
    game = new_game()
    to_menu(game)
    game.apply(Input.choose("undefendable"))
    events = game.apply(Input.enter(80))
    assert game.prompt().kind is PromptKind.OVER
    assert EventKind.GAME_OVER in [e.kind for e in events]
    result = game.result()
    assert result["winner"] == "player" and result["turns"] == 1 and result["score"] == 50
    with pytest.raises(InvalidInput):
        game.apply(Input.confirm())


def test_the_boss_can_win():
    game = new_game()
    game.levels = {}
    game.player.health = 4
    boss_turn(game, "Sturdy Stance", "Plunder")
    game.apply(Input.roll(1, 2, 6, 6, 4))
    confirm_all(game)
    assert game.result()["winner"] == "boss" and "score" not in game.result()


def test_same_seed_same_game():
    """rules/core.py: a game replays exactly from its seed and inputs."""
    a, b = new_game(seed=7), new_game(seed=7)
    assert a.view() == b.view() and a.ai_pile == b.ai_pile and a.levels == b.levels
    assert new_game(seed=8).ai_pile != a.ai_pile or new_game(seed=8).levels != a.levels


def test_boss_and_difficulty_may_come_from_options():
    """`dicetable play dicethrone-solo --option boss=moon_elf --option difficulty=hard`
    skips those two setup questions (2.2.1, 2.2.2); the rest of the setup is the same."""
    game = DiceThroneSolo(4, {"boss": "moon_elf", "difficulty": "hard"})
    assert game.boss_id == "moon_elf" and game.d == 2
    assert game.prompt().kind is PromptKind.CONFIRM
    asked = DiceThroneSolo(4, {"difficulty": "easy"})
    assert asked.prompt().kind is PromptKind.CHOOSE
    asked.apply(Input.choose("pyromancer"))
    assert asked.difficulty == "easy" and asked.d == 0
    same = new_game("moon_elf", "hard", seed=4)
    assert same.levels == game.levels and same.ai_pile == game.ai_pile


def test_dice_from_a_taught_profile_are_read_by_their_number():
    """The camera may name a face by its symbol; the number decides (straights need it)."""
    from dicetable.rules.core import Die, InputKind

    game = new_game()
    game.levels = {}
    boss_turn(game, "Blood Frenzy", "Plunder")  # small straight
    assert game.prompt().dice.profile == "dicethrone-barbarian"
    faces = ("sword", "sword", "sword", "heart", "heart", "pow")
    dice = tuple(Die(v, faces[v - 1]) for v in (1, 2, 3, 4, 4))
    events = game.apply(Input(InputKind.DICE, dice=dice))
    assert "The Boss activates Mighty Blow." in [str(e.text) for e in events]
    other = new_game()
    boss_turn(other, "Blood Frenzy", "Plunder")
    no_number = (Die(None, "sword"), *dice[1:])
    with pytest.raises(InvalidInput, match="not a d6 value"):
        other.apply(Input(InputKind.DICE, dice=no_number))
