"""Loot rolls through the One-Shot Loot Table (Unchained rulebook, Glossary).

A Loot Card reward: "Deal the top 3 cards of the respective Loot deck faceup" (solo:
"immediately replace any cards with the Solo symbol"), "Choose one of these cards and
add it directly into your hand", "Place the other two cards on the bottom". Gold:
"Any Gold rewards received from Minions are ignored"; a Loot card that would gain Gold
cannot be chosen. Which roll gives which reward is printed on the players' own table:
rows transcribed in ``data/loot_table.toml`` are looked up, any other roll is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Msg,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.flow import Flow, Step, choose, confirm, number
from dicetable.rules.unchained.data import fields
from dicetable.rules.unchained.party import hero_title

LOOT_CARD, GOLD, OTHER = "loot-card", "gold", "other"


@dataclass(frozen=True)
class Reward:
    id: str
    kind: str
    text: str
    rarity: str = ""


@dataclass(frozen=True)
class LootTable:
    sides: int
    rewards: dict[str, Reward]
    rows: tuple[tuple[int, int, str], ...]

    def lookup(self, roll: int) -> Reward | None:
        for low, high, reward in self.rows:
            if low <= roll <= high:
                return self.rewards[reward]
        return None


@cache
def loot_table(name: str = "loot_table.toml") -> LootTable:
    f = fields(name)
    sides = f.int("loot_die_sides", 2)
    rewards: dict[str, Reward] = {}
    for entry in f.entries("reward"):
        kind = entry.str("kind", (LOOT_CARD, GOLD, OTHER))
        reward = Reward(
            entry.str("id"),
            kind,
            entry.str("text"),
            entry.str("rarity") if kind == LOOT_CARD else "",
        )
        if reward.id in rewards:
            raise entry.fail("id", f"repeats {reward.id!r}")
        rewards[reward.id] = reward
    rows: list[tuple[int, int, str]] = []
    for entry in f.entries("row") if "row" in f.table else []:
        low, high = entry.int("low", 1), entry.int("high", 1)
        reward_id = entry.str("reward", tuple(rewards))
        if not low <= high <= sides:
            raise entry.fail("high", f"must be from low ({low}) to the die's {sides} sides")
        if any(low <= h and l0 <= high for l0, h, _ in rows):
            raise entry.fail("low", f"overlaps another row ({low}-{high})")
        rows.append((low, high, reward_id))
    return LootTable(sides, rewards, tuple(rows))


def reward_effect(
    hero: str, roll: int, reward: Reward, solo: bool, then: Callable[[], list[Event]] = list
) -> tuple[list[Event], Step]:
    """What the table does with one hero's reward: an instruction to confirm."""
    if reward.kind == LOOT_CARD:
        text = msg(
            "{hero} (roll {roll}): deal the top 3 {rarity} Loot cards faceup{solo}; add one"
            " to your hand (ignore swap icons, never one that gains Gold) and put the other"
            " two at the bottom of the {rarity} deck.",
            hero=hero_title(hero),
            roll=roll,
            rarity=msg(reward.rarity),
            solo=msg(", replacing any card with the Solo symbol") if solo else "",
        )
        kind = EventKind.CARD
    elif reward.kind == GOLD:
        text = msg(
            "{hero} (roll {roll}): Gold has no effect in this mode; ignored.",
            hero=hero_title(hero),
            roll=roll,
        )
        kind = EventKind.INFO
    else:
        text = msg(
            "{hero} (roll {roll}): take the reward printed on your One-Shot Loot Table.",
            hero=hero_title(hero),
            roll=roll,
        )
        kind = EventKind.INSTRUCTION
    event = Event(kind, text, {"hero": hero, "roll": roll, "reward": reward.id})
    return [event], confirm(text, Actor.PLAYER, then)


def queue_loot_rolls(
    flow: Flow,
    heroes: list[str],
    why: Msg,
    solo: bool,
    then: Callable[[], list[Event]] = list,
    table_file: str = "loot_table.toml",
) -> list[Event]:
    """Every hero rolls the Loot die, one after another; ``then`` when all are done.
    A Loot die of up to 6 sides is read from the tray; a bigger one is typed."""
    table = loot_table(table_file)

    def roll_step(i: int) -> Step:
        hero = heroes[i]

        def rolled(value: int) -> list[Event]:
            reward = table.lookup(value)
            if reward is None:
                flow.first(ask_reward(i, value))
                return []
            return resolve(i, value, reward)

        if table.sides <= 6:  # a die the tray can read
            prompt = Prompt(
                PromptKind.ROLL,
                msg("{hero}: roll your Loot die in the tray.", hero=hero_title(hero)),
                actor=Actor.PLAYER,
                dice=DiceRequest(1, faces=tuple(str(v) for v in range(1, table.sides + 1))),
            )
            return Step(prompt, lambda answer: rolled(answer.dice[0].value or 0))
        return number(
            msg("{hero}: roll your Loot die and enter the result.", hero=hero_title(hero)),
            1,
            table.sides,
            rolled,
            actor=Actor.PLAYER,
        )

    def ask_reward(i: int, value: int) -> Step:
        return choose(
            msg("What does your One-Shot Loot Table show for {roll}?", roll=value),
            [(r.id, msg(r.text)) for r in table.rewards.values()],
            lambda reward_id: resolve(i, value, table.rewards[reward_id]),
            actor=Actor.PLAYER,
        )

    def resolve(i: int, value: int, reward: Reward) -> list[Event]:
        last = i + 1 == len(heroes)
        events, step = reward_effect(heroes[i], value, reward, solo, then if last else list)
        if last:
            flow.first(step)
        else:
            flow.first(step, roll_step(i + 1))
        return events

    flow.first(roll_step(0))
    return [Event(EventKind.INFO, why)]
