"""Minion Rush: one hero against a tree of Minions, scored by the Minions defeated.

Unchained rulebook, "Minion Rush": the Level I start, then a left or right path, no
Minion passed while a card lies on top of it, Solo-symbol Minions replaced, Loot rolls
through the One-Shot Loot Table, King's Hand success on 4-6; the Rush ends at 0 Health
or when every Minion is defeated; 1/2/3/6 points per Level I/II/III/IV Minion plus the
remaining Health.
"""

from __future__ import annotations

from typing import Any

from dicetable.rules.core import Actor, Event, EventKind, Input, Prompt, Text, msg
from dicetable.rules.flow import FlowGame, choice, choose, instruction, number
from dicetable.rules.unchained.data import minion_rush_rules
from dicetable.rules.unchained.kings_hand import kings_hand_step
from dicetable.rules.unchained.loot import queue_loot_rolls
from dicetable.rules.unchained.minion_tree import LEFT, RIGHT, ROMAN, MinionTree, TreeNode
from dicetable.rules.unchained.party import (
    Hero,
    SalveRules,
    ask_heroes,
    gain_salve,
    heal_with_salve,
    hero_title,
    set_health,
)

SIDE_NAMES = {LEFT: "left", RIGHT: "right"}
CLARIFICATIONS = msg(
    "Minion Rush rules: you do not skip your Income Phase on your first turn; you cannot"
    " use your Mythic Ability cards; status effects stay on the Hero Board when a Minion"
    " is defeated; Gold has no effect."
)


