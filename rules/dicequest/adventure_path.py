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


class AdventurePath(TableState):
    """Rounds, Acts and Adventures; a mixin of ``Dicequest``."""

    def _adventure_choices(self) -> list[Card]:
        return [
            c
            for c in self._all_cards()
            if c.is_adventure and c.act == self.act and c.id not in self.completed
        ]

    def _prompt_reveal(self) -> Prompt:
        options = [
            Option(c.id, msg("{name} (party {party})", name=card_title(c), party=c.party_text()))
            for c in self._adventure_choices()
        ]
        options.append(Option("type", msg("A card not listed: type it in")))
        return self._choose(
            msg("Reveal the Act {act} Adventure card: which is it?", act=self.act),
            options,
            Actor.TABLE,
        )

    def _apply_reveal(self, answer: Input) -> list[Event]:
        if answer.choice == "type":
            self._start_typing("adventure", then="reveal")
            return []
        return self._reveal(self.cards[answer.choice])

    def _reveal(self, card: Card) -> list[Event]:
        self.adventure = card
        events = [self._card_event(msg("Adventure revealed: {name}.", name=card_title(card)), card)]
        if self.mode == "coop":
            if self.act == 3:
                self.adventure_tokens.extend(self.act3_tokens)
                self.act3_tokens = []
            new = [self._draw_token() for _ in self.players]
            self.adventure_tokens.extend(new)
            self.threat_placed = len(self.adventure_tokens)
            events.append(
                Event(
                    "threat_token",
                    msg(
                        "Each player puts a Threat token on the Adventure: {tokens}.",
                        tokens=tokens_text(new),
                    ),
                    {"tokens": [list(t) for t in self.adventure_tokens]},
                )
            )
        return events + self._start_round()

    def _start_round(self) -> list[Event]:
        if self.round >= ROUNDS:
            return self._start_final()
        self.round += 1
        self.turn = 0
        self.threat = None
        self.adventure_scores = {}
        self.recent = []
        events = [
            Event(
                "round",
                msg("Round {round} of 9 begins.", round=self.round),
                {"round": self.round, "adventure": self.round in ADVENTURE_ROUNDS},
            )
        ]
        moved = [t for _, t in sorted(self.quest_threat.items())]
        if self.round in ADVENTURE_ROUNDS and moved:  # Threat on Quests joins the Adventure
            self.quest_threat = {}
            self.adventure_tokens.extend(moved)
            self.threat_placed += len(moved)
            events.append(
                Event(
                    "threat_token",
                    msg(
                        "The Threat on the Quests moves to the Adventure: {tokens}.",
                        tokens=tokens_text(moved),
                    ),
                )
            )
        if self.mode == "coop" and self.difficulty != "practice":
            self.stage = "threat"
            self.threat = self.threat_deck.pop(0)
            events.append(self._threat_event(self.threat))
            if self.threat.effect == "threat_token":
                new = [self._draw_token() for _ in self.players]
                self.adventure_tokens.extend(new)
                self.threat_placed += len(new)
            return events
        return events + self._start_turn()

    def _end_turn(self) -> list[Event]:
        self.attempt = None
        if self.turn + 1 < len(self.players):
            self.turn += 1
            return self._start_turn()
        if self.round in ADVENTURE_ROUNDS:
            return self._complete_adventure()
        return self._start_round()

    def _complete_adventure(self) -> list[Event]:
        """ "After all players have attempted an Adventure, it is completed, even if all
        players failed it" (Completing Adventures)."""
        card = self.adventure
        assert card is not None
        scores = {p: s for p, s in self.adventure_scores.items() if s is not None}
        events: list[Event] = []
        if self.mode == "coop":
            # "To gain all the rewards from an Adventure, you just need to meet its
            # requirements" (Adventure Outcome): no race in co-op, so every player who
            # met the card gains the first reward (a reading: cards.toml says why).
            gained = {p: (card.rewards[0] if card.rewards else 0) for p in scores}
        else:
            gained = adventure_rewards(scores, card.rewards)
        for number, vp in sorted(gained.items()):
            self.players[number - 1].vp_tokens += vp
            events.append(
                Event(
                    EventKind.SCORE,
                    msg("Player {n} gains {vp} VP tokens.", n=number, vp=vp),
                    {"player": number, "vp": vp},
                )
            )
        self.completed.add(card.id)
        if self.mode == "coop":
            events += self._coop_adventure_outcome()
            if self.outcome:
                self.stage = "over"
                return events
        if self.act == 3:
            return events + self._start_final()
        events += self._unlock_next_act()
        return events

    def _unlock_next_act(self) -> list[Event]:
        events = [
            Event(
                EventKind.INSTRUCTION,
                msg(
                    "Board actions unlocked: {actions}.",
                    actions=listing([msg(a) for a in BOARD_ACTIONS[self.act]], "; "),
                ),
            )
        ]
        if self.act == 2:
            events.append(
                Event(
                    EventKind.INSTRUCTION,
                    msg(
                        "Legendary Heroes unlocked: replace the Apprentice deck "
                        "and Market with Legendary Heroes."
                    ),
                )
            )
        self.act += 1
        self.adventure = None
        events.append(
            Event(
                EventKind.INSTRUCTION,
                msg("Replace the Quests on the board with Act {act} Quests.", act=self.act),
            )
        )
        self.stage = "reveal"
        return events

    def _board_actions(self) -> list[str]:
        """Unlocked after the Act I and Act II Adventures (Unlocking Board Actions); the
        Refresh and Gift Actions in solo and co-op (New Actions)."""
        unlocked = [a for act in (1, 2) if self.act > act for a in BOARD_ACTIONS[act]]
        if self.mode == "coop":
            unlocked += [
                "Refresh: pay 2 Gold to return up to 3 Market Heroes",
                "Gift: move an Item to another player's Backpack",
            ]
        return unlocked
