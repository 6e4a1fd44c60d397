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
from dicetable.rules.dicequest.adventure_path import ADVENTURE_ROUNDS
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


class DeploymentStep(TableState):
    """Quest choice, Active Heroes and Dice Pool; a mixin of ``Dicequest``."""

    def _all_cards(self) -> list[Card]:
        return list(self.cards.values())

    def _must_adventure(self) -> bool:
        """Adventure rounds force the Adventure "if they have enough Heroes to meet its
        Party Size. Otherwise, they may choose any Quest" (The Adventure Path)."""
        adventure = self.adventure
        return (
            self.round in ADVENTURE_ROUNDS
            and adventure is not None
            and len(self.player.heroes) >= adventure.party[0]
        )

    def _quest_choices(self) -> list[Card]:
        heroes = len(self.player.heroes)
        return [
            c
            for c in self._all_cards()
            if not c.is_adventure
            and c.act in (0, self.act)
            and c.id not in self.completed
            and c.party[0] <= heroes
        ]

    def _prompt_quest(self) -> Prompt:
        if self._must_adventure():
            card = self.adventure
            assert card is not None
            options = [Option(card.id, msg("Adventure: {name}", name=card_title(card)))]
            text = msg(
                "Round {round}: the Adventure {name} must be your Quest.",
                round=self.round,
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
                for c in self._quest_choices()
            ]
            options.append(Option("type", msg("A Quest card not listed: type it in")))
            text = msg("{player}, Deployment Step: choose a Quest.", player=self.player.title())
        return self._choose(text, options)

    def _apply_quest(self, answer: Input) -> list[Event]:
        if answer.choice == "type":
            self._start_typing("quest", then="quest")
            return []
        card = self.cards[answer.choice]
        self.attempt = Attempt(card)
        events = [
            self._card_event(
                msg("{player} goes on {name}.", player=self.player.title(), name=card_title(card)),
                card,
            )
        ]
        alive = list(range(len(self.player.heroes)))
        low, high = card.party
        if high == 0 or (low == len(alive) and low == high) or len(alive) == low:
            self.attempt.active = alive[: max(low, 0)] if high else []
            return events + self._deploy()
        self.stage = "active"
        return events

    def _prompt_active(self) -> Prompt:
        attempt = self._attempt()
        low, high = attempt.card.party
        options = []
        for i, hero in enumerate(self.player.heroes):
            if i in attempt.active:
                options.append(Option(f"out{i + 1}", msg("Keep {hero} home", hero=hero.label())))
            elif len(attempt.active) < high:
                options.append(Option(f"in{i + 1}", msg("Send {hero}", hero=hero.label())))
        if low <= len(attempt.active) <= high:
            options.append(Option("done", msg("Deploy these {n} Heroes", n=len(attempt.active))))
        options.append(Option("back", msg("Back: choose another Quest")))
        return self._choose(
            msg(
                "Party Size {party}: choose your Active Heroes ({n} chosen).",
                party=attempt.card.party_text(),
                n=len(attempt.active),
            ),
            options,
        )

    def _apply_active(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        choice = answer.choice
        if choice == "back":
            self.attempt = None
            self.stage = "quest"
        elif choice == "done":
            return self._deploy()
        elif choice.startswith("in"):
            attempt.active.append(int(choice[2:]) - 1)
        else:
            attempt.active.remove(int(choice[3:]) - 1)
        return []

    def _deploy(self) -> list[Event]:
        """Add all dice from the Active Heroes (up to 4 per colour) and go on to the
        Deployment Step abilities (dice from Items are added by the player)."""
        attempt = self._attempt()
        attempt.active.sort()
        events = []
        for i in attempt.active:
            for color in self.player.heroes[i].dice():
                events += self._add_to_pool(color)
        self.stage = "pool"
        return events

    def _banned(self) -> str:
        threat = self.threat
        return threat.color if threat and threat.effect == "ban_color" else ""

    def _add_to_pool(self, color: str) -> list[Event]:
        attempt = self._attempt()
        if color == self._banned():
            return [Event("banned", msg("No {color} dice this round (Threat).", color=msg(color)))]
        if attempt.pool.count(color) >= MAX_PER_COLOR:
            return [
                Event("pool_full", msg("The pool already has 4 {color} dice.", color=msg(color)))
            ]
        attempt.pool.append(color)
        return []

    def _prompt_pool(self) -> Prompt:
        attempt = self._attempt()
        options = [
            Option(f"add-{c}", msg("Add a {color} die (Item or ability)", color=msg(c)))
            for c in COLORS
            if attempt.pool.count(c) < MAX_PER_COLOR and c != self._banned()
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
        return self._choose(
            msg("Dice Pool: {pool}. {hint}", pool=pool_text(attempt.pool), hint=self._pool_hint()),
            options,
            objective=self._objective(),
        )

    def _apply_pool(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        action, _, color = answer.choice.partition("-")
        if action == "add":
            return self._add_to_pool(color)
        if action == "remove":
            attempt.pool.remove(color)
            return []
        if not attempt.pool:
            attempt.rolled = True
            return self._to_wound_step()
        self.stage = "roll"
        return []
