"""Exploring a room: trap chart, monster generator, spawn lists, placement; the lair's sacrifice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import defence, hero_turn
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import (
    MAX_GENERATOR,
    SIZE_ORDER,
    Flow,
    Room,
    TableFlow,
    listing,
)


def do_door(s: TableFlow, hero: Hero, _: str) -> Flow:
    if "visions" in s.party_cards and s.foreseen is None:
        use = yield from s.yes_no(
            msg(
                "Discard You Have Brief Visions of the Future! to roll the trap chart and "
                "the monster generator before opening the door?"
            )
        )
        if use:
            s.party_cards.remove("visions")
            s.foreseen = yield from room_rolls(s, hero, room_trap_modifier(s))
            go = yield from s.yes_no(msg("Open the door to room {n} now?", n=s.room.number + 1))
            if not go:
                return
    hero.speed_left -= 1
    yield from explore(s, hero)


def room_trap_modifier(s: TableFlow) -> int | None:
    """None: no trap roll (explored the round the last room was cleared)."""
    if s.room.cleared_round is None:
        return 0
    late = s.round - s.room.cleared_round
    if s.town_visited_since_clear or late >= 2:
        return 1
    return None if late == 0 else 0


def explore(s: TableFlow, hero: Hero) -> Flow:
    number = s.room.number + 1
    trap_modifier = room_trap_modifier(s)
    s.room = Room(number=number, lair=number == s.rooms_total)
    s.room.effects, s.next_room = s.next_room, set()
    s.emit(
        EventKind.INFO,
        msg("{hero} opens the door to room {n}.", hero=s.hero_name(hero), n=number),
    )
    for card in s.book.events.values():
        if card.effect in s.room.effects:
            s.emit(EventKind.CARD, msg("In this room: {card}", card=msg(card.title)))
    foreseen, s.foreseen = s.foreseen, None
    trap, rolls = foreseen or (yield from room_rolls(s, hero, trap_modifier))
    yield from spawn(s, rolls)
    yield from room_cards(s, hero)
    yield from spring_trap(s, trap, hero)


def room_rolls(s: TableFlow, hero: Hero, trap_modifier: int | None) -> Flow:
    """The trap chart (first: a 6 changes the generator roll), then the generator."""
    trap = s.book.traps[1]
    if s.options["traps"] == "on" and trap_modifier is None:
        s.emit(EventKind.INFO, msg("Explored the round the last room was cleared: no trap roll."))
    elif s.options["traps"] == "on" and trap_modifier is not None:
        if hero.cls == "thief":
            trap_modifier -= 1
        trap = yield from trap_roll(s, trap_modifier)
    generator_bonus = s.retreats + level_modifier(s)
    rolls = yield from generator_roll(s, generator_bonus)
    if trap.effect == "double_generator":
        rolls += yield from generator_roll(s, 0, second=True)
    elif trap.effect == "both_generators":
        first = yield from generator_roll(s, generator_bonus, second=True)
        second = yield from generator_roll(s, generator_bonus, second=True)
        while second == first:
            second = yield from generator_roll(s, generator_bonus, second=True)
        rolls = first + second
    return trap, rolls


def level_modifier(s: TableFlow) -> int:
    return s.level if s.options["generator_level"] == "level" else s.level - 1


def trap_roll(s: TableFlow, modifier: int) -> Flow:
    value = yield from chart_roll(
        s,
        msg("Roll a D6 on the trap chart for the boss ({m:+d}).", m=modifier),
        modifier,
        lambda n: msg("Trap {n}. Discard A Cunning Plan to re-roll it?", n=n),
        msg("Re-roll the trap chart ({m:+d}).", m=modifier),
    )
    trap = s.book.traps[value]
    s.emit(EventKind.INFO, msg("Trap chart: {n}.", n=value), trap=trap.effect)
    s.emit(EventKind.CARD, msg(trap.text), trap=trap.effect)
    return trap


def generator_roll(s: TableFlow, modifier: int, *, second: bool = False) -> Flow:
    text = (
        msg("Roll the monster generator again for the boss ({m:+d}).", m=modifier)
        if second
        else msg("Roll a D6 on the monster generator for the boss ({m:+d}).", m=modifier)
    )
    result = yield from chart_roll(
        s,
        text,
        modifier,
        lambda n: msg("Generator {n}. Discard A Cunning Plan to re-roll it?", n=n),
        msg("Re-roll the monster generator ({m:+d}).", m=modifier),
    )
    return [result]


def chart_roll(
    s: TableFlow, text: Msg, modifier: int, offer: Callable[[int], Msg], again: Msg
) -> Flow:
    """A boss's D6 on the trap chart or the monster generator, kept within 1..7;
    A Cunning Plan may be discarded to re-roll "any result on the trap or monster
    generator tables"."""
    (value,) = yield from s.roll(text, actor=Actor.BOSS)
    result = min(MAX_GENERATOR, max(1, value + modifier))
    if "cunning_plan" in s.party_cards and (yield from s.yes_no(offer(result))):
        s.party_cards.remove("cunning_plan")
        (value,) = yield from s.roll(again, actor=Actor.BOSS)
        result = min(MAX_GENERATOR, max(1, value + modifier))
    return result


