"""Solo-mode decks as data: Boss AI cards and Action cards (``decks/<boss>.toml``,
schema in ``decks/README.md``), and the status tokens (``tokens.toml``).

The shipped decks are dicetable's own; a player types in the decks they own in the
same schema. Files are validated on load: errors name the file, the card and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dicetable.rules.core import Msg, NotFound, Text, msg
from dicetable.rules.data_files import read_toml
from dicetable.rules.dicethrone.heroes import HeroDataError, Token, _Where, load_hero
from dicetable.rules.dicethrone.objectives import Objective, ObjectiveError

BONUS_KINDS = ("salve", "bonus-damage", "back-strike", "positive-token", "draw", "cp")
REINFORCEMENT_KEYS = ("gain", "inflict", "cp", "heal")
BLUE_EFFECTS = ("heal", "cp", "damage", "gain", "inflict", "text")
ORANGE_EFFECTS = ("damage", "undefendable", "heal", "inflict", "text")
AMOUNT_EFFECTS = ("heal", "cp", "damage")  # numbers, which may be written with D


@dataclass(frozen=True)
class Amount:
    """A number on a card, possibly written with the difficulty D ("D", "D+1")."""

    base: int = 0
    per_d: int = 0

    def at(self, d: int) -> int:
        return self.base + self.per_d * d

    @classmethod
    def parse(cls, value: Any, where: str) -> Amount:
        if isinstance(value, int) and not isinstance(value, bool):
            return cls(value)
        text = str(value).replace(" ", "").upper()
        if text == "D":
            return cls(0, 1)
        if text.startswith("D+") and text[2:].isdigit():
            return cls(int(text[2:]), 1)
        raise HeroDataError(f'{where}: amount {value!r}: want a number, "D" or "D+n"')


@dataclass(frozen=True)
class Reinforcement:
    key: str  # gain | inflict | cp | heal
    token: str
    amount: Amount


@dataclass(frozen=True)
class AICard:
    name: str
    objective: Objective
    reinforcement: Reinforcement | None
    text: str = ""

    def describe(self, d: int) -> Text:
        """The card as the screen shows it, with D already applied."""
        text = msg("Roll Objective: {objective}.", objective=msg(self.objective.label))
        r = self.reinforcement
        if r is not None:
            amount = r.amount.at(d)
            token = msg(tokens()[r.token].name) if r.token else ""
            what = {
                "gain": msg("the Boss gains {amount} {token}", amount=amount, token=token),
                "inflict": msg("you receive {amount} {token}", amount=amount, token=token),
                "cp": msg("the Boss gains {amount} CP", amount=amount),
                "heal": msg("the Boss heals {amount}", amount=amount),
            }[r.key]
            text = msg(
                "Roll Objective: {objective}. Reinforcement: {reinforcement}.",
                objective=msg(self.objective.label),
                reinforcement=what,
            )
        return Text(_then(text, self.text))


@dataclass(frozen=True)
class ActionCard:
    name: str
    colour: str
    cost: int
    bonus: str
    bonus_amount: Amount
    effect: Mapping[str, Any]  # numbers (heal, cp, damage) as Amounts: they may use D
    text: str = ""

    def effect_at(self, d: int) -> dict[str, Any]:
        """The effect with D applied (2.2.2: "D value on AI Boss cards and Action cards")."""
        return {k: v.at(d) if isinstance(v, Amount) else v for k, v in self.effect.items()}

    def describe(self, d: int = 0) -> Text:
        """The card as the screen shows it: colour, cost, effect, the player's bonus."""
        names = tokens()
        parts: list[Msg] = []
        for key, value in self.effect_at(d).items():
            if key == "gain":
                parts.append(msg("gain {token}", token=msg(names[value].name)))
            elif key == "inflict":
                parts.append(msg("inflict {token}", token=msg(names[value].name)))
            elif key == "undefendable":
                parts.append(msg("the attack is undefendable"))
            elif key == "text":
                parts.append(msg(str(value)))
            else:
                parts.append(
                    {
                        "heal": msg("heal {n}", n=value),
                        "cp": msg("cp {n}", n=value),
                        "damage": msg("damage {n}", n=value),
                    }[key]
                )
        effect = parts[0] if parts else msg("no effect")
        for part in parts[1:]:
            effect = msg("{first}; {then}", first=effect, then=part)
        amount = self.bonus_amount.at(d)
        bonus = {
            "salve": msg("salve"),
            "bonus-damage": msg("bonus damage"),
            "back-strike": msg("back strike"),
            "positive-token": msg("positive token"),
            "draw": msg("draw {n}", n=amount),
            "cp": msg("cp {n}", n=amount),
        }[self.bonus]
        # a typed-in effect text ends its own sentence
        template = (
            "{colour} ({when}), {cost} CP: {effect} Your bonus: {bonus}."
            if str(effect).endswith(".")
            else "{colour} ({when}), {cost} CP: {effect}. Your bonus: {bonus}."
        )
        blue = self.colour == "blue"
        text = msg(
            template,
            colour=msg("Blue") if blue else msg("Orange"),
            when=msg("Main Phase") if blue else msg("end of the Offensive Roll"),
            cost=self.cost,
            effect=effect,
            bonus=bonus,
        )
        return Text(_then(text, self.text))


