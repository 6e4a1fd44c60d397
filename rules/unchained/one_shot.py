"""One-Shot Adventure: a wave of Minions, then a Boss, with one party and one score.

Unchained rulebook, "Other Game Modes: One-Shot Adventure". The players fight with
their own boards and cards; the table keeps each hero's Health and Salves, the Boss's
Health, asks the Loot rolls through the One-Shot Loot Table, applies the party-loses
rule and scores: remaining Health + 6 per Salve + the Boss Bonus Points.
"""

from __future__ import annotations

from typing import Any

from dicetable.rules.core import Actor, Event, EventKind, Input, Prompt, Text, msg
from dicetable.rules.flow import FlowGame, choice, choose, instruction, number
from dicetable.rules.unchained.data import Boss, one_shot_rules
from dicetable.rules.unchained.loot import queue_loot_rolls
from dicetable.rules.unchained.party import (
    Hero,
    SalveRules,
    ask_party,
    gain_salve,
    heal_with_salve,
    hero_title,
    revive_with_salve,
    set_health,
)

LEVELS = {1: "I", 2: "II", 3: "III", 4: "IV"}
CLARIFICATIONS = msg(
    "One-Shot rules: you do not skip your Income Phase on your first turn; you cannot use"
    " your Mythic Ability cards; status effects stay on the Hero Board when a Minion is"
    " defeated; Gold has no effect."
)


