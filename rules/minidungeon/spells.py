"""The mage's spellbook in play: speed, mana (on attempt or on success) and the rolls."""

from __future__ import annotations

from collections.abc import Callable

from dicetable.rules.core import (
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import dungeon, hero_turn, items
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack, save_odds
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
)


def do_spell(s: TableFlow, hero: Hero, _: str) -> Flow:
    usable = hero_turn.castable(s, hero)
    pick = yield from s.choose(
        msg("{hero}: which spell?", hero=s.hero_name(hero)),
        [
            (
                spell.id,
                msg(
                    "{name} ({speed} speed, {mana} mana)",
                    name=spell.name,
                    speed=spell.speed,
                    mana=spell.mana,
                ),
            )
            for spell in usable
        ],
    )
    spell = s.book.spells[pick]
    hero.speed_left -= spell.speed
    spell_bonus = sum(item.spell_attack for item in fig.gear(hero, s.book))
    pay_on_attempt = s.options["mana_cost"] == "attempt"
    if pay_on_attempt or not spell.roll:
        hero.mana = max(0, hero.mana - spell.mana)
    success = yield from SPELLS[spell.id](s, hero, spell_bonus)
    if success and spell.roll and not pay_on_attempt:
        hero.mana = max(0, hero.mana - spell.mana)


def spell_roll(s: TableFlow, hero: Hero, text: Msg, toughness: int, bonus: int) -> Flow:
    attack = Attack(fig.attack_value(hero, s.book) + bonus, toughness)
    (value,) = yield from s.roll(
        text, objective=msg("{n}+ succeeds", n=attack.needs()), odds=attack.odds()
    )
    return attack.resolve(value)[0]


def spell_alchemy(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    strength = fig.attack_value(hero, s.book) + bonus
    (value,) = yield from s.roll(
        msg("Alchemy: roll a D6; attack {a} + the die must reach 10.", a=strength),
        objective=msg("{n}+ succeeds", n=max(1, 10 - strength)),
        odds=save_odds(10 - strength),
    )
    if strength + value < 10:
        s.emit(EventKind.OBJECTIVE_MISSED, msg("The alchemy fails."))
        return False
    (chart,) = yield from s.roll(msg("Alchemy works: roll a D6 on the alchemy chart."))
    yield from dungeon.give(s, hero, s.book.items[s.book.alchemy[chart]])
    return True


def spell_aura_of_defense(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    others = [h for h in s.active_heroes() if h is not hero]
    picked = yield from s.pick_many(
        msg(
            "Aura of Defense: which other heroes are in or next to {hero}'s square?",
            hero=s.hero_name(hero),
        ),
        [(f"h{h.index}", s.hero_name(h)) for h in others],
    )
    for h in [hero, *(h for h in others if f"h{h.index}" in picked)]:
        h.aura = True
    s.emit(EventKind.INFO, msg("Aura of Defense: +1 to their saves this round."))
    return True


def spell_clairvoyance(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    s.clairvoyance += 1
    s.emit(
        EventKind.INFO,
        msg("Clairvoyance: the next missed attack or failed save of a hero may be re-rolled."),
    )
    yield from ()
    return True


def spell_curse(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    target = yield from hero_turn.pick_monster(
        s, msg("Curse: which monster within range 3?"), s.room.monsters
    )
    target.toughness -= 1
    s.emit(
        EventKind.INFO,
        msg(
            "{monster} is cursed: T {t} from now on.",
            monster=s.mon_name(target),
            t=target.toughness,
        ),
    )
    return True


def spell_force_will(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    small = [m for m in s.room.monsters if s.book.monsters[m.kind].size == "small"]
    if not small:
        s.emit(EventKind.INFO, msg("Force Will only works on small monsters; there are none."))
        return False
    target = yield from hero_turn.pick_monster(
        s, msg("Force Will: which small monster within range 2?"), small
    )
    won = yield from spell_roll(
        s,
        hero,
        msg("Force Will on {monster}: roll a D6.", monster=s.mon_name(target)),
        target.toughness,
        bonus,
    )
    if won:
        target.controlled = True
        yield from s.confirm(
            msg(
                "{monster} is under {hero}'s control for the rest of the round: move it and "
                "attack with it as a hero.",
                monster=s.mon_name(target),
                hero=s.hero_name(hero),
            )
        )
    return won


def spell_healing(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    pick = yield from s.choose(
        msg("Healing: which hero within range 2?"),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes()],
    )
    patient = next(h for h in s.heroes if f"h{h.index}" == pick)
    won = yield from spell_roll(
        s,
        hero,
        msg("Healing {hero}: roll a D6 against their toughness.", hero=s.hero_name(patient)),
        fig.toughness(patient, s.book, melee=False),
        bonus,
    )
    if won:
        items.heal(s, patient, 1)
    return won


def spell_mage_blast(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    first = yield from hero_turn.pick_monster(
        s, msg("Mage Blast: the first monster within range 3?"), s.room.monsters
    )
    targets = [first]
    others = [m for m in s.room.monsters if m is not first]
    if others:
        pick = yield from s.choose(
            msg("Mage Blast: a second monster on the same or a next square?"),
            [
                *((f"m{m.uid}", s.mon_name(m)) for m in others),
                ("none", msg("No second monster")),
            ],
        )
        targets += [m for m in others if f"m{m.uid}" == pick]
    any_hit = False
    for target in targets:
        if target not in s.room.monsters:
            continue
        attack = Attack(fig.attack_value(hero, s.book) + bonus, target.toughness)
        (value,) = yield from s.roll(
            msg("Mage Blast on {monster}: roll a D6.", monster=s.mon_name(target)),
            objective=msg("{n}+ hits", n=attack.needs()),
            odds=attack.odds(),
        )
        hit, crit = attack.resolve(value)
        if hit:
            any_hit = True
            damage = 2 if "vicious_battle" in s.room.effects else 1
            yield from hero_turn.hit_monster(s, target, damage, crit, hero)
        else:
            s.emit(
                EventKind.OBJECTIVE_MISSED,
                msg("The blast misses {monster}.", monster=s.mon_name(target)),
            )
    return any_hit


def spell_time_warp(s: TableFlow, hero: Hero, bonus: int) -> Flow:
    heroes = yield from s.pick_many(
        msg("Time Warp: which other heroes share {hero}'s square?", hero=s.hero_name(hero)),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes() if h is not hero],
    )
    monsters = yield from s.pick_many(
        msg("Time Warp: which monsters share {hero}'s square?", hero=s.hero_name(hero)),
        [(f"m{m.uid}", s.mon_name(m)) for m in s.room.monsters],
    )
    hero.speed_left = 0
    for h in s.heroes:
        if f"h{h.index}" in heroes:
            h.speed_left = 0
    for m in s.room.monsters:
        if f"m{m.uid}" in monsters:
            m.speed_left = 0
            m.warped = True
    s.emit(
        EventKind.INFO,
        msg("Time Warp: the figures on the square lose their speed until next round."),
    )
    return True


#: what each spell of the spellbook does, by its id
SPELLS: dict[str, Callable[[TableFlow, Hero, int], Flow]] = {
    "alchemy": spell_alchemy,
    "aura_of_defense": spell_aura_of_defense,
    "clairvoyance": spell_clairvoyance,
    "curse": spell_curse,
    "force_will": spell_force_will,
    "healing": spell_healing,
    "mage_blast": spell_mage_blast,
    "time_warp": spell_time_warp,
}
