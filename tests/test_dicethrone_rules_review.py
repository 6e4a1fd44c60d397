"""Rules review of the solo Boss against the fan solo mode v3.2 rulebook, as a player at
the table would judge it. Each test names the section of
shared/seeds/dice-throne-fan-solo-mode-v3.2.txt it checks and failed before its fix."""

from __future__ import annotations

from dicetable.rules.core import Input, PromptKind
from tests.test_dicethrone_solo import boss_turn, new_game, stack, to_menu


def test_knockdown_without_the_cp_the_discarded_card_tops_up_and_he_pays():
    """4. "Special situations": without the funds to discard Knockdown (2 CP) "he draws
    a new card and immediately discards it to gain 1 and immediately uses it to remove
    the Token": with 1 CP he reaches 2 and pays them, so he keeps nothing."""
    game = new_game()
    to_menu(game)
    game.boss.add("knockdown")
    game.boss.cp = 0  # +1 income: 1 CP when Knockdown is checked
    boss_turn(game, "Brute Force", "Heavy Swing")
    assert game.boss.count("knockdown") == 0
    assert game.boss.cp == 0


def test_knockdown_with_no_cp_at_all_still_goes_and_cp_stays_at_zero():
    """4. "Special situations": the CP gained from the discarded card is used at once."""
    game = new_game()
    to_menu(game)
    game.boss.add("knockdown")
    game.boss.cp = 0
    game.boss.add("concussion")  # no income: 0 CP when Knockdown is checked
    boss_turn(game, "Brute Force", "Heavy Swing")
    assert game.boss.count("knockdown") == 0 and game.boss.cp == 0


def test_bonus_damage_may_be_added_to_an_ultimate():
    """6. Bonus Damage: "To be used as an attack modifier at the end of the Offensive
    Roll phase": an Ultimate is an Offensive Roll ability like any other, so the player
    may add Bonus Damage to it (it stays undefendable and unavoidable)."""
    game = new_game()
    to_menu(game)
    game.boss.remove("kings-hand", 2)
    game.boss.add("evasive")
    game.bonus_damage = 2
    game.apply(Input.choose("ultimate"))
    game.apply(Input.enter(10))
    assert game.prompt().kind is PromptKind.NUMBER and game.prompt().number_range == (0, 2)
    game.apply(Input.enter(2))
    assert game.boss.health == 80 - 12 and game.bonus_damage == 0
    assert game.boss.count("evasive") == 1


def test_the_reroll_prompt_names_the_dice_to_keep_by_their_faces():
    """4. Offensive Rolling Phase: "roll only the dice that do not match the Rolling
    Objective": the one-line prompt says which faces stay in the tray and how many dice
    to roll again, so nobody has to count positions."""
    game = new_game()
    boss_turn(game, "Sturdy Stance", "Heavy Swing")  # 2 sword + 2 pow
    game.apply(Input.roll(1, 2, 3, 6, 4))
    text = str(game.prompt().text)
    assert "keep 1 2 6" in text and "re-roll 2 dice" in text


def test_a_card_of_the_player_may_take_the_boss_cp():
    """4. Step 2: "Play a classic Dice Throne turn": a player's card or ability may take
    the opponent's CP (Shadow Thief's Pickpocket and Steal), so the report has a way to
    say the Boss lost CP."""
    game = new_game()
    to_menu(game)
    assert "boss_cp" in [o.id for o in game.prompt().options]
    game.apply(Input.choose("boss_cp"))
    assert game.prompt().number_range == (0, 2)
    game.apply(Input.enter(2))
    assert game.boss.cp == 0 and game.queue[0][0] == "menu"
    assert "boss_cp" not in [o.id for o in game.prompt().options]  # nothing left to take


def test_a_players_card_may_remove_a_boss_token_but_never_kings_hand():
    """6. King's Hand: "This ability cannot be Removed or Transferred by card effects";
    other tokens of the Boss (Evasive...) may be removed by the player's cards."""
    game = new_game()
    to_menu(game)
    assert "boss_token" not in [o.id for o in game.prompt().options]  # only King's Hand
    game.boss.add("evasive", 2)
    game.apply(Input.choose("boss_token"))
    assert [o.id for o in game.prompt().options] == ["evasive", "none"]
    game.apply(Input.choose("evasive"))
    assert game.boss.count("evasive") == 1 and game.boss.count("kings-hand") == 2