class OneShot(FlowGame):
    id = "unchained-one-shot"
    title = "Dice Throne Adventures: One-Shot Adventure"

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rules = one_shot_rules()
        self.salve_rules = SalveRules(self.rules.salve_heal, self.rules.salve_stack_limit)
        self.heroes: list[Hero] = []
        self.map = 0
        self.engaged: int | None = None  # the Minion level the party is engaged with
        self.minions_defeated: list[int] = []
        self.boss: Boss | None = None
        self.boss_health = 0
        self.boss_max = 0
        self.outcome: str | None = None  # "won" or "lost"
        ask_party(self.flow, self._heroes_known)

    # setup ------------------------------------------------------------------------
    def _heroes_known(self, names: list[str]) -> list[Event]:
        size = len(names)
        health = self.rules.hero_health[size - 1]
        cap = health + self.rules.heal_above_start
        self.heroes = [Hero(name, health, health, cap) for name in names]
        chests = self.rules.loot_chests[size - 1]
        events = [
            Event(
                EventKind.INSTRUCTION,
                msg("Each hero sets their Health to {health}.", health=health),
                {"health": health},
            )
        ]
        self.flow.later(
            number(
                msg("Which One-Shot Map (1 to {n})?", n=self.rules.maps),
                1,
                self.rules.maps,
                self._map_chosen,
            )
        )
        events += self._chests(chests)
        return events

    def _chests(self, left: int) -> list[Event]:
        """Starting Loot Chests, one after another (each: every hero rolls)."""
        if left == 0:
            return []
        return queue_loot_rolls(
            self.flow,
            self.names,
            msg("Loot Chest: every hero rolls their Loot die ({n} to open).", n=left),
            solo=len(self.heroes) == 1,
            then=lambda: self._chests(left - 1),
        )

    def _map_chosen(self, number_: int) -> list[Event]:
        self.map = number_
        event, step = instruction(CLARIFICATIONS)
        self.flow.first(step)
        return [Event(EventKind.INFO, msg("One-Shot Map {n}.", n=number_)), event]

    def hero_id(self, hero: Hero) -> str:
        """Option ids for heroes: 'hero-1'... (numbers alone would read as positions)."""
        return f"hero-{self.heroes.index(hero) + 1}"

    def hero_by_id(self, hero_id: str) -> Hero:
        return self.heroes[int(hero_id.removeprefix("hero-")) - 1]

    @property
    def names(self) -> list[str]:
        return [hero.name for hero in self.heroes]

    # the menu -----------------------------------------------------------------------
    def main_prompt(self) -> Prompt:
        if self.outcome is not None:
            return super().main_prompt()
        return choice(self._menu_text(), self._menu(), actor=Actor.PLAYER)

    def _menu_text(self) -> Any:
        if self.boss is not None:
            return msg("Boss Battle against {boss}: what happened?", boss=msg(self.boss.name))
        if self.engaged is not None:
            return msg(
                "Engaged with a Level {level} Minion: what happened?", level=LEVELS[self.engaged]
            )
        return msg("Moving along the One-Shot Map: what happened?")

    def _menu(self) -> list[tuple[str, Any]]:
        options: list[tuple[str, Any]] = []
        if self.boss is not None:
            options.append(("boss-damage", msg("Damage the Boss")))
            options.append(("boss-health", msg("Set the Boss's Health")))
        elif self.engaged is not None:
            options.append(("minion-defeated", msg("The Minion is defeated")))
        else:
            options += [
                ("engage", msg("Engage a Minion")),
                ("loot-chest", msg("Passed a Loot Chest symbol")),
                ("salve-symbol", msg("Passed a Salve symbol")),
                ("boss", msg("Reached the Boss")),
            ]
        options.append(("damage", msg("A hero takes damage")))
        options.append(("health", msg("Set a hero's Health")))
        if any(h.salves and not h.fallen for h in self.heroes):
            options.append(("salve", msg("Spend a Salve")))
        return options

    def main_apply(self, answer: Input) -> list[Event]:
        action = answer.choice
        if action == "engage":
            self.flow.first(
                choose(
                    msg("Which level is the Minion space?"),
                    [
                        (f"level-{n}", msg("Level {level}", level=name))
                        for n, name in LEVELS.items()
                    ],
                    lambda level: self._engage(level.removeprefix("level-")),
                )
            )
        elif action == "minion-defeated":
            return self._minion_defeated()
        elif action == "loot-chest":
            return queue_loot_rolls(
                self.flow,
                self.names,
                msg("Loot Chest: every hero rolls their Loot die."),
                solo=len(self.heroes) == 1,
            )
        elif action == "salve-symbol":
            return self._for_hero(msg("Which hero gains the Salve?"), self._gain_salve)
        elif action == "boss":
            self.flow.first(
                choose(
                    msg("Which Boss does the party face?"),
                    [(b.id, msg(b.name)) for b in self.rules.bosses],
                    self._boss_chosen,
                )
            )
        elif action == "boss-health":
            self.flow.first(
                number(msg("The Boss's Health now?"), 0, self.boss_max, self._boss_health)
            )
        elif action == "boss-damage":
            self.flow.first(
                number(
                    msg("Damage dealt to the Boss?"),
                    1,
                    self.boss_health,
                    lambda n: self._boss_health(self.boss_health - n),
                )
            )
        elif action == "damage":
            alive = [h for h in self.heroes if not h.fallen]
            return self._for_hero(msg("Who takes damage?"), self._ask_damage, alive)
        elif action == "health":
            return self._for_hero(msg("Whose Health changed?"), self._ask_health)
        elif action == "salve":
            spenders = [h for h in self.heroes if h.salves and not h.fallen]
            return self._for_hero(msg("Who spends a Salve?"), self._spend_salve, spenders)
        return []

    def _for_hero(self, text: Any, then: Any, heroes: list[Hero] | None = None) -> list[Event]:
        """Ask which hero, unless only one can be meant (a solo One-Shot never asks)."""
        heroes = self.heroes if heroes is None else heroes
        if len(heroes) == 1:
            return then(heroes[0])
        step = choose(
            text,
            [
                (
                    self.hero_id(h),
                    msg(
                        "{hero} (Health {health}, Salves {salves})",
                        hero=h.title,
                        health=h.health,
                        salves=h.salves,
                    ),
                )
                for h in heroes
            ],
            lambda hero_id: then(self.hero_by_id(hero_id)),
        )
        self.flow.first(step)
        return []

    # Minions ------------------------------------------------------------------------
    def _engage(self, level: str) -> list[Event]:
        self.engaged = int(level)
        text = msg(
            "Draw a Level {level} Minion card and set it up; every hero is engaged with it.",
            level=LEVELS[self.engaged],
        )
        event, step = instruction(text)
        self.flow.first(step)
        return [event]

    def _minion_defeated(self) -> list[Event]:
        level = self.engaged
        self.engaged = None
        self.minions_defeated.append(level or 0)
        events = [
            Event(
                "minion_defeated",
                msg("The Level {level} Minion is defeated.", level=LEVELS.get(level or 0, "?")),
                {"level": level},
            )
        ]
        return events + queue_loot_rolls(
            self.flow,
            self.names,
            msg(
                "At the end of the active player's turn (after the Discard Phase), every hero"
                " rolls their Loot die."
            ),
            solo=len(self.heroes) == 1,
        )

    # Health and Salves ----------------------------------------------------------------
    def _gain_salve(self, hero: Hero) -> list[Event]:
        return [gain_salve(hero, self.salve_rules)]

    def _ask_damage(self, hero: Hero) -> list[Event]:
        self.flow.first(
            number(
                msg("Damage to {hero} (Health {health})?", hero=hero.title, health=hero.health),
                1,
                hero.health,
                lambda n: self._set_health(hero, hero.health - n),
            )
        )
        return []

    def _ask_health(self, hero: Hero) -> list[Event]:
        self.flow.first(
            number(
                msg("{hero}'s Health now (0 to {cap})?", hero=hero.title, cap=hero.heal_cap),
                0,
                hero.heal_cap,
                lambda value: self._set_health(hero, value),
            )
        )
        return []

    def _set_health(self, hero: Hero, value: int) -> list[Event]:
        events = [set_health(hero, value)]
        if value == 0:
            if self.boss is not None:
                self.flow.first(
                    choose(
                        msg("Did the Boss's Ultimate reduce {hero} to 0?", hero=hero.title),
                        [("no", msg("No")), ("yes", msg("Yes: no Salve may be used"))],
                        lambda answer: self._fallen(hero, ultimate=answer == "yes"),
                    )
                )
                return events
            events += self._fallen(hero, ultimate=False)
        return events

    def _fallen(self, hero: Hero, ultimate: bool) -> list[Event]:
        """At 0 Health: a teammate's Salve revives, or the party loses."""
        savers = [h for h in self.heroes if h is not hero and h.salves and not h.fallen]
        if ultimate or not savers:
            return self._party_loses(hero, ultimate)
        options = [
            (self.hero_id(h), msg("Revive with {spender}'s Salve", spender=h.title)) for h in savers
        ]
        options.append(("none", msg("No revive: the party loses")))

        def resolve(choice: str) -> list[Event]:
            if choice == "none":
                return self._party_loses(hero, ultimate=False)
            return [revive_with_salve(self.hero_by_id(choice), hero)]

        self.flow.first(
            choose(msg("{hero} has fallen. Revive them?", hero=hero.title), options, resolve)
        )
        return []

    def _party_loses(self, hero: Hero, ultimate: bool) -> list[Event]:
        self.outcome = "lost"
        why = (
            msg(
                "{hero} fell to the Boss's Ultimate: no Salve may be used. The party loses.",
                hero=hero.title,
            )
            if ultimate
            else msg("{hero} fell and could not be revived. The party loses.", hero=hero.title)
        )
        self.flow.clear()
        return [Event(EventKind.INFO, why, {"hero": hero.name})]

    def _spend_salve(self, spender: Hero) -> list[Event]:
        options = []
        if spender.health < spender.heal_cap:
            options.append(
                (
                    "heal",
                    msg(
                        "Heal {n} on {hero}'s own Health dial",
                        n=self.salve_rules.heal,
                        hero=spender.title,
                    ),
                )
            )
        options += [
            (self.hero_id(h), msg("Revive {hero} to 1 Health", hero=h.title))
            for h in self.heroes
            if h.fallen and h is not spender
        ]
        if not options:
            return [
                Event(
                    EventKind.INFO, msg("{hero} is at the most Health allowed.", hero=spender.title)
                )
            ]

        def resolve(choice: str) -> list[Event]:
            if choice == "heal":
                return [heal_with_salve(spender, self.salve_rules)]
            return [revive_with_salve(spender, self.hero_by_id(choice))]

        self.flow.first(
            choose(msg("How does {hero} use the Salve?", hero=spender.title), options, resolve)
        )
        return []

    # the Boss -----------------------------------------------------------------------
    def _boss_chosen(self, boss_id: str) -> list[Event]:
        boss = next(b for b in self.rules.bosses if b.id == boss_id)
        size = len(self.heroes)
        self.boss = boss
        self.boss_max = self.boss_health = self.rules.boss_health[size - 1]
        upgrade = self.rules.boss_upgrade_cp[size - 1]
        text = msg(
            "Set up {boss}: Health {health}, Upgrade CP {upgrade}, Starting CP {cp}, King's Hand"
            " tokens as printed on your One-Shot Map. Keep each hero's Health separate; the"
            " player whose turn it was acts first.",
            boss=msg(boss.name),
            health=self.boss_health,
            upgrade=upgrade,
            cp=self.rules.boss_starting_cp,
        )
        event, step = instruction(text)
        self.flow.first(step)
        data = {
            "boss": boss.id,
            "health": self.boss_health,
            "upgrade_cp": upgrade,
            "starting_cp": self.rules.boss_starting_cp,
        }
        return [Event(event.kind, text, data)]

    def _boss_health(self, value: int) -> list[Event]:
        dealt = self.boss_health - value
        self.boss_health = value
        events = [
            Event(
                EventKind.DAMAGE if dealt > 0 else EventKind.HEAL,
                msg("The Boss's Health: {health}.", health=value),
                {"health": value, "change": -dealt},
            )
        ]
        if value == 0:
            self.outcome = "won"
            events.append(
                Event(
                    EventKind.SCORE,
                    msg("The Boss is defeated! Score: {score}.", score=self.score),
                    self.breakdown(),
                )
            )
        return events

    # score --------------------------------------------------------------------------
    def breakdown(self) -> dict[str, int]:
        """Unchained rulebook, One-Shot Adventure Scoring, steps 1-3."""
        health = sum(h.health for h in self.heroes)
        salves = sum(h.salves for h in self.heroes) * self.rules.points_per_salve
        bonus = self.boss.bonus_points if self.boss is not None else 0
        return {
            "health": health,
            "salves": salves,
            "boss_bonus": bonus,
            "score": health + salves + bonus,
        }

    @property
    def score(self) -> int:
        return self.breakdown()["score"]

    def view(self) -> dict[str, Any]:
        panels = [
            {
                "title": Text(hero_title(hero.name)),
                "actor": "player",
                "rows": [["Health", hero.health], ["Salves", hero.salves]],
            }
            for hero in self.heroes
        ]
        view: dict[str, Any] = {
            "mode": "one-shot",
            "map": self.map,
            "heroes": [h.to_json() for h in self.heroes],
            "engaged": self.engaged,
            "minions_defeated": self.minions_defeated,
            "boss": None
            if self.boss is None
            else {
                "id": self.boss.id,
                "name": self.boss.name,
                "health": self.boss_health,
                "max": self.boss_max,
            },
            "outcome": self.outcome,
            "score": self.breakdown(),
            "panels": panels,
        }
        if self.boss is not None:
            view["gauge"] = {
                "label": self.boss.name,
                "value": self.boss_health,
                "max": self.boss_max,
            }
            panels.insert(
                0,
                {"title": self.boss.name, "actor": "boss", "rows": [["Health", self.boss_health]]},
            )
        return view

    def result(self) -> dict[str, Any] | None:
        if self.outcome is None:
            return None
        common = {
            "mode": "one-shot",
            "party": f"{len(self.heroes)} heroes",
            "heroes": ", ".join(self.names),
            "won": self.outcome == "won",
            "map": self.map,
            "boss": None if self.boss is None else self.boss.id,
        }
        if self.outcome == "won":
            return {**common, **self.breakdown()}
        return common
