"""The event deck: drawing with its conditions on motivations and classes, and the effects."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    msg,
)
from dicetable.rules.minidungeon import defence, exploring, items, town
from dicetable.rules.minidungeon.combat import d3
from dicetable.rules.minidungeon.content import EventCard
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import (
    NEXT_ROOM_EFFECTS,
    SIZE_ORDER,
    DungeonState,
    listing,
    phase,
)


def present_events(s: DungeonState) -> set[str]:
    return {h.motivation for h in s.heroes} | {h.cls for h in s.heroes}


@phase
def draw_event(s: DungeonState, drawer: Hero) -> None:
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
        s.flow.first(play_event(s, card, drawer))
        return


@phase
def play_event(s: DungeonState, card: EventCard, drawer: Hero) -> None:
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
        s.confirm(msg(card.text))
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
        s.flow.first(items.treasure(s, drawer, gambling=False))
    elif effect == "assassin":
        heroes = s.active_heroes()

        def struck(values: list[int]) -> None:
            s.flow.first(
                *(
                    assassin_strikes(s, hero)
                    for hero, value in zip(heroes, values, strict=True)
                    if value == 1
                )
            )

        s.roll(
            msg(
                "An assassin! Each hero's player rolls a D6, in order: {heroes}.",
                heroes=listing([s.hero_name(h) for h in heroes]),
            ),
            struck,
            count=len(heroes),
        )
    elif effect == "overcome_fear":
        coward = s.has_motivation("coward")
        if coward:

            def dropped(drop: bool) -> None:
                if drop:
                    coward.motivation = "none"

            s.yes_no(msg("{hero}: discard the Coward card?", hero=s.hero_name(coward)), dropped)
    elif effect == "not_dead_yet":
        s.flow.first(not_dead_yet(s))
    elif effect == "town_under_attack":
        s.flow.first(town_under_attack(s))
    elif effect == "merchant":
        s.flow.first(town.town_shop(s, markup=1, selling=False))
    else:
        s.confirm(msg(card.text))


@phase
def assassin_strikes(s: DungeonState, hero: Hero) -> None:
    """A 1 on a hero's die: the assassin's 2 unavoidable damage (none to the wounded)."""
    if not hero.wounded:
        s.flow.first(defence.hurt(s, hero, 2))


@phase
def not_dead_yet(s: DungeonState) -> None:
    if not s.room.defeated:
        return
    back = min(s.room.defeated, key=lambda m: (SIZE_ORDER[s.book.monsters[m.kind].size], -m.uid))

    def rolled(value: int) -> None:
        s.room.defeated.remove(back)
        # "puts it back with D3 health", as rolled, even above its sheet's H
        back.health = d3(value)
        back.max_health = max(back.max_health, back.health)
        s.room.monsters.append(back)
        s.room.cleared_round = None
        s.confirm(
            msg(
                "Not Dead Yet: put {monster} back where it fell, with {h} health.",
                monster=s.mon_name(back),
                h=back.health,
            ),
            Actor.BOSS,
        )

    s.roll_one(msg("Not Dead Yet: roll a D6 for the boss (D3 health)."), rolled, actor=Actor.BOSS)


@phase
def town_under_attack(s: DungeonState) -> None:
    def rolled(value: int) -> None:
        s.room.town_fight = True
        s.flow.first(exploring.spawn(s, [min(4, value)], cap=4, entering=False))

    s.roll_one(
        msg(
            "Our town is under attack! Roll the monster generator for the boss (no result above 4)."
        ),
        rolled,
        actor=Actor.BOSS,
    )
