"""Every Season 1 and Season 2 hero as a solo Boss (issue 16, item 1): each plays a
whole seeded game to a win and to a loss, picks the ability "furthest to the right of
his board, and then the one furthest down" (fan solo mode v3.2, 4.), and is known to
`dicetable odds` and to the teach flow's dice sets."""

from __future__ import annotations

import random

import pytest

from dicetable.device.cli import main
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import Actor, Input, PromptKind
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.dice_sets import boss_dice
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.odds import chance
from dicetable.rules.dicethrone.solo import BOSSES, DiceThroneSolo

MAX_STEPS = 4000
PLAYER_HIT = 12  # the damage the player reports for each of his attacks in a won game
SEASONS_1_AND_2 = ("monk", "paladin", "treant", "ninja", "gunslinger", "samurai")  # issue 16
# Season 2 heroes whose damage and defence are not public: the table reads them off the
# physical board (hero files' headers; rules/dicethrone/table_asked.py)
ASKED = ("huntress", "artificer", "vampire_lord", "tactician", "cursed_pirate", "seraph")
# the table's typed answers for them: what their printed board says, scripted
TABLE_DAMAGE = 6  # an ability's damage
TABLE_PREVENTS = 2  # the Boss's defence: damage prevented...
TABLE_COUNTER = 1  # ...and dealt back


def play(boss: str, seed: int, player_attacks: bool) -> tuple[DiceThroneSolo, list]:
    """A whole game from a seed: seeded dice for every roll the app asks for, the
    player reporting one attack a turn and a defence preventing all it can (or no
    attack and no defence), no Salves."""
    rng = random.Random(seed)
    game = DiceThroneSolo(seed, {"boss": boss, "difficulty": "normal"})
    events: list = []
    attacked = False
    for _ in range(MAX_STEPS):
        prompt = game.prompt()
        if prompt.kind is PromptKind.OVER:
            break
        if prompt.kind is PromptKind.CHOOSE:
            ids = [o.id for o in prompt.options]
            if "end" in ids:
                answer = Input.choose("attack" if player_attacks and not attacked else "end")
                attacked = player_attacks and not attacked
            else:
                answer = Input.choose(ids[-1] if "none" in ids else ids[0])
        elif prompt.kind is PromptKind.CONFIRM:
            answer = Input.confirm()
        elif prompt.kind is PromptKind.NUMBER:
            text = str(prompt.text)
            low, high = prompt.number_range
            if prompt.actor is Actor.TABLE:  # read off the Boss's board (ASKED)
                answer = Input.enter(table_answer(text, high))
            elif "your attack deal" in text:
                answer = Input.enter(PLAYER_HIT)
            elif "prevent" in text and player_attacks:  # the winner's defence holds
                answer = Input.enter(high)
            else:
                answer = Input.enter(low)
        else:
            values = [rng.randint(1, 6) for _ in range(prompt.dice.count)]
            for index in prompt.keep:
                values[index] = game.dice[index]
            answer = Input.roll(*values)
        events += game.apply(answer)
    assert game.prompt().kind is PromptKind.OVER, f"{boss}: the game did not end"
    return game, events


def table_answer(text: str, most: int) -> int:
    """What the table types, reading the Boss's physical board."""
    if "prevent" in text:
        return min(TABLE_PREVENTS, most)
    if "deal to you" in text:
        return TABLE_COUNTER
    assert "printed on the hero board" in text, text
    return TABLE_DAMAGE


def test_every_season_1_and_2_hero_is_a_boss():
    """Fan solo mode v3.2, Overview: "defeat the different characters of Dice Throne
    Season 1 and 2": all eight of Season 1 and all eight of Season 2 (hero files'
    headers name the sources, and what is asked at the table)."""
    season_1 = {"barbarian", "moon_elf", "pyromancer", "shadow_thief"} | set(SEASONS_1_AND_2[:4])
    season_2 = set(SEASONS_1_AND_2[4:]) | set(ASKED)
    assert season_1 | season_2 <= set(BOSSES)
    assert {load_hero(b).edition.removesuffix(" Rerolled") for b in season_1} == {"Season 1"}
    assert {load_hero(b).edition for b in season_2} == {"Season 2"}


def activated(events: list) -> set[str]:
    return {e.data["ability"] for e in events if e.kind == "ability"}


