"""The monsters' turn, played by the policy documented in data/POLICY.md."""

from __future__ import annotations

from collections.abc import Callable

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.flow import Step
from dicetable.rules.minidungeon import defence, exploring, hero_turn
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import DungeonState, listing, phase


@phase
def monsters_turn(s: DungeonState) -> None:
    for monster in list(s.room.monsters):
        if not monster.warped:
            monster.speed_left = monster.speed
            if "time_bubble" in s.room.effects:
                monster.speed_left = (monster.speed + 1) // 2
        monster.warped = False
    s.flow.first(monsters_act(s, list(s.room.monsters)))


@phase
def monsters_act(s: DungeonState, monsters: list[Monster]) -> None:
    """The monsters in turn, each by its kind's policy, until the heroes are all down."""
    if not monsters or s.winner or not s.active_heroes():
        return
    monster, rest = monsters[0], monsters[1:]
    if monster not in s.room.monsters or monster.controlled or monster.speed_left <= 0:
        s.flow.first(monsters_act(s, rest))
        return
    policy = s.book.monsters[monster.kind].policy
    s.flow.first(POLICIES[policy](s, monster), monsters_act(s, rest))


def nearest(
    s: DungeonState, monster: Monster, heroes: list[Hero], then: Callable[[Hero], None]
) -> None:
    if len(heroes) == 1:
        then(heroes[0])
        return
    s.choose(
        msg("Which hero is nearest to {monster}?", monster=s.mon_name(monster)),
        [(f"h{h.index}", s.hero_name(h)) for h in heroes],
        lambda pick: then(next(h for h in heroes if f"h{h.index}" == pick)),
        Actor.TABLE,
    )


@phase
def policy_melee(s: DungeonState, monster: Monster) -> None:
    """Move towards the nearest hero, stop on their square, attack until the
    speed (or the four attacks) runs out; what is left is kept for dodges."""

    def towards(target: Hero) -> None:
        text = (
            "How many squares must {monster} move to reach {hero}'s square or a square next "
            "to it (spear)? (0 if it is there)"
            if "spear" in s.book.monsters[monster.kind].specials
            else "How many squares must {monster} move to reach {hero}'s square? (0 if it is there)"
        )
        s.number(
            msg(text, monster=s.mon_name(monster), hero=s.hero_name(target)),
            0,
            30,
            lambda distance: close_and_attack(s, monster, target, distance, cost=1, ranged=False),
        )

    nearest(s, monster, s.active_heroes(), towards)


@phase
def policy_ranged(s: DungeonState, monster: Monster) -> None:
    """Keep the distance: shoot from where it stands if a hero is in range, else
    move just enough to have one in range and line of sight; 2 speed a shot."""
    if "pitch_black" in s.room.effects:
        s.flow.first(policy_melee(s, monster))
        return

    def towards(target: Hero) -> None:
        s.number(
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
            lambda distance: close_and_attack(s, monster, target, distance, cost=2, ranged=True),
        )

    nearest(s, monster, s.active_heroes(), towards)