def test_a_word_typed_at_a_number_prompt_is_refused_not_a_crash(capsys, monkeypatch):
    """Played at the terminal (brief: "wrong answers"): "ok" typed where the damage of
    the player's attack is asked is refused with a message and the game goes on."""
    import io

    from dicetable.device.cli import main

    answers = "barbarian\nnormal\n" + "ok\n" * 8 + "attack\nok\n6\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "dicethrone-solo", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "'ok' is not a whole number." in out
    assert "Roll 3 dice for the Boss's defence" in out


def test_an_orange_card_is_not_paid_when_it_would_change_nothing():
    """4. Main phase / "Using an Orange card": the Boss resolves "(or not)" the orange
    card at the end of his roll; like a blue card he cannot apply, he does not pay for
    +2 damage when the ability he activates deals none (Fortitude only heals)."""
    game = new_game()
    boss_turn(game, "Brute Force", "Heavy Swing")  # 4 sword; orange: +2 damage, 1 CP
    cp = game.boss.cp
    for _ in range(3):
        game.apply(Input.roll(4, 4, 5, 1, 6))  # 3 Heart: Fortitude, nothing else
    assert game.boss.cp == cp and not game.action_used


def test_an_orange_card_still_adds_damage_to_a_damaging_ability():
    """4. "Using an Orange card": with an ability that deals damage he pays and adds it."""
    game = new_game()
    game.levels = {}
    boss_turn(game, "Brute Force", "Heavy Swing")
    cp = game.boss.cp
    game.apply(Input.roll(1, 1, 2, 2, 4))  # 4 sword: Smack, 6 damage
    assert game.boss.cp == cp - 1 and game.prompt().number_range == (0, 8)


def test_a_kings_hand_phase_after_entangle_has_three_roll_attempts():
    """6. King's Hand: "he consumes that ability to attempt a new Offensive Roll phase";
    Entangle took one Roll Attempt from the phase it was spent on, not from the new one
    (4. Offensive Rolling Phase: up to 3 rolls)."""
    game = new_game()
    game.levels = {}
    to_menu(game)
    game.boss.add("entangle")
    boss_turn(game, "Unbridled Rage", "Plunder")  # 5 pow
    assert game.attempts == 2
    for _ in range(2):
        game.apply(Input.roll(1, 2, 4, 5, 6))
    assert game.boss.count("kings-hand") == 1
    assert game.attempts == 3 and "attempt 1 of 3" in str(game.prompt().text)


def test_no_reinforcement_message_when_the_token_is_at_its_limit():
    """4. Income phase A: the Boss gains the reinforcement "(if there is one)"; at the
    stack limit he gains nothing, and the table is not told "gains 0"."""
    game = new_game(boss="moon_elf")
    to_menu(game)
    game.boss.add("evasive", 3)
    events = boss_turn(game, "Light Feet", "Elven Remedy")
    assert not [e for e in events if e.kind == "reinforcement"]
    assert game.boss.count("evasive") == 3


def test_a_defence_roll_at_full_health_does_not_announce_healing_zero():
    """4. Boss defense phase (Thick Skin heals 2 per Heart): at 80 Health the heal does
    nothing, and the table reads the damage, not "The Boss heals 0"."""
    game = new_game()
    game.levels = {}
    to_menu(game)
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(6))
    events = game.apply(Input.roll(4, 5, 1))
    assert [str(e.text) for e in events if e.kind == "heal"] == []
    assert game.boss.health == 74


def test_the_odds_command_names_the_faces_to_keep(capsys):
    """Issue 4 item 3 ("which dice to keep now"): positions alone ("keep dice: 3") read
    like a face; the line names the positions and the faces they show."""
    from dicetable.device.cli import main

    args = ["odds", "2 sword + 2 pow", "--hero", "barbarian", "--dice", "1", "2", "6", "4", "5"]
    assert main([*args, "--rolls", "2"]) == 0
    assert "keep 6; re-roll the other 4" in capsys.readouterr().out  # by value (issue 15)


