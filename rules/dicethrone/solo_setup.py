"""2. Setup: the Boss and his difficulty chosen at the table, his upgrade cards
placed by the draw-and-pay procedure (2.2.3), the decks shuffled from the seed."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    Input,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicethrone.decks import deck_ids, load_decks
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.solo_state import SoloState

BOSSES = tuple(deck_ids())  # every hero with a solo deck in decks/ can be the Boss
DIFFICULTIES = {"easy": (10, 0), "normal": (12, 1), "hard": (15, 2)}  # 2.2.2: CP, D


def ask_boss(s: SoloState, data: dict) -> Prompt:
    options = tuple(Option(b, msg(load_hero(b).name)) for b in BOSSES)
    return Prompt(PromptKind.CHOOSE, msg("Choose the Boss."), Actor.TABLE, options)


def ask_difficulty(s: SoloState, data: dict) -> Prompt:
    options = (
        Option("easy", msg("Easy (10 CP of upgrades, D = 0)")),
        Option("normal", msg("Normal (12 CP of upgrades, D = 1)")),
        Option("hard", msg("Hard (15 CP of upgrades, D = 2)")),
    )
    return Prompt(PromptKind.CHOOSE, msg("Choose the Boss's difficulty."), Actor.TABLE, options)


def on_boss(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    run_set_boss(s, {"boss": answer.choice})


def run_set_boss(s: SoloState, data: dict) -> None:
    s.boss_id = data["boss"]
    s.hero = load_hero(s.boss_id)
    s.decks = load_decks(s.boss_id)


def on_difficulty(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    run_set_difficulty(s, {"level": answer.choice})


def run_set_difficulty(s: SoloState, data: dict) -> None:
    s.difficulty = data["level"]
    budget, s.d = DIFFICULTIES[s.difficulty]
    placed = place_upgrades(s, budget)
    s.boss.cp = 2  # 2.2.3: "Whatever the number ... the Boss starts the game with 2"
    s.ai_pile = shuffled(s, len(s.boss_decks.ai))
    s.action_pile = shuffled(s, len(s.boss_decks.action))
    setup = msg(
        "Setup: Boss {boss} at 80 Health, 2 CP, 2 King's Hand. You: 50 Health, 2 CP, "
        "draw 4 cards, no bonus tokens.",
        boss=msg(s.boss_hero.name),
    )
    texts = [setup] + [
        msg("Place the upgrade {name} on the Boss's board.", name=msg(name)) for name in placed
    ]
    for text in texts:
        s.say(EventKind.INSTRUCTION, text)
    s.then(*(("confirm", {"text": t, "actor": Actor.TABLE}) for t in texts))
    s.later(("round", {}))


def place_upgrades(s: SoloState, budget: int) -> list[str]:
    """2.2.3: draw upgrades until one cannot be paid; a higher level pays only the
    difference; a card at or below the placed level is discarded for free."""
    cards = list(s.boss_hero.upgrades)
    s.rng.shuffle(cards)
    paid: dict[str, int] = {}
    for card in cards:
        placed = s.levels.get(card.ability, 1)
        if card.level <= placed:
            s.say(
                "upgrade",
                msg("Upgrade {name} discarded: a higher level is placed.", name=msg(card.name)),
            )
            continue
        price = max(0, card.cost - paid.get(card.ability, 0))
        if price > budget:
            s.say(
                "upgrade",
                msg(
                    "Upgrade {name} costs {cost} CP: not paid, setup ends.",
                    name=msg(card.name),
                    cost=price,
                ),
            )
            break
        budget -= price
        s.levels[card.ability] = card.level
        paid[card.ability] = card.cost
        s.say(
            "upgrade",
            msg("Upgrade {name} placed for {cost} CP.", name=msg(card.name), cost=price),
        )
    return [s.boss_hero.ability(ability, level).name for ability, level in sorted(s.levels.items())]


def shuffled(s: SoloState, n: int) -> list[int]:
    pile = list(range(n))
    s.rng.shuffle(pile)
    return pile
