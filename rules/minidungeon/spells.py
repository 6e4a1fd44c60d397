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
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import DungeonState, phase

#: what a spell does once cast: told whether it succeeded (mana paid on success)
Success = Callable[[bool], None]


@phase
def do_spell(s: DungeonState, hero: Hero, _: str) -> None:
    usable = hero_turn.castable(s, hero)

    def cast(pick: str) -> None:
        spell = s.book.spells[pick]
        hero.speed_left -= spell.speed
        spell_bonus = sum(item.spell_attack for item in fig.gear(hero, s.book))
        pay_on_attempt = s.options["mana_cost"] == "attempt"
        if pay_on_attempt or not spell.roll:
            hero.mana = max(0, hero.mana - spell.mana)

        def done(success: bool) -> None:
            if success and spell.roll and not pay_on_attempt:
                hero.mana = max(0, hero.mana - spell.mana)

        SPELLS[spell.id](s, hero, spell_bonus, done)

    s.choose(
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
        cast,
    )


def spell_roll(
    s: DungeonState, hero: Hero, text: Msg, toughness: int, bonus: int, then: Success
) -> None:
    attack = Attack(fig.attack_value(hero, s.book) + bonus, toughness)
    s.roll_one(
        text,
        lambda value: then(attack.resolve(value)[0]),
        objective=msg("{n}+ succeeds", n=attack.needs()),
        odds=attack.odds(),
    )


