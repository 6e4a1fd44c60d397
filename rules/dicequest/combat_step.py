"""Combat Step: the roll from the tray and the menu of what may follow it, in any
order: the Reroll token, Runes and the Combat Step abilities."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Input,
    InvalidInput,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import quest_status, tally, wound_step
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.tally import RolledDie
from dicetable.rules.dicequest.words import (
    pool_text,
    symbols_text,
)


def faces_request(s: TableState, colors: list[str]) -> DiceRequest:
    return DiceRequest(
        len(colors),
        profile="dicequest",
        faces=s.dice.face_names(),
        colors=tuple(sorted(colors)),  # one entry per die: the screen shows which
    )


def prompt_roll(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    card = attempt.card
    return Prompt(
        PromptKind.ROLL,
        msg("Combat Step: roll {pool}.", pool=pool_text(attempt.pool)),
        actor=Actor.PLAYER,
        dice=faces_request(s, attempt.pool),
        objective=quest_status.objective(s),
        odds=tally.roll_odds(card.require, attempt.bonus, attempt.pool, s.dice),
    )


def check_colors(s: TableState, answer: Input, wanted: list[str]) -> list[RolledDie]:
    got = [d.color for d in answer.dice]
    if Counter(got) != Counter(wanted):
        raise InvalidInput(
            msg(
                "Expected dice {wanted}, got {got}.",
                wanted=pool_text(wanted),
                got=pool_text(got),
            )
        )
    for die in answer.dice:
        if die.name not in s.dice.colors[die.color]:
            raise InvalidInput(
                msg(
                    "A {color} die has no {face} face.",
                    color=msg(die.color),
                    face=msg(die.name),
                )
            )
    return [RolledDie(d.color, d.name) for d in answer.dice]


def apply_roll(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    attempt.dice = check_colors(s, answer, attempt.pool)
    attempt.rolled = True
    s.stage = "combat"
    return [rolled_event(s)]


def rolled_event(s: TableState) -> Event:
    attempt = quest_status.current_attempt(s)
    symbols = quest_status.symbols(s)
    short = quest_status.missing_text(s) if quest_status.missing_symbols(s) else None
    kind = EventKind.OBJECTIVE_MET if not short else EventKind.ROLLED
    text = (
        msg("Result: {symbols}. The Quest is met.", symbols=symbols_text(symbols))
        if not short
        else msg(
            "Result: {symbols}. Missing: {missing}.",
            symbols=symbols_text(symbols),
            missing=short,
        )
    )
    return Event(
        kind, text, {"dice": [d.to_json() for d in attempt.dice], "symbols": dict(symbols)}
    )


def runes_ready(s: TableState) -> list[int]:
    return [
        i
        for i, d in enumerate(quest_status.current_attempt(s).dice)
        if not d.locked and "rune" in s.dice.symbols(d.face)
    ]


def unlocked(s: TableState) -> list[int]:
    return [i for i, d in enumerate(quest_status.current_attempt(s).dice) if not d.locked]


def reroll_allowed(s: TableState) -> bool:
    threat = s.threat
    blocked = threat is not None and threat.effect == "no_reroll"
    return s.player.reroll_active and not blocked and bool(unlocked(s))


def prompt_combat(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    options = []
    if reroll_allowed(s):
        options.append(Option("reroll-token", msg("Use the Reroll token: reroll any dice")))
    if runes_ready(s) or attempt.bonus_runes:
        options.append(Option("spend-rune", msg("Spend a Rune")))
    if unlocked(s):
        options.append(Option("ability-reroll", msg("Ability: reroll one die")))
        options.append(Option("ability-set", msg("Ability: set a die to a face")))
    options += [
        Option("ability-add", msg("Item or ability: add a die and roll it")),
        Option("ability-symbol", msg("Item or ability: add a symbol")),
        Option("gain-rune", msg("Item or ability: gain a Rune")),
        Option("prevent", msg("Ability: prevent 1 Light Wound")),
        Option(
            "self-wound",
            msg("Ability: take 1 Unblockable Light Wound (Scarifier, Yami, Doomies)"),
        ),
        Option("done", msg("Go to the Wound Step")),
    ]
    return s.choose(
        msg(
            "Combat Step: {status} {hint}",
            status=quest_status.status_text(s),
            hint=quest_status.combat_hint(s),
        ),
        options,
        objective=quest_status.objective(s),
        odds=reroll_odds(s),
    )


def free_dice(s: TableState) -> list[int]:
    """Unlocked dice that add nothing to the result now: the ones worth rerolling."""
    attempt = quest_status.current_attempt(s)
    require = attempt.card.require
    met = sum(tally.match(require, quest_status.symbols(s)))
    return [
        i
        for i in unlocked(s)
        if sum(tally.match(require, quest_status.symbols(s, without=[i]))) == met
    ]


def reroll_odds(s: TableState) -> Fraction | None:
    """The chance of meeting the card by rerolling every die worth rerolling."""
    if not quest_status.missing_symbols(s):
        return None
    free = free_dice(s)
    colors = [quest_status.current_attempt(s).dice[i].color for i in free]
    if not colors:
        return None
    kept = quest_status.symbols(s, without=free)
    return tally.roll_odds(quest_status.current_attempt(s).card.require, kept, colors, s.dice)


def apply_combat(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    choice = answer.choice
    if choice == "done":
        return wound_step.to_wound_step(s)
    if choice == "reroll-token":
        attempt.chosen = []
        s.stage = "pick_many"
    elif choice == "spend-rune":
        if attempt.bonus_runes and not runes_ready(s):
            return spend_bonus_rune(s)
        attempt.pending = "rune"
        s.stage = "pick_die"
    elif choice in ("ability-reroll", "ability-set"):
        attempt.pending = choice
        s.stage = "pick_die"
    elif choice == "ability-add":
        attempt.pending = "add"
        s.stage = "pick_color"
    elif choice == "ability-symbol":
        attempt.pending = "symbol"
        s.stage = "pick_symbol"
    elif choice == "gain-rune":
        return gain_rune(s)
    elif choice == "prevent":
        return prevent_light(s)
    elif choice == "self-wound":
        attempt.self_wounds += 1
        return [
            Event(
                "self_wound",
                msg("1 Unblockable Light Wound is added to the Wound Step; use the ability."),
            )
        ]
    return []


# effects of Items and abilities the table counts, from the menu or a spent Rune


def gain_rune(s: TableState) -> list[Event]:
    quest_status.current_attempt(s).bonus_runes += 1
    return [Event("rune", msg("Gained 1 Rune (Item or ability)."))]


def spend_bonus_rune(s: TableState) -> list[Event]:
    """A Rune from an Item or ability: no die to lock, on to what it buys."""
    quest_status.current_attempt(s).bonus_runes -= 1
    s.stage = "rune_use"
    return [Event("rune", msg("A Rune from an Item or ability is spent."))]


def prevent_light(s: TableState) -> list[Event]:
    """Charm of Liothan, Shaman: "remove 1 non-Unblockable Light Wound token"."""
    quest_status.current_attempt(s).prevented += 1
    return [Event("prevent", msg("1 Light Wound will be prevented."))]