def test_smack_ii_with_four_of_a_kind_is_undefendable():
    """4. Offensive Rolling Phase, "he activates it": Smack II (2 CP upgrade, reference
    1.2) makes the attack undefendable on 4 of a kind (numbers). The engine holds the
    roll, so it applies it instead of leaving the player an instruction."""
    game = new_game()
    game.levels = {"smack": 2}
    boss_turn(game, "Brute Force", "Plunder")  # 4 sword
    events = game.apply(Input.roll(2, 2, 2, 2, 4))  # 4 sword, 4 of a kind: 7 damage
    assert "4 of a kind shown: the attack is undefendable." in [str(e.text) for e in events]
    assert game.player.health == 50 - 7
    assert game.prompt().kind is not PromptKind.NUMBER  # no defence asked


def test_smack_ii_without_four_of_a_kind_is_defended():
    """Smack II: 4 Sword of mixed numbers is an ordinary, defendable attack."""
    game = new_game()
    game.levels = {"smack": 2}
    boss_turn(game, "Brute Force", "Plunder")
    game.apply(Input.roll(1, 1, 2, 3, 5))  # no straight: Smack II is the strongest
    assert game.prompt().number_range == (0, 7)


def test_fortitude_ii_with_three_of_a_kind_removes_his_worst_status():
    """Fortitude II (reference 1.2): on 3 of a kind the Barbarian "may remove 1 of his
    status effects": the Boss's tokens are the engine's, so it removes one (the one
    costing him most: Poison before Targeted), rather than tell the player to."""
    game = new_game()
    game.levels = {"fortitude": 2}
    to_menu(game)
    game.boss.health = 60
    game.boss.add("targeted")
    game.boss.add("poison")
    boss_turn(game, "Brute Force", "Plunder")  # Poison deals 1 at his Maintenance
    for _ in range(3):
        events = game.apply(Input.roll(4, 4, 4, 1, 6))  # 3 Heart, 3 of a kind
    texts = [str(e.text) for e in events]
    assert "3 of a kind shown: the Boss removes Poison." in texts
    assert game.boss.count("poison") == 0 and game.boss.count("targeted") == 1
    assert game.boss.health == 60 - 1 + 5
    assert not [t for t in texts if "may remove" in t]


def test_condition_labels_have_spanish():
    """Brief: Spanish for every message the package shows (the labels of the extra
    conditions are shown in events)."""
    import tomllib
    from importlib import resources

    from dicetable.rules.dicethrone.heroes import hero_ids, load_hero

    spanish = tomllib.loads(
        resources.files("dicetable.rules.dicethrone").joinpath("i18n", "es.toml").read_text()
    )
    labels = {
        c.label
        for h in hero_ids()
        for a in load_hero(h).abilities
        for t in a.tiers
        for c in (t.undefendable_if, t.remove_status_if)
        if c is not None
    }
    assert labels == {"3 of a kind", "4 of a kind"} and labels <= set(spanish)


def test_back_strike_reveals_the_card_before_its_value_is_taken_or_refused():
    """6. Back-Strike: "Reveal the previously drawn face-down card", then "Either you
    inflict as much damage as its value" "Either you refuse this value and roll 1 die":
    the prompt says to reveal first, and refusing is the die."""
    game = new_game()
    game.levels = {}
    boss_turn(game, "Sturdy Stance", "Intimidate")  # bonus Back Strike
    game.apply(Input.roll(1, 2, 6, 6, 4))  # Sturdy Blow: 4 undefendable
    while game.prompt().kind is PromptKind.CONFIRM:
        game.apply(Input.confirm())
    prompt = game.prompt()
    assert str(prompt.text).startswith("Back Strike: reveal your face-down card")
    labels = {o.id: str(o.label) for o in prompt.options}
    assert labels["roll"].startswith("Refuse it: roll 1 die")


def test_steal_with_a_shadow_takes_the_cp_from_the_player():
    """Steal (reference 1.5, "steal the CP from the opponent instead" with a Shadow): the
    engine keeps the player's CP, so it moves them instead of telling the player to."""
    game = new_game(boss="shadow_thief")
    boss_turn(game, "Loot", "Pocket Change")  # 2 bag
    boss_cp, player_cp = game.boss.cp, game.player.cp
    events = game.apply(Input.roll(3, 4, 6, 1, 1))  # 2 bag and a Shadow: Steal, 2 CP
    assert "The Boss steals 2 CP from you." in [str(e.text) for e in events]
    income = 1  # Steal deals no damage: the player's next turn starts (4.: +1 CP)
    assert (game.boss.cp, game.player.cp) == (boss_cp + 2, player_cp - 2 + income)


