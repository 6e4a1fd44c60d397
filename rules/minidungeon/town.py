"""Retreating to town: wounded heroes, healing, mana, the store, selling, gambling."""

from __future__ import annotations

from collections.abc import Callable

from dicetable.rules.core import (
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import dungeon, exploring, hero_turn, items
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import DungeonState, phase


@phase
def town(s: DungeonState, *, penalty: bool) -> None:
    """Retreating to town: wounded heroes rejoin, healing, mana, shop, selling,
    gambling; then back to the return point with +1 on later generator rolls."""
    s.phase = "town"
    for hero in s.heroes:
        hero.acted = True  # the heroes' turn ends with the trip to town
    s.town_visited_since_clear = True
    s.must_rest = False

    def in_town() -> None:
        for hero in s.heroes:
            if hero.wounded:
                hero.wounded = False
                hero.health = s.book.town["wounded"]["rejoin_health"]
                s.emit(
                    EventKind.HEAL,
                    msg("{hero} rejoins the party with 1 health.", hero=s.hero_name(hero)),
                )
            if s.book.town["heal"]["restore_mana"] and s.book.classes[hero.cls].mana:
                hero.mana = s.book.classes[hero.cls].mana
        gift = [free_item(s)] if s.free_item else []
        s.flow.first(*gift, town_visit(s, set(), penalty=penalty))

    s.confirm(
        msg("Mark the return point with a token and put the heroes on the town card."),
        then=in_town,
    )


@phase
def town_visit(s: DungeonState, healed: set[int], *, penalty: bool) -> None:
    """What the heroes do in town, one thing after another, until they leave."""
    options: list[tuple[str, Msg]] = []
    heal_price = int(s.options["heal_price"])
    for hero in s.heroes:
        if hero.index in healed or hero.health >= fig.max_health(hero, s.book):
            continue
        options.append(
            (
                f"heal:{hero.index}",
                msg("Heal {hero} 1 health for free", hero=s.hero_name(hero)),
            )
        )
        if s.gold >= heal_price:
            options.append(
                (
                    f"paid:{hero.index}",
                    msg(
                        "Heal {hero} 3 health for {g} gold",
                        hero=s.hero_name(hero),
                        g=heal_price,
                    ),
                )
            )
    options.append(("shop", msg("Go to the store ({g} gold in the chest)", g=s.gold)))
    gamble = int(s.options["gamble_price"])
    if not s.banned and s.gold >= gamble:
        options.append(
            (
                "gamble",
                msg("Go gambling ({g} gold: a roll on the treasure chart)", g=gamble),
            )
        )
    options.append(("leave", msg("Back to the dungeon")))
    again = town_visit(s, healed, penalty=penalty)

    def picked(pick: str) -> None:
        action, _, who = pick.partition(":")
        if action in ("heal", "paid"):
            hero = s.heroes[int(who) - 1]
            healed.add(hero.index)
            if action == "paid":
                s.gold -= heal_price
            items.heal(s, hero, 1 if action == "heal" else s.book.town["heal"]["paid_health"])
            s.flow.first(again)
        elif action == "shop":
            s.flow.first(town_shop(s, markup=0, selling=True), again)
        elif action == "gamble":

            def gambler(hero: Hero) -> None:
                s.gold -= gamble
                s.flow.first(items.treasure(s, hero, gambling=True), again)

            pick_hero(s, msg("Who goes gambling?"), gambler)
        else:
            leave_town(s, penalty=penalty)

    s.choose(msg("Town. What do the heroes do?"), options, picked)


def leave_town(s: DungeonState, *, penalty: bool) -> None:
    if penalty:
        s.retreats += 1
    s.phase = "dungeon"

    def back() -> None:
        if s.sneak_attack_pending and "sneak_attack" in s.boss_cards:
            s.sneak_attack_pending = False
            s.boss_cards.remove("sneak_attack")
            s.emit(
                EventKind.CARD,
                msg("The dungeon boss plays Sneak Attack: the room fills with monsters again."),
            )
            bonus = s.retreats + exploring.level_modifier(s)
            s.flow.first(
                exploring.generator_roll(
                    s, bonus, lambda rolls: s.flow.first(exploring.spawn(s, rolls, entering=False))
                )
            )

    s.confirm(msg("Put the heroes back in the dungeon on the return point."), then=back)


def pick_hero(s: DungeonState, text: Msg, then: Callable[[Hero], None]) -> None:
    if len(s.heroes) == 1:
        then(s.heroes[0])
        return
    s.choose(
        text,
        [(f"h{h.index}", s.hero_name(h)) for h in s.heroes],
        lambda pick: then(s.heroes[int(pick[1:]) - 1]),
    )


@phase
def free_item(s: DungeonState) -> None:
    s.free_item = False
    s.party_cards.remove("dangerous_alone")

    def taker(hero: Hero) -> None:
        offered = [i for i in s.book.items.values() if not i.is_weapon and fig.may_use(hero, i)]
        s.choose(
            msg("Which item?"),
            [(i.id, msg(i.name)) for i in offered],
            lambda pick: s.flow.first(dungeon.give(s, hero, s.book.items[pick])),
        )

    pick_hero(s, msg("It's Dangerous to Go Alone! Which hero takes a free item?"), taker)


@phase
def town_shop(s: DungeonState, *, markup: int, selling: bool) -> None:
    options: list[tuple[str, Msg]] = []
    for hero in s.active_heroes():
        if dungeon.shop_offers(s, hero, s.gold, markup):
            options.append((f"buy:{hero.index}", msg("Buy for {hero}", hero=s.hero_name(hero))))
        if selling and hero.items():
            options.append(
                (
                    f"sell:{hero.index}",
                    msg("Sell {hero}'s items at half price", hero=s.hero_name(hero)),
                )
            )
        # out of town (the Mysterious Merchant) changing equipment is an action of
        # 1 speed point ("Other Actions"): only for a hero with speed left
        may_equip = s.phase == "town" or hero.speed_left >= 1
        if may_equip and hero_turn.equippable(s, hero):
            options.append(
                (
                    f"equip:{hero.index}",
                    msg("Change {hero}'s equipment", hero=s.hero_name(hero)),
                )
            )
    options.append(("done", msg("Leave the store")))
    again = town_shop(s, markup=markup, selling=selling)

    def picked(pick: str) -> None:
        if pick == "done":
            return
        action, _, who = pick.partition(":")
        hero = s.heroes[int(who) - 1]
        if action == "buy":
            s.choose(
                msg("{hero}: buy what?", hero=s.hero_name(hero)),
                [*dungeon.shop_offers(s, hero, s.gold, markup), ("back", msg("Nothing"))],
                lambda item_id: bought(hero, item_id),
            )
        elif action == "sell":
            divisor = s.book.town["sell"]["divisor"]
            s.choose(
                msg("{hero}: sell what?", hero=s.hero_name(hero)),
                [
                    *(
                        (
                            i,
                            msg(
                                "{item} for {g} gold",
                                item=s.item_name(i),
                                g=s.book.items[i].price // divisor,
                            ),
                        )
                        for i in dict.fromkeys(hero.items())
                    ),
                    ("back", msg("Nothing")),
                ],
                lambda item_id: sold(hero, item_id),
            )
        else:
            s.flow.first(items.do_equip(s, hero, ""), again)

    def bought(hero: Hero, item_id: str) -> None:
        if item_id == "back":
            s.flow.first(again)
            return
        s.gold -= s.book.items[item_id].price + markup
        s.flow.first(dungeon.give(s, hero, s.book.items[item_id]), again)

    def sold(hero: Hero, item_id: str) -> None:
        if item_id != "back":
            fig.remove(hero, item_id)
            s.gold += s.book.items[item_id].price // s.book.town["sell"]["divisor"]
            hero.health = min(hero.health, fig.max_health(hero, s.book))
            s.emit(
                EventKind.SCORE,
                msg("Sold the {item}.", item=s.item_name(item_id)),
                gold=s.gold,
            )
        s.flow.first(again)

    s.choose(msg("The store: {g} gold in the party chest.", g=s.gold), options, picked)