def close_and_attack(
    s: DungeonState, monster: Monster, target: Hero, distance: int, *, cost: int, ranged: bool
) -> None:
    moved = min(distance, monster.speed_left)
    monster.speed_left -= moved
    if moved < distance or monster.speed_left < cost:
        if moved:
            s.confirm(
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
    s.flow.first(monster_attacks(s, monster, [target] * attacks, ranged=ranged, text=text))


def monster_attack_profile(s: DungeonState, monster: Monster, hero: Hero, ranged: bool) -> Attack:
    strength = monster.attack
    if monster.kind == "zombie":
        strength += len(hero.zombie_attackers - {monster.uid})
    if "pitch_black" in s.room.effects:
        strength -= 1
    return Attack(strength, fig.toughness(hero, s.book, melee=not ranged))


@phase
def monster_attacks(
    s: DungeonState, monster: Monster, targets: list[Hero], *, ranged: bool, text: Msg
) -> None:
    """Roll every die of a monster's attacks at once (one per attack, in order)."""
    if not targets:
        return
    profile = monster_attack_profile(s, monster, targets[0], ranged)

    def rolled(values: list[int]) -> None:
        s.flow.first(strikes(s, monster, list(zip(targets, values, strict=True)), ranged=ranged))

    s.roll(
        text,
        rolled,
        count=len(targets),
        actor=Actor.BOSS,
        objective=msg("{n}+ hits", n=profile.needs()),
        odds=profile.odds(),
    )


@phase
def strikes(
    s: DungeonState, monster: Monster, dice: list[tuple[Hero, int]], *, ranged: bool
) -> None:
    """The dice of a monster's attacks, in order; the rest are lost once the hero
    they are for is wounded or the game is won."""
    if not dice:
        return
    (hero, value), rest = dice[0], dice[1:]
    if hero.wounded or s.winner:
        return
    s.flow.first(
        monster_strike(s, monster, hero, value, ranged=ranged),
        strikes(s, monster, rest, ranged=ranged),
    )


@phase
def monster_strike(
    s: DungeonState, monster: Monster, hero: Hero, value: int, *, ranged: bool
) -> None:
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
            s.confirm(
                msg("Retreat: {hero} the coward moves 1 square away.", hero=s.hero_name(hero))
            )
        return
    damage = 2 if "smash" in s.book.monsters[monster.kind].specials else 1
    if "vicious_battle" in s.room.effects:
        damage *= 2
    text = "{monster} hits {hero} (critical)." if crit else "{monster} hits {hero}."
    s.emit(EventKind.INFO, msg(text, monster=s.mon_name(monster), hero=s.hero_name(hero)))
    s.flow.first(defence.hit_hero(s, hero, damage, crit=crit, ranged=ranged, source=monster))


@phase
def policy_fire_demon(s: DungeonState, monster: Monster) -> None:
    """Vortex of Doom first when no hero is on its square (pulling heroes in), then
    fly to the nearest hero and Sweep: each attack hits every figure there."""
    heroes = s.active_heroes()

    def vortex(on_square: bool) -> None:
        if on_square or monster.speed_left < 2:
            nearest(s, monster, heroes, fly)
            return
        monster.speed_left -= 2
        s.roll(
            msg(
                "Vortex of Doom! Roll one die per hero, in order: {heroes}.",
                heroes=listing([s.hero_name(h) for h in heroes]),
            ),
            pull,
            count=len(heroes),
            actor=Actor.BOSS,
        )

    def pull(values: list[int]) -> None:
        pulled = [
            h
            for h, v in zip(heroes, values, strict=True)
            if monster_attack_profile(s, monster, h, False).resolve(v)[0]
        ]
        if not pulled:
            nearest(s, monster, heroes, fly)
            return
        s.confirm(
            msg(
                "Move {heroes} 1 square closer to the Fire Demon.",
                heroes=listing([s.hero_name(h) for h in pulled]),
            ),
            Actor.BOSS,
            lambda: nearest(s, monster, heroes, fly),
        )

    def fly(target: Hero) -> None:
        s.number(
            msg(
                "How many squares must the Fire Demon fly to reach {hero}'s square? (0 if it "
                "is there)",
                hero=s.hero_name(target),
            ),
            0,
            30,
            lambda distance: flown(target, distance),
        )

    def flown(target: Hero, distance: int) -> None:
        moved = min(distance, monster.speed_left)
        monster.speed_left -= moved
        if moved < distance or not monster.speed_left:
            if moved:
                s.confirm(
                    msg(
                        "Fly the Fire Demon {n} squares towards {hero}.",
                        n=moved,
                        hero=s.hero_name(target),
                    ),
                    Actor.BOSS,
                )
            return
        s.pick_many(
            msg("Sweep: which other heroes are on that square?"),
            [(f"h{h.index}", s.hero_name(h)) for h in heroes if h is not target],
            lambda others: s.pick_many(
                msg("Sweep: which monsters are on that square?"),
                [(f"m{m.uid}", s.mon_name(m)) for m in s.room.monsters if m is not monster],
                lambda friends: sweep(target, moved, others, friends),
            ),
        )

    def sweep(target: Hero, moved: int, others: list[str], friends: list[str]) -> None:
        attacks = min(s.book.base["max_attacks"], monster.speed_left)
        monster.speed_left -= attacks
        victims = [target, *(h for h in heroes if f"h{h.index}" in others)]
        s.roll(
            msg(
                "Fly the Fire Demon {n} squares to {hero}. Sweep: roll {k} dice, each attack "
                "hits every figure there.",
                n=moved,
                hero=s.hero_name(target),
                k=attacks,
            ),
            lambda values: s.flow.first(
                *(sweep_die(s, monster, value, victims, friends) for value in values)
            ),
            count=attacks,
            actor=Actor.BOSS,
        )

    s.yes_no(msg("Is any hero on the Fire Demon's square?"), vortex)


@phase
def sweep_die(
    s: DungeonState, monster: Monster, value: int, victims: list[Hero], friends: list[str]
) -> None:
    """One die of the Sweep: it hits every hero standing there, then every monster."""
    s.flow.first(
        *(strike_standing(s, monster, hero, value) for hero in victims),
        sweep_monsters(s, monster, value, friends),
    )


@phase
def strike_standing(s: DungeonState, monster: Monster, hero: Hero, value: int) -> None:
    if not hero.wounded and not s.winner:
        s.flow.first(monster_strike(s, monster, hero, value, ranged=False))


@phase
def sweep_monsters(s: DungeonState, monster: Monster, value: int, friends: list[str]) -> None:
    hit = []
    for other in [m for m in s.room.monsters if f"m{m.uid}" in friends]:
        struck, crit = Attack(monster.attack, other.toughness).resolve(value)
        if struck:
            hit.append(hero_turn.hit_monster(s, other, 1, crit, None))
    s.flow.first(*hit)


@phase
def policy_lich(s: DungeonState, monster: Monster) -> None:
    """Two speed an action: Soul Drinker when hurt and a hero is on its square,
    Raise Dead while there are fewer zombies than heroes, Mage Blast at heroes in
    range, Soul Drinker otherwise; if no hero is in reach it closes in."""

    def asked(close: list[str]) -> None:
        s.pick_many(
            msg("Which other heroes are within 3 squares of the Lich, in line of sight?"),
            [
                (f"h{h.index}", s.hero_name(h))
                for h in s.active_heroes()
                if f"h{h.index}" not in close
            ],
            lambda in_range: s.flow.first(lich_acts(s, monster, close, in_range, 0)),
        )

    s.pick_many(
        msg("Which heroes are on the Lich's square?"),
        [(f"h{h.index}", s.hero_name(h)) for h in s.active_heroes()],
        asked,
    )


@phase
def lich_acts(
    s: DungeonState, monster: Monster, close: list[str], in_range: list[str], attacks: int
) -> None:
    """The Lich's next action of two speed points, while it has them."""
    if monster.speed_left < 2 or s.winner or monster not in s.room.monsters:
        return
    near = [h for h in s.active_heroes() if f"h{h.index}" in close]
    reach = [h for h in s.active_heroes() if f"h{h.index}" in (*close, *in_range)]
    zombies = sum(1 for m in s.room.monsters if m.kind == "zombie")
    can_attack = attacks < s.book.base["max_attacks"]
    monster.speed_left -= 2
    again = lich_acts(s, monster, close, in_range, attacks + 1)
    if near and can_attack and monster.health < monster.max_health:
        s.flow.first(soul_drinker(s, monster, near), again)
    elif zombies < len(s.active_heroes()):
        zombie = exploring.new_monster(s, "zombie")
        zombie.speed_left = 0
        s.room.monsters.append(zombie)
        s.confirm(
            msg(
                "Raise Dead: place {monster} on the Lich's square.",
                monster=s.mon_name(zombie),
            ),
            Actor.BOSS,
            lambda: s.flow.first(lich_acts(s, monster, close, in_range, attacks)),
        )
    elif reach and can_attack:
        s.flow.first(lich_blast(s, monster, reach), again)
    elif near and can_attack:
        s.flow.first(soul_drinker(s, monster, near), again)
    else:
        monster.speed_left += 2
        if not reach:

            def closes_in(target: Hero) -> None:
                s.confirm(
                    msg(
                        "Move the Lich towards {hero} until they are within 3 squares.",
                        hero=s.hero_name(target),
                    ),
                    Actor.BOSS,
                )

            nearest(s, monster, s.active_heroes(), closes_in)


@phase
def soul_drinker(s: DungeonState, monster: Monster, near: list[Hero]) -> None:
    target = min(near, key=lambda h: (h.health, h.index))
    profile = monster_attack_profile(s, monster, target, False)

    def rolled(value: int) -> None:
        before = target.health

        def drunk() -> None:
            if target.health < before or (target.wounded and before > 0):
                monster.health = min(monster.max_health, monster.health + 1)
                s.emit(
                    EventKind.HEAL, msg("Soul Drinker: the Lich has {h} health.", h=monster.health)
                )

        s.flow.first(monster_strike(s, monster, target, value, ranged=False), s.afterwards(drunk))

    s.roll_one(
        msg("Soul Drinker on {hero}: roll a D6 for the Lich.", hero=s.hero_name(target)),
        rolled,
        actor=Actor.BOSS,
        objective=msg("{n}+ hits", n=profile.needs()),
        odds=profile.odds(),
    )


@phase
def lich_blast(s: DungeonState, monster: Monster, reach: list[Hero]) -> None:
    first = min(reach, key=lambda h: (h.health, h.index))
    others = [h for h in reach if h is not first]

    def blast(targets: list[Hero]) -> None:
        names = listing([s.hero_name(h) for h in targets])
        text = msg(
            "Mage Blast on {heroes}: roll {k} dice for the Lich, in that order.",
            heroes=names,
            k=len(targets),
        )
        s.flow.first(monster_attacks(s, monster, targets, ranged=True, text=text))

    if not others:
        blast([first])
        return
    s.choose(
        msg(
            "Mage Blast on {hero}: which other hero is on the same or a next square?",
            hero=s.hero_name(first),
        ),
        [
            *((f"h{h.index}", s.hero_name(h)) for h in others),
            ("none", msg("No one")),
        ],
        lambda pick: blast([first, *(h for h in others if f"h{h.index}" == pick)]),
        Actor.TABLE,
    )


#: how each kind of monster acts on its turn (its ``policy`` in the rulebook data)
POLICIES: dict[str, Callable[[DungeonState, Monster], Step]] = {
    "melee": policy_melee,
    "ranged": policy_ranged,
    "fire_demon": policy_fire_demon,
    "lich": policy_lich,
}
