"""Deployment Step: choosing the Quest (the Adventure in rounds 3, 6 and 9), the
Active Heroes for its Party Size, and the Dice Pool (up to 4 dice per colour)."""

from __future__ import annotations

from dicetable.rules.core import (
    Event,
    Input,
    Option,
    Prompt,
    msg,
)
from dicetable.rules.dicequest import adventure_path, card_typing, quest_status, wound_step
from dicetable.rules.dicequest.data import (
    COLORS,
    MAX_PER_COLOR,
    Card,
)
from dicetable.rules.dicequest.state import Attempt, TableState
from dicetable.rules.dicequest.words import (
    card_title,
    needs_text,
    pool_text,
)


def all_cards(s: TableState) -> list[Card]:
    return list(s.cards.values())


def must_adventure(s: TableState) -> bool:
    """Adventure rounds force the Adventure "if they have enough Heroes to meet its
    Party Size. Otherwise, they may choose any Quest" (The Adventure Path)."""
    adventure = s.adventure
    return (
        s.round in adventure_path.ADVENTURE_ROUNDS
        and adventure is not None
        and len(s.player.heroes) >= adventure.party[0]
    )


def quest_choices(s: TableState) -> list[Card]:
    heroes = len(s.player.heroes)
    return [
        c
        for c in all_cards(s)
        if not c.is_adventure
        and c.act in (0, s.act)
        and c.id not in s.completed
        and c.party[0] <= heroes
    ]


def prompt_quest(s: TableState) -> Prompt:
    if must_adventure(s):
        card = s.adventure
        assert card is not None
        options = [Option(card.id, msg("Adventure: {name}", name=card_title(card)))]
        text = msg(
            "Round {round}: the Adventure {name} must be your Quest.",
            round=s.round,
            name=card_title(card),
        )
    else:
        options = [
            Option(
                c.id,
                msg(
                    "{name} (party {party}, needs {needs})",
                    name=card_title(c),
                    party=c.party_text(),
                    needs=needs_text(c),
                ),
            )
            for c in quest_choices(s)
        ]
        options.append(Option("type", msg("A Quest card not listed: type it in")))
        text = msg("{player}, Deployment Step: choose a Quest.", player=s.player.title())
    return s.choose(text, options)


def apply_quest(s: TableState, answer: Input) -> list[Event]:
    if answer.choice == "type":
        card_typing.start_typing(s, "quest", then="quest")
        return []
    card = s.cards[answer.choice]
    s.attempt = Attempt(card)
    events = [
        s.card_event(
            msg("{player} goes on {name}.", player=s.player.title(), name=card_title(card)),
            card,
        )
    ]
    alive = list(range(len(s.player.heroes)))
    low, high = card.party
    if high == 0 or (low == len(alive) and low == high) or len(alive) == low:
        s.attempt.active = alive[: max(low, 0)] if high else []
        return events + deploy(s)
    s.stage = "active"
    return events


def prompt_active(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    low, high = attempt.card.party
    options = []
    for i, hero in enumerate(s.player.heroes):
        if i in attempt.active:
            options.append(Option(f"out{i + 1}", msg("Keep {hero} home", hero=hero.label())))
        elif len(attempt.active) < high:
            options.append(Option(f"in{i + 1}", msg("Send {hero}", hero=hero.label())))
    if low <= len(attempt.active) <= high:
        options.append(Option("done", msg("Deploy these {n} Heroes", n=len(attempt.active))))
    options.append(Option("back", msg("Back: choose another Quest")))
    return s.choose(
        msg(
            "Party Size {party}: choose your Active Heroes ({n} chosen).",
            party=attempt.card.party_text(),
            n=len(attempt.active),
        ),
        options,
    )


def apply_active(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    choice = answer.choice
    if choice == "back":
        s.attempt = None
        s.stage = "quest"
    elif choice == "done":
        return deploy(s)
    elif choice.startswith("in"):
        attempt.active.append(int(choice[2:]) - 1)
    else:
        attempt.active.remove(int(choice[3:]) - 1)
    return []


def deploy(s: TableState) -> list[Event]:
    """Add all dice from the Active Heroes (up to 4 per colour) and go on to the
    Deployment Step abilities (dice from Items are added by the player)."""
    attempt = quest_status.current_attempt(s)
    attempt.active.sort()
    events = []
    for i in attempt.active:
        for color in s.player.heroes[i].dice():
            events += add_to_pool(s, color)
    s.stage = "pool"
    return events


def banned(s: TableState) -> str:
    threat = s.threat
    return threat.color if threat and threat.effect == "ban_color" else ""


def add_to_pool(s: TableState, color: str) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if color == banned(s):
        return [Event("banned", msg("No {color} dice this round (Threat).", color=msg(color)))]
    if attempt.pool.count(color) >= MAX_PER_COLOR:
        return [Event("pool_full", msg("The pool already has 4 {color} dice.", color=msg(color)))]
    attempt.pool.append(color)
    return []


def prompt_pool(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    options = [
        Option(f"add-{c}", msg("Add a {color} die (Item or ability)", color=msg(c)))
        for c in COLORS
        if attempt.pool.count(c) < MAX_PER_COLOR and c != banned(s)
    ]
    options += [
        Option(f"remove-{c}", msg("Remove a {color} die", color=msg(c)))
        for c in COLORS
        if c in attempt.pool
    ]
    if attempt.pool:
        options.append(Option("roll", msg("Roll the {n} dice", n=len(attempt.pool))))
    else:
        options.append(Option("roll", msg("Go on without dice")))
    return s.choose(
        msg(
            "Dice Pool: {pool}. {hint}",
            pool=pool_text(attempt.pool),
            hint=quest_status.pool_hint(s),
        ),
        options,
        objective=quest_status.objective(s),
    )


def apply_pool(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    action, _, color = answer.choice.partition("-")
    if action == "add":
        return add_to_pool(s, color)
    if action == "remove":
        attempt.pool.remove(color)
        return []
    if not attempt.pool:
        attempt.rolled = True
        return wound_step.to_wound_step(s)
    s.stage = "roll"
    return []
