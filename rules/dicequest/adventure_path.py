"""The Adventure Path: nine rounds, the Adventures of rounds 3, 6 and 9, revealing
each Act's Adventure, completing it (ranked rewards, tie rule) and unlocking the
next Act's Quests, board actions and Legendary Heroes."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Input,
    Option,
    Prompt,
    msg,
)
from dicetable.rules.dicequest import (
    card_typing,
    deployment_step,
    final_scoring,
    tavern_phase,
    threat_phase,
)
from dicetable.rules.dicequest.data import (
    Card,
)
from dicetable.rules.dicequest.scoring import adventure_rewards
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.words import (
    card_title,
    listing,
    tokens_text,
)

ROUNDS = 9
ADVENTURE_ROUNDS = (3, 6, 9)  # "In the 3rd, 6th, and 9th rounds" (The Adventure Path)
BOARD_ACTIONS = {
    1: ("Pay 3 Gold: draw the top Basic Item", "Return an Item to its deck: gain 1 Gold"),
    2: ("Pay 3 Gold: level up an Apprentice Hero", "Pay 3 Gold: remove 1 Light Wound"),
}


def adventure_choices(s: TableState) -> list[Card]:
    return [
        c
        for c in deployment_step.all_cards(s)
        if c.is_adventure and c.act == s.act and c.id not in s.completed
    ]


def prompt_reveal(s: TableState) -> Prompt:
    options = [
        Option(c.id, msg("{name} (party {party})", name=card_title(c), party=c.party_text()))
        for c in adventure_choices(s)
    ]
    options.append(Option("type", msg("A card not listed: type it in")))
    return s.choose(
        msg("Reveal the Act {act} Adventure card: which is it?", act=s.act),
        options,
        Actor.TABLE,
    )


def apply_reveal(s: TableState, answer: Input) -> list[Event]:
    if answer.choice == "type":
        card_typing.start_typing(s, "adventure", then="reveal")
        return []
    return reveal(s, s.cards[answer.choice])


def reveal(s: TableState, card: Card) -> list[Event]:
    s.adventure = card
    events = [s.card_event(msg("Adventure revealed: {name}.", name=card_title(card)), card)]
    if s.mode == "coop":
        if s.act == 3:
            s.adventure_tokens.extend(s.act3_tokens)
            s.act3_tokens = []
        new = [threat_phase.draw_token(s) for _ in s.players]
        s.adventure_tokens.extend(new)
        s.threat_placed = len(s.adventure_tokens)
        events.append(
            Event(
                "threat_token",
                msg(
                    "Each player puts a Threat token on the Adventure: {tokens}.",
                    tokens=tokens_text(new),
                ),
                {"tokens": [list(t) for t in s.adventure_tokens]},
            )
        )
    return events + start_round(s)


def start_round(s: TableState) -> list[Event]:
    if s.round >= ROUNDS:
        return final_scoring.start_final(s)
    s.round += 1
    s.turn = 0
    s.threat = None
    s.adventure_scores = {}
    s.recent = []
    events = [
        Event(
            "round",
            msg("Round {round} of 9 begins.", round=s.round),
            {"round": s.round, "adventure": s.round in ADVENTURE_ROUNDS},
        )
    ]
    moved = [t for _, t in sorted(s.quest_threat.items())]
    if s.round in ADVENTURE_ROUNDS and moved:  # Threat on Quests joins the Adventure
        s.quest_threat = {}
        s.adventure_tokens.extend(moved)
        s.threat_placed += len(moved)
        events.append(
            Event(
                "threat_token",
                msg(
                    "The Threat on the Quests moves to the Adventure: {tokens}.",
                    tokens=tokens_text(moved),
                ),
            )
        )
    if s.mode == "coop" and s.difficulty != "practice":
        s.stage = "threat"
        s.threat = s.threat_deck.pop(0)
        events.append(threat_phase.threat_event(s, s.threat))
        if s.threat.effect == "threat_token":
            new = [threat_phase.draw_token(s) for _ in s.players]
            s.adventure_tokens.extend(new)
            s.threat_placed += len(new)
        return events
    return events + tavern_phase.start_turn(s)


def end_turn(s: TableState) -> list[Event]:
    s.attempt = None
    if s.turn + 1 < len(s.players):
        s.turn += 1
        return tavern_phase.start_turn(s)
    if s.round in ADVENTURE_ROUNDS:
        return complete_adventure(s)
    return start_round(s)


def complete_adventure(s: TableState) -> list[Event]:
    """ "After all players have attempted an Adventure, it is completed, even if all
    players failed it" (Completing Adventures)."""
    card = s.adventure
    assert card is not None
    scores = {p: score for p, score in s.adventure_scores.items() if score is not None}
    events: list[Event] = []
    if s.mode == "coop":
        # "To gain all the rewards from an Adventure, you just need to meet its
        # requirements" (Adventure Outcome): no race in co-op, so every player who
        # met the card gains the first reward (a reading: cards.toml says why).
        gained = {p: (card.rewards[0] if card.rewards else 0) for p in scores}
    else:
        gained = adventure_rewards(scores, card.rewards)
    for number, vp in sorted(gained.items()):
        s.players[number - 1].vp_tokens += vp
        events.append(
            Event(
                EventKind.SCORE,
                msg("Player {n} gains {vp} VP tokens.", n=number, vp=vp),
                {"player": number, "vp": vp},
            )
        )
    s.completed.add(card.id)
    if s.mode == "coop":
        events += threat_phase.coop_adventure_outcome(s)
        if s.outcome:
            s.stage = "over"
            return events
    if s.act == 3:
        return events + final_scoring.start_final(s)
    events += unlock_next_act(s)
    return events


def unlock_next_act(s: TableState) -> list[Event]:
    events = [
        Event(
            EventKind.INSTRUCTION,
            msg(
                "Board actions unlocked: {actions}.",
                actions=listing([msg(a) for a in BOARD_ACTIONS[s.act]], "; "),
            ),
        )
    ]
    if s.act == 2:
        events.append(
            Event(
                EventKind.INSTRUCTION,
                msg(
                    "Legendary Heroes unlocked: replace the Apprentice deck "
                    "and Market with Legendary Heroes."
                ),
            )
        )
    s.act += 1
    s.adventure = None
    events.append(
        Event(
            EventKind.INSTRUCTION,
            msg("Replace the Quests on the board with Act {act} Quests.", act=s.act),
        )
    )
    s.stage = "reveal"
    return events


def board_actions(s: TableState) -> list[str]:
    """Unlocked after the Act I and Act II Adventures (Unlocking Board Actions); the
    Refresh and Gift Actions in solo and co-op (New Actions)."""
    unlocked = [a for act in (1, 2) if s.act > act for a in BOARD_ACTIONS[act]]
    if s.mode == "coop":
        unlocked += [
            "Refresh: pay 2 Gold to return up to 3 Market Heroes",
            "Gift: move an Item to another player's Backpack",
        ]
    return unlocked
