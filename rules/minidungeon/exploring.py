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
    DungeonState,
    Room,
    listing,
    nothing,
    phase,
)


@phase
def do_door(s: DungeonState, hero: Hero, _: str) -> None:
    def open_door() -> None:
        hero.speed_left -= 1
        s.flow.first(explore(s, hero))

    def foresee(use: bool) -> None:
        if not use:
            open_door()
            return
        s.party_cards.remove("visions")
        room_rolls(s, hero, room_trap_modifier(s), foreseen)

    def foreseen(rolls: tuple[Any, list[int]]) -> None:
        s.foreseen = rolls
        s.yes_no(
            msg("Open the door to room {n} now?", n=s.room.number + 1),
            lambda go: open_door() if go else None,
        )

    if "visions" in s.party_cards and s.foreseen is None:
        s.yes_no(
            msg(
                "Discard You Have Brief Visions of the Future! to roll the trap chart and "
                "the monster generator before opening the door?"
            ),
            foresee,
        )
    else:
        open_door()


def room_trap_modifier(s: DungeonState) -> int | None:
    """None: no trap roll (explored the round the last room was cleared)."""
    if s.room.cleared_round is None:
        return 0
    late = s.round - s.room.cleared_round
    if s.town_visited_since_clear or late >= 2:
        return 1
    return None if late == 0 else 0


@phase
def explore(s: DungeonState, hero: Hero) -> None:
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

    def rolled(rolls: tuple[Any, list[int]]) -> None:
        trap, results = rolls
        s.flow.first(spawn(s, results), room_cards(s, hero), spring_trap(s, trap, hero))

    foreseen, s.foreseen = s.foreseen, None
    if foreseen:
        rolled(foreseen)
    else:
        room_rolls(s, hero, trap_modifier, rolled)


def room_rolls(
    s: DungeonState,
    hero: Hero,
    trap_modifier: int | None,
    then: Callable[[tuple[Any, list[int]]], None],
) -> None:
    """The trap chart (first: a 6 changes the generator roll), then the generator."""

    def generator(trap: Any) -> None:
        bonus = s.retreats + level_modifier(s)

        def rolled_first(rolls: list[int]) -> None:
            if trap.effect == "double_generator":
                again = generator_roll(s, 0, lambda more: then((trap, rolls + more)), second=True)
                s.flow.first(again)
            elif trap.effect == "both_generators":
                s.flow.first(generator_roll(s, bonus, rolled_one, second=True))
            else:
                then((trap, rolls))

        def rolled_one(one: list[int]) -> None:
            def rolled_two(two: list[int]) -> None:
                if two == one:  # the second generator must give another result
                    s.flow.first(generator_roll(s, bonus, rolled_two, second=True))
                else:
                    then((trap, one + two))

            s.flow.first(generator_roll(s, bonus, rolled_two, second=True))

        s.flow.first(generator_roll(s, bonus, rolled_first))

    trap = s.book.traps[1]
    if s.options["traps"] == "on" and trap_modifier is None:
        s.emit(EventKind.INFO, msg("Explored the round the last room was cleared: no trap roll."))
    elif s.options["traps"] == "on" and trap_modifier is not None:
        if hero.cls == "thief":
            trap_modifier -= 1
        s.flow.first(trap_roll(s, trap_modifier, generator))
        return
    generator(trap)


def level_modifier(s: DungeonState) -> int:
    return s.level if s.options["generator_level"] == "level" else s.level - 1


@phase
def trap_roll(s: DungeonState, modifier: int, then: Callable[[Any], None] = nothing) -> None:
    def rolled(value: int) -> None:
        trap = s.book.traps[value]
        s.emit(EventKind.INFO, msg("Trap chart: {n}.", n=value), trap=trap.effect)
        s.emit(EventKind.CARD, msg(trap.text), trap=trap.effect)
        then(trap)

    chart_roll(
        s,
        msg("Roll a D6 on the trap chart for the boss ({m:+d}).", m=modifier),
        modifier,
        lambda n: msg("Trap {n}. Discard A Cunning Plan to re-roll it?", n=n),
        msg("Re-roll the trap chart ({m:+d}).", m=modifier),
        rolled,
    )


@phase
def generator_roll(
    s: DungeonState,
    modifier: int,
    then: Callable[[list[int]], None] = nothing,
    *,
    second: bool = False,
) -> None:
    text = (
        msg("Roll the monster generator again for the boss ({m:+d}).", m=modifier)
        if second
        else msg("Roll a D6 on the monster generator for the boss ({m:+d}).", m=modifier)
    )
    chart_roll(
        s,
        text,
        modifier,
        lambda n: msg("Generator {n}. Discard A Cunning Plan to re-roll it?", n=n),
        msg("Re-roll the monster generator ({m:+d}).", m=modifier),
        lambda result: then([result]),
    )


