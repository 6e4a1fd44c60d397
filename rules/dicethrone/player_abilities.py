"""What the player's ability does to the Boss, from the hero file and the dice shown.

Pure: an ability (the tier the roll met) and the dice in; an ``Outcome`` out, which
the solo game applies (damage through the Boss's defence unless undefendable, the
Ultimate against his King's Hand, tokens, CP, healing). The same data the Boss plays
by (``heroes/*.toml``), read from the player's side: what the file says the hero
gains goes to the player, what it inflicts goes to the Boss. What the engine cannot
do by itself (an ability's text) comes back as words for the player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dicetable.rules.dicethrone.heroes import Ability, DiceEffect, Hero, Tier
from dicetable.rules.dicethrone.objectives import Objective


@dataclass
class Effects:
    """Dice effects added up: amounts, and the tokens given or gained (with repeats)."""

    damage: int = 0
    heal: int = 0
    prevent: int = 0
    prevent_half: bool = False
    cp: int = 0
    drain: int = 0  # CP the opponent loses
    gain: list[str] = field(default_factory=list)
    inflict: list[str] = field(default_factory=list)


def dice_effects(hero: Hero, effects: Sequence[DiceEffect], values: Sequence[int]) -> Effects:
    """``per`` effects (for each die showing a symbol) and ``when`` effects (once, at
    ``count`` or more such dice) of these dice."""
    counts = Counter(hero.faces[v] for v in values)
    found = Effects()
    for effect in effects:
        times = effect.times(counts[effect.symbol])
        if not times:
            continue
        found.damage += effect.damage * times
        found.heal += effect.heal * times
        found.prevent += effect.prevent * times
        found.prevent_half = found.prevent_half or effect.prevent_half
        found.cp += effect.cp * times
        found.drain += effect.drain * times
        found.gain += [effect.gain] * times if effect.gain else []
        found.inflict += [effect.inflict] * times if effect.inflict else []
    return found


@dataclass
class Outcome:
    """An attack of the player's: ``damage`` before the Boss's defence (none when
    ``undefendable``; the Ultimate is neither defended nor avoided), what the player
    gains, what the Boss receives, an extra roll still to make, and the ability's text."""

    ability: Ability
    tier: Tier
    damage: int
    undefendable: bool
    ultimate: bool
    effects: Effects
    self_damage: int = 0
    spent: tuple[str, int] = ("", 0)  # a token of the player's spent for damage
    roll_dice: int = 0
    texts: list[str] = field(default_factory=list)


def attack(
    hero: Hero, ability: Ability, tier: Tier, values: Sequence[int], own: Mapping[str, int], cp: int
) -> Outcome:
    """The outcome of ``ability`` at ``tier`` with these dice; ``own`` is the player's
    tokens and ``cp`` their CP (abilities that spend tokens or count CP)."""
    shown = dice_effects(hero, tier.per, values)
    shown.heal += tier.heal
    shown.cp += tier.cp
    shown.gain += list(tier.gain)
    shown.inflict += list(tier.inflict)
    damage = tier.damage + shown.damage
    spent = ("", 0)
    if tier.spend_token:  # spend as many as held, up to the most the ability takes
        token, most, each = tier.spend_token
        spent = (token, min(most, own.get(token, 0)))
        damage += spent[1] * each
    if tier.per_token:
        token, each = tier.per_token
        damage += own.get(token, 0) * each
    if tier.cp_damage:
        damage += {"all": cp, "half-up": (cp + 1) // 2, "half-down": cp // 2}[tier.cp_damage]
    ultimate = ability.kind == "ultimate"
    undefendable = tier.undefendable or ultimate or _shows(tier.undefendable_if, values)
    if ability.inflict_if and _shows(ability.inflict_if[0], values):
        shown.inflict.append(ability.inflict_if[1])
    return Outcome(
        ability,
        tier,
        damage,
        undefendable,
        ultimate,
        shown,
        self_damage=tier.self_damage,
        spent=spent,
        roll_dice=tier.roll_dice,
        texts=_texts(ability, values),
    )


def extra_roll(hero: Hero, tier: Tier, values: Sequence[int]) -> tuple[int, Effects]:
    """An ability's extra roll (``roll_dice``): the damage it adds, and its effects."""
    if tier.roll_score == "sum":
        shown, damage = Effects(), sum(values)
    elif tier.roll_score == "half-up":
        shown, damage = Effects(), (values[0] + 1) // 2
    else:
        shown = dice_effects(hero, tier.roll_per, values)
        damage = shown.damage
    if tier.roll_inflict and sum(values) >= tier.roll_inflict[0]:
        shown.inflict.append(tier.roll_inflict[1])
    return damage, shown


def defence(hero: Hero, ability: Ability, values: Sequence[int]) -> tuple[Effects, list[str]]:
    """The player's defensive roll: prevention, healing, damage back at the Boss,
    tokens; and the ability's text when it applies."""
    shown = dice_effects(hero, ability.per, values)
    if ability.inflict_if and _shows(ability.inflict_if[0], values):
        shown.inflict.append(ability.inflict_if[1])
    return shown, _texts(ability, values)


def prevented(damage: int, shown: Effects) -> int:
    """Damage left after a defence: prevention first, then "prevent half the damage
    (rounded up)"."""
    left = max(0, damage - shown.prevent)
    if shown.prevent_half:
        left -= (left + 1) // 2
    return left


def _texts(ability: Ability, values: Sequence[int]) -> list[str]:
    """The ability's text, for the player to do by hand (with ``text_if``: only when
    the roll shows it)."""
    if ability.text and (ability.text_if is None or _shows(ability.text_if, values)):
        return [ability.text]
    return []


def _shows(objective: Objective | None, values: Sequence[int]) -> bool:
    return objective is not None and objective.met_by(list(values))
