"""Every Season 1 and Season 2 hero as a solo Boss (issue 16, item 1): each plays a
whole seeded game to a win and to a loss, picks the ability "furthest to the right of
his board, and then the one furthest down" (fan solo mode v3.2, 4.), and is known to
`dicetable odds` and to the teach flow's dice sets."""

from __future__ import annotations

import random

import pytest

from dicetable.device.cli import main
from dicetable.rules.core import Input, PromptKind
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.dice_sets import boss_dice
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.solo import BOSSES, DiceThroneSolo

MAX_STEPS = 4000
PLAYER_HIT = 12  # the damage the player reports for each of his attacks in a won game
SEASONS_1_AND_2 = ("monk", "paladin", "treant", "ninja", "gunslinger", "samurai")  # issue 16


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
            if "your attack deal" in text:
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


def test_the_season_1_and_2_heroes_with_public_boards_are_bosses():
    """Fan solo mode v3.2, Overview: "defeat the different characters of Dice Throne
    Season 1 and 2". Season 1 is complete; of Season 2, the heroes whose board is
    public (hero files' headers name the sources)."""
    assert set(SEASONS_1_AND_2) | {"barbarian", "moon_elf", "pyromancer", "shadow_thief"} <= set(
        BOSSES
    )
    assert {load_hero(b).edition for b in BOSSES} >= {"Season 1", "Season 2"}


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
]


@pytest.mark.parametrize(("hero", "dice", "levels", "name"), STRONGEST)
def test_the_strongest_met_ability_follows_the_board(hero, dice, levels, name):
    assert load_hero(hero).met_abilities(dice, levels)[0][0].name == name
