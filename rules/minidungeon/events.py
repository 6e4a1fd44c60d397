"""The event deck: drawing with its conditions on motivations and classes, and the effects."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    msg,
)
from dicetable.rules.minidungeon.combat import d3
from dicetable.rules.minidungeon.data import EventCard
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import (
    NEXT_ROOM_EFFECTS,
    SIZE_ORDER,
    Flow,
    TableFlow,
    listing,
)


class Events(TableFlow):
    """Event cards drawn when a room is cleared."""

    # -- events -------------------------------------------------------------------

    def _present(self) -> set[str]:
        return {h.motivation for h in self.heroes} | {h.cls for h in self.heroes}

    def _draw_event(self, drawer: Hero) -> Flow:
        present = self._present()
        for _ in range(2 * len(self.book.events)):
            if not self.deck:
                self.deck, self.discards = self.discards, []
                self.rng.shuffle(self.deck)
                if not self.deck:
                    return
            card = self.book.events[self.deck.pop()]
            if (card.requires and not present & set(card.requires)) or present & set(card.unless):
                self.emit(
                    EventKind.CARD,
                    msg("{card}: no one it concerns; discarded.", card=msg(card.title)),
                    card=card.id,
                )
                self.discards.append(card.id)
                continue
            self.drawn.append(card.id)
            self.emit(
                EventKind.INFO, msg("{hero} draws an event card.", hero=self.hero_name(drawer))
            )
            self.emit(EventKind.CARD, msg(card.title), card=card.id)
            self.emit(EventKind.CARD, msg(card.text), card=card.id)
            yield from self._play_event(card, drawer)
            return

    def _play_event(self, card: EventCard, drawer: Hero) -> Flow:
        effect = card.effect
        if card.keep == "party":
            self.party_cards.append(card.id)
        elif card.keep == "boss":
            self.boss_cards.append(card.id)
        else:
            self.discards.append(card.id)
        if effect in NEXT_ROOM_EFFECTS:
            self.next_room.add(effect)
        elif effect == "must_rest":
            self.must_rest = True
        elif effect == "greed":
            self.greedy = True
            yield from self.confirm(msg(card.text))
        elif effect == "no_retreat":
            self.no_retreat = True
        elif effect == "glittering_prizes":
            self.glittering = True
        elif effect == "free_item":
            self.free_item = True
        elif effect == "sneak_attack":
            self.sneak_attack_pending = True
        elif effect == "rations":
            for hero in self.active_heroes():
                self._heal(hero, 1)
        elif effect == "evil_alchemy":
            for hero in self.heroes:
                hero.backpack = [i for i in hero.backpack if self.book.items[i].effect != "heal_d3"]
        elif effect == "treasure_roll":
            yield from self._treasure(drawer, gambling=False)
        elif effect == "assassin":
            heroes = self.active_heroes()
            values = yield from self.roll(
                msg(
                    "An assassin! Each hero's player rolls a D6, in order: {heroes}.",
                    heroes=listing([self.hero_name(h) for h in heroes]),
                ),
                count=len(heroes),
            )
            for hero, value in zip(heroes, values, strict=True):
                if value == 1 and not hero.wounded:
                    yield from self._hurt(hero, 2)
        elif effect == "overcome_fear":
            coward = self.has_motivation("coward")
            if coward:
                drop = yield from self.yes_no(
                    msg("{hero}: discard the Coward card?", hero=self.hero_name(coward))
                )
                if drop:
                    coward.motivation = "none"
        elif effect == "not_dead_yet":
            yield from self._not_dead_yet()
        elif effect == "town_under_attack":
            yield from self._town_under_attack()
        elif effect == "merchant":
            yield from self._town_shop(markup=1, selling=False)
        else:
            yield from self.confirm(msg(card.text))

    def _not_dead_yet(self) -> Flow:
        if not self.room.defeated:
            return
        back = min(
            self.room.defeated, key=lambda m: (SIZE_ORDER[self.book.monsters[m.kind].size], -m.uid)
        )
        (value,) = yield from self.roll(
            msg("Not Dead Yet: roll a D6 for the boss (D3 health)."), actor=Actor.BOSS
        )
        self.room.defeated.remove(back)
        # "puts it back with D3 health", as rolled, even above its sheet's H
        back.health = d3(value)
        back.max_health = max(back.max_health, back.health)
        self.room.monsters.append(back)
        self.room.cleared_round = None
        yield from self.confirm(
            msg(
                "Not Dead Yet: put {monster} back where it fell, with {h} health.",
                monster=self.mon_name(back),
                h=back.health,
            ),
            Actor.BOSS,
        )

    def _town_under_attack(self) -> Flow:
        (value,) = yield from self.roll(
            msg(
                "Our town is under attack! Roll the monster generator for the boss (no result "
                "above 4)."
            ),
            actor=Actor.BOSS,
        )
        self.room.town_fight = True
        yield from self._spawn([min(4, value)], cap=4, entering=False)