def spawn(
    s: TableFlow, results: list[int], *, cap: int = MAX_GENERATOR, entering: bool = True
) -> Flow:
    """Monsters from the generator results, in the order of the room's list."""
    placed: list[Monster] = []
    heroes = len(s.active_heroes())
    spawn = s.book.spawn_list(s.room.number, s.room.lair)
    chests = 0
    for result in results:
        entry = s.book.generator_result(min(result, cap))
        s.emit(
            EventKind.CARD,
            msg("Monster generator: {n}.", n=result),
            result=result,
        )
        s.emit(EventKind.CARD, msg(entry.text), result=result)
        small = entry.small + entry.small_per_hero * heroes
        for _ in range(entry.small_dice):
            (value,) = yield from s.roll(
                msg("Roll a D6 for the number of small monsters."), actor=Actor.BOSS
            )
            small += value
        for _ in range(entry.mini_boss):
            placed.append(new_monster(s, s.book.mini_boss))
        for _ in range(entry.large):
            kind = s.book.large_monsters[s.large_turn % len(s.book.large_monsters)]
            s.large_turn += 1
            placed.append(new_monster(s, kind))
        placed += small_monsters(s, spawn.monsters, small)
        chests += entry.chests
    if entering and "extra_zombie" in s.room.effects:
        placed.append(new_monster(s, "zombie"))
    if entering and s.room.lair:
        placed.append(new_monster(s, s.book.dungeon_boss))
    placed.sort(key=lambda m: SIZE_ORDER[s.book.monsters[m.kind].size])
    s.room.monsters += placed
    s.room.chests += chests
    names = listing([s.mon_name(m) for m in placed])
    yield from s.confirm(
        msg(
            "Place in room {n}, from the corner farthest from the door the heroes used, "
            "largest first, one a square (two a square if there are more monsters than free "
            "squares): {names}.",
            n=s.room.number,
            names=names,
        ),
        Actor.BOSS,
    )
    if chests:
        yield from s.confirm(
            msg(
                "Place {n} treasure chest(s) in the farthest corner from the heroes' entrance.",
                n=chests,
            ),
            Actor.BOSS,
        )
    if entering and s.room.lair and s.has_motivation("love_interest"):
        s.ritual = {"active": True, "rounds": 0}
        yield from s.confirm(
            msg(
                "The dark sacrifice: place the sacrifice token in the centre of the room; no "
                "monster starts there. Reach and clear it within 5 rounds."
            ),
            Actor.BOSS,
        )


def small_monsters(s: TableFlow, order: tuple[tuple[str, int], ...], wanted: int) -> list[Monster]:
    """Small monsters in list order; "2 zombies count as 1 small monster"."""
    placed: list[Monster] = []
    halves = 0
    for kind, count in order:
        for _ in range(count):
            if halves >= 2 * wanted:
                return placed
            placed.append(new_monster(s, kind))
            halves += 1 if "numerous" in s.book.monsters[kind].specials else 2
    return placed


