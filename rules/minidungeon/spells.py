"""The mage's spellbook in play: speed, mana (on attempt or on success) and the rolls."""

from __future__ import annotations

from dicetable.rules.core import (
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack, save_odds
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
)


class Spells(TableFlow):
    """One flow per spell, named ``_spell_<id>`` after the spellbook entry."""

    # -- spells, potions, chests, gear ----------------------------------------------

    def _do_spell(self, hero: Hero, _: str) -> Flow:
        usable = self._castable(hero)
        pick = yield from self.choose(
            msg("{hero}: which spell?", hero=self.hero_name(hero)),
            [
                (
                    s.id,
                    msg(
                        "{name} ({speed} speed, {mana} mana)",
                        name=s.name,
                        speed=s.speed,
                        mana=s.mana,
                    ),
                )
                for s in usable
            ],
        )
        spell = self.book.spells[pick]
        hero.speed_left -= spell.speed
        spell_bonus = sum(item.spell_attack for item in fig.gear(hero, self.book))
        pay_on_attempt = self.options["mana_cost"] == "attempt"
        if pay_on_attempt or not spell.roll:
            hero.mana = max(0, hero.mana - spell.mana)
        success = yield from getattr(self, f"_spell_{spell.id}")(hero, spell_bonus)
        if success and spell.roll and not pay_on_attempt:
            hero.mana = max(0, hero.mana - spell.mana)

    def _spell_roll(self, hero: Hero, text: Msg, toughness: int, bonus: int) -> Flow:
        attack = Attack(fig.attack_value(hero, self.book) + bonus, toughness)
        (value,) = yield from self.roll(
            text, objective=msg("{n}+ succeeds", n=attack.needs()), odds=attack.odds()
        )
        return attack.resolve(value)[0]

    def _spell_alchemy(self, hero: Hero, bonus: int) -> Flow:
        strength = fig.attack_value(hero, self.book) + bonus
        (value,) = yield from self.roll(
            msg("Alchemy: roll a D6; attack {a} + the die must reach 10.", a=strength),
            objective=msg("{n}+ succeeds", n=max(1, 10 - strength)),
            odds=save_odds(10 - strength),
        )
        if strength + value < 10:
            self.emit(EventKind.OBJECTIVE_MISSED, msg("The alchemy fails."))
            return False
        (chart,) = yield from self.roll(msg("Alchemy works: roll a D6 on the alchemy chart."))
        yield from self._give(hero, self.book.items[self.book.alchemy[chart]])
        return True

    def _spell_aura_of_defense(self, hero: Hero, bonus: int) -> Flow:
        others = [h for h in self.active_heroes() if h is not hero]
        picked = yield from self.pick_many(
            msg(
                "Aura of Defense: which other heroes are in or next to {hero}'s square?",
                hero=self.hero_name(hero),
            ),
            [(f"h{h.index}", self.hero_name(h)) for h in others],
        )
        for h in [hero, *(h for h in others if f"h{h.index}" in picked)]:
            h.aura = True
        self.emit(EventKind.INFO, msg("Aura of Defense: +1 to their saves this round."))
        return True

    def _spell_clairvoyance(self, hero: Hero, bonus: int) -> Flow:
        self.clairvoyance += 1
        self.emit(
            EventKind.INFO,
            msg("Clairvoyance: the next missed attack or failed save of a hero may be re-rolled."),
        )
        yield from ()
        return True

    def _spell_curse(self, hero: Hero, bonus: int) -> Flow:
        target = yield from self._pick_monster(
            msg("Curse: which monster within range 3?"), self.room.monsters
        )
        target.toughness -= 1
        self.emit(
            EventKind.INFO,
            msg(
                "{monster} is cursed: T {t} from now on.",
                monster=self.mon_name(target),
                t=target.toughness,
            ),
        )
        return True

    def _spell_force_will(self, hero: Hero, bonus: int) -> Flow:
        small = [m for m in self.room.monsters if self.book.monsters[m.kind].size == "small"]
        if not small:
            self.emit(
                EventKind.INFO, msg("Force Will only works on small monsters; there are none.")
            )
            return False
        target = yield from self._pick_monster(
            msg("Force Will: which small monster within range 2?"), small
        )
        won = yield from self._spell_roll(
            hero,
            msg("Force Will on {monster}: roll a D6.", monster=self.mon_name(target)),
            target.toughness,
            bonus,
        )
        if won:
            target.controlled = True
            yield from self.confirm(
                msg(
                    "{monster} is under {hero}'s control for the rest of the round: move it and "
                    "attack with it as a hero.",
                    monster=self.mon_name(target),
                    hero=self.hero_name(hero),
                )
            )
        return won

    def _spell_healing(self, hero: Hero, bonus: int) -> Flow:
        pick = yield from self.choose(
            msg("Healing: which hero within range 2?"),
            [(f"h{h.index}", self.hero_name(h)) for h in self.active_heroes()],
        )
        patient = next(h for h in self.heroes if f"h{h.index}" == pick)
        won = yield from self._spell_roll(
            hero,
            msg("Healing {hero}: roll a D6 against their toughness.", hero=self.hero_name(patient)),
            fig.toughness(patient, self.book, melee=False),
            bonus,
        )
        if won:
            self._heal(patient, 1)
        return won

    def _spell_mage_blast(self, hero: Hero, bonus: int) -> Flow:
        first = yield from self._pick_monster(
            msg("Mage Blast: the first monster within range 3?"), self.room.monsters
        )
        targets = [first]
        others = [m for m in self.room.monsters if m is not first]
        if others:
            pick = yield from self.choose(
                msg("Mage Blast: a second monster on the same or a next square?"),
                [
                    *((f"m{m.uid}", self.mon_name(m)) for m in others),
                    ("none", msg("No second monster")),
                ],
            )
            targets += [m for m in others if f"m{m.uid}" == pick]
        any_hit = False
        for target in targets:
            if target not in self.room.monsters:
                continue
            attack = Attack(fig.attack_value(hero, self.book) + bonus, target.toughness)
            (value,) = yield from self.roll(
                msg("Mage Blast on {monster}: roll a D6.", monster=self.mon_name(target)),
                objective=msg("{n}+ hits", n=attack.needs()),
                odds=attack.odds(),
            )
            hit, crit = attack.resolve(value)
            if hit:
                any_hit = True
                damage = 2 if "vicious_battle" in self.room.effects else 1
                yield from self._hit_monster(target, damage, crit, hero)
            else:
                self.emit(
                    EventKind.OBJECTIVE_MISSED,
                    msg("The blast misses {monster}.", monster=self.mon_name(target)),
                )
        return any_hit

    def _spell_time_warp(self, hero: Hero, bonus: int) -> Flow:
        heroes = yield from self.pick_many(
            msg("Time Warp: which other heroes share {hero}'s square?", hero=self.hero_name(hero)),
            [(f"h{h.index}", self.hero_name(h)) for h in self.active_heroes() if h is not hero],
        )
        monsters = yield from self.pick_many(
            msg("Time Warp: which monsters share {hero}'s square?", hero=self.hero_name(hero)),
            [(f"m{m.uid}", self.mon_name(m)) for m in self.room.monsters],
        )
        hero.speed_left = 0
        for h in self.heroes:
            if f"h{h.index}" in heroes:
                h.speed_left = 0
        for m in self.room.monsters:
            if f"m{m.uid}" in monsters:
                m.speed_left = 0
                m.warped = True
        self.emit(
            EventKind.INFO,
            msg("Time Warp: the figures on the square lose their speed until next round."),
        )
        return True
