"""Reward Step: the Quest outcome (Gold on a failed card, the Reroll token turned
back, rewards, Level Ups), an Adventure's score, and Threat tokens discarded with
excess symbols or unused Shields."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from dicetable.rules.core import (
    Event,
    EventKind,
    Input,
    Option,
    Prompt,
    msg,
)
from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.state import TableState, option_index
from dicetable.rules.dicequest.words import (
    card_title,
    rewards_text,
    token_text,
    tokens_text,
)


def _merge(*tables: Mapping[str, int]) -> dict[str, int]:
    merged: Counter[str] = Counter()
    for table in tables:
        merged.update(table)
    return dict(merged)


class RewardStep(TableState):
    """Outcome and rewards; a mixin of ``Dicequest``."""

    def _to_reward(self) -> list[Event]:
        """Defeated Heroes leave the party now (they were already out of play)."""
        attempt = self._attempt()
        player = self.player
        survivors = [i for i, h in enumerate(player.heroes) if not h.defeated]
        mapping = {old: new for new, old in enumerate(survivors)}
        attempt.active = [mapping[i] for i in attempt.active if i in mapping]
        player.heroes = [player.heroes[i] for i in survivors]
        if (
            attempt.card.is_adventure
            and self.mode == "coop"
            and self.adventure_tokens
            and self._succeeded()
        ):
            self.stage = "discard"
            return []
        return self._outcome()

    def _succeeded(self) -> bool:
        return tally.succeeds(self._attempt().card.require, self._symbols())

    def _discard_options(self) -> list[Option]:
        attempt = self._attempt()
        options = []
        for i, token in enumerate(self.adventure_tokens):
            if i in attempt.discarded:
                continue
            wanted = [self.adventure_tokens[j] for j in (*attempt.discarded, i)]
            if tally.can_discard(
                attempt.card.require, self._symbols(), wanted, attempt.shields_blocking
            ):
                options.append(
                    Option(
                        f"token{i + 1}", msg("Discard the {token} token", token=token_text(token))
                    )
                )
        return options

    def _prompt_discard(self) -> Prompt:
        attempt = self._attempt()
        options = [*self._discard_options(), Option("done", msg("Keep the rest"))]
        return self._choose(
            msg(
                "Reward Step: spend excess symbols (or unused Shields) on Threat tokens. "
                "On the Adventure: {tokens}.",
                tokens=tokens_text(
                    [t for i, t in enumerate(self.adventure_tokens) if i not in attempt.discarded]
                ),
            ),
            options,
        )

    def _apply_discard(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "done":
            return self._outcome()
        attempt.discarded.append(option_index(answer.choice))
        events = [self._threat_discarded(self.adventure_tokens[option_index(answer.choice)])]
        if not self._discard_options():
            events += self._outcome()
        return events

    def _outcome(self) -> list[Event]:
        """The Quest outcome (Reward Step), or the Adventure's (Adventures); the turn
        ends unless Level Ups are still to be given."""
        if self._attempt().card.is_adventure:
            events = self._adventure_outcome()
        elif self._succeeded():
            events = self._quest_succeeds()
        else:
            events = self._quest_fails()
        if self.stage == "level_up":
            return events
        return events + self._end_turn()

    def _adventure_outcome(self) -> list[Event]:
        """ "If you did NOT meet all requirements ... you fail. Simply set your Reroll
        token to its active side"; otherwise "track your score" (Adventures)."""
        attempt = self._attempt()
        card = attempt.card
        player = self.player
        discarded = set(attempt.discarded)
        self.adventure_tokens = [
            t for i, t in enumerate(self.adventure_tokens) if i not in discarded
        ]
        if self._succeeded():
            score = tally.tracked_excess(card.require, self._symbols(), card.tracked)
            self.adventure_scores[player.number] = score
            return [
                Event(
                    EventKind.OBJECTIVE_MET,
                    msg(
                        "{player} defeats {name}: Adventure Score {score}.",
                        player=player.title(),
                        name=card_title(card),
                        score=score,
                    ),
                    {"score": score},
                )
            ]
        player.reroll_active = True
        self.adventure_scores[player.number] = None
        return [
            Event(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{player} fails {name} (missing {missing}); the Reroll token turns active.",
                    player=player.title(),
                    name=card_title(card),
                    missing=self._missing_text(),
                ),
            )
        ]

    def _quest_succeeds(self) -> list[Event]:
        """ "If you succeed": the Gold on the card, all the rewards, the card to the
        Achievements Zone, a new Quest in its slot; Threat on it is discarded."""
        card = self._attempt().card
        player = self.player
        gold = self.quest_gold.pop(card.id, 0)
        rewards = _merge(card.guaranteed, card.success)
        vp = rewards.pop("vp", 0)
        if card.act:  # Playtime is printed on the board and stays there
            player.quests.append(card.name)
            player.quest_vp += vp
            self.completed.add(card.id)
        events = [
            Event(
                EventKind.OBJECTIVE_MET,
                msg(
                    "{name} succeeds: {rewards}; {vp} VP in the Achievements Zone.",
                    name=card_title(card),
                    rewards=rewards_text(rewards, gold),
                    vp=vp,
                )
                if card.act
                else msg(
                    "{name} succeeds: {rewards}.",
                    name=card_title(card),
                    rewards=rewards_text(rewards, gold),
                ),
                {"vp": vp, "gold": gold + rewards.get("gold", 0)},
            )
        ]
        if card.id in self.quest_threat:
            events.append(self._threat_discarded(self.quest_threat.pop(card.id)))
        if card.act:
            events.append(
                Event(
                    EventKind.INSTRUCTION,
                    msg("Reveal a new Act {act} Quest to refill the slot.", act=card.act),
                )
            )
        self._level_ups(rewards)
        return events

    def _quest_fails(self) -> list[Event]:
        """ "If you fail": the Reroll token turns active, the Guaranteed Rewards, 1 Gold
        on the card."""
        card = self._attempt().card
        self.player.reroll_active = True
        rewards = dict(card.guaranteed)
        rewards.pop("vp", None)
        if card.act:
            self.quest_gold[card.id] += 1
        self._level_ups(rewards)  # a Guaranteed Level Up
        return [
            Event(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{name} fails (missing {missing}): {rewards}; the Reroll "
                    "token turns active; put 1 Gold on the card.",
                    name=card_title(card),
                    missing=self._missing_text(),
                    rewards=rewards_text(rewards, 0),
                ),
            )
        ]

    def _threat_discarded(self, token: tuple[str, ...]) -> Event:
        return Event(
            "threat_discarded", msg("Threat token {token} discarded.", token=token_text(token))
        )

    def _apprentices(self) -> list[int]:
        attempt = self._attempt()
        return [i for i in attempt.active if not self.player.heroes[i].has_ability]

    def _level_ups(self, rewards: Mapping[str, int]) -> None:
        """Start the Level Up rewards, one flip each, while an Active Apprentice is
        left to flip ("only Heroes that were on the Quest", Reward Step)."""
        self._attempt().level_ups = rewards.get("level_up", 0)
        if self._attempt().level_ups and self._apprentices():
            self.stage = "level_up"

    def _prompt_level_up(self) -> Prompt:
        options = self._hero_options([(i, self.player.heroes[i]) for i in self._apprentices()])
        return self._choose(msg("Level Up: which Active Apprentice flips to Expert?"), options)

    def _apply_level_up(self, answer: Input) -> list[Event]:
        hero = self.player.heroes[option_index(answer.choice)]
        hero.expert = True
        attempt = self._attempt()
        attempt.level_ups -= 1
        events = [Event("level_up", msg("{hero} levels up to Expert.", hero=msg(hero.name)))]
        if attempt.level_ups and self._apprentices():
            return events
        return events + self._end_turn()
