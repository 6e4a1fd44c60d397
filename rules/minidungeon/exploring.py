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


class Exploring(TableFlow):
    """Opening a door, from the trap roll to the figures on the table."""

    # -- exploring a room -----------------------------------------------------------

    def _do_door(self, hero: Hero, _: str) -> Flow:
        if "visions" in self.party_cards and self.foreseen is None:
            use = yield from self.yes_no(
                msg(
                    "Discard You Have Brief Visions of the Future! to roll the trap chart and "
                    "the monster generator before opening the door?"
                )
            )
            if use:
                self.party_cards.remove("visions")
                self.foreseen = yield from self._room_rolls(hero, self._trap_modifier())
                go = yield from self.yes_no(
                    msg("Open the door to room {n} now?", n=self.room.number + 1)
                )
                if not go:
                    return
        hero.speed_left -= 1
        yield from self._explore(hero)

    def _trap_modifier(self) -> int | None:
        """None: no trap roll (explored the round the last room was cleared)."""
        if self.room.cleared_round is None:
            return 0
        late = self.round - self.room.cleared_round
        if self.town_visited_since_clear or late >= 2:
            return 1
        return None if late == 0 else 0

    def _explore(self, hero: Hero) -> Flow:
        number = self.room.number + 1
        trap_modifier = self._trap_modifier()
        self.room = Room(number=number, lair=number == self.rooms_total)
        self.room.effects, self.next_room = self.next_room, set()
        self.emit(
            EventKind.INFO,
            msg("{hero} opens the door to room {n}.", hero=self.hero_name(hero), n=number),
        )
        for card in self.book.events.values():
            if card.effect in self.room.effects:
                self.emit(EventKind.CARD, msg("In this room: {card}", card=msg(card.title)))
        foreseen, self.foreseen = self.foreseen, None
        trap, rolls = foreseen or (yield from self._room_rolls(hero, trap_modifier))
        yield from self._spawn(rolls)
        yield from self._room_cards(hero)
        yield from self._spring_trap(trap, hero)

    def _room_rolls(self, hero: Hero, trap_modifier: int | None) -> Flow:
        """The trap chart (first: a 6 changes the generator roll), then the generator."""
        trap = self.book.traps[1]
        if self.options["traps"] == "on" and trap_modifier is None:
            self.emit(
                EventKind.INFO, msg("Explored the round the last room was cleared: no trap roll.")
            )
        elif self.options["traps"] == "on" and trap_modifier is not None:
            if hero.cls == "thief":
                trap_modifier -= 1
            trap = yield from self._trap_roll(trap_modifier)
        generator_bonus = self.retreats + self._level_modifier()
        rolls = yield from self._generator_roll(generator_bonus)
        if trap.effect == "double_generator":
            rolls += yield from self._generator_roll(0, second=True)
        elif trap.effect == "both_generators":
            first = yield from self._generator_roll(generator_bonus, second=True)
            second = yield from self._generator_roll(generator_bonus, second=True)
            while second == first:
                second = yield from self._generator_roll(generator_bonus, second=True)
            rolls = first + second
        return trap, rolls

    def _level_modifier(self) -> int:
        return self.level if self.options["generator_level"] == "level" else self.level - 1

    def _trap_roll(self, modifier: int) -> Flow:
        value = yield from self._chart_roll(
            msg("Roll a D6 on the trap chart for the boss ({m:+d}).", m=modifier),
            modifier,
            lambda n: msg("Trap {n}. Discard A Cunning Plan to re-roll it?", n=n),
            msg("Re-roll the trap chart ({m:+d}).", m=modifier),
        )
        trap = self.book.traps[value]
        self.emit(EventKind.INFO, msg("Trap chart: {n}.", n=value), trap=trap.effect)
        self.emit(EventKind.CARD, msg(trap.text), trap=trap.effect)
        return trap

    def _generator_roll(self, modifier: int, *, second: bool = False) -> Flow:
        text = (
            msg("Roll the monster generator again for the boss ({m:+d}).", m=modifier)
            if second
            else msg("Roll a D6 on the monster generator for the boss ({m:+d}).", m=modifier)
        )
        result = yield from self._chart_roll(
            text,
            modifier,
            lambda n: msg("Generator {n}. Discard A Cunning Plan to re-roll it?", n=n),
            msg("Re-roll the monster generator ({m:+d}).", m=modifier),
        )
        return [result]

    def _chart_roll(
        self, text: Msg, modifier: int, offer: Callable[[int], Msg], again: Msg
    ) -> Flow:
        """A boss's D6 on the trap chart or the monster generator, kept within 1..7;
        A Cunning Plan may be discarded to re-roll "any result on the trap or monster
        generator tables"."""
        (value,) = yield from self.roll(text, actor=Actor.BOSS)
        result = min(MAX_GENERATOR, max(1, value + modifier))
        if "cunning_plan" in self.party_cards and (yield from self.yes_no(offer(result))):
            self.party_cards.remove("cunning_plan")
            (value,) = yield from self.roll(again, actor=Actor.BOSS)
            result = min(MAX_GENERATOR, max(1, value + modifier))
        return result

    def _spawn(
        self, results: list[int], *, cap: int = MAX_GENERATOR, entering: bool = True
    ) -> Flow:
        """Monsters from the generator results, in the order of the room's list."""
        placed: list[Monster] = []
        heroes = len(self.active_heroes())
        spawn = self.book.spawn_list(self.room.number, self.room.lair)
        chests = 0
        for result in results:
            entry = self.book.generator_result(min(result, cap))
            self.emit(
                EventKind.CARD,
                msg("Monster generator: {n}.", n=result),
                result=result,
            )
            self.emit(EventKind.CARD, msg(entry.text), result=result)
            small = entry.small + entry.small_per_hero * heroes
            for _ in range(entry.small_dice):
                (value,) = yield from self.roll(
                    msg("Roll a D6 for the number of small monsters."), actor=Actor.BOSS
                )
                small += value
            for _ in range(entry.mini_boss):
                placed.append(self._new_monster(self.book.mini_boss))
            for _ in range(entry.large):
                kind = self.book.large_monsters[self.large_turn % len(self.book.large_monsters)]
                self.large_turn += 1
                placed.append(self._new_monster(kind))
            placed += self._small_monsters(spawn.monsters, small)
            chests += entry.chests
        if entering and "extra_zombie" in self.room.effects:
            placed.append(self._new_monster("zombie"))
        if entering and self.room.lair:
            placed.append(self._new_monster(self.book.dungeon_boss))
        placed.sort(key=lambda m: SIZE_ORDER[self.book.monsters[m.kind].size])
        self.room.monsters += placed
        self.room.chests += chests
        names = listing([self.mon_name(m) for m in placed])
        yield from self.confirm(
            msg(
                "Place in room {n}, from the corner farthest from the door the heroes used, "
                "largest first, one a square (two a square if there are more monsters than free "
                "squares): {names}.",
                n=self.room.number,
                names=names,
            ),
            Actor.BOSS,
        )
        if chests:
            yield from self.confirm(
                msg(
                    "Place {n} treasure chest(s) in the farthest corner from the heroes' entrance.",
                    n=chests,
                ),
                Actor.BOSS,
            )
        if entering and self.room.lair and self.has_motivation("love_interest"):
            self.ritual = {"active": True, "rounds": 0}
            yield from self.confirm(
                msg(
                    "The dark sacrifice: place the sacrifice token in the centre of the room; no "
                    "monster starts there. Reach and clear it within 5 rounds."
                ),
                Actor.BOSS,
            )

    def _small_monsters(self, order: tuple[tuple[str, int], ...], wanted: int) -> list[Monster]:
        """Small monsters in list order; "2 zombies count as 1 small monster"."""
        placed: list[Monster] = []
        halves = 0
        for kind, count in order:
            for _ in range(count):
                if halves >= 2 * wanted:
                    return placed
                placed.append(self._new_monster(kind))
                halves += 1 if "numerous" in self.book.monsters[kind].specials else 2
        return placed

    def _new_monster(self, kind: str) -> Monster:
        self.uid += 1
        self.room.numbers[kind] = self.room.numbers.get(kind, 0) + 1
        return fig.new_monster(
            self.book.monsters[kind],
            self.uid,
            self.room.numbers[kind],
            heroes=len(self.heroes),
            level=self.level,
            attack_range=self.monster_ranges[kind],
            book=self.book,
        )

    def _room_cards(self, hero: Hero) -> Flow:
        effects = self.room.effects
        hog = self.has_motivation("glory_hog")
        if hog and not hog.wounded and self.room.monsters:
            largest = self.room.monsters[0]
            if "charge" in effects:
                yield from self.confirm(
                    msg(
                        "CHARGE! Place {hero} on the square of {monster}.",
                        hero=self.hero_name(hog),
                        monster=self.mon_name(largest),
                    )
                )
                yield from self._hit_monster(largest, 1, False, hog, unblockable=True)
            if "cha_aaargh" in effects:
                yield from self.confirm(
                    msg(
                        "CHA-AAARGH! Place {hero} on the square of {monster}.",
                        hero=self.hero_name(hog),
                        monster=self.mon_name(largest),
                    )
                )
                yield from self._hurt(hog, 1)
        if "time_bubble" in effects:
            for h in self.active_heroes():
                h.speed_left = (h.speed_left + 1) // 2
            for m in self.room.monsters:
                m.speed_left = (m.speed_left + 1) // 2
        if "trap_door" in effects and self.active_heroes():
            victim = min(self.active_heroes(), key=lambda h: (h.health, h.index))
            yield from self.confirm(
                msg(
                    "Trap Door: the dungeon boss opens a trap door under {hero}.",
                    hero=self.hero_name(victim),
                ),
                Actor.BOSS,
            )
            yield from self._pitfall(victim)

    def _spring_trap(self, trap: Any, hero: Hero) -> Flow:
        if trap.effect == "falling_brick":
            yield from self._hit_hero(hero, 1, crit=False, ranged=False, source=None)
        elif trap.effect == "pitfall":
            yield from self._pitfall(hero)
        elif trap.effect == "vines":
            self.room.effects.add("vines")
            yield from self.confirm(
                msg("Carnivorous vines: the Pi will ask after each move that ends next to a wall.")
            )
        elif trap.effect == "ambush":
            self.room.trap = "ambush_now"
            yield from self.confirm(
                msg("Ambush! The heroes' turn ends now; they keep their unused speed points."),
                Actor.BOSS,
            )

    def _pitfall(self, hero: Hero) -> Flow:
        yield from self.confirm(
            msg("Place the pit token on {hero}'s square.", hero=self.hero_name(hero)), Actor.BOSS
        )
        saved = False
        if hero.speed_left >= 1:
            saved = yield from self._defend(hero, "dodge", ranged=False)
        if saved:
            yield from self.confirm(
                msg(
                    "{hero} leaps clear: place them on any adjacent square.",
                    hero=self.hero_name(hero),
                )
            )
            return
        hero.in_pit = True
        yield from self._hurt(hero, 1)

    # -- the sacrifice -------------------------------------------------------------

    def _ritual_check(self) -> Flow:
        assert self.ritual is not None
        self.ritual["rounds"] += 1
        state = yield from self.choose(
            msg("The dark sacrifice, round {n} of 5: the centre square?", n=self.ritual["rounds"]),
            [
                ("stopped", msg("A hero holds it and no monster is on it: the ritual is stopped")),
                ("held", msg("A hero stands on it, monsters too")),
                ("open", msg("No hero stands on it")),
            ],
            Actor.TABLE,
        )
        if state == "stopped":
            self.ritual["active"] = False
            lover = self.has_motivation("love_interest")
            if lover:
                lover.wounded = False
                lover.health = fig.max_health(lover, self.book)
            self.emit(
                EventKind.OBJECTIVE_MET,
                msg("The ritual is stopped: the Love Interest rescues their true love."),
            )
        elif state == "open" and self.ritual["rounds"] >= 5:
            self.winner = "boss"
            self.emit(
                EventKind.OBJECTIVE_MISSED, msg("The ritual is complete: the dungeon boss wins.")
            )
