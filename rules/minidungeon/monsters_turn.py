"""The monsters' turn, played by the policy documented in data/POLICY.md."""

from __future__ import annotations

from collections.abc import Callable

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import defence, exploring, hero_turn
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
    listing,
)


def monsters_turn(s: TableFlow) -> Flow:
    for monster in list(s.room.monsters):
        if not monster.warped:
            monster.speed_left = monster.speed
            if "time_bubble" in s.room.effects:
                monster.speed_left = (monster.speed + 1) // 2
        monster.warped = False
    for monster in list(s.room.monsters):
        if s.winner or not s.active_heroes():
            return
        if monster not in s.room.monsters or monster.controlled or monster.speed_left <= 0:
            continue
        policy = s.book.monsters[monster.kind].policy
        yield from POLICIES[policy](s, monster)


def nearest(s: TableFlow, monster: Monster, heroes: list[Hero]) -> Flow:
    if len(heroes) == 1:
        return heroes[0]
    pick = yield from s.choose(
        msg("Which hero is nearest to {monster}?", monster=s.mon_name(monster)),
        [(f"h{h.index}", s.hero_name(h)) for h in heroes],
        Actor.TABLE,
    )
    return next(h for h in heroes if f"h{h.index}" == pick)


def policy_melee(s: TableFlow, monster: Monster) -> Flow:
    """Move towards the nearest hero, stop on their square, attack until the
    speed (or the four attacks) runs out; what is left is kept for dodges."""
    target = yield from nearest(s, monster, s.active_heroes())
    text = (
        "How many squares must {monster} move to reach {hero}'s square or a square next to "
        "it (spear)? (0 if it is there)"
        if "spear" in s.book.monsters[monster.kind].specials
        else "How many squares must {monster} move to reach {hero}'s square? (0 if it is there)"
    )
    distance = yield from s.number(
        msg(text, monster=s.mon_name(monster), hero=s.hero_name(target)), 0, 30
    )
    yield from close_and_attack(s, monster, target, distance, cost=1, ranged=False)


def policy_ranged(s: TableFlow, monster: Monster) -> Flow:
    """Keep the distance: shoot from where it stands if a hero is in range, else
    move just enough to have one in range and line of sight; 2 speed a shot."""
    if "pitch_black" in s.room.effects:
        yield from policy_melee(s, monster)
        return
    target = yield from nearest(s, monster, s.active_heroes())
    distance = yield from s.number(
        msg(
            "How many squares must {monster} move to have {hero} within range {r} in a "
            "straight line of sight? (0 if it has; if a hero is on its square it steps 1 "
            "square away first)",
            monster=s.mon_name(monster),
            hero=s.hero_name(target),
            r=monster.range,
        ),
        0,
        30,
    )
    yield from close_and_attack(s, monster, target, distance, cost=2, ranged=True)