def _then(text: Msg, more: str) -> Msg:
    """A card's own sentence (data text, translated whole) after what the engine says."""
    return msg("{first} {then}", first=text, then=msg(more)) if more else text


@dataclass(frozen=True)
class Decks:
    boss: str
    ai: tuple[AICard, ...]
    action: tuple[ActionCard, ...]


@cache
def tokens() -> dict[str, Token]:
    """Every status token: tokens.toml plus each hero's own (``fire-mastery``...)."""
    found = {
        t["id"]: Token(t["id"], t["name"], t["kind"], t["stack"])
        for t in read_toml(__package__, "tokens.toml")["tokens"]
    }
    from dicetable.rules.dicethrone.heroes import hero_ids

    for hero_id in hero_ids():
        for token in load_hero(hero_id).tokens:
            found.setdefault(token.id, token)
    return found


def deck_ids() -> list[str]:
    folder = resources.files(__package__).joinpath("decks")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def load_decks(boss: str) -> Decks:
    name = f"decks/{boss}.toml"
    if boss not in deck_ids():
        raise NotFound(f"no solo decks for {boss!r} (decks: {', '.join(deck_ids())})")
    return parse_decks(read_toml(__package__, "decks", f"{boss}.toml"), name)


def parse_decks(data: Mapping[str, Any], name: str) -> Decks:
    where = _Where(name)
    boss = where.get(data, "boss", str)
    hero = load_hero(boss)
    known = tokens()
    ai = []
    for i, entry in enumerate(where.get(data, "ai", list)):
        at = where.at(f"ai[{i}] ({entry.get('name', '?')})")
        try:
            objective = hero.objective(at.get(entry, "objective", str))
        except ObjectiveError as error:
            raise HeroDataError(f"{at}.objective: {error}") from None
        ai.append(
            AICard(
                at.get(entry, "name", str),
                objective,
                _reinforcement(entry, at, known),
                str(entry.get("text", "")),
            )
        )
    actions = []
    for i, entry in enumerate(where.get(data, "action", list)):
        at = where.at(f"action[{i}] ({entry.get('name', '?')})")
        colour = at.get(entry, "colour", str)
        if colour not in ("blue", "orange"):
            raise HeroDataError(f"{at}.colour: {colour!r} is not blue or orange")
        bonus = at.get(entry, "bonus", dict)
        if bonus.get("kind") not in BONUS_KINDS:
            raise HeroDataError(
                f"{at}.bonus.kind: {bonus.get('kind')!r} is not one of {', '.join(BONUS_KINDS)}"
            )
        effect = at.get(entry, "effect", dict)
        allowed = BLUE_EFFECTS if colour == "blue" else ORANGE_EFFECTS
        unknown = set(effect) - set(allowed)
        if unknown or not effect:
            raise HeroDataError(f"{at}.effect: {colour} cards take {', '.join(allowed)}")
        for key in ("gain", "inflict"):
            if key in effect and effect[key] not in known:
                raise HeroDataError(f"{at}.effect.{key}: unknown token {effect[key]!r}")
        effect = {
            k: Amount.parse(v, f"{at}.effect.{k}") if k in AMOUNT_EFFECTS else v
            for k, v in effect.items()
        }
        actions.append(
            ActionCard(
                at.get(entry, "name", str),
                colour,
                at.get(entry, "cost", int),
                bonus["kind"],
                Amount.parse(bonus.get("amount", 1), f"{at}.bonus.amount"),
                effect,
                str(entry.get("text", "")),
            )
        )
    if not ai or not actions:
        raise HeroDataError(f"{name}: a boss needs at least one AI card and one Action card")
    return Decks(boss, tuple(ai), tuple(actions))


def _reinforcement(
    entry: Mapping[str, Any], at: _Where, known: Mapping[str, Token]
) -> Reinforcement | None:
    raw = entry.get("reinforcement")
    if raw is None:
        return None
    keys = [k for k in REINFORCEMENT_KEYS if k in raw]
    if len(keys) != 1:
        raise HeroDataError(
            f"{at}.reinforcement: give exactly one of {', '.join(REINFORCEMENT_KEYS)}"
        )
    key = keys[0]
    if key in ("gain", "inflict"):
        token = raw[key]
        if token not in known:
            raise HeroDataError(f"{at}.reinforcement.{key}: unknown token {token!r}")
        if key == "inflict" and known[token].kind != "negative":
            raise HeroDataError(f"{at}.reinforcement.inflict: {token!r} is not a negative token")
        return Reinforcement(key, token, Amount.parse(raw.get("amount", 1), f"{at}.reinforcement"))
    return Reinforcement(key, "", Amount.parse(raw[key], f"{at}.reinforcement"))