def chart_roll(
    s: DungeonState,
    text: Msg,
    modifier: int,
    offer: Callable[[int], Msg],
    again: Msg,
    then: Callable[[int], None],
) -> None:
    """A boss's D6 on the trap chart or the monster generator, kept within 1..7;
    A Cunning Plan may be discarded to re-roll "any result on the trap or monster
    generator tables"."""

    def kept(value: int) -> int:
        return min(MAX_GENERATOR, max(1, value + modifier))

    def rolled(value: int) -> None:
        result = kept(value)
        if "cunning_plan" not in s.party_cards:
            then(result)
            return

        def plan(reroll: bool) -> None:
            if not reroll:
                then(result)
                return
            s.party_cards.remove("cunning_plan")
            s.roll_one(again, lambda value: then(kept(value)), actor=Actor.BOSS)

        s.yes_no(offer(result), plan)

    s.roll_one(text, rolled, actor=Actor.BOSS)


@phase
def spawn(
    s: DungeonState, results: list[int], *, cap: int = MAX_GENERATOR, entering: bool = True
) -> None:
    """Monsters from the generator results, in the order of the room's list."""
    spawn = s.book.spawn_list(s.room.number, s.room.lair)
    heroes = len(s.active_heroes())
    placed: list[Monster] = []
    chests = 0

    def result_at(index: int) -> None:
        nonlocal chests
        if index == len(results):
            place()
            return
        result = results[index]
        entry = s.book.generator_result(min(result, cap))
        s.emit(EventKind.CARD, msg("Monster generator: {n}.", n=result), result=result)
        s.emit(EventKind.CARD, msg(entry.text), result=result)

        def counted(small: int) -> None:
            nonlocal chests
            for _ in range(entry.mini_boss):
                placed.append(new_monster(s, s.book.mini_boss))
            for _ in range(entry.large):
                kind = s.book.large_monsters[s.large_turn % len(s.book.large_monsters)]
                s.large_turn += 1
                placed.append(new_monster(s, kind))
            placed.extend(small_monsters(s, spawn.monsters, small))
            chests += entry.chests
            result_at(index + 1)

        small_dice(s, entry.small + entry.small_per_hero * heroes, entry.small_dice, counted)

    def place() -> None:
        if entering and "extra_zombie" in s.room.effects:
            placed.append(new_monster(s, "zombie"))
        if entering and s.room.lair:
            placed.append(new_monster(s, s.book.dungeon_boss))
        placed.sort(key=lambda m: SIZE_ORDER[s.book.monsters[m.kind].size])
        s.room.monsters += placed
        s.room.chests += chests
        names = listing([s.mon_name(m) for m in placed])
        s.confirm(
            msg(
                "Place in room {n}, from the corner farthest from the door the heroes used, "
                "largest first, one a square (two a square if there are more monsters than "
                "free squares): {names}.",
                n=s.room.number,
                names=names,
            ),
            Actor.BOSS,
            place_chests,
        )

    def place_chests() -> None:
        if not chests:
            begin_sacrifice()
            return
        s.confirm(
            msg(
                "Place {n} treasure chest(s) in the farthest corner from the heroes' entrance.",
                n=chests,
            ),
            Actor.BOSS,
            begin_sacrifice,
        )

    def begin_sacrifice() -> None:
        if entering and s.room.lair and s.has_motivation("love_interest"):
            s.ritual = {"active": True, "rounds": 0}
            s.confirm(
                msg(
                    "The dark sacrifice: place the sacrifice token in the centre of the room; "
                    "no monster starts there. Reach and clear it within 5 rounds."
                ),
                Actor.BOSS,
            )

    result_at(0)


def small_dice(s: DungeonState, small: int, dice: int, then: Callable[[int], None]) -> None:
    """The number of small monsters: ``small``, plus a boss's D6 for each of ``dice``."""
    if not dice:
        then(small)
        return
    s.roll_one(
        msg("Roll a D6 for the number of small monsters."),
        lambda value: small_dice(s, small + value, dice - 1, then),
        actor=Actor.BOSS,
    )


def small_monsters(
    s: DungeonState, order: tuple[tuple[str, int], ...], wanted: int
) -> list[Monster]:
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


def new_monster(s: DungeonState, kind: str) -> Monster:
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