def close_and_attack(
    s: TableFlow, monster: Monster, target: Hero, distance: int, *, cost: int, ranged: bool
) -> Flow:
    moved = min(distance, monster.speed_left)
    monster.speed_left -= moved
    if moved < distance or monster.speed_left < cost:
        if moved:
            yield from s.confirm(
                msg(
                    "Move {monster} {n} squares towards {hero}.",
                    monster=s.mon_name(monster),
                    n=moved,
                    hero=s.hero_name(target),
                ),
                Actor.BOSS,
            )
        return
    attacks = min(s.book.base["max_attacks"], monster.speed_left // cost)
    monster.speed_left -= attacks * cost
    names = {
        "monster": s.mon_name(monster),
        "hero": s.hero_name(target),
        "n": moved,
        "k": attacks,
    }
    text = (
        msg("Move {monster} {n} squares to {hero}, then roll {k} dice for its attacks.", **names)
        if moved
        else msg("{monster} attacks {hero}: roll {k} dice for the boss.", **names)
    )
    yield from monster_attacks(s, monster, [target] * attacks, ranged=ranged, text=text)


def monster_attack_profile(s: TableFlow, monster: Monster, hero: Hero, ranged: bool) -> Attack:
    strength = monster.attack
    if monster.kind == "zombie":
        strength += len(hero.zombie_attackers - {monster.uid})
    if "pitch_black" in s.room.effects:
        strength -= 1
    return Attack(strength, fig.toughness(hero, s.book, melee=not ranged))


def monster_attacks(
    s: TableFlow, monster: Monster, targets: list[Hero], *, ranged: bool, text: Msg
) -> Flow:
    """Roll every die of a monster's attacks at once (one per attack, in order)."""
    if not targets:
        return
    profile = monster_attack_profile(s, monster, targets[0], ranged)
    values = yield from s.roll(
        text,
        count=len(targets),
        actor=Actor.BOSS,
        objective=msg("{n}+ hits", n=profile.needs()),
        odds=profile.odds(),
    )
    for hero, value in zip(targets, values, strict=True):
        if hero.wounded or s.winner:
            break
        yield from monster_strike(s, monster, hero, value, ranged=ranged)


def monster_strike(s: TableFlow, monster: Monster, hero: Hero, value: int, *, ranged: bool) -> Flow:
    profile = monster_attack_profile(s, monster, hero, ranged)
    if monster.kind == "zombie":
        hero.zombie_attackers.add(monster.uid)
    hit, crit = profile.resolve(value)
    if not hit:
        s.emit(
            EventKind.OBJECTIVE_MISSED,
            msg(
                "{monster} misses {hero}.",
                monster=s.mon_name(monster),
                hero=s.hero_name(hero),
            ),
        )
        if hero.motivation == "coward":
            yield from s.confirm(
                msg("Retreat: {hero} the coward moves 1 square away.", hero=s.hero_name(hero))
            )
        return
    damage = 2 if "smash" in s.book.monsters[monster.kind].specials else 1
    if "vicious_battle" in s.room.effects:
        damage *= 2
    text = "{monster} hits {hero} (critical)." if crit else "{monster} hits {hero}."
    s.emit(EventKind.INFO, msg(text, monster=s.mon_name(monster), hero=s.hero_name(hero)))
    yield from defence.hit_hero(s, hero, damage, crit=crit, ranged=ranged, source=monster)


def policy_fire_demon(s: TableFlow, monster: Monster) -> Flow:
    """Vortex of Doom first when no hero is on its square (pulling heroes in), then
    fly to the nearest hero and Sweep: each attack hits every figure there."""
    heroes = s.active_heroes()
    on_square = yield from s.yes_no(msg("Is any hero on the Fire Demon's square?"))
    if not on_square and monster.speed_left >= 2:
        monster.speed_left -= 2
        values = yield from s.roll(
            msg(
                "Vortex of Doom! Roll one die per hero, in order: {heroes}.",
                heroes=listing([s.hero_name(h) for h in heroes]),
            ),
            count=len(heroes),
            actor=Actor.BOSS,
        )
        pulled = [
            h
            for h, v in zip(heroes, values, strict=True)
            if monster_attack_profile(s, monster, h, False).resolve(v)[0]
        ]
        if pulled:
            yield from s.confirm(
                msg(
                    "Move {heroes} 1 square closer to the Fire Demon.",
                    heroes=listing([s.hero_name(h) for h in pulled]),
                ),
                Actor.BOSS,
            )
    target = yield from nearest(s, monster, heroes)
    distance = yield from s.number(
        msg(
            "How many squares must the Fire Demon fly to reach {hero}'s square? (0 if it is there)",
            hero=s.hero_name(target),
        ),
        0,
        30,
    )
    moved = min(distance, monster.speed_left)
    monster.speed_left -= moved
    if moved < distance or not monster.speed_left:
        if moved:
            yield from s.confirm(
                msg(
                    "Fly the Fire Demon {n} squares towards {hero}.",
                    n=moved,
                    hero=s.hero_name(target),
                ),
                Actor.BOSS,
            )
        return
    others = yield from s.pick_many(
        msg("Sweep: which other heroes are on that square?"),
        [(f"h{h.index}", s.hero_name(h)) for h in heroes if h is not target],
    )
    friends = yield from s.pick_many(
        msg("Sweep: which monsters are on that square?"),
        [(f"m{m.uid}", s.mon_name(m)) for m in s.room.monsters if m is not monster],
    )
    attacks = min(s.book.base["max_attacks"], monster.speed_left)
    monster.speed_left -= attacks
    victims = [target, *(h for h in heroes if f"h{h.index}" in others)]
    values = yield from s.roll(
        msg(
            "Fly the Fire Demon {n} squares to {hero}. Sweep: roll {k} dice, each attack "
            "hits every figure there.",
            n=moved,
            hero=s.hero_name(target),
            k=attacks,
        ),
        count=attacks,
        actor=Actor.BOSS,
    )
    for value in values:
        for hero in victims:
            if not hero.wounded and not s.winner:
                yield from monster_strike(s, monster, hero, value, ranged=False)
        for other in [m for m in s.room.monsters if f"m{m.uid}" in friends]:
            hit, crit = Attack(monster.attack, other.toughness).resolve(value)
            if hit:
                yield from hero_turn.hit_monster(s, other, 1, crit, None)


def policy_lich(s: TableFlow, monster: Monster) -> Flow:
    """Two speed an action: Soul Drinker when hurt and a hero is on its square,
    Raise Dead while there are fewer zombies than heroes, Mage Blast at heroes in
    range, Soul Drinker otherwise; if no hero is in reach it closes in."""
    attacks = 0
    close = yield from s.pick_many(
        msg("Which heroes are on the Lich's square?"),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes()],
    )
    in_range = yield from s.pick_many(
        msg("Which other heroes are within 3 squares of the Lich, in line of sight?"),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes() if f"h{h.index}" not in close],
    )
    while monster.speed_left >= 2 and not s.winner and monster in s.room.monsters:
        near = [h for h in s.active_heroes() if f"h{h.index}" in close]
        reach = [h for h in s.active_heroes() if f"h{h.index}" in (*close, *in_range)]
        zombies = sum(1 for m in s.room.monsters if m.kind == "zombie")
        can_attack = attacks < s.book.base["max_attacks"]
        monster.speed_left -= 2
        if near and can_attack and monster.health < monster.max_health:
            attacks += 1
            yield from soul_drinker(s, monster, near)
        elif zombies < len(s.active_heroes()):
            zombie = exploring.new_monster(s, "zombie")
            zombie.speed_left = 0
            s.room.monsters.append(zombie)
            yield from s.confirm(
                msg(
                    "Raise Dead: place {monster} on the Lich's square.",
                    monster=s.mon_name(zombie),
                ),
                Actor.BOSS,
            )
        elif reach and can_attack:
            attacks += 1
            yield from lich_blast(s, monster, reach)
        elif near and can_attack:
            attacks += 1
            yield from soul_drinker(s, monster, near)
        else:
            monster.speed_left += 2
            if not reach:
                target = yield from nearest(s, monster, s.active_heroes())
                yield from s.confirm(
                    msg(
                        "Move the Lich towards {hero} until they are within 3 squares.",
                        hero=s.hero_name(target),
                    ),
                    Actor.BOSS,
                )
            return