@pytest.mark.parametrize("boss", BOSSES)
def test_the_boss_loses_a_whole_seeded_game(boss):
    """5. Endgame: the player brings the Boss to 0 Health; the Boss defends with his own
    defensive ability (4. Boss defense phase) and attacks with his own board."""
    game, events = play(boss, seed=16, player_attacks=True)
    assert game.result()["winner"] == "player"
    defence = load_hero(boss).defense(game.levels).name
    assert any(defence in str(e.text) for e in events), f"{boss} never defended"
    assert activated(events) <= {a.id for a in load_hero(boss).abilities}


@pytest.mark.parametrize("boss", BOSSES)
def test_the_boss_wins_a_whole_seeded_game(boss):
    """5. Endgame: the Boss brings the player to 0 Health with his board's abilities."""
    game, events = play(boss, seed=61, player_attacks=False)
    assert game.result()["winner"] == "boss"
    assert len(activated(events)) >= 2, activated(events)


@pytest.mark.parametrize("boss", BOSSES)
def test_the_boss_is_a_choice_with_dice_odds_and_known_tokens(boss, capsys):
    """Setup 2.2.1 offers him; `dicetable odds --hero` and the teach flow know his dice."""
    hero = load_hero(boss)
    assert boss in BOSSES
    dice = {s.profile: s for s in boss_dice()}[f"dicethrone-{boss}"]
    assert [(f.value, f.name) for f in dice.faces] == sorted(hero.faces.items())
    objective = next(a for a in hero.board() if a.kind == "offensive").tiers[0].objective
    assert main(["odds", objective.label, "--hero", boss, "--rolls", "3"]) == 0
    assert objective.label in capsys.readouterr().out
    known = tokens()
    for ability in hero.abilities:
        for tier in ability.tiers:
            effects = (*tier.per, *tier.roll_per)
            used = {*tier.inflict, *tier.gain, *(e.gain or e.inflict for e in effects)}
            assert {t for t in used if t} <= set(known), (boss, ability.name)
    assert {u.ability for u in hero.upgrades} <= {a.id for a in hero.abilities}