@phase
def room_cards(s: DungeonState, hero: Hero) -> None:
    effects = s.room.effects
    hog = s.has_motivation("glory_hog")
    steps = []
    if hog and not hog.wounded and s.room.monsters:
        largest = s.room.monsters[0]
        if "charge" in effects:
            steps += [
                confirm_step(
                    s,
                    msg(
                        "CHARGE! Place {hero} on the square of {monster}.",
                        hero=s.hero_name(hog),
                        monster=s.mon_name(largest),
                    ),
                ),
                hero_turn.hit_monster(s, largest, 1, False, hog, unblockable=True),
            ]
        if "cha_aaargh" in effects:
            steps += [
                confirm_step(
                    s,
                    msg(
                        "CHA-AAARGH! Place {hero} on the square of {monster}.",
                        hero=s.hero_name(hog),
                        monster=s.mon_name(largest),
                    ),
                ),
                defence.hurt(s, hog, 1),
            ]
    steps.append(room_cards_after_charge(s))
    s.flow.first(*steps)


@phase
def room_cards_after_charge(s: DungeonState) -> None:
    effects = s.room.effects
    if "time_bubble" in effects:
        for h in s.active_heroes():
            h.speed_left = (h.speed_left + 1) // 2
        for m in s.room.monsters:
            m.speed_left = (m.speed_left + 1) // 2
    if "trap_door" in effects and s.active_heroes():
        victim = min(s.active_heroes(), key=lambda h: (h.health, h.index))
        s.confirm(
            msg(
                "Trap Door: the dungeon boss opens a trap door under {hero}.",
                hero=s.hero_name(victim),
            ),
            Actor.BOSS,
            lambda: s.flow.first(pitfall(s, victim)),
        )


@phase
def confirm_step(s: DungeonState, text: Msg, actor: Actor = Actor.TABLE) -> None:
    """A CONFIRM asked when its step comes to the front (said then, not before)."""
    s.confirm(text, actor)


@phase
def spring_trap(s: DungeonState, trap: Any, hero: Hero) -> None:
    if trap.effect == "falling_brick":
        s.flow.first(defence.hit_hero(s, hero, 1, crit=False, ranged=False, source=None))
    elif trap.effect == "pitfall":
        s.flow.first(pitfall(s, hero))
    elif trap.effect == "vines":
        s.room.effects.add("vines")
        s.confirm(
            msg("Carnivorous vines: the Pi will ask after each move that ends next to a wall.")
        )
    elif trap.effect == "ambush":
        s.room.trap = "ambush_now"
        s.confirm(
            msg("Ambush! The heroes' turn ends now; they keep their unused speed points."),
            Actor.BOSS,
        )


@phase
def pitfall(s: DungeonState, hero: Hero) -> None:
    def placed() -> None:
        if hero.speed_left >= 1:
            defence.defend(s, hero, "dodge", fell, ranged=False)
        else:
            fell(False)

    def fell(saved: bool) -> None:
        if saved:
            s.confirm(
                msg(
                    "{hero} leaps clear: place them on any adjacent square.",
                    hero=s.hero_name(hero),
                )
            )
            return
        hero.in_pit = True
        s.flow.first(defence.hurt(s, hero, 1))

    s.confirm(
        msg("Place the pit token on {hero}'s square.", hero=s.hero_name(hero)),
        Actor.BOSS,
        placed,
    )


# -- the sacrifice -------------------------------------------------------------


@phase
def ritual_check(s: DungeonState) -> None:
    assert s.ritual is not None
    ritual = s.ritual
    ritual["rounds"] += 1

    def centre(state: str) -> None:
        if state == "stopped":
            ritual["active"] = False
            lover = s.has_motivation("love_interest")
            if lover:
                lover.wounded = False
                lover.health = fig.max_health(lover, s.book)
            s.emit(
                EventKind.OBJECTIVE_MET,
                msg("The ritual is stopped: the Love Interest rescues their true love."),
            )
        elif state == "open" and ritual["rounds"] >= 5:
            s.winner = "boss"
            s.emit(
                EventKind.OBJECTIVE_MISSED, msg("The ritual is complete: the dungeon boss wins.")
            )

    s.choose(
        msg("The dark sacrifice, round {n} of 5: the centre square?", n=ritual["rounds"]),
        [
            ("stopped", msg("A hero holds it and no monster is on it: the ritual is stopped")),
            ("held", msg("A hero stands on it, monsters too")),
            ("open", msg("No hero stands on it")),
        ],
        centre,
        Actor.TABLE,
    )
