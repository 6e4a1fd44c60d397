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


class ThreatPhase(TableState):
    """Threat cards and tokens; a mixin of ``Dicequest``."""

    def _draw_token(self) -> tuple[str, ...]:
        reserve = self.token_reserve[self.act]
        if not reserve:  # "use a temporary substitute" (Components)
            _, tokens = threat_deck()
            reserve.extend(tokens[self.act])
            self.rng.shuffle(reserve)
        return reserve.pop()

    def _threat_event(self, card: ThreatCard) -> Event:
        """The card's own text is the message, so its translation comes from es.toml."""
        self.recent.append({"title": card.name, "text": card.text, "kind": "threat"})
        return Event(
            EventKind.CARD,
            msg(card.text),
            {"threat": card.id, "name": card.name, "timing": card.timing, "effect": card.effect},
        )

    def _prompt_threat(self) -> Prompt:
        card = self.threat
        assert card is not None
        if card.effect == "instruction":
            text = msg("Threat Phase: {name}. Do it now, then confirm.", name=card_title(card))
        elif card.effect == "threat_token":
            text = msg(
                "Threat Phase: {name}. Threat on the Adventure: {tokens}.",
                name=card_title(card),
                tokens=self._tokens_text(),
            )
        elif card.timing == "ongoing":
            text = msg("Threat Phase: {name}, for this round.", name=card_title(card))
        else:
            text = msg("Threat Phase: {name}.", name=card_title(card))
        return Prompt(PromptKind.CONFIRM, text, actor=Actor.BOSS, objective=msg(card.text))

    def _apply_threat(self, answer: Input) -> list[Event]:
        return self._start_turn()

    def _tokens_text(self) -> Msg:
        return tokens_text(self.adventure_tokens)

    def _threatenable(self) -> list[Card]:
        """Quests on the board without Threat: "a limit of 1 Threat per Quest"."""
        return [
            c
            for c in self._all_cards()
            if not c.is_adventure
            and c.act == self.act
            and c.id not in self.completed
            and c.id not in self.quest_threat
        ]

    def _prompt_threaten(self) -> Prompt:
        options = [Option(c.id, card_title(c)) for c in self._threatenable()]
        return self._choose(
            msg("Which Quest gets a Threat token (an Adventure's ability)?"),
            [*options, Option("back", msg("Back"))],
            Actor.BOSS,
        )

    def _apply_threaten(self, answer: Input) -> list[Event]:
        self.stage = "tavern"
        if answer.choice == "back":
            return []
        token = self._draw_token()
        self.quest_threat[answer.choice] = token
        card = self.cards[answer.choice]
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

    def _coop_adventure_outcome(self) -> list[Event]:
        """Adventure Outcome and Difficulty Levels: success if no Threat token is left."""
        card = self.adventure
        assert card is not None
        if not self.adventure_tokens:
            return [
                Event(
                    EventKind.OBJECTIVE_MET,
                    msg("No Threat left on {name}: the Adventure succeeds.", name=card_title(card)),
                )
            ]
        left = len(self.adventure_tokens)
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
        if self.act == 3 or self.difficulty in ("legendary", "godly"):
            self.outcome = "lost"
            events.append(Event(EventKind.GAME_OVER, msg("All players lose.")))
            return events
        if self.difficulty in ("hard", "heroic"):
            new = [self._draw_token() for _ in self.players]
            self.act3_tokens.extend(new)
            text = msg(
                "Each player puts 1 new Threat token on the Act III Adventure; the "
                "old ones are discarded."
            )
        else:
            self.act3_tokens.extend(self.adventure_tokens)
            text = msg("The Threat tokens move to the Act III Adventure.")
        self.adventure_tokens = []
        events.append(Event("threat_moved", text, {"act3": [list(t) for t in self.act3_tokens]}))
        return events
