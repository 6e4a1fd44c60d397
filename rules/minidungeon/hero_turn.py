"""A hero's turn: the actions menu, moving, attacking and what a blow does to a monster."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack, save_odds, save_passes
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
)


class HeroTurn(TableFlow):
    """The heroes' actions, from "What now?" to the bounty and the cleared room."""

    # -- the heroes' turn --------------------------------------------------------------

    def _hero_turn(self, hero: Hero) -> Flow:
        while (
            not hero.wounded
            and not hero.acted
            and not self.winner
            and self.room.trap != "ambush_now"
        ):
            options = self._hero_options(hero)
            choice = yield from self.choose(
                msg(
                    "{hero}: {speed} speed left, {health} health. What now?",
                    hero=self.hero_name(hero),
                    speed=hero.speed_left,
                    health=hero.health,
                ),
                options,
            )
            if choice == "end":
                return
            action, _, arg = choice.partition(":")
            yield from getattr(self, f"_do_{action}")(hero, arg)

    def _hero_options(self, hero: Hero) -> list[tuple[str, Msg]]:
        options: list[tuple[str, Msg]] = []
        speed = hero.speed_left
        monsters = self.room.monsters
        if speed >= 1 and not hero.in_pit:
            options.append(("move", msg("Move (1 speed a square, 2 over stairs or traps)")))
        may_attack = monsters and hero.attacks_made < fig.max_attacks(hero, self.book)
        if may_attack and any(m.cost <= speed for m in self._modes(hero)):
            options.append(("attack", msg("Attack a monster")))
        if "magebane" not in self.room.effects and self._castable(hero):
            options.append(("spell", msg("Cast a spell ({mana} mana)", mana=hero.mana)))
        if not hero.potion_used and self._drinkable(hero):
            options.append(("potion", msg("Drink a potion (one a round)")))
        if self.room.chests and speed >= 1:
            options.append(
                (
                    "chest",
                    msg("Open a treasure chest (1 speed, {n} in the room)", n=self.room.chests),
                )
            )
        if speed >= 1 and any(self._equippable(hero)):
            options.append(("equip", msg("Change equipment (1 speed)")))
        greedy = self.greedy and hero.motivation == "treasure_hunter"
        if speed >= 1 and hero.items() and self._receivers(hero) and not greedy:
            options.append(("give", msg("Give an item to a hero on your square (1 speed each)")))
        bribable = [m for m in monsters if self.book.monsters[m.kind].size in ("small", "large")]
        if hero.motivation == "reformed_henchman" and self.gold >= 5 and bribable:
            options.append(("bribe", msg("Bribe a monster on your square to leave (5 gold)")))
        mini_boss = any(self.book.monsters[m.kind].size == "mini_boss" for m in monsters)
        inside_man = "inside_man" in self.party_cards and hero.motivation == "reformed_henchman"
        if inside_man and mini_boss:
            options.append(("negotiate", msg("Inside Man: negotiate with the mini-boss")))
        if not monsters and not self.room.town_fight:
            if speed >= 1 and self.room.number < self.rooms_total and not self.must_rest:
                options.append(
                    (
                        "door",
                        msg(
                            "Open the door to room {n} and explore it (1 speed)",
                            n=self.room.number + 1,
                        ),
                    )
                )
            if self.room.number > 0 and not self.no_retreat:
                options.append(("town", msg("Retreat to town")))
        options.append(("end", msg("End {hero}'s turn", hero=self.hero_name(hero))))
        return options

    def _modes(self, hero: Hero) -> list[fig.AttackMode]:
        modes = fig.attack_modes(
            hero, self.book, weapons_allowed="mind_war" not in self.room.effects
        )
        if "pitch_black" in self.room.effects:
            modes = [m for m in modes if not m.range] or [fig.UNARMED]
        return modes

    def _castable(self, hero: Hero) -> list[Any]:
        spells = [self.book.spells[s] for s in hero.spells]
        needs_target = ("monster", "monsters2")
        return [
            s
            for s in spells
            if s.speed <= hero.speed_left
            and s.mana <= hero.mana
            and (self.room.monsters or s.target not in needs_target)
        ]

    def _equippable(self, hero: Hero) -> list[str]:
        return [
            i
            for i in dict.fromkeys(hero.backpack)
            if self.book.items[i].kind != "potion" and fig.may_use(hero, self.book.items[i])
        ]

    def _do_move(self, hero: Hero, _: str) -> Flow:
        spent = yield from self.number(
            msg(
                "{hero}: how many speed points does the move take (1 a square, 2 over stairs or "
                "traps)?",
                hero=self.hero_name(hero),
            ),
            1,
            hero.speed_left,
            Actor.PLAYER,
        )
        hero.speed_left -= spent
        if "vines" in self.room.effects:
            by_wall = yield from self.yes_no(
                msg(
                    "Carnivorous vines: did {hero} end the move next to a wall?",
                    hero=self.hero_name(hero),
                )
            )
            if by_wall:
                (value,) = yield from self.roll(
                    msg(
                        "Roll a D6 for the vines: 1 or 2 and a vine attacks {hero}.",
                        hero=self.hero_name(hero),
                    ),
                    actor=Actor.BOSS,
                    objective=msg("1 or 2: the vine attacks"),
                    odds=Fraction(1, 3),
                )
                if value <= 2:
                    self.emit(
                        EventKind.INFO, msg("A vine lashes at {hero}!", hero=self.hero_name(hero))
                    )
                    yield from self._hit_hero(hero, 1, crit=False, ranged=False, source=None)

    def _do_attack(self, hero: Hero, _: str) -> Flow:
        modes = [m for m in self._modes(hero) if m.cost <= hero.speed_left]
        mode = modes[0]
        if len(modes) > 1:
            pick = yield from self.choose(
                msg("{hero}: attack with what?", hero=self.hero_name(hero)),
                [(m.id, m.label) for m in modes],
            )
            mode = next(m for m in modes if m.id == pick)
        target = yield from self._pick_monster(
            msg(
                "{hero}: which monster within range {r} and line of sight?",
                hero=self.hero_name(hero),
                r=mode.range,
            )
            if mode.range
            else msg("{hero}: which monster on your square?", hero=self.hero_name(hero)),
            self.room.monsters,
        )
        hero.speed_left -= mode.cost
        hero.attacks_made += 1
        yield from self._hero_attack(hero, target, mode)

    def _pick_monster(self, text: Msg, monsters: list[Monster]) -> Flow:
        if len(monsters) == 1:
            return monsters[0]
        pick = yield from self.choose(
            text,
            [
                (
                    f"m{m.uid}",
                    msg("{name} (H {h}, T {t})", name=self.mon_name(m), h=m.health, t=m.toughness),
                )
                for m in monsters
            ],
        )
        return next(m for m in monsters if f"m{m.uid}" == pick)

    def _hero_attack_profile(self, hero: Hero, target: Monster, bonus: int, crit_on: int) -> Attack:
        strength = fig.attack_value(hero, self.book) + bonus
        if hero.avenger_target == target.kind:
            strength += 1
        if "pitch_black" in self.room.effects:
            strength -= 1
        if "mind_war" in self.room.effects:
            crit_on = min(crit_on, 4)
        legend = hero.motivation == "town_hero" and "living_legend" in self.room.effects
        return Attack(
            strength,
            target.toughness,
            crit_on=crit_on,
            miss_on=2 if "loud_noises" in self.room.effects else 1,
            die_bonus=1 if legend else 0,
        )

    def _hero_attack(self, hero: Hero, target: Monster, mode: fig.AttackMode) -> Flow:
        attack = self._hero_attack_profile(hero, target, mode.bonus, mode.crit_on)
        if hero.luck:
            hero.luck -= 1
            hit, crit = True, False
            self.emit(EventKind.INFO, msg("The Luck Potion makes it an automatic hit."))
        else:
            hit, crit = yield from self._hero_roll_attack(hero, target, attack)
        if not hit:
            self.emit(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{hero} misses {monster}.",
                    hero=self.hero_name(hero),
                    monster=self.mon_name(target),
                ),
            )
            if target.kind == "minion":
                yield from self.confirm(
                    msg(
                        "Retreat: move {monster} 1 square away from {hero}.",
                        monster=self.mon_name(target),
                        hero=self.hero_name(hero),
                    )
                )
            return
        damage = mode.crit_damage if crit and mode.crit_damage else mode.damage
        if "vicious_battle" in self.room.effects:
            damage *= 2
        yield from self._hit_monster(target, damage, crit, hero)

    def _hero_roll_attack(self, hero: Hero, target: Monster, attack: Attack) -> Flow:
        """Roll for a hero's attack; Clairvoyance may re-roll a miss, and the boss's
        A Few Tricks Up His Sleeve a blow that would fell the mini-boss or the boss."""
        while True:
            (value,) = yield from self.roll(
                msg(
                    "{hero} attacks {monster}: roll a D6.",
                    hero=self.hero_name(hero),
                    monster=self.mon_name(target),
                ),
                objective=msg("{n}+ hits (6 always hits, 1 always misses)", n=attack.needs()),
                odds=attack.odds(),
            )
            hit, crit = attack.resolve(value)
            size = self.book.monsters[target.kind].size
            if hit and "few_tricks" in self.boss_cards and size in ("mini_boss", "dungeon_boss"):
                self.boss_cards.remove("few_tricks")
                self.emit(
                    EventKind.CARD,
                    msg(
                        "The dungeon boss plays A Few Tricks Up His Sleeve: {hero} must re-roll.",
                        hero=self.hero_name(hero),
                    ),
                )
                continue
            if not hit and self.clairvoyance:
                again = yield from self.yes_no(msg("Use Clairvoyance to re-roll the miss?"))
                if again:
                    self.clairvoyance -= 1
                    continue
            return hit, crit

    def _hit_monster(
        self,
        target: Monster,
        damage: int,
        crit: bool,
        hero: Hero | None,
        *,
        unblockable: bool = False,
    ) -> Flow:
        kind = self.book.monsters[target.kind]
        if not unblockable and "dodge" in kind.specials and not crit and target.speed_left >= 1:
            target.speed_left -= 1
            (value,) = yield from self.roll(
                msg(
                    "{monster} dodges: roll a D6 for the boss (5+ ignores the hit).",
                    monster=self.mon_name(target),
                ),
                actor=Actor.BOSS,
                objective=msg("5+ dodges"),
                odds=save_odds(5),
            )
            if save_passes(value, 5):
                self.emit(
                    EventKind.INFO, msg("{monster} dodges the hit.", monster=self.mon_name(target))
                )
                return
        if not unblockable and "shield_block" in kind.specials and not target.shield_used:
            target.shield_used = True
            damage -= 1
            self.emit(
                EventKind.INFO,
                msg(
                    "{monster}'s shield blocks the first damage this round.",
                    monster=self.mon_name(target),
                ),
            )
        if damage <= 0:
            return
        target.health = max(0, target.health - damage)
        self.emit(
            EventKind.DAMAGE,
            msg(
                "{monster} loses {n} health ({h} left).",
                monster=self.mon_name(target),
                n=damage,
                h=target.health,
            ),
            monster=target.uid,
            amount=damage,
        )
        if target.health == 0:
            yield from self._defeat_monster(target, hero)

    def _defeat_monster(self, target: Monster, hero: Hero | None) -> Flow:
        self.room.monsters.remove(target)
        self.room.defeated.append(target)
        kind = self.book.monsters[target.kind]
        self.emit(
            EventKind.SCORE,
            msg("{monster} is defeated.", monster=self.mon_name(target)),
            monster=target.uid,
        )
        if hero is not None:
            bounty = self.book.bounty[kind.size]
            factor = 2 if hero.motivation == "glory_hog" else 1
            if "bounties_raised" in self.room.effects:
                factor = 3 if hero.motivation in ("glory_hog", "treasure_hunter") else 2
            self.gold += bounty * factor
            self.emit(
                EventKind.SCORE,
                msg("Bounty: {n} gold to the party chest.", n=bounty * factor),
                gold=self.gold,
            )
        if kind.size == "dungeon_boss" and self.ritual:
            self.ritual["active"] = False
        if not self.room.monsters:
            yield from self._room_cleared(hero)

    def _room_cleared(self, hero: Hero | None) -> Flow:
        self.room.cleared_round = self.round
        self.town_visited_since_clear = False
        self.no_retreat = False
        if self.room.town_fight:
            self.room.town_fight = False
            self.emit(EventKind.INFO, msg("The town is safe again; the heroes are placed in town."))
            yield from self._town(penalty=False)
            return
        if not self.room.counted:  # cleared again after Sneak Attack or Not Dead Yet
            self.room.counted = True
            self.rooms_cleared += 1
        self.emit(
            EventKind.OBJECTIVE_MET,
            msg("Room {n} is cleared.", n=self.room.number),
            room=self.room.number,
        )
        if self.room.lair:
            self.winner = "heroes"
            self.emit(
                EventKind.OBJECTIVE_MET,
                msg("The dungeon boss is defeated: the dungeon is cleared!"),
            )
            return
        drawer = hero or (self.active_heroes() or self.heroes)[0]
        yield from self._draw_event(drawer)

    def _do_town(self, hero: Hero, _: str) -> Flow:
        yield from self._town(penalty=True)
