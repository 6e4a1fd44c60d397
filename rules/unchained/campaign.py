"""The campaign tracker: a party's Dice Throne Adventures campaign with Witch Keys.

One long-lived saved game whose inputs are the scenario outcomes (Unchained rulebook,
"The Vault Witch"): a Witch Key at each successful scenario, collected at the start of
the Scenario Conclusion (at most 3 held); the offer to spend one at Scenarios 2, 4 and
6 instead of the Fallen Boss; the Vault Witch set up from the original Boss Scenario
card; her defeat and victory conclusions; after her one defeat, keys convert to 5 Gold
(after a Portal Crawl) or 1 extra Boss Loot (after a Boss Battle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dicetable.rules.core import Actor, Event, EventKind, Input, Prompt, Text, msg
from dicetable.rules.flow import FlowGame, choice, choose, instruction, number
from dicetable.rules.unchained.data import campaign_scenarios
from dicetable.rules.unchained.kings_hand import kings_hand_step
from dicetable.rules.unchained.party import ask_party, hero_title
from dicetable.rules.unchained.vault_witch import (
    FIVE,
    KINGS_HAND_READINGS,
    BossCard,
    VaultWitchSetup,
    vault_witch_rules,
    vault_witch_setup,
)

PORTAL_CRAWL, BOSS_BATTLE = "portal-crawl", "boss-battle"
FALLEN_BOSS, VAULT_WITCH = "fallen-boss", "vault-witch"
KIND_NAMES = {PORTAL_CRAWL: "Portal Crawl", BOSS_BATTLE: "Boss Battle"}
OPPONENT_NAMES = {
    PORTAL_CRAWL: "Portal Crawl",
    FALLEN_BOSS: "the original Fallen Boss",
    VAULT_WITCH: "the Vault Witch",
}
# Readings the rulebook leaves open, as options (the first is the default):
# "Your party may have a maximum of 3 Witch Keys at any given time" (How to Collect
# Witch Keys): the key a scenario brings is not gained over 3, so after her defeat no
# more than 3 can be converted ("limit_first"); or a key gained is converted before it
# is held ("convert_all": up to 4).
LIMIT_FIRST, CONVERT_ALL = "limit_first", "convert_all"
# Upon Defeat: "Record loss on score sheet"; Upon Victory: "Record win on score sheet
# with a +5 bonus to the scenario score". A lost scenario is played again, and only
# the score of its win is the scenario's ("not_counted"); "counted" adds both.
NOT_COUNTED, COUNTED = "not_counted", "counted"
# Ranges are tight on purpose: the screen and the buttons step a number with - and +
# from its lowest value. CP never passes 15 (the CP dial).
CARD_FIELDS = (
    ("health", "Original Boss Scenario card: Boss Health for {n} heroes?", 1, 200),
    ("upgrade_cp", "Original Boss Scenario card: Upgrade CP?", 0, 15),
    ("kings_hand_tokens", "Original Boss Scenario card: King's Hand starting tokens?", 0, 20),
    (
        "kings_hand_max_per_turn",
        "Original Boss Scenario card: King's Hand tokens used per turn?",
        0,
        10,
    ),
    ("starting_cp", "Original Boss Scenario card: Starting CP?", 0, 15),
)


class Campaign(FlowGame):
    id = "unchained-campaign"
    title = "Dice Throne Adventures: campaign with Witch Keys"
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "kings_hand": KINGS_HAND_READINGS,
        "witch_keys": (LIMIT_FIRST, CONVERT_ALL),
        "lost_scenarios": (NOT_COUNTED, COUNTED),
    }

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rules = vault_witch_rules()
        self.scenarios = campaign_scenarios()
        self.heroes: list[str] = []
        self.scenario = 1
        self.opponent = PORTAL_CRAWL
        self.witch_keys = 0
        self.witch_defeated = False
        self.starting_salves_bonus = 0
        self.gold_from_keys = 0
        self.boss_loot_from_keys = 0
        self.witch_setup: VaultWitchSetup | None = None
        self.records: list[dict[str, Any]] = []
        self.finished = False
        ask_party(self.flow, self._heroes_known)

    # setup -----------------------------------------------------------------------
    def _heroes_known(self, names: list[str]) -> list[Event]:
        self.heroes = names
        return self._begin_scenario()

    @property
    def kind(self) -> str:
        return self.scenarios[self.scenario]

    def may_face_vault_witch(self) -> bool:
        """A Boss Battle at Scenario 2, 4 or 6, a key in hand, and she is not yet beaten."""
        return (
            self.kind == BOSS_BATTLE
            and self.scenario in self.rules.boss_scenarios
            and self.witch_keys > 0
            and not self.witch_defeated
        )

    def _begin_scenario(self) -> list[Event]:
        self.witch_setup = None
        self.opponent = PORTAL_CRAWL if self.kind == PORTAL_CRAWL else FALLEN_BOSS
        events = [
            Event(
                EventKind.INFO,
                msg("Scenario {n}: {kind}.", n=self.scenario, kind=msg(KIND_NAMES[self.kind])),
                {"scenario": self.scenario, "kind": self.kind},
            )
        ]
        if self.may_face_vault_witch():
            self.flow.later(
                choose(
                    msg(
                        "Spend a Witch Key ({keys} held) to battle the Vault Witch instead?",
                        keys=self.witch_keys,
                    ),
                    [
                        (VAULT_WITCH, msg("Spend a Witch Key: battle the Vault Witch")),
                        (FALLEN_BOSS, msg("Battle the original Fallen Boss")),
                    ],
                    self._opponent_chosen,
                )
            )
        return events

    def _opponent_chosen(self, opponent: str) -> list[Event]:
        self.opponent = opponent
        if opponent != VAULT_WITCH:
            return [Event(EventKind.INFO, msg("The party battles the original Fallen Boss."))]
        self.witch_keys -= 1
        self._ask_card({})
        return [
            Event(
                "witch_key",
                msg("A Witch Key returns to the Card Caddy ({keys} held).", keys=self.witch_keys),
                {"witch_keys": self.witch_keys},
            )
        ]

    def _card_fields(self) -> tuple[tuple[str, str, int, int], ...]:
        """The card's numbers to ask: her King's Hand tokens are not taken from the
        card when she always starts with 5 (the ``kings_hand`` option)."""
        if self.options["kings_hand"] == FIVE:
            return tuple(f for f in CARD_FIELDS if f[0] != "kings_hand_tokens")
        return CARD_FIELDS

    def _ask_card(self, entered: dict[str, int]) -> None:
        """The original Boss Scenario card's numbers, one prompt each."""
        fields = self._card_fields()
        field, text, low, high = fields[len(entered)]

        def resolve(value: int) -> list[Event]:
            entered[field] = value
            if len(entered) < len(fields):
                self._ask_card(entered)
                return []
            return self._vault_witch_ready(BossCard(**{"kings_hand_tokens": 0, **entered}))

        self.flow.first(number(msg(text, n=len(self.heroes)), low, high, resolve))

    def _vault_witch_ready(self, card: BossCard) -> list[Event]:
        setup = vault_witch_setup(card, len(self.heroes), self.options["kings_hand"])
        self.witch_setup = setup
        low, high = setup.kings_hand_success
        event, step = instruction(
            msg(
                "Set up the Vault Witch: Health {health}, Upgrade CP {upgrade}, King's Hand"
                " tokens {tokens} (at most {per_turn} used per turn, successful rolls"
                " {low}-{high}), Starting CP {cp}. Salves heal {salve} on the shared Health dial.",
                health=setup.health,
                upgrade=setup.upgrade_cp,
                tokens=setup.kings_hand_tokens,
                per_turn=setup.kings_hand_max_per_turn,
                low=low,
                high=high,
                cp=setup.starting_cp,
                salve=self.rules.salve_heal,
            )
        )
        self.flow.first(step)
        return [Event(EventKind.INSTRUCTION, event.text, setup.to_json())]

    # the scenario's end ------------------------------------------------------------
    def main_prompt(self) -> Prompt:
        if self.finished:
            return super().main_prompt()
        options = [
            ("won", msg("The party won")),
            ("lost", msg("The party lost")),
        ]
        if self.opponent == VAULT_WITCH:
            options.insert(0, ("kings-hand", msg("Roll for a King's Hand token")))
        return choice(
            msg(
                "Scenario {n} ({opponent}): how did it end?",
                n=self.scenario,
                opponent=msg(OPPONENT_NAMES[self.opponent]),
            ),
            options,
            actor=Actor.BOSS if self.opponent != PORTAL_CRAWL else Actor.TABLE,
        )

    def main_apply(self, answer: Input) -> list[Event]:
        if answer.choice == "kings-hand":
            success = self.witch_setup.kings_hand_success if self.witch_setup else (3, 6)
            self.flow.first(kings_hand_step(success, lambda _met: []))
            return []
        won = answer.choice == "won"
        self.flow.first(
            number(
                msg(
                    "Scenario {n} score as counted on your Campaign Scoring sheet?", n=self.scenario
                ),
                -100,
                500,
                lambda points: self._conclusion(won, points),
            )
        )
        return []

    def _conclusion(self, won: bool, points: int) -> list[Event]:
        witch = self.opponent == VAULT_WITCH
        bonus = self.rules.victory_bonus if won and witch else 0
        record = {
            "scenario": self.scenario,
            "kind": self.kind,
            "opponent": self.opponent,
            "won": won,
            "points": points,
            "bonus": bonus,
        }
        self.records.append(record)
        text = msg(
            "Scenario {n} {outcome}: {points} points, bonus {bonus}.",
            n=self.scenario,
            outcome=msg("won") if won else msg("lost"),
            points=points,
            bonus=bonus,
        )
        events = [Event(EventKind.SCORE, text, record)]
        if points and not won and self.options["lost_scenarios"] == NOT_COUNTED:
            events.append(
                Event(
                    EventKind.INFO,
                    msg("Not added to the campaign total: the scenario is played again."),
                )
            )
        if won:
            events += self._victory(witch)
        else:
            events += self._defeat(witch)
        return events

    def _victory(self, witch: bool) -> list[Event]:
        events: list[Event] = []
        if witch:
            self.witch_defeated = True
            events.append(
                Event(
                    "vault_witch_defeated",
                    msg(
                        "The Vault Witch is defeated: the win counts as Scenario {n}.",
                        n=self.scenario,
                    ),
                )
            )
            events += self._announce(msg("Boss Loot: the same as the original Boss's."))
        finished_kind = self.kind
        if self.witch_defeated:
            return events + self._offer_conversion(finished_kind)
        events.append(self._collect_key())
        return events + self._advance()

    def _collect_key(self) -> Event:
        """+1 Witch Key at the start of the Scenario Conclusion, never more than 3."""
        if self.witch_keys >= self.rules.max_witch_keys:
            return Event(
                "witch_key",
                msg(
                    "The party already holds {keys} Witch Keys, the most allowed.",
                    keys=self.witch_keys,
                ),
                {"witch_keys": self.witch_keys},
            )
        self.witch_keys += 1
        return Event(
            "witch_key",
            msg("The party gains a Witch Key ({keys} held).", keys=self.witch_keys),
            {"witch_keys": self.witch_keys},
        )

    def _offer_conversion(self, finished_kind: str) -> list[Event]:
        """After her defeat: held keys and the new one may become Gold or Boss Loot;
        with the limit first, the new one is not gained over 3 (``witch_keys``)."""
        available = self.witch_keys + 1
        events: list[Event] = []
        if self.options["witch_keys"] == LIMIT_FIRST and available > self.rules.max_witch_keys:
            available = self.rules.max_witch_keys
            events.append(
                Event(
                    "witch_key",
                    msg(
                        "The party already holds {keys} Witch Keys, the most allowed: this"
                        " scenario's key is not gained.",
                        keys=self.witch_keys,
                    ),
                    {"witch_keys": self.witch_keys},
                )
            )
        if finished_kind == PORTAL_CRAWL:
            question = msg(
                "Convert how many of {n} Witch Keys into {gold} Gold each?",
                n=available,
                gold=self.rules.converted_gold,
            )
        else:
            question = msg(
                "Convert how many of {n} Witch Keys into {loot} extra Boss Loot each?",
                n=available,
                loot=self.rules.converted_boss_loot,
            )

        def resolve(converted: int) -> list[Event]:
            kept = available - converted
            self.witch_keys = min(kept, self.rules.max_witch_keys)
            if finished_kind == PORTAL_CRAWL:
                self.gold_from_keys += converted * self.rules.converted_gold
                text = msg(
                    "Keys converted: gain {n} Gold.", n=converted * self.rules.converted_gold
                )
            else:
                self.boss_loot_from_keys += converted * self.rules.converted_boss_loot
                text = msg(
                    "Keys converted: {n} extra Boss Loot.",
                    n=converted * self.rules.converted_boss_loot,
                )
            events = [Event("witch_key", text, {"converted": converted, "kind": finished_kind})]
            if kept > self.witch_keys:
                events.append(
                    Event(
                        "witch_key",
                        msg(
                            "The party holds {keys} Witch Keys, the most allowed.",
                            keys=self.witch_keys,
                        ),
                    )
                )
            return events + self._advance()

        self.flow.later(number(question, 0, available, resolve))
        return events

    def _defeat(self, witch: bool) -> list[Event]:
        if witch:
            self.starting_salves_bonus += self.rules.defeat_starting_salves
            events = [
                Event(
                    "salves",
                    msg(
                        "Loss recorded. Starting Salves increase by {n} (+{total} in all).",
                        n=self.rules.defeat_starting_salves,
                        total=self.starting_salves_bonus,
                    ),
                    {"starting_salves_bonus": self.starting_salves_bonus},
                ),
                *self._announce(msg("Boss Loot: the same as the original Boss's.")),
            ]
        else:
            events = self._announce(
                msg("Loss recorded. Follow the Scenario card's defeat steps, then play it again.")
            )
        events += self._begin_scenario()
        return events

    def _announce(self, text: Any) -> list[Event]:
        event, step = instruction(text)
        self.flow.later(step)
        return [event]

    def _advance(self) -> list[Event]:
        if self.scenario == max(self.scenarios):
            self.finished = True
            return [
                Event(
                    EventKind.SCORE,
                    msg("The campaign is complete: {score} points.", score=self.total_score),
                    {"score": self.total_score},
                )
            ]
        self.scenario += 1
        return self._begin_scenario()

    # what it looks like ------------------------------------------------------------
    @property
    def total_score(self) -> int:
        """The scenarios' scores and bonuses; a lost scenario's only when counted."""
        counted = self.options["lost_scenarios"] == COUNTED
        return sum(r["points"] + r["bonus"] for r in self.records if r["won"] or counted)

    def view(self) -> dict[str, Any]:
        rows = [
            [
                "Scenario",
                Text("{n} ({kind})", n=self.scenario, kind=msg(KIND_NAMES[self.kind])),
            ],
            ["Witch Keys", f"{self.witch_keys}/{self.rules.max_witch_keys}"],
            ["Vault Witch defeated", "yes" if self.witch_defeated else "no"],
            ["Starting Salves", f"+{self.starting_salves_bonus}"],
            ["Gold from keys", self.gold_from_keys],
            ["Extra Boss Loot", self.boss_loot_from_keys],
            ["Score", self.total_score],
        ]
        return {
            "mode": "campaign",
            "heroes": [Text(hero_title(name)) for name in self.heroes],
            "scenario": self.scenario,
            "kind": self.kind,
            "opponent": self.opponent,
            "witch_keys": self.witch_keys,
            "max_witch_keys": self.rules.max_witch_keys,
            "witch_defeated": self.witch_defeated,
            "starting_salves_bonus": self.starting_salves_bonus,
            "gold_from_keys": self.gold_from_keys,
            "boss_loot_from_keys": self.boss_loot_from_keys,
            "vault_witch": None if self.witch_setup is None else self.witch_setup.to_json(),
            "records": self.records,
            "score": self.total_score,
            "finished": self.finished,
            "panels": [{"title": "Campaign", "actor": "table", "rows": rows}],
        }

    def result(self) -> dict[str, Any] | None:
        if not self.finished:
            return None
        return {
            "score": self.total_score,
            "mode": "campaign",
            "party": f"{len(self.heroes)} heroes",
            "heroes": ", ".join(self.heroes),
            "wins": sum(r["won"] for r in self.records),
            "losses": sum(not r["won"] for r in self.records),
            "witch_defeated": self.witch_defeated,
            "records": self.records,
        }
