"""The Combat Step's actions on single dice: choosing the dice for the Reroll
token, spending a Rune (the die is locked) and what it buys, rerolling, setting a
face, adding a die, adding a symbol."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import combat_step, deployment_step, quest_status, tally
from dicetable.rules.dicequest.data import (
    COLORS,
    MAX_PER_COLOR,
    SYMBOLS,
)
from dicetable.rules.dicequest.state import TableState, option_index
from dicetable.rules.dicequest.words import (
    listing,
)


def die_label(s: TableState, i: int) -> Msg:
    die = quest_status.current_attempt(s).dice[i]
    return msg("Die {n}: {color} {face}", n=i + 1, color=msg(die.color), face=msg(die.face))


def prompt_pick_many(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    options = []
    for i in combat_step.unlocked(s):
        mark = "x" if i in attempt.chosen else " "
        options.append(Option(f"die{i + 1}", msg("[{mark}] {die}", mark=mark, die=die_label(s, i))))
    if attempt.chosen:
        options.append(Option("go", msg("Reroll the {n} chosen dice", n=len(attempt.chosen))))
    options.append(Option("back", msg("Back")))
    return s.choose(
        msg(
            "Reroll token: choose all the dice to reroll at once. {hint}",
            hint=quest_status.combat_hint(s),
        ),
        options,
        objective=quest_status.objective(s),
    )


def apply_pick_many(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if answer.choice == "back":
        s.stage = "combat"
    elif answer.choice == "go":
        s.player.reroll_active = False  # flip it to the inactive side
        attempt.pending = "reroll-token"
        s.stage = "reroll"
        return [Event("reroll_token", msg("The Reroll token is flipped to its used side."))]
    else:
        i = option_index(answer.choice)
        if i in attempt.chosen:
            attempt.chosen.remove(i)
        else:
            attempt.chosen.append(i)
    return []


def prompt_pick_die(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    if attempt.pending == "rune":
        dice = combat_step.runes_ready(s)
        text = msg("Spend a Rune: which die moves to the Locked Dice Zone?")
        options = [Option(f"die{i + 1}", die_label(s, i)) for i in dice]
        if attempt.bonus_runes:
            options.append(Option("bonus", msg("The Rune from an Item or ability")))
    else:
        dice = combat_step.unlocked(s)
        text = (
            msg("Which die do you reroll?")
            if attempt.pending in ("ability-reroll", "rune-reroll")
            else msg("Which die do you set to a face?")
        )
        options = [Option(f"die{i + 1}", die_label(s, i)) for i in dice]
    if attempt.pending != "rune-reroll":
        options.append(Option("back", msg("Back")))
    return s.choose(text, options, objective=quest_status.objective(s))


def apply_pick_die(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if answer.choice == "back":
        s.stage = "combat" if not attempt.pending.startswith("rune-") else "rune_use"
        return []
    if attempt.pending == "rune":
        if answer.choice == "bonus":
            return combat_step.spend_bonus_rune(s)
        s.stage = "rune_use"
        die = attempt.dice[option_index(answer.choice)]
        die.locked = True
        die.rune_spent = True
        return [
            Event(
                "rune",
                msg(
                    "The Rune on the {color} die is spent; the die is locked.",
                    color=msg(die.color),
                ),
            )
        ]
    attempt.die = option_index(answer.choice)
    attempt.chosen = [attempt.die]
    if attempt.pending in ("ability-reroll", "rune-reroll"):
        s.stage = "reroll"
    else:
        s.stage = "pick_face"
    return []


def prompt_reroll(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    colors = [attempt.dice[i].color for i in attempt.chosen]
    keep = tuple(i for i in range(len(attempt.dice)) if i not in attempt.chosen)
    kept = quest_status.symbols(s, without=attempt.chosen)
    return Prompt(
        PromptKind.ROLL,
        msg("Reroll {dice}.", dice=listing([die_label(s, i) for i in attempt.chosen])),
        actor=Actor.PLAYER,
        dice=combat_step.faces_request(s, colors),
        keep=keep,
        objective=quest_status.objective(s),
        odds=tally.roll_odds(attempt.card.require, kept, colors, s.dice),
    )


def apply_reroll(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    colors = [attempt.dice[i].color for i in attempt.chosen]
    new = combat_step.check_colors(s, answer, colors)
    for i in attempt.chosen:  # each new die goes to a chosen die of its colour
        match = next(d for d in new if d.color == attempt.dice[i].color)
        new.remove(match)
        attempt.dice[i] = match
    attempt.chosen = []
    s.stage = "combat"
    return [combat_step.rolled_event(s)]


def prompt_pick_face(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    die = attempt.dice[attempt.die]
    faces = list(dict.fromkeys(s.dice.colors[die.color]))
    return s.choose(
        msg("Set the {color} die to which face?", color=msg(die.color)),
        [Option(f, msg(f)) for f in faces],
        objective=quest_status.objective(s),
    )


def apply_pick_face(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    die = attempt.dice[attempt.die]
    die.face = answer.choice
    attempt.chosen = []
    s.stage = "combat"
    return [combat_step.rolled_event(s)]


def prompt_pick_color(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    options = [
        Option(c, msg(c))
        for c in COLORS
        if c != deployment_step.banned(s)
        and [d.color for d in attempt.dice].count(c) < MAX_PER_COLOR
    ]
    options.append(Option("back", msg("Back")))
    return s.choose(msg("Add a die of which colour?"), options)


def apply_pick_color(s: TableState, answer: Input) -> list[Event]:
    if answer.choice == "back":
        s.stage = "combat" if quest_status.current_attempt(s).pending == "add" else "rune_use"
        return []
    quest_status.current_attempt(s).pool.append(answer.choice)
    quest_status.current_attempt(s).die = -1
    s.stage = "roll_added"
    return []


def prompt_roll_added(s: TableState) -> Prompt:
    color = quest_status.current_attempt(s).pool[-1]
    return Prompt(
        PromptKind.ROLL,
        msg("Roll the added {color} die.", color=msg(color)),
        actor=Actor.PLAYER,
        dice=combat_step.faces_request(s, [color]),
        keep=tuple(range(len(quest_status.current_attempt(s).dice))),
        objective=quest_status.objective(s),
        odds=tally.roll_odds(
            quest_status.current_attempt(s).card.require, quest_status.symbols(s), [color], s.dice
        ),
    )


def apply_roll_added(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    attempt.dice += combat_step.check_colors(s, answer, [attempt.pool[-1]])
    s.stage = "combat"
    return [combat_step.rolled_event(s)]


def prompt_pick_symbol(s: TableState) -> Prompt:
    options = [Option(s, msg(s)) for s in SYMBOLS]
    options.append(Option("back", msg("Back")))
    return s.choose(
        msg("Which symbol does the ability add?"), options, objective=quest_status.objective(s)
    )


def apply_pick_symbol(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if answer.choice == "back":
        s.stage = "combat" if attempt.pending == "symbol" else "rune_use"
        return []
    s.stage = "combat"
    if answer.choice == "rune":
        return combat_step.gain_rune(s)
    attempt.bonus[answer.choice] += 1
    return [combat_step.rolled_event(s)]


def prompt_rune_use(s: TableState) -> Prompt:
    """ "After spending a Rune you must either reroll one die ... or activate an
    ability with a Rune" (Combat Step, Runes)."""
    options = []
    if combat_step.unlocked(s):
        options.append(Option("reroll", msg("Reroll one die from the Unlocked Dice Zone")))
        options.append(Option("set", msg("Ability: set a die to a face")))
    options += [
        Option("symbol", msg("Ability: add a symbol")),
        Option("prevent", msg("Ability: prevent 1 Light Wound")),
        Option("add", msg("Ability: add a die and roll it")),
        Option("other", msg("Another Rune ability (do it on the table)")),
    ]
    return s.choose(
        msg("The Rune is spent: what does it do?"), options, objective=quest_status.objective(s)
    )


def apply_rune_use(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    choice = answer.choice
    if choice == "reroll":
        attempt.pending = "rune-reroll"
        s.stage = "pick_die"
    elif choice == "set":
        attempt.pending = "rune-set"
        s.stage = "pick_die"
    elif choice == "symbol":
        attempt.pending = "rune-symbol"
        s.stage = "pick_symbol"
    elif choice == "add":
        attempt.pending = "rune-add"
        s.stage = "pick_color"
    elif choice == "prevent":
        s.stage = "combat"
        return combat_step.prevent_light(s)
    else:
        s.stage = "combat"
        return [
            Event(
                EventKind.INSTRUCTION,
                msg("Use the Rune ability on the table (draw an Item...)."),
            )
        ]
    return []