class MinionRush(FlowGame):
    id = "unchained-minion-rush"
    title = "Dice Throne Adventures: Minion Rush"

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rules = minion_rush_rules()
        self.salve_rules = SalveRules(self.rules.salve_heal, self.rules.salve_stack_limit)
        self.tree = MinionTree()
        self.hero: Hero | None = None
        self.over = False
        ask_heroes(self.flow, 1, self._hero_known)

    def _hero_known(self, names: list[str]) -> list[Event]:
        health = self.rules.starting_health
        self.hero = Hero(names[0], health, health, health + self.rules.heal_above_start)
        event, step = instruction(
            msg(
                "Set up the tree: one Level I Minion aside, two Level IV face-down at the top,"
                " the other Level I/II/III Minions shuffled into positions 1 to 10, then the"
                " Level I on the green space. Set your Health to {health}.",
                health=health,
            )
        )
        rules_event, rules_step = instruction(CLARIFICATIONS)
        revealed = self._reveal(self.tree.start)
        self.flow.first(step, rules_step)
        return [event, rules_event, *revealed]

    # revealing ----------------------------------------------------------------------
    def _next_minion(self) -> list[Event]:
        """Not engaged: reveal the next Minion on the path (or choose the path)."""
        if self.tree.all_defeated():
            return self._end(msg("Every Minion is defeated: the Rush is over."))
        if self.tree.path is None or not self.tree.remaining(self.tree.path):
            sides = self.tree.open_sides()
            if len(sides) == 1:
                self.tree.path = sides[0]
                return [
                    Event(
                        "path",
                        msg("On to the {side} path.", side=msg(SIDE_NAMES[sides[0]])),
                        {"path": sides[0]},
                    ),
                    *self._next_minion(),
                ]
            self.flow.later(
                choose(
                    msg("Which path: left or right?"),
                    [(side, msg(SIDE_NAMES[side].capitalize())) for side in sides],
                    self._path_chosen,
                    actor=Actor.PLAYER,
                )
            )
            return []
        reachable = self.tree.reachable()
        if len(reachable) == 1:
            return self._reveal(reachable[0])
        self.flow.later(
            choose(
                msg("Which uncovered Minion do you reveal?"),
                [(f"position-{n.id}", msg("Position {id}", id=n.id)) for n in reachable],
                lambda option: self._reveal(self.tree.node(option.removeprefix("position-"))),
                actor=Actor.PLAYER,
            )
        )
        return []

    def _path_chosen(self, side: str) -> list[Event]:
        self.tree.path = side
        event = Event(
            "path", msg("The {side} path is chosen.", side=msg(SIDE_NAMES[side])), {"path": side}
        )
        return [event, *self._next_minion()]

    def _reveal(self, node: TreeNode) -> list[Event]:
        if node.level:
            return self._revealed(node, node.level)
        self.flow.first(
            choose(
                msg("Position {id}: which level is the revealed Minion?", id=node.id),
                [(f"level-{n}", msg("Level {level}", level=ROMAN[n])) for n in (1, 2, 3)],
                lambda level: self._revealed(node, int(level.removeprefix("level-"))),
                actor=Actor.PLAYER,
            )
        )
        return []

    def _revealed(self, node: TreeNode, level: int) -> list[Event]:
        """The Solo-symbol check, then engage."""

        def solo(answer: str) -> list[Event]:
            if answer == "no":
                return self._engage(node, level)
            event, step = instruction(
                msg(
                    "Discard this Minion and replace it with a new random Level {level} Minion.",
                    level=ROMAN[level],
                )
            )
            self.flow.first(step, check())
            return [event]

        def check() -> Any:
            return choose(
                msg("Does the Level {level} Minion show the Solo symbol?", level=ROMAN[level]),
                [("no", msg("No")), ("yes", msg("Yes"))],
                solo,
                actor=Actor.PLAYER,
            )

        self.flow.first(check())
        return []

    def _engage(self, node: TreeNode, level: int) -> list[Event]:
        self.tree.levels[node.id] = level
        self.tree.engaged = node.id
        text = msg(
            "Engage the Level {level} Minion at position {id}: perform its Minion setup.",
            level=ROMAN[level],
            id=node.id,
        )
        return [
            Event(EventKind.INSTRUCTION, text, {"node": node.id, "level": level}),
            self._drawn(),
        ]

    def _drawn(self) -> Event:
        """The tree as text, for the terminal and the log (the screen draws ``view()``)."""
        lines = "\n".join(self.tree.text())
        return Event("tree", msg("Minion tree:\n{tree}", tree=lines), self.tree.to_json())

    # the menu ------------------------------------------------------------------------
    def main_prompt(self) -> Prompt:
        if self.over or self.tree.engaged is None:
            return super().main_prompt()
        options = [
            ("defeated", msg("The Minion is defeated")),
            ("damage", msg("You take damage")),
            ("health", msg("Set your Health")),
            ("gain-salve", msg("Gain a Salve (from a Loot card)")),
            ("kings-hand", msg("Roll for a King's Hand token")),
        ]
        hero = self.hero
        if hero is not None and hero.salves and hero.health < hero.heal_cap:
            options.insert(3, ("salve", msg("Spend a Salve: heal {n}", n=self.salve_rules.heal)))
        level = self.tree.levels[self.tree.engaged]
        return choice(
            msg("Fighting the Level {level} Minion: what happened?", level=ROMAN[level]),
            options,
            actor=Actor.PLAYER,
        )

    def main_apply(self, answer: Input) -> list[Event]:
        hero = self.hero
        assert hero is not None
        if answer.choice == "defeated":
            return self._defeated()
        if answer.choice == "damage":
            self.flow.first(
                number(
                    msg("Damage taken (Health {health})?", health=hero.health),
                    1,
                    hero.health,
                    lambda n: self._set_health(hero.health - n),
                )
            )
            return []
        if answer.choice == "health":
            self.flow.first(
                number(
                    msg("Your Health now (0 to {cap})?", cap=hero.heal_cap),
                    0,
                    hero.heal_cap,
                    self._set_health,
                )
            )
            return []
        if answer.choice == "salve":
            return [heal_with_salve(hero, self.salve_rules)]
        if answer.choice == "gain-salve":
            return [gain_salve(hero, self.salve_rules)]
        self.flow.first(kings_hand_step(self.rules.kings_hand_success, lambda _met: []))
        return []

    def _defeated(self) -> list[Event]:
        node_id = self.tree.engaged
        assert node_id is not None and self.hero is not None
        level = self.tree.levels[node_id]
        self.tree.defeated.append(node_id)
        self.tree.engaged = None
        points = self.rules.points[level]
        events = [
            Event(
                EventKind.SCORE,
                msg(
                    "The Level {level} Minion is defeated: +{points} to the score.",
                    level=ROMAN[level],
                    points=points,
                ),
                {"node": node_id, "level": level, "points": points},
            ),
            self._drawn(),
        ]
        return events + queue_loot_rolls(
            self.flow,
            [self.hero.name],
            msg("At the end of your turn, roll your Loot die."),
            solo=True,
            then=self._next_minion,
        )

    def _set_health(self, value: int) -> list[Event]:
        assert self.hero is not None
        events = [set_health(self.hero, value)]
        if value == 0:
            events += self._end(msg("Your Health is 0: the Rush is over."))
        return events

    def _end(self, why: Any) -> list[Event]:
        self.over = True
        self.flow.clear()
        score = self.breakdown()
        total = msg(
            "Score {score}: {minions} points for the Minions defeated + {health} Health.",
            score=score["score"],
            minions=score["minion_points"],
            health=score["health"],
        )
        return [Event(EventKind.SCORE, why, score), Event(EventKind.SCORE, total, score)]

    # score -----------------------------------------------------------------------------
    def breakdown(self) -> dict[str, int]:
        """Conclusion: points per Minion defeated by level, plus the Health total."""
        minions = sum(self.rules.points[level] for level in self.tree.defeated_levels())
        health = self.hero.health if self.hero else 0
        return {"minion_points": minions, "health": health, "score": minions + health}

    def view(self) -> dict[str, Any]:
        hero = self.hero
        rows: list[list[Any]] = []
        if hero is not None:
            rows = [["Health", hero.health], ["Salves", hero.salves]]
        rows.append(["Minions defeated", len(self.tree.defeated)])
        rows.append(["Score", self.breakdown()["score"]])
        return {
            "mode": "minion-rush",
            "hero": None if hero is None else hero.to_json(),
            "tree": self.tree.to_json(),
            "score": self.breakdown(),
            "over": self.over,
            "panels": [
                {
                    "title": Text(hero_title(hero.name)) if hero else "Hero",
                    "actor": "player",
                    "rows": rows,
                }
            ],
        }

    def result(self) -> dict[str, Any] | None:
        if not self.over or self.hero is None:
            return None
        return {
            "mode": "minion-rush",
            "party": "1 hero",
            "heroes": self.hero.name,
            "defeated": self.tree.defeated_levels(),
            **self.breakdown(),
        }