def soul_drinker(s: TableFlow, monster: Monster, near: list[Hero]) -> Flow:
    target = min(near, key=lambda h: (h.health, h.index))
    profile = monster_attack_profile(s, monster, target, False)
    (value,) = yield from s.roll(
        msg("Soul Drinker on {hero}: roll a D6 for the Lich.", hero=s.hero_name(target)),
        actor=Actor.BOSS,
        objective=msg("{n}+ hits", n=profile.needs()),
        odds=profile.odds(),
    )
    before = target.health
    yield from monster_strike(s, monster, target, value, ranged=False)
    if target.health < before or (target.wounded and before > 0):
        monster.health = min(monster.max_health, monster.health + 1)
        s.emit(EventKind.HEAL, msg("Soul Drinker: the Lich has {h} health.", h=monster.health))


def lich_blast(s: TableFlow, monster: Monster, reach: list[Hero]) -> Flow:
    first = min(reach, key=lambda h: (h.health, h.index))
    targets = [first]
    others = [h for h in reach if h is not first]
    if others:
        pick = yield from s.choose(
            msg(
                "Mage Blast on {hero}: which other hero is on the same or a next square?",
                hero=s.hero_name(first),
            ),
            [
                *((f"h{h.index}", s.hero_name(h)) for h in others),
                ("none", msg("No one")),
            ],
            Actor.TABLE,
        )
        targets += [h for h in others if f"h{h.index}" == pick]
    names = listing([s.hero_name(h) for h in targets])
    text = msg(
        "Mage Blast on {heroes}: roll {k} dice for the Lich, in that order.",
        heroes=names,
        k=len(targets),
    )
    yield from monster_attacks(s, monster, targets, ranged=True, text=text)


#: how each kind of monster acts on its turn (its ``policy`` in the rulebook data)
POLICIES: dict[str, Callable[[TableFlow, Monster], Flow]] = {
    "melee": policy_melee,
    "ranged": policy_ranged,
    "fire_demon": policy_fire_demon,
    "lich": policy_lich,
}