def spell_alchemy(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    strength = fig.attack_value(hero, s.book) + bonus

    def rolled(value: int) -> None:
        if strength + value < 10:
            s.emit(EventKind.OBJECTIVE_MISSED, msg("The alchemy fails."))
            then(False)
            return
        s.roll_one(msg("Alchemy works: roll a D6 on the alchemy chart."), charted)

    def charted(chart: int) -> None:
        item = s.book.items[s.book.alchemy[chart]]
        s.flow.first(dungeon.give(s, hero, item), s.afterwards(lambda: then(True)))

    s.roll_one(
        msg("Alchemy: roll a D6; attack {a} + the die must reach 10.", a=strength),
        rolled,
        objective=msg("{n}+ succeeds", n=max(1, 10 - strength)),
        odds=save_odds(10 - strength),
    )


def spell_aura_of_defense(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    others = [h for h in s.active_heroes() if h is not hero]

    def picked(picked: list[str]) -> None:
        for h in [hero, *(h for h in others if f"h{h.index}" in picked)]:
            h.aura = True
        s.emit(EventKind.INFO, msg("Aura of Defense: +1 to their saves this round."))
        then(True)

    s.pick_many(
        msg(
            "Aura of Defense: which other heroes are in or next to {hero}'s square?",
            hero=s.hero_name(hero),
        ),
        [(f"h{h.index}", s.hero_name(h)) for h in others],
        picked,
    )


def spell_clairvoyance(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    s.clairvoyance += 1
    s.emit(
        EventKind.INFO,
        msg("Clairvoyance: the next missed attack or failed save of a hero may be re-rolled."),
    )
    then(True)


def spell_curse(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    def cursed(target: Monster) -> None:
        target.toughness -= 1
        s.emit(
            EventKind.INFO,
            msg(
                "{monster} is cursed: T {t} from now on.",
                monster=s.mon_name(target),
                t=target.toughness,
            ),
        )
        then(True)

    hero_turn.pick_monster(s, msg("Curse: which monster within range 3?"), s.room.monsters, cursed)


def spell_force_will(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    small = [m for m in s.room.monsters if s.book.monsters[m.kind].size == "small"]
    if not small:
        s.emit(EventKind.INFO, msg("Force Will only works on small monsters; there are none."))
        then(False)
        return

    def at(target: Monster) -> None:
        def rolled(won: bool) -> None:
            if not won:
                then(False)
                return
            target.controlled = True
            s.confirm(
                msg(
                    "{monster} is under {hero}'s control for the rest of the round: move it "
                    "and attack with it as a hero.",
                    monster=s.mon_name(target),
                    hero=s.hero_name(hero),
                ),
                then=lambda: then(True),
            )

        spell_roll(
            s,
            hero,
            msg("Force Will on {monster}: roll a D6.", monster=s.mon_name(target)),
            target.toughness,
            bonus,
            rolled,
        )

    hero_turn.pick_monster(s, msg("Force Will: which small monster within range 2?"), small, at)


def spell_healing(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    def at(pick: str) -> None:
        patient = next(h for h in s.heroes if f"h{h.index}" == pick)

        def rolled(won: bool) -> None:
            if won:
                items.heal(s, patient, 1)
            then(won)

        spell_roll(
            s,
            hero,
            msg("Healing {hero}: roll a D6 against their toughness.", hero=s.hero_name(patient)),
            fig.toughness(patient, s.book, melee=False),
            bonus,
            rolled,
        )

    s.choose(
        msg("Healing: which hero within range 2?"),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes()],
        at,
    )


def spell_mage_blast(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    def first(target: Monster) -> None:
        others = [m for m in s.room.monsters if m is not target]
        if not others:
            s.flow.first(blasts(s, hero, bonus, [target], False, then))
            return
        s.choose(
            msg("Mage Blast: a second monster on the same or a next square?"),
            [
                *((f"m{m.uid}", s.mon_name(m)) for m in others),
                ("none", msg("No second monster")),
            ],
            lambda pick: s.flow.first(
                blasts(
                    s,
                    hero,
                    bonus,
                    [target, *(m for m in others if f"m{m.uid}" == pick)],
                    False,
                    then,
                )
            ),
        )

    hero_turn.pick_monster(
        s, msg("Mage Blast: the first monster within range 3?"), s.room.monsters, first
    )


@phase
def blasts(
    s: DungeonState, hero: Hero, bonus: int, targets: list[Monster], any_hit: bool, then: Success
) -> None:
    """The Mage Blast's dice, one target after another (a target already gone is
    skipped); ``then`` is told whether any hit."""
    if not targets:
        then(any_hit)
        return
    target, rest = targets[0], targets[1:]
    if target not in s.room.monsters:
        s.flow.first(blasts(s, hero, bonus, rest, any_hit, then))
        return
    attack = Attack(fig.attack_value(hero, s.book) + bonus, target.toughness)

    def rolled(value: int) -> None:
        hit, crit = attack.resolve(value)
        if hit:
            damage = 2 if "vicious_battle" in s.room.effects else 1
            s.flow.first(
                hero_turn.hit_monster(s, target, damage, crit, hero),
                blasts(s, hero, bonus, rest, True, then),
            )
            return
        s.emit(
            EventKind.OBJECTIVE_MISSED,
            msg("The blast misses {monster}.", monster=s.mon_name(target)),
        )
        s.flow.first(blasts(s, hero, bonus, rest, any_hit, then))

    s.roll_one(
        msg("Mage Blast on {monster}: roll a D6.", monster=s.mon_name(target)),
        rolled,
        objective=msg("{n}+ hits", n=attack.needs()),
        odds=attack.odds(),
    )


def spell_time_warp(s: DungeonState, hero: Hero, bonus: int, then: Success) -> None:
    def warped(heroes: list[str], monsters: list[str]) -> None:
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
        then(True)

    s.pick_many(
        msg("Time Warp: which other heroes share {hero}'s square?", hero=s.hero_name(hero)),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes() if h is not hero],
        lambda heroes: s.pick_many(
            msg("Time Warp: which monsters share {hero}'s square?", hero=s.hero_name(hero)),
            [(f"m{m.uid}", s.mon_name(m)) for m in s.room.monsters],
            lambda monsters: warped(heroes, monsters),
        ),
    )


#: what each spell of the spellbook does, by its id
SPELLS: dict[str, Callable[[DungeonState, Hero, int, Success], None]] = {
    "alchemy": spell_alchemy,
    "aura_of_defense": spell_aura_of_defense,
    "clairvoyance": spell_clairvoyance,
    "curse": spell_curse,
    "force_will": spell_force_will,
    "healing": spell_healing,
    "mage_blast": spell_mage_blast,
    "time_warp": spell_time_warp,
}