def new_monster(s: TableFlow, kind: str) -> Monster:
    s.uid += 1
    s.room.numbers[kind] = s.room.numbers.get(kind, 0) + 1
    return fig.new_monster(
        s.book.monsters[kind],
        s.uid,
        s.room.numbers[kind],
        heroes=len(s.heroes),
        level=s.level,
        attack_range=s.monster_ranges[kind],
        book=s.book,
    )


def room_cards(s: TableFlow, hero: Hero) -> Flow:
    effects = s.room.effects
    hog = s.has_motivation("glory_hog")
    if hog and not hog.wounded and s.room.monsters:
        largest = s.room.monsters[0]
        if "charge" in effects:
            yield from s.confirm(
                msg(
                    "CHARGE! Place {hero} on the square of {monster}.",
                    hero=s.hero_name(hog),
                    monster=s.mon_name(largest),
                )
            )
            yield from hero_turn.hit_monster(s, largest, 1, False, hog, unblockable=True)
        if "cha_aaargh" in effects:
            yield from s.confirm(
                msg(
                    "CHA-AAARGH! Place {hero} on the square of {monster}.",
                    hero=s.hero_name(hog),
                    monster=s.mon_name(largest),
                )
            )
            yield from defence.hurt(s, hog, 1)
    if "time_bubble" in effects:
        for h in s.active_heroes():
            h.speed_left = (h.speed_left + 1) // 2
        for m in s.room.monsters:
            m.speed_left = (m.speed_left + 1) // 2
    if "trap_door" in effects and s.active_heroes():
        victim = min(s.active_heroes(), key=lambda h: (h.health, h.index))
        yield from s.confirm(
            msg(
                "Trap Door: the dungeon boss opens a trap door under {hero}.",
                hero=s.hero_name(victim),
            ),
            Actor.BOSS,
        )
        yield from pitfall(s, victim)


def spring_trap(s: TableFlow, trap: Any, hero: Hero) -> Flow:
    if trap.effect == "falling_brick":
        yield from defence.hit_hero(s, hero, 1, crit=False, ranged=False, source=None)
    elif trap.effect == "pitfall":
        yield from pitfall(s, hero)
    elif trap.effect == "vines":
        s.room.effects.add("vines")
        yield from s.confirm(
            msg("Carnivorous vines: the Pi will ask after each move that ends next to a wall.")
        )
    elif trap.effect == "ambush":
        s.room.trap = "ambush_now"
        yield from s.confirm(
            msg("Ambush! The heroes' turn ends now; they keep their unused speed points."),
            Actor.BOSS,
        )


def pitfall(s: TableFlow, hero: Hero) -> Flow:
    yield from s.confirm(
        msg("Place the pit token on {hero}'s square.", hero=s.hero_name(hero)), Actor.BOSS
    )
    saved = False
    if hero.speed_left >= 1:
        saved = yield from defence.defend(s, hero, "dodge", ranged=False)
    if saved:
        yield from s.confirm(
            msg(
                "{hero} leaps clear: place them on any adjacent square.",
                hero=s.hero_name(hero),
            )
        )
        return
    hero.in_pit = True
    yield from defence.hurt(s, hero, 1)


# -- the sacrifice -------------------------------------------------------------


def ritual_check(s: TableFlow) -> Flow:
    assert s.ritual is not None
    s.ritual["rounds"] += 1
    state = yield from s.choose(
        msg("The dark sacrifice, round {n} of 5: the centre square?", n=s.ritual["rounds"]),
        [
            ("stopped", msg("A hero holds it and no monster is on it: the ritual is stopped")),
            ("held", msg("A hero stands on it, monsters too")),
            ("open", msg("No hero stands on it")),
        ],
        Actor.TABLE,
    )
    if state == "stopped":
        s.ritual["active"] = False
        lover = s.has_motivation("love_interest")
        if lover:
            lover.wounded = False
            lover.health = fig.max_health(lover, s.book)
        s.emit(
            EventKind.OBJECTIVE_MET,
            msg("The ritual is stopped: the Love Interest rescues their true love."),
        )
    elif state == "open" and s.ritual["rounds"] >= 5:
        s.winner = "boss"
        s.emit(EventKind.OBJECTIVE_MISSED, msg("The ritual is complete: the dungeon boss wins."))