# (hero, dice, levels) -> the ability the Boss activates, by "furthest right, then
# furthest down" over the board positions in each hero file
STRONGEST = [
    ("monk", [6, 6, 6, 6, 6], {}, "Transcendence!"),
    ("monk", [1, 2, 3, 4, 5], {}, "Calm Water"),  # large straight and small straight
    ("monk", [1, 1, 1, 3, 6], {}, "Taiji Combo"),  # and Fist Technique (3 Fist)
    ("monk", [3, 3, 3, 6, 6], {}, "Thunder Strike"),
    ("monk", [6, 6, 6, 6, 1], {}, "Lotus Palm"),
    ("monk", [2, 3, 4, 6, 1], {"calm-water": 2}, "Calm Water II"),  # Way of the Monk
    ("paladin", [6, 6, 6, 6, 6], {}, "Unyielding Faith"),
    ("paladin", [1, 2, 3, 4, 5], {}, "Holy Strike"),  # top row, 3rd column
    ("paladin", [5, 5, 6, 6, 6], {}, "Holy Light"),  # 3rd column, below Holy Strike
    ("paladin", [1, 1, 1, 3, 6], {}, "Blessing of Might"),
    ("paladin", [6, 6, 6, 6, 1], {}, "Righteous Prayer"),
    ("paladin", [3, 3, 4, 6, 1], {}, "Vengeance"),
    # a large straight is a small straight too: column 3 holds both, the lower wins
    ("treant", [2, 3, 4, 5, 6], {}, "Call of the Wild"),
    ("treant", [6, 6, 6, 6, 1], {}, "Nature's Grasp"),
    ("treant", [1, 1, 4, 4, 4], {}, "Overgrowth"),
    ("gunslinger", [1, 2, 3, 4, 5], {}, "Fan the Hammer"),  # below Showdown, column 3
    ("gunslinger", [1, 1, 6, 6, 6], {}, "Bounty Hunter"),
    ("gunslinger", [1, 1, 4, 5, 4], {}, "Take Cover"),
    ("samurai", [1, 2, 3, 4, 5], {}, "Masamune"),
    ("samurai", [1, 1, 6, 6, 4], {}, "Wakizashi"),
    ("samurai", [6, 6, 6, 6, 1], {}, "Hagakure"),
    ("ninja", [1, 2, 3, 4, 5], {}, "Shadow Fang"),
    ("ninja", [1, 1, 1, 4, 5], {}, "Death Blossom"),  # below Slash
    ("ninja", [1, 4, 5, 6, 2], {}, "Smoke Screen"),
    ("ninja", [4, 4, 5, 5, 1], {}, "Walk the Line"),
    # the Season 2 boards of noHero123's odds_calc.py slots (hero files' headers)
    ("huntress", [6, 6, 6, 6, 6], {}, "Jungle Fury!"),
    ("huntress", [2, 3, 4, 5, 6], {}, "Onslaught"),  # large straight, column 3
    ("huntress", [1, 2, 3, 4, 5], {}, "Predatory Advance"),  # below Onslaught
    ("huntress", [1, 1, 3, 3, 5], {}, "Predatory Advance"),
    ("huntress", [1, 1, 1, 5, 6], {}, "Feral Instincts"),  # below Savage, right of Animalistic
    ("huntress", [3, 3, 3, 6, 6], {}, "Savage"),
    ("artificer", [2, 3, 4, 5, 6], {}, "ZAPPPP!"),  # large straight: the lower of column 3
    ("artificer", [4, 4, 5, 6, 6], {}, "Schematics"),
    ("artificer", [6, 6, 6, 6, 1], {}, "Overclock"),
    ("vampire_lord", [1, 1, 1, 6, 6], {}, "Rend"),
    ("vampire_lord", [4, 4, 5, 6, 1], {}, "Glamour"),  # right of Sanguimancy
    ("vampire_lord", [4, 4, 5, 6, 6], {}, "Glamour"),
    ("vampire_lord", [1, 2, 3, 4, 6], {}, "Possess"),
    ("tactician", [1, 1, 1, 6, 6], {}, "Strategic Approach"),  # and Carpet Bomb, above it
    ("tactician", [1, 4, 4, 5, 2], {}, "Profiteer"),
    ("tactician", [6, 6, 6, 6, 2], {}, "Maneuver"),
    ("cursed_pirate", [1, 2, 3, 4, 5], {}, "Light the Fuse"),
    ("cursed_pirate", [1, 6, 6, 6, 4], {}, "Shiver Me Timbers"),
    ("cursed_pirate", [1, 4, 5, 6, 2], {}, "Walk the Plank"),
    ("seraph", [1, 4, 5, 6, 2], {}, "Holy Smite"),
    ("seraph", [5, 5, 6, 1, 2], {}, "Purify"),
    ("seraph", [6, 6, 6, 6, 6], {}, "Split the Heavens!"),
]


@pytest.mark.parametrize(("hero", "dice", "levels", "name"), STRONGEST)
def test_the_strongest_met_ability_follows_the_board(hero, dice, levels, name):
    assert load_hero(hero).met_abilities(dice, levels)[0][0].name == name


def until(game: DiceThroneSolo | TableSession, rng: random.Random, wanted, events: list) -> None:
    """Play on (seeded dice, the player attacking for PLAYER_HIT once a turn, every
    other question at its lowest) until ``wanted(prompt)``; a game, or a table session
    (each answer kept before it is shown)."""
    submit = game.submit if isinstance(game, TableSession) else game.apply
    attacked = False
    for _ in range(MAX_STEPS):
        prompt = game.prompt()
        assert prompt.kind is not PromptKind.OVER, "the game ended first"
        if wanted(prompt):
            return
        if prompt.kind is PromptKind.CHOOSE:
            ids = [o.id for o in prompt.options]
            answer = Input.choose(("attack" if not attacked else "end") if "end" in ids else ids[0])
            attacked = "end" in ids and not attacked
        elif prompt.kind is PromptKind.CONFIRM:
            answer = Input.confirm()
        elif prompt.kind is PromptKind.NUMBER:
            text = str(prompt.text)
            attack = "your attack deal" in text
            answer = Input.enter(PLAYER_HIT if attack else prompt.number_range[0])
        else:
            values = [rng.randint(1, 6) for _ in range(prompt.dice.count)]
            kept = game.view()["dice"]
            for index in prompt.keep:
                values[index] = kept[index]
            answer = Input.roll(*values)
        events += submit(answer)
    raise AssertionError("never asked")


