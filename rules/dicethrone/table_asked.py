"""What a hero file marks as not public (``damage = "ask"`` on a tier, ``dice = "ask"``
on a defence): the table holds the physical hero board, so the app names the ability
the Boss uses (chosen as ever by 4. "furthest to the right..., then furthest down")
and asks the number printed on it, rather than invent one. Each answer is a typed
number, kept like any other, so a replayed game asks and applies it again."""

from __future__ import annotations

from dicetable.rules.core import Actor, EventKind, Input, Msg, Prompt, PromptKind, msg
from dicetable.rules.dicethrone import health, offensive_roll
from dicetable.rules.dicethrone.solo_state import MAX_DAMAGE, SoloState


def table_number(text: Msg, most: int) -> Prompt:
    """A number read off the hero board and typed at the table (0 to ``most``)."""
    return Prompt(PromptKind.NUMBER, text, Actor.TABLE, number_range=(0, most))


def ask_damage(s: SoloState, data: dict) -> Prompt:
    ability = s.boss_hero.ability(data["id"], data["level"])
    tier = ability.tiers[data["tier"]]
    return table_number(
        msg(
            "The Boss uses {ability} ({objective}). How much damage does it deal, as "
            "printed on the hero board?",
            ability=msg(ability.name),
            objective=msg(tier.objective.label),
        ),
        MAX_DAMAGE,
    )


def on_damage(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    ability = s.boss_hero.ability(data["id"], data["level"])
    tier = ability.tiers[data["tier"]]
    damage = data["damage"] + answer.number
    s.say(
        EventKind.INFO,
        msg("{ability}: {n} damage, as the board says.", ability=msg(ability.name), n=damage),
    )
    offensive_roll.resolve_attack(s, ability, tier, damage, data["heal"])
    # queued before the attack's defence: the effect is carried out as it resolves
    s.instruct(
        msg(
            "Carry out any other effect printed on {ability} (tokens, healing, CP).",
            ability=msg(ability.name),
        ),
        Actor.BOSS,
    )


def ask_defense(s: SoloState, data: dict) -> Prompt:
    """The Boss's defence whose dice and effect are not public: the table rolls it as
    the board says and types the damage it prevents."""
    defense = s.boss_hero.defense(s.levels)
    return table_number(
        msg(
            "The Boss defends with {name} against {damage} damage: roll it as the hero "
            "board says. How much damage does it prevent?",
            name=msg(defense.name),
            damage=data["damage"],
        ),
        data["damage"],
    )


def on_defense(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    defense = s.boss_hero.defense(s.levels)
    s.say(
        EventKind.INFO,
        msg("{name} prevents {n} damage.", name=msg(defense.name), n=answer.number),
    )
    health.hurt_boss(s, data["damage"] - answer.number)
    if not s.winner:
        s.then(("asked_defense_damage", {}))


def ask_defense_damage(s: SoloState, data: dict) -> Prompt:
    defense = s.boss_hero.defense(s.levels)
    return table_number(
        msg(
            "How much damage does {name} deal to you (0 if none)? Carry out any other "
            "effect printed on it.",
            name=msg(defense.name),
        ),
        MAX_DAMAGE,
    )


def on_defense_damage(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.number:
        health.hurt_player(s, answer.number)
