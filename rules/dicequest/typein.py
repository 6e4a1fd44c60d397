"""Typing in a card the game does not know, at the table: a short form of TEXT, NUMBER
and CHOOSE prompts (the answers are logged like any other, so the game replays). It
asks what a card prints, in the rulebook's words: its name first (the rulebook names
its cards: the "Stormcaller" Quest card of Example: Quest, the "Death Dealer"
Adventure card of Example: Adventure), then Party Size, the symbols required,
the wounds, and the rewards (Reward Step; for an Adventure, the tracked symbol and
the first, second and third rewards of The Adventure Path). It covers what most cards
print; a card with unusual acceptable symbols is written as TOML in the catalogue
instead (data/README.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dicetable.rules.core import Actor, Input, Msg, Option, Prompt, PromptKind, TextEntry, msg
from dicetable.rules.dicequest.data import SYMBOLS, Card, Requirement
from dicetable.rules.dicequest.words import typed_name, unnamed

GENERIC = ("sword", "arrow", "wand", "shield")  # "generic successes" (Example: Adventure)
REWARD_FIELDS = ("gold", "vp", "level_up", "basic_item", "legendary_item")

Step = tuple[str, Msg, Any]  # field, question, (low, high), the choice ids or a TextEntry


@dataclass
class CardForm:
    kind: str  # "quest" | "adventure"
    act: int
    card_id: str
    then: str  # the stage to return to
    #: whether the card's name is asked: not in a game saved before it was, which
    #: replays as it was saved (its card then keeps its number for a name)
    named: bool = True
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> str:
        return self.card_id.rsplit("-", 1)[-1]

    def default_name(self) -> Msg:
        return typed_name(self.kind, self.number, self.act)

    def steps(self) -> list[Step]:
        named: list[Step] = [
            ("name", msg("The card's name, as printed on it?"), TextEntry(self.default_name()))
        ]
        steps: list[Step] = [
            *(named if self.named else []),
            ("party_min", msg("Party Size: the smallest number of Heroes?"), (0, 3)),
            (
                "party_max",
                msg("Party Size: the largest number of Heroes?"),
                (self.values.get("party_min", 0), 3),
            ),
        ]
        steps += [
            (s, msg("How many {symbol} symbols are required?", symbol=msg(s)), (0, 12))
            for s in SYMBOLS
        ]
        steps += [
            (
                "success",
                msg("How many generic successes (any Sword, Arrow, Wand or Shield)?"),
                (0, 12),
            ),
            ("light", msg("How many Light Wound symbols?"), (0, 12)),
            ("deadly", msg("How many Deadly Wound symbols?"), (0, 12)),
            ("unblockable", msg("How many Unblockable Wound symbols?"), (0, 12)),
            (
                "per",
                msg("An Unblockable Light Wound for each kept symbol of which kind?"),
                ("none", *SYMBOLS),
            ),
        ]
        if self.kind == "quest":
            return [
                *steps,
                ("g_gold", msg("Guaranteed Reward: how much Gold?"), (0, 12)),
                ("gold", msg("Success Reward: how much Gold?"), (0, 12)),
                ("vp", msg("Success Reward: how many Victory Points?"), (0, 20)),
                ("level_up", msg("Success Reward: how many Level Ups?"), (0, 3)),
                ("basic_item", msg("Success Reward: how many Basic Items?"), (0, 3)),
                ("legendary_item", msg("Success Reward: how many Legendary Items?"), (0, 3)),
            ]
        return [
            *steps,
            (
                "tracked",
                msg("Which symbol does the Adventure Score track?"),
                ("required", *GENERIC),
            ),
            ("first", msg("Reward for the first place: how many VP?"), (0, 30)),
            ("second", msg("Reward for the second place: how many VP?"), (0, 30)),
            ("third", msg("Reward for the third place: how many VP?"), (0, 30)),
        ]

    def _step(self) -> Step:
        return self.steps()[len(self.values)]

    def prompt(self) -> Prompt:
        _, question, spec = self._step()
        title = msg(
            "New Quest card (Act {act}): {question}"
            if self.kind == "quest"
            else "New Adventure card (Act {act}): {question}",
            act=self.act,
            question=question,
        )
        if isinstance(spec, TextEntry):
            return Prompt(PromptKind.TEXT, title, actor=Actor.TABLE, entry=spec)
        if isinstance(spec[0], str):
            options = tuple(Option(s, msg(s)) for s in spec)
            return Prompt(PromptKind.CHOOSE, title, actor=Actor.TABLE, options=options)
        return Prompt(PromptKind.NUMBER, title, actor=Actor.TABLE, number_range=spec)

    def answer(self, answer: Input) -> Card | None:
        """Record one answer (already checked against ``prompt()``); the card when the
        form is complete."""
        key, _, spec = self._step()
        if isinstance(spec, TextEntry):
            self.values[key] = answer.text.strip()
        else:
            self.values[key] = answer.choice if isinstance(spec[0], str) else answer.number
        return self.card() if len(self.values) == len(self.steps()) else None

    def card(self) -> Card:
        v = self.values
        require = [Requirement(s, v[s], (s,)) for s in SYMBOLS if v[s]]
        if v["success"]:
            require.append(Requirement("success", v["success"], GENERIC))
        common: dict[str, Any] = {
            "id": self.card_id,
            "name": v.get("name", unnamed(self.kind, self.number, self.act)),
            "kind": self.kind,
            "act": self.act,
            "party": (v["party_min"], v["party_max"]),
            "require": tuple(require),
            "light": v["light"],
            "deadly": v["deadly"],
            "unblockable": v["unblockable"],
            "unblockable_per": () if v["per"] == "none" else (v["per"],),
            "inferred": "typed in at the table",
        }
        if self.kind == "quest":
            success = {k: v[k] for k in REWARD_FIELDS if v[k]}
            guaranteed = {"gold": v["g_gold"]} if v["g_gold"] else {}
            return Card(**common, guaranteed=guaranteed, success=success)
        accepted = tuple(dict.fromkeys(a for r in require for a in r.accepts))
        tracked = accepted if v["tracked"] == "required" else (v["tracked"],)
        return Card(**common, tracked=tracked, rewards=(v["first"], v["second"], v["third"]))
