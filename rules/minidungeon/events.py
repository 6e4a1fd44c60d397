"""The event deck: drawing with its conditions on motivations and classes, and the effects."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    msg,
)
from dicetable.rules.minidungeon import defence, exploring, items, town
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


def present_events(s: TableFlow) -> set[str]:
    return {h.motivation for h in s.heroes} | {h.cls for h in s.heroes}


def draw_event(s: TableFlow, drawer: Hero) -> Flow:
    present = present_events(s)
    for _ in range(2 * len(s.book.events)):
        if not s.deck:
            s.deck, s.discards = s.discards, []
            s.rng.shuffle(s.deck)
            if not s.deck:
                return
        card = s.book.events[s.deck.pop()]
        if (card.requires and not present & set(card.requires)) or present & set(card.unless):
            s.emit(
                EventKind.CARD,
                msg("{card}: no one it concerns; discarded.", card=msg(card.title)),
                card=card.id,
            )
            s.discards.append(card.id)
            continue
        s.drawn.append(card.id)
        s.emit(EventKind.INFO, msg("{hero} draws an event card.", hero=s.hero_name(drawer)))
        s.emit(EventKind.CARD, msg(card.title), card=card.id)
        s.emit(EventKind.CARD, msg(card.text), card=card.id)
        yield from play_event(s, card, drawer)
        return


def play_event(s: TableFlow, card: EventCard, drawer: Hero) -> Flow:
    effect = card.effect
    if card.keep == "party":
        s.party_cards.append(card.id)
    elif card.keep == "boss":
        s.boss_cards.append(card.id)
    else:
        s.discards.append(card.id)
    if effect in NEXT_ROOM_EFFECTS:
        s.next_room.add(effect)
    elif effect == "must_rest":
        s.must_rest = True
    elif effect == "greed":
        s.greedy = True
        yield from s.confirm(msg(card.text))
    elif effect == "no_retreat":
        s.no_retreat = True
    elif effect == "glittering_prizes":
        s.glittering = True
    elif effect == "free_item":
        s.free_item = True
    elif effect == "sneak_attack":
        s.sneak_attack_pending = True
    elif effect == "rations":
        for hero in s.active_heroes():
            items.heal(s, hero, 1)
    elif effect == "evil_alchemy":
        for hero in s.heroes:
            hero.backpack = [i for i in hero.backpack if s.book.items[i].effect != "heal_d3"]
    elif effect == "treasure_roll":
        yield from items.treasure(s, drawer, gambling=False)
    elif effect == "assassin":
        heroes = s.active_heroes()
        values = yield from s.roll(
            msg(
                "An assassin! Each hero's player rolls a D6, in order: {heroes}.",
                heroes=listing([s.hero_name(h) for h in heroes]),
            ),
            count=len(heroes),
        )
        for hero, value in zip(heroes, values, strict=True):
            if value == 1 and not hero.wounded:
                yield from defence.hurt(s, hero, 2)
    elif effect == "overcome_fear":
        coward = s.has_motivation("coward")
        if coward:
            drop = yield from s.yes_no(
                msg("{hero}: discard the Coward card?", hero=s.hero_name(coward))
            )
            if drop:
                coward.motivation = "none"
    elif effect == "not_dead_yet":
        yield from not_dead_yet(s)
    elif effect == "town_under_attack":
        yield from town_under_attack(s)
    elif effect == "merchant":
        yield from town.town_shop(s, markup=1, selling=False)
    else:
        yield from s.confirm(msg(card.text))


def not_dead_yet(s: TableFlow) -> Flow:
    if not s.room.defeated:
        return
    back = min(s.room.defeated, key=lambda m: (SIZE_ORDER[s.book.monsters[m.kind].size], -m.uid))
    (value,) = yield from s.roll(
        msg("Not Dead Yet: roll a D6 for the boss (D3 health)."), actor=Actor.BOSS
    )
    s.room.defeated.remove(back)
    # "puts it back with D3 health", as rolled, even above its sheet's H
    back.health = d3(value)
    back.max_health = max(back.max_health, back.health)
    s.room.monsters.append(back)
    s.room.cleared_round = None
    yield from s.confirm(
        msg(
            "Not Dead Yet: put {monster} back where it fell, with {h} health.",
            monster=s.mon_name(back),
            h=back.health,
        ),
        Actor.BOSS,
    )


def town_under_attack(s: TableFlow) -> Flow:
    (value,) = yield from s.roll(
        msg(
            "Our town is under attack! Roll the monster generator for the boss (no result above 4)."
        ),
        actor=Actor.BOSS,
    )
    s.room.town_fight = True
    yield from exploring.spawn(s, [min(4, value)], cap=4, entering=False)
