"""The solo and co-op Threat game: the Threat Phase card of each round, Threat
tokens on the Adventure and on Quests, and what a failed Adventure does at each
difficulty level (Solo & Co-op)."""

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
from dicetable.rules.dicequest import deployment_step, tavern_phase
from dicetable.rules.dicequest.data import (
    Card,
    ThreatCard,
    threat_deck,
)
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.words import (
    card_title,
    token_text,
    tokens_text,
)


def draw_token(s: TableState) -> tuple[str, ...]:
    reserve = s.token_reserve[s.act]
    if not reserve:  # "use a temporary substitute" (Components)
        _, tokens = threat_deck()
        reserve.extend(tokens[s.act])
        s.rng.shuffle(reserve)
    return reserve.pop()


def threat_event(s: TableState, card: ThreatCard) -> Event:
    """The card's own text is the message, so its translation comes from es.toml."""
    s.recent.append({"title": card.name, "text": card.text, "kind": "threat"})
    return Event(
        EventKind.CARD,
        msg(card.text),
        {"threat": card.id, "name": card.name, "timing": card.timing, "effect": card.effect},
    )


def prompt_threat(s: TableState) -> Prompt:
    card = s.threat
    assert card is not None
    if card.effect == "instruction":
        text = msg("Threat Phase: {name}. Do it now, then confirm.", name=card_title(card))
    elif card.effect == "threat_token":
        text = msg(
            "Threat Phase: {name}. Threat on the Adventure: {tokens}.",
            name=card_title(card),
            tokens=adventure_tokens_text(s),
        )
    elif card.timing == "ongoing":
        text = msg("Threat Phase: {name}, for this round.", name=card_title(card))
    else:
        text = msg("Threat Phase: {name}.", name=card_title(card))
    return Prompt(PromptKind.CONFIRM, text, actor=Actor.BOSS, objective=msg(card.text))


def apply_threat(s: TableState, answer: Input) -> list[Event]:
    return tavern_phase.start_turn(s)


def adventure_tokens_text(s: TableState) -> Msg:
    return tokens_text(s.adventure_tokens)


def threatenable(s: TableState) -> list[Card]:
    """Quests on the board without Threat: "a limit of 1 Threat per Quest"."""
    return [
        c
        for c in deployment_step.all_cards(s)
        if not c.is_adventure
        and c.act == s.act
        and c.id not in s.completed
        and c.id not in s.quest_threat
    ]


def prompt_threaten(s: TableState) -> Prompt:
    options = [Option(c.id, card_title(c)) for c in threatenable(s)]
    return s.choose(
        msg("Which Quest gets a Threat token (an Adventure's ability)?"),
        [*options, Option("back", msg("Back"))],
        Actor.BOSS,
    )


def apply_threaten(s: TableState, answer: Input) -> list[Event]:
    s.stage = "tavern"
    if answer.choice == "back":
        return []
    token = draw_token(s)
    s.quest_threat[answer.choice] = token
    card = s.cards[answer.choice]
    return [
        Event(
            "threat_token",
            msg(
                "Threat token {token} on {name}: it joins the next Adventure unless the "
                "Quest succeeds.",
                token=token_text(token),
                name=card_title(card),
            ),
            {"quest": card.id, "token": list(token)},
        )
    ]


def coop_adventure_outcome(s: TableState) -> list[Event]:
    """Adventure Outcome and Difficulty Levels: success if no Threat token is left."""
    card = s.adventure
    assert card is not None
    if not s.adventure_tokens:
        return [
            Event(
                EventKind.OBJECTIVE_MET,
                msg("No Threat left on {name}: the Adventure succeeds.", name=card_title(card)),
            )
        ]
    left = len(s.adventure_tokens)
    events = [
        Event(
            EventKind.OBJECTIVE_MISSED,
            msg(
                "{n} Threat tokens left on {name}: the Adventure fails.",
                n=left,
                name=card_title(card),
            ),
        )
    ]
    if s.act == 3 or s.difficulty in ("legendary", "godly"):
        s.outcome = "lost"
        events.append(Event(EventKind.GAME_OVER, msg("All players lose.")))
        return events
    if s.difficulty in ("hard", "heroic"):
        new = [draw_token(s) for _ in s.players]
        s.act3_tokens.extend(new)
        text = msg(
            "Each player puts 1 new Threat token on the Act III Adventure; the "
            "old ones are discarded."
        )
    else:
        s.act3_tokens.extend(s.adventure_tokens)
        text = msg("The Threat tokens move to the Act III Adventure.")
    s.adventure_tokens = []
    events.append(Event("threat_moved", text, {"act3": [list(t) for t in s.act3_tokens]}))
    return events
