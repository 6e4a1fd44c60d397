"""The monsters' turn, played by the policy documented in data/POLICY.md."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
    listing,
)


class MonstersTurn(TableFlow):
    """Each monster kind's policy, with every roll read from the tray."""

    # -- the monsters' turn ------------------------------------------------------------

    def _monsters_turn(self) -> Flow:
        for monster in list(self.room.monsters):
            if not monster.warped:
                monster.speed_left = monster.speed
                if "time_bubble" in self.room.effects:
                    monster.speed_left = (monster.speed + 1) // 2
            monster.warped = False
        for monster in list(self.room.monsters):
            if self.winner or not self.active_heroes():
                return
            if monster not in self.room.monsters or monster.controlled or monster.speed_left <= 0:
                continue
            policy = self.book.monsters[monster.kind].policy
            yield from getattr(self, f"_policy_{policy}")(monster)

    def _nearest(self, monster: Monster, heroes: list[Hero]) -> Flow:
        if len(heroes) == 1:
            return heroes[0]
        pick = yield from self.choose(
            msg("Which hero is nearest to {monster}?", monster=self.mon_name(monster)),
            [(f"h{h.index}", self.hero_name(h)) for h in heroes],
            Actor.TABLE,
        )
        return next(h for h in heroes if f"h{h.index}" == pick)

    def _policy_melee(self, monster: Monster) -> Flow:
        """Move towards the nearest hero, stop on their square, attack until the
        speed (or the four attacks) runs out; what is left is kept for dodges."""
        target = yield from self._nearest(monster, self.active_heroes())
        text = (
            "How many squares must {monster} move to reach {hero}'s square or a square next to "
            "it (spear)? (0 if it is there)"
            if "spear" in self.book.monsters[monster.kind].specials
            else "How many squares must {monster} move to reach {hero}'s square? (0 if it is there)"
        )
        distance = yield from self.number(
            msg(text, monster=self.mon_name(monster), hero=self.hero_name(target)), 0, 30
        )
        yield from self._close_and_attack(monster, target, distance, cost=1, ranged=False)

    def _policy_ranged(self, monster: Monster) -> Flow:
        """Keep the distance: shoot from where it stands if a hero is in range, else
        move just enough to have one in range and line of sight; 2 speed a shot."""
        if "pitch_black" in self.room.effects:
            yield from self._policy_melee(monster)
            return
        target = yield from self._nearest(monster, self.active_heroes())
        distance = yield from self.number(
            msg(
                "How many squares must {monster} move to have {hero} within range {r} in a "
                "straight line of sight? (0 if it has; if a hero is on its square it steps 1 "
                "square away first)",
                monster=self.mon_name(monster),
                hero=self.hero_name(target),
                r=monster.range,
            ),
            0,
            30,
        )
        yield from self._close_and_attack(monster, target, distance, cost=2, ranged=True)

    def _close_and_attack(
        self, monster: Monster, target: Hero, distance: int, *, cost: int, ranged: bool
    ) -> Flow:
        moved = min(distance, monster.speed_left)
        monster.speed_left -= moved
        if moved < distance or monster.speed_left < cost:
            if moved:
                yield from self.confirm(
                    msg(
                        "Move {monster} {n} squares towards {hero}.",
                        monster=self.mon_name(monster),
                        n=moved,
                        hero=self.hero_name(target),
                    ),
                    Actor.BOSS,
                )
            return
        attacks = min(self.book.base["max_attacks"], monster.speed_left // cost)
        monster.speed_left -= attacks * cost
        names = {
            "monster": self.mon_name(monster),
            "hero": self.hero_name(target),
            "n": moved,
            "k": attacks,
        }
        text = (
            msg(
                "Move {monster} {n} squares to {hero}, then roll {k} dice for its attacks.", **names
            )
            if moved
            else msg("{monster} attacks {hero}: roll {k} dice for the boss.", **names)
        )
        yield from self._monster_attacks(monster, [target] * attacks, ranged=ranged, text=text)

    def _monster_attack_profile(self, monster: Monster, hero: Hero, ranged: bool) -> Attack:
        strength = monster.attack
        if monster.kind == "zombie":
            strength += len(hero.zombie_attackers - {monster.uid})
        if "pitch_black" in self.room.effects:
            strength -= 1
        return Attack(strength, fig.toughness(hero, self.book, melee=not ranged))

    def _monster_attacks(
        self, monster: Monster, targets: list[Hero], *, ranged: bool, text: Msg
    ) -> Flow:
        """Roll every die of a monster's attacks at once (one per attack, in order)."""
        if not targets:
            return
        profile = self._monster_attack_profile(monster, targets[0], ranged)
        values = yield from self.roll(
            text,
            count=len(targets),
            actor=Actor.BOSS,
            objective=msg("{n}+ hits", n=profile.needs()),
            odds=profile.odds(),
        )
        for hero, value in zip(targets, values, strict=True):
            if hero.wounded or self.winner:
                break
            yield from self._monster_strike(monster, hero, value, ranged=ranged)

    def _monster_strike(self, monster: Monster, hero: Hero, value: int, *, ranged: bool) -> Flow:
        profile = self._monster_attack_profile(monster, hero, ranged)
        if monster.kind == "zombie":
            hero.zombie_attackers.add(monster.uid)
        hit, crit = profile.resolve(value)
        if not hit:
            self.emit(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{monster} misses {hero}.",
                    monster=self.mon_name(monster),
                    hero=self.hero_name(hero),
                ),
            )
            if hero.motivation == "coward":
                yield from self.confirm(
                    msg(
                        "Retreat: {hero} the coward moves 1 square away.", hero=self.hero_name(hero)
                    )
                )
            return
        damage = 2 if "smash" in self.book.monsters[monster.kind].specials else 1
        if "vicious_battle" in self.room.effects:
            damage *= 2
        text = "{monster} hits {hero} (critical)." if crit else "{monster} hits {hero}."
        self.emit(
            EventKind.INFO, msg(text, monster=self.mon_name(monster), hero=self.hero_name(hero))
        )
        yield from self._hit_hero(hero, damage, crit=crit, ranged=ranged, source=monster)

    def _policy_fire_demon(self, monster: Monster) -> Flow:
        """Vortex of Doom first when no hero is on its square (pulling heroes in), then
        fly to the nearest hero and Sweep: each attack hits every figure there."""
        heroes = self.active_heroes()
        on_square = yield from self.yes_no(msg("Is any hero on the Fire Demon's square?"))
        if not on_square and monster.speed_left >= 2:
            monster.speed_left -= 2
            values = yield from self.roll(
                msg(
                    "Vortex of Doom! Roll one die per hero, in order: {heroes}.",
                    heroes=listing([self.hero_name(h) for h in heroes]),
                ),
                count=len(heroes),
                actor=Actor.BOSS,
            )
            pulled = [
                h
                for h, v in zip(heroes, values, strict=True)
                if self._monster_attack_profile(monster, h, False).resolve(v)[0]
            ]
            if pulled:
                yield from self.confirm(
                    msg(
                        "Move {heroes} 1 square closer to the Fire Demon.",
                        heroes=listing([self.hero_name(h) for h in pulled]),
                    ),
                    Actor.BOSS,
                )
        target = yield from self._nearest(monster, heroes)
        distance = yield from self.number(
            msg(
                "How many squares must the Fire Demon fly to reach {hero}'s square? (0 if it is "
                "there)",
                hero=self.hero_name(target),
            ),
            0,
            30,
        )
        moved = min(distance, monster.speed_left)
        monster.speed_left -= moved
        if moved < distance or not monster.speed_left:
            if moved:
                yield from self.confirm(
                    msg(
                        "Fly the Fire Demon {n} squares towards {hero}.",
                        n=moved,
                        hero=self.hero_name(target),
                    ),
                    Actor.BOSS,
                )
            return
        others = yield from self.pick_many(
            msg("Sweep: which other heroes are on that square?"),
            [(f"h{h.index}", self.hero_name(h)) for h in heroes if h is not target],
        )
        friends = yield from self.pick_many(
            msg("Sweep: which monsters are on that square?"),
            [(f"m{m.uid}", self.mon_name(m)) for m in self.room.monsters if m is not monster],
        )
        attacks = min(self.book.base["max_attacks"], monster.speed_left)
        monster.speed_left -= attacks
        victims = [target, *(h for h in heroes if f"h{h.index}" in others)]
        values = yield from self.roll(
            msg(
                "Fly the Fire Demon {n} squares to {hero}. Sweep: roll {k} dice, each attack "
                "hits every figure there.",
                n=moved,
                hero=self.hero_name(target),
                k=attacks,
            ),
            count=attacks,
            actor=Actor.BOSS,
        )
        for value in values:
            for hero in victims:
                if not hero.wounded and not self.winner:
                    yield from self._monster_strike(monster, hero, value, ranged=False)
            for other in [m for m in self.room.monsters if f"m{m.uid}" in friends]:
                hit, crit = Attack(monster.attack, other.toughness).resolve(value)
                if hit:
                    yield from self._hit_monster(other, 1, crit, None)

    def _policy_lich(self, monster: Monster) -> Flow:
        """Two speed an action: Soul Drinker when hurt and a hero is on its square,
        Raise Dead while there are fewer zombies than heroes, Mage Blast at heroes in
        range, Soul Drinker otherwise; if no hero is in reach it closes in."""
        attacks = 0
        close = yield from self.pick_many(
            msg("Which heroes are on the Lich's square?"),
            [(f"h{h.index}", self.hero_name(h)) for h in self.active_heroes()],
        )
        in_range = yield from self.pick_many(
            msg("Which other heroes are within 3 squares of the Lich, in line of sight?"),
            [
                (f"h{h.index}", self.hero_name(h))
                for h in self.active_heroes()
                if f"h{h.index}" not in close
            ],
        )
        while monster.speed_left >= 2 and not self.winner and monster in self.room.monsters:
            near = [h for h in self.active_heroes() if f"h{h.index}" in close]
            reach = [h for h in self.active_heroes() if f"h{h.index}" in (*close, *in_range)]
            zombies = sum(1 for m in self.room.monsters if m.kind == "zombie")
            can_attack = attacks < self.book.base["max_attacks"]
            monster.speed_left -= 2
            if near and can_attack and monster.health < monster.max_health:
                attacks += 1
                yield from self._soul_drinker(monster, near)
            elif zombies < len(self.active_heroes()):
                zombie = self._new_monster("zombie")
                zombie.speed_left = 0
                self.room.monsters.append(zombie)
                yield from self.confirm(
                    msg(
                        "Raise Dead: place {monster} on the Lich's square.",
                        monster=self.mon_name(zombie),
                    ),
                    Actor.BOSS,
                )
            elif reach and can_attack:
                attacks += 1
                yield from self._lich_blast(monster, reach)
            elif near and can_attack:
                attacks += 1
                yield from self._soul_drinker(monster, near)
            else:
                monster.speed_left += 2
                if not reach:
                    target = yield from self._nearest(monster, self.active_heroes())
                    yield from self.confirm(
                        msg(
                            "Move the Lich towards {hero} until they are within 3 squares.",
                            hero=self.hero_name(target),
                        ),
                        Actor.BOSS,
                    )
                return

    def _soul_drinker(self, monster: Monster, near: list[Hero]) -> Flow:
        target = min(near, key=lambda h: (h.health, h.index))
        profile = self._monster_attack_profile(monster, target, False)
        (value,) = yield from self.roll(
            msg("Soul Drinker on {hero}: roll a D6 for the Lich.", hero=self.hero_name(target)),
            actor=Actor.BOSS,
            objective=msg("{n}+ hits", n=profile.needs()),
            odds=profile.odds(),
        )
        before = target.health
        yield from self._monster_strike(monster, target, value, ranged=False)
        if target.health < before or (target.wounded and before > 0):
            monster.health = min(monster.max_health, monster.health + 1)
            self.emit(
                EventKind.HEAL, msg("Soul Drinker: the Lich has {h} health.", h=monster.health)
            )

    def _lich_blast(self, monster: Monster, reach: list[Hero]) -> Flow:
        first = min(reach, key=lambda h: (h.health, h.index))
        targets = [first]
        others = [h for h in reach if h is not first]
        if others:
            pick = yield from self.choose(
                msg(
                    "Mage Blast on {hero}: which other hero is on the same or a next square?",
                    hero=self.hero_name(first),
                ),
                [
                    *((f"h{h.index}", self.hero_name(h)) for h in others),
                    ("none", msg("No one")),
                ],
                Actor.TABLE,
            )
            targets += [h for h in others if f"h{h.index}" == pick]
        names = listing([self.hero_name(h) for h in targets])
        text = msg(
            "Mage Blast on {heroes}: roll {k} dice for the Lich, in that order.",
            heroes=names,
            k=len(targets),
        )
        yield from self._monster_attacks(monster, targets, ranged=True, text=text)