def test_steal_without_a_shadow_gains_the_cp():
    game = new_game(boss="shadow_thief")
    boss_turn(game, "Loot", "Pocket Change")
    boss_cp, player_cp = game.boss.cp, game.player.cp
    game.apply(Input.roll(3, 4, 5, 1, 1))
    assert (game.boss.cp, game.player.cp) == (boss_cp + 2, player_cp + 1)  # + income


def test_fearless_riposte_poisons_only_on_a_dagger_with_a_shadow():
    """4. Boss defense phase, Fearless Riposte (reference 1.5): "Dagger + Shadow inflicts
    Poison"; the player's Poison is the engine's (it hurts in their Upkeep), so it is
    placed by the engine, and only when the defence roll shows both."""
    game = new_game(boss="shadow_thief")
    to_menu(game)
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(5))
    game.apply(Input.roll(3, 3, 4, 5, 5))  # no Dagger
    assert game.player.count("poison") == 0 and game.prompt().kind is PromptKind.CHOOSE
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(5))
    game.apply(Input.roll(1, 6, 3, 3, 5))  # a Dagger and a Shadow
    assert game.player.count("poison") == 1


def test_exploding_arrow_takes_a_cp_per_moon_of_its_roll():
    """Exploding Arrow (reference 1.3): "opponent loses 1 CP × Moon" of its 5-dice roll;
    the engine keeps the player's CP, so it takes them."""
    game = new_game(boss="moon_elf")
    boss_turn(game, "Starfall", "Quiver Refill")  # 1 bow + 3 moon
    player_cp = game.player.cp
    game.apply(Input.roll(1, 6, 6, 6, 4))
    events = game.apply(Input.roll(6, 6, 1, 4, 5))  # the arrow's roll: 2 Moon
    assert "You lose 2 CP." in [str(e.text) for e in events]
    assert game.player.cp == player_cp - 2


def test_thick_skin_ii_text_only_with_two_hearts():
    """Thick Skin II: "with 2 Heart, prevent 1 status effect": told only when shown."""
    game = new_game()
    game.levels = {"thick-skin": 2}
    to_menu(game)
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(5))
    game.apply(Input.roll(1, 2, 3, 6))
    assert game.prompt().kind is PromptKind.CHOOSE
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(5))
    game.apply(Input.roll(4, 5, 3, 6))
    assert "With 2 Heart" in str(game.prompt().text)


def test_an_ability_roll_of_one_die_says_die_and_its_effect():
    """The one-line prompt (brief): Pyroblast's extra die scores damage, Burn, Fire
    Mastery or Knockdown (reference 1.4), so it is "roll 1 die for its effect"."""
    game = new_game(boss="pyromancer")
    game.levels = {}
    boss_turn(game, "Skyfall", "Stoke the Flames")  # 4 meteor
    for _ in range(3):
        game.apply(Input.roll(6, 6, 1, 1, 1))  # 3 Fire + 1 Meteor: Pyroblast
    assert str(game.prompt().text) == "Pyroblast: roll 1 die for its effect."


def test_action_cards_may_be_typed_in_with_d():
    """2.2.2: the difficulty gives the "D" value "on AI Boss cards and Action cards in
    the app": an Action card's numbers and the player's bonus amount take "D"/"D+n"."""
    from dataclasses import replace

    from dicetable.rules.dicethrone.decks import parse_decks

    deck = {
        "boss": "barbarian",
        "ai": [{"name": "Mine", "objective": "3 sword"}],
        "action": [
            {
                "name": "Second Wind",
                "colour": "blue",
                "cost": 0,
                "bonus": {"kind": "cp", "amount": "D"},
                "effect": {"heal": "D+2"},
            }
        ],
    }
    decks = parse_decks(deck, "mine.toml")
    assert decks.action[0].describe(2).endswith("heal 4. Your bonus: cp 2.")
    game = new_game(difficulty="hard")
    game.decks = replace(game.decks, action=decks.action)
    game.action_pile = [0]
    to_menu(game)
    stack(game, ai="Brute Force")  # no reinforcement
    game.boss.health = 70
    player_cp = game.player.cp
    game.apply(Input.choose("end"))
    assert game.boss.health == 74 and game.player.cp == player_cp + 2


