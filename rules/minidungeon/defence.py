"""Being hit: defence actions (dodge 5+, parry 4+, shields), health loss, wounds."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from dicetable.rules.core import (
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import save_odds, save_passes
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import DungeonState, phase


@phase
def hit_hero(
    s: DungeonState, hero: Hero, damage: int, *, crit: bool, ranged: bool, source: Monster | None
) -> None:
    """A hit on a hero: defence actions (one after another while they succeed,
    none after a failed one), then the health loss."""
    if hero.invulnerable:
        s.emit(EventKind.INFO, msg("{hero} is invulnerable this round.", hero=s.hero_name(hero)))
        return

    def take(damage: int) -> None:
        if damage > 0:
            if source is not None and source.kind == "patchwork":
                hero.stunned = True
                s.emit(
                    EventKind.INFO,
                    msg("Stun: {hero} has half speed next round.", hero=s.hero_name(hero)),
                )
            s.flow.first(hurt(s, hero, damage))

    def defend_against(damage: int) -> None:
        if damage <= 0:
            take(damage)
            return
        options = defences(s, hero, crit=crit, ranged=ranged)
        if len(options) == 1:
            take(damage)
            return

        def picked(pick: str) -> None:
            if pick == "take":
                take(damage)
                return

            def saved(ok: bool) -> None:
                if not ok:
                    take(damage)
                elif pick in ("dodge", "parry", "cloak"):
                    defend_against(0)
                else:
                    defend_against(damage - 1)

            defend(s, hero, pick, saved, ranged=ranged)

        s.choose(
            msg("{hero} is hit ({n} damage). Defend?", hero=s.hero_name(hero), n=damage),
            options,
            picked,
        )

    defend_against(damage)


def defences(s: DungeonState, hero: Hero, *, crit: bool, ranged: bool) -> list[tuple[str, Msg]]:
    options: list[tuple[str, Msg]] = [("take", msg("Take the hit"))]
    dodge = 5 - save_bonus(s, hero, dodge=True, ranged=ranged)
    if not crit:
        if not hero.cloak_used and any(i.free_dodge for i in fig.gear(hero, s.book)):
            options.append(("cloak", msg("Shadow Cloak: free dodge ({n}+)", n=dodge)))
        if hero.speed_left >= 1:
            options.append(("dodge", msg("Dodge (1 speed, {n}+)", n=dodge)))
    save = save_bonus(s, hero, dodge=False, ranged=ranged)
    if hero.speed_left >= 1 and fig.can_parry(hero, s.book):
        options.append(("parry", msg("Parry (1 speed, {n}+)", n=4 - save)))
    for item_id in dict.fromkeys(hero.hands):
        item = s.book.items[item_id]
        if item.save == "shield" and hero.speed_left >= item.save_cost:
            options.append(
                (
                    f"shield:{item.id}",
                    msg(
                        "{item} ({s} speed, {n}+, prevents 1 health loss)",
                        item=msg(item.name),
                        s=item.save_cost,
                        n=max(1, item.save_target - save),
                    ),
                )
            )
    for item_id in hero.worn.values():
        if s.book.items[item_id].save == "discard":
            options.append(
                (
                    f"discard:{item_id}",
                    msg(
                        "Discard the {item} to prevent 1 health loss",
                        item=s.item_name(item_id),
                    ),
                )
            )
    return options


def save_bonus(s: DungeonState, hero: Hero, *, dodge: bool, ranged: bool) -> int:
    bonus = 1 if hero.aura else 0
    if hero.motivation == "town_hero" and "living_legend" in s.room.effects:
        bonus += 1
    if dodge:
        bonus += 1 if hero.motivation == "veteran" else 0
        bonus += 1 if ranged and "ranged_dodge" in s.book.classes[hero.cls].specials else 0
    return bonus


def defend(
    s: DungeonState, hero: Hero, pick: str, then: Callable[[bool], None], *, ranged: bool
) -> None:
    """A defence action; ``then`` is told whether it saved."""
    kind, _, item_id = pick.partition(":")
    if kind == "discard":
        fig.remove(hero, item_id)
        s.emit(
            EventKind.INFO,
            msg(
                "{hero} discards the {item}.",
                hero=s.hero_name(hero),
                item=s.item_name(item_id),
            ),
        )
        then(True)
        return
    if kind == "shield":
        item = s.book.items[item_id]
        hero.speed_left -= item.save_cost
        target, name = item.save_target, msg(item.name)
    elif kind == "cloak":
        hero.cloak_used = True
        target, name = 5, msg("Shadow Cloak")
    else:
        hero.speed_left -= 1
        target, name = (5, msg("Dodge")) if kind == "dodge" else (4, msg("Parry"))
    bonus = save_bonus(s, hero, dodge=kind in ("dodge", "cloak"), ranged=ranged)
    if target - bonus <= 1:
        s.emit(EventKind.OBJECTIVE_MET, msg("{save}: saved.", save=name))
        then(True)
        return

    def result(value: int) -> None:
        if save_passes(value, target, bonus):
            s.emit(EventKind.OBJECTIVE_MET, msg("{save}: saved.", save=name))
            then(True)
            return
        s.emit(
            EventKind.OBJECTIVE_MISSED,
            msg("{save} fails: no further save against this attack.", save=name),
        )
        then(False)

    def rolled(value: int) -> None:
        if save_passes(value, target, bonus) or not s.clairvoyance:
            result(value)
            return

        def again(yes: bool) -> None:
            if yes:
                s.clairvoyance -= 1
                roll()
            else:
                result(value)

        s.yes_no(msg("Use Clairvoyance to re-roll the failed save?"), again)

    def roll() -> None:
        s.roll_one(
            msg("{hero}: {save}, roll a D6.", hero=s.hero_name(hero), save=name),
            rolled,
            objective=msg("{n}+ saves", n=target - bonus),
            odds=save_odds(target, bonus),
        )

    roll()


@phase
def hurt(s: DungeonState, hero: Hero, damage: int) -> None:
    """Unavoidable health loss; at 0 the hero is wounded (the Love Interest may rise)."""
    hero.health = max(0, hero.health - damage)
    s.emit(
        EventKind.DAMAGE,
        msg(
            "{hero} loses {n} health ({h} left).",
            hero=s.hero_name(hero),
            n=damage,
            h=hero.health,
        ),
        hero=hero.index,
        amount=damage,
    )
    if hero.health > 0:
        return

    def wounded() -> None:
        hero.wounded = True
        hero.speed_left = 0
        s.confirm(
            msg("{hero} is wounded: lay the figure on the town card.", hero=s.hero_name(hero)),
            then=all_down,
        )

    def all_down() -> None:
        if not s.active_heroes():
            s.winner = "boss"

    def power_of_love(value: int) -> None:
        if value < 5:
            wounded()
            return
        hero.health = 1
        s.emit(
            EventKind.HEAL,
            msg("The power of love: {hero} gets 1 health back.", hero=s.hero_name(hero)),
        )

    if hero.motivation != "love_interest":
        wounded()
        return
    s.roll_one(
        msg(
            "{hero} falls: roll a D6, on a 5+ the power of love gives 1 health back.",
            hero=s.hero_name(hero),
        ),
        power_of_love,
        objective=msg("5+"),
        odds=Fraction(1, 3),
    )