@pytest.mark.parametrize("boss", ASKED)
def test_the_table_types_what_is_not_public(boss):
    """Issue 16: "Where a fact is not public, say so in the file and ask it at the
    table". The ability the Boss activates (4. furthest right, then furthest down) is
    named with its Roll Objective and its printed damage asked; the typed damage goes
    to the player's defence; the table then carries out the rest of the card. His
    defence asks the damage it prevents, which the Boss is spared."""
    hero = load_hero(boss)
    rng, events = random.Random(5), []
    game = DiceThroneSolo(5, {"boss": boss, "difficulty": "normal"})
    until(game, rng, lambda p: "printed on the hero board" in str(p.text), events)
    prompt = game.prompt()
    ability = next(e for e in reversed(events) if e.kind == "ability").data["ability"]
    name = hero.ability(ability, game.levels.get(ability, 1)).name
    assert name in str(prompt.text) and prompt.actor is Actor.TABLE
    assert prompt.number_range[0] == 0
    said = [str(e.text) for e in game.apply(Input.enter(TABLE_DAMAGE))]
    assert f"{name}: {TABLE_DAMAGE} damage, as the board says." in said
    assert f"Carry out any other effect printed on {name}" in str(game.prompt().text)
    game.apply(Input.confirm())
    defend = str(game.prompt().text)  # or an orange card's damage added on the way
    assert defend.startswith("Defend against") and int(defend.split()[2]) >= TABLE_DAMAGE

    until(game, rng, lambda p: str(p.text).startswith("The Boss defends with"), events)
    prompt, health = game.prompt(), game.boss.health
    assert hero.defense().name in str(prompt.text) and prompt.actor is Actor.TABLE
    assert prompt.number_range == (0, PLAYER_HIT)
    game.apply(Input.enter(TABLE_PREVENTS))
    if not game.boss.count("evasive"):  # Evasive (7.) would be asked first
        assert game.boss.health == health - (PLAYER_HIT - TABLE_PREVENTS)
        assert "deal to you" in str(game.prompt().text)


# noHero123/DiceThroneOddsCalculator pythongui/odds_calc.py, each hero's default odds
# (%, 3 rolls): for one symbol they depend only on how many faces show it, so they check
# the Season 2 dice anatomy taken from it (its mixed objectives use a keep rule of its
# own, not the best keep, and are not compared)
ODDS_CALC = [
    ("huntress", "5 spear", 17),
    ("huntress", "2 nyras-bond", 70),
    ("huntress", "4 sabertooth", 10),
    ("artificer", "5 wrench", 51),
    ("artificer", "3 electricity", 35),
    ("vampire_lord", "3 mesmerize", 84),
    ("vampire_lord", "4 blood-drop", 10),
    ("tactician", "4 banner", 54),
    ("tactician", "3 medal", 35),
    ("cursed_pirate", "3 loot", 84),
    ("cursed_pirate", "4 cutlass", 88),
    ("seraph", "5 blade", 51),
    ("seraph", "3 shield", 35),
    ("seraph", "small straight", 60),
]


@pytest.mark.parametrize(("hero", "objective", "percent"), ODDS_CALC)
def test_season_2_dice_agree_with_the_public_odds(hero, objective, percent):
    exact = chance(load_hero(hero).objective(objective), 3)
    assert abs(float(exact) * 100 - percent) < 2


def test_a_typed_damage_is_kept_resumed_and_undone(tmp_path):
    """device/session.py: an answer is on disk before it is shown; resuming replays it
    (the same question asked again, the same damage applied); undo asks it again."""
    store, rng, events = Store.in_dir(tmp_path), random.Random(5), []
    session = TableSession.start(store, "dicethrone-solo", 5, {"boss": "seraph"})
    session.submit(Input.choose("normal"))
    until(session, rng, lambda p: "printed on the hero board" in str(p.text), events)
    asked = session.prompt()
    assert TableSession.resume(store, session.id).prompt() == asked
    session.submit(Input.enter(TABLE_DAMAGE))
    shown = session.view()
    again = TableSession.resume(store, session.id)
    assert again.view() == shown and again.prompt() == session.prompt()
    assert again.undo()
    assert again.prompt() == asked