def test_the_pyromancer_upgrade_deck_is_complete_with_its_published_costs():
    """2.2.1: "Take all the Boss Upgrade cards, shuffle them and form a deck": the
    Pyromancer's ten upgrade cards with their leaflet costs (powhell/DiceThrone-Simulator
    characters/py/hero.json), not four cards at an assumed 2 CP."""
    from dicetable.rules.dicethrone.heroes import load_hero

    costs = {(u.ability, u.level): u.cost for u in load_hero("pyromancer").upgrades}
    assert costs == {
        ("fireball", 2): 1,
        ("burning-soul", 2): 1,
        ("hot-streak", 2): 2,
        ("meteorite", 2): 2,
        ("pyroblast", 2): 2,
        ("pyroblast", 3): 3,
        ("combustion", 2): 2,
        ("ignite", 2): 2,
        ("molten-armor", 2): 1,
        ("molten-armor", 3): 3,
    }


def test_molten_armor_ii_burns_on_a_fire_and_a_magma():
    """4. Boss defense phase with Molten Armor II: "On Flame AND Blaze, inflict Burn"."""
    game = new_game(boss="pyromancer")
    game.levels = {"molten-armor": 2}
    to_menu(game)
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(5))
    game.apply(Input.roll(1, 4, 5, 5, 6))  # a Fire and a Magma
    assert game.player.count("burn") == 1


def test_the_moon_elf_upgrade_deck_has_its_published_cards_and_costs():
    """2.2.1: "Take all the Boss Upgrade cards": the Moon Elf's upgrades modelled from
    zhuanggenhua/BoardGame moon_elf/cards.ts with its costs (Longbow III is 3 CP)."""
    from dicetable.rules.dicethrone.heroes import load_hero

    costs = {(u.ability, u.level): u.cost for u in load_hero("moon_elf").upgrades}
    assert costs == {
        ("longbow", 2): 2,
        ("longbow", 3): 3,
        ("covert-fire", 2): 2,
        ("entangling-shot", 2): 2,
        ("covering-fire", 2): 2,
        ("eclipse", 2): 2,
        ("blinding-shot", 2): 2,
    }


def test_the_shadow_thief_upgrade_deck_has_its_published_cards_and_costs():
    """2.2.1: "Take all the Boss Upgrade cards": the Shadow Thief's upgrades modelled from
    zhuanggenhua/BoardGame shadow_thief/cards.ts with its costs (Fearless Riposte II 4)."""
    from dicetable.rules.dicethrone.heroes import load_hero

    costs = {(u.ability, u.level): u.cost for u in load_hero("shadow_thief").upgrades}
    assert costs == {
        ("pickpocket", 2): 2,
        ("kidney-shot", 2): 2,
        ("shadow-defense", 2): 2,
        ("fearless-riposte", 2): 4,
    }


def test_fearless_riposte_ii_deals_two_per_dagger():
    """4. Boss defense phase with Fearless Riposte II (reference 1.5: "II: 2×Daggers")."""
    game = new_game(boss="shadow_thief")
    game.levels = {"fearless-riposte": 2}
    to_menu(game)
    game.apply(Input.choose("attack"))
    game.apply(Input.enter(5))
    game.apply(Input.roll(1, 2, 3, 3, 5))  # 2 Dagger, no Shadow
    assert game.player.health == 50 - 4 and game.player.count("poison") == 0


def test_targeted_on_the_player_adds_two_to_the_boss_attack():
    """4. Income phase A: a negative token of the reinforcement goes to the player, and
    it acts there: the engine keeps the player's Targeted, so the Boss's next attack
    deals 2 more (the reading used for the Boss's own Targeted), and it is spent."""
    game = new_game()
    game.levels = {}
    to_menu(game)
    game.player.add("targeted")
    boss_turn(game, "Brute Force", "Plunder")  # 4 sword
    events = game.apply(Input.roll(1, 1, 2, 3, 5))  # Smack: 6 damage
    assert "You are Targeted: +2 damage." in [str(e.text) for e in events]
    assert game.prompt().number_range == (0, 8) and game.player.count("targeted") == 0
