"""Retreating to town: wounded heroes, healing, mana, the store, selling, gambling."""

from __future__ import annotations

from dicetable.rules.core import (
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
)


class Town(TableFlow):
    """Town actions between rooms."""

    # -- town -------------------------------------------------------------------

    def _town(self, *, penalty: bool) -> Flow:
        """Retreating to town: wounded heroes rejoin, healing, mana, shop, selling,
        gambling; then back to the return point with +1 on later generator rolls."""
        self.phase = "town"
        for hero in self.heroes:
            hero.acted = True  # the heroes' turn ends with the trip to town
        self.town_visited_since_clear = True
        self.must_rest = False
        yield from self.confirm(
            msg("Mark the return point with a token and put the heroes on the town card.")
        )
        for hero in self.heroes:
            if hero.wounded:
                hero.wounded = False
                hero.health = self.book.town["wounded"]["rejoin_health"]
                self.emit(
                    EventKind.HEAL,
                    msg("{hero} rejoins the party with 1 health.", hero=self.hero_name(hero)),
                )
            if self.book.town["heal"]["restore_mana"] and self.book.classes[hero.cls].mana:
                hero.mana = self.book.classes[hero.cls].mana
        if self.free_item:
            yield from self._free_item()
        healed: set[int] = set()
        while True:
            options: list[tuple[str, Msg]] = []
            heal_price = int(self.options["heal_price"])
            for hero in self.heroes:
                if hero.index in healed or hero.health >= fig.max_health(hero, self.book):
                    continue
                options.append(
                    (
                        f"heal:{hero.index}",
                        msg("Heal {hero} 1 health for free", hero=self.hero_name(hero)),
                    )
                )
                if self.gold >= heal_price:
                    options.append(
                        (
                            f"paid:{hero.index}",
                            msg(
                                "Heal {hero} 3 health for {g} gold",
                                hero=self.hero_name(hero),
                                g=heal_price,
                            ),
                        )
                    )
            options.append(("shop", msg("Go to the store ({g} gold in the chest)", g=self.gold)))
            gamble = int(self.options["gamble_price"])
            if not self.banned and self.gold >= gamble:
                options.append(
                    (
                        "gamble",
                        msg("Go gambling ({g} gold: a roll on the treasure chart)", g=gamble),
                    )
                )
            options.append(("leave", msg("Back to the dungeon")))
            pick = yield from self.choose(msg("Town. What do the heroes do?"), options)
            action, _, who = pick.partition(":")
            if action in ("heal", "paid"):
                hero = self.heroes[int(who) - 1]
                healed.add(hero.index)
                if action == "paid":
                    self.gold -= heal_price
                self._heal(hero, 1 if action == "heal" else self.book.town["heal"]["paid_health"])
            elif action == "shop":
                yield from self._town_shop(markup=0, selling=True)
            elif action == "gamble":
                gambler = yield from self._pick_hero(msg("Who goes gambling?"))
                self.gold -= gamble
                yield from self._treasure(gambler, gambling=True)
            else:
                break
        if penalty:
            self.retreats += 1
        self.phase = "dungeon"
        yield from self.confirm(msg("Put the heroes back in the dungeon on the return point."))
        if self.sneak_attack_pending and "sneak_attack" in self.boss_cards:
            self.sneak_attack_pending = False
            self.boss_cards.remove("sneak_attack")
            self.emit(
                EventKind.CARD,
                msg("The dungeon boss plays Sneak Attack: the room fills with monsters again."),
            )
            rolls = yield from self._generator_roll(self.retreats + self._level_modifier())
            yield from self._spawn(rolls, entering=False)

    def _pick_hero(self, text: Msg) -> Flow:
        if len(self.heroes) == 1:
            return self.heroes[0]
        pick = yield from self.choose(
            text, [(f"h{h.index}", self.hero_name(h)) for h in self.heroes]
        )
        return self.heroes[int(pick[1:]) - 1]

    def _free_item(self) -> Flow:
        self.free_item = False
        self.party_cards.remove("dangerous_alone")
        hero = yield from self._pick_hero(
            msg("It's Dangerous to Go Alone! Which hero takes a free item?")
        )
        items = [i for i in self.book.items.values() if not i.is_weapon and fig.may_use(hero, i)]
        pick = yield from self.choose(msg("Which item?"), [(i.id, msg(i.name)) for i in items])
        yield from self._give(hero, self.book.items[pick])

    def _town_shop(self, *, markup: int, selling: bool) -> Flow:
        while True:
            options: list[tuple[str, Msg]] = []
            for hero in self.active_heroes():
                if self._shop_offers(hero, self.gold, markup):
                    options.append(
                        (f"buy:{hero.index}", msg("Buy for {hero}", hero=self.hero_name(hero)))
                    )
                if selling and hero.items():
                    options.append(
                        (
                            f"sell:{hero.index}",
                            msg("Sell {hero}'s items at half price", hero=self.hero_name(hero)),
                        )
                    )
                if self._equippable(hero):
                    options.append(
                        (
                            f"equip:{hero.index}",
                            msg("Change {hero}'s equipment", hero=self.hero_name(hero)),
                        )
                    )
            options.append(("done", msg("Leave the store")))
            pick = yield from self.choose(
                msg("The store: {g} gold in the party chest.", g=self.gold), options
            )
            if pick == "done":
                return
            action, _, who = pick.partition(":")
            hero = self.heroes[int(who) - 1]
            if action == "buy":
                item_id = yield from self.choose(
                    msg("{hero}: buy what?", hero=self.hero_name(hero)),
                    [*self._shop_offers(hero, self.gold, markup), ("back", msg("Nothing"))],
                )
                if item_id != "back":
                    self.gold -= self.book.items[item_id].price + markup
                    yield from self._give(hero, self.book.items[item_id])
            elif action == "sell":
                item_id = yield from self.choose(
                    msg("{hero}: sell what?", hero=self.hero_name(hero)),
                    [
                        *(
                            (
                                i,
                                msg(
                                    "{item} for {g} gold",
                                    item=self.item_name(i),
                                    g=self.book.items[i].price // self.book.town["sell"]["divisor"],
                                ),
                            )
                            for i in dict.fromkeys(hero.items())
                        ),
                        ("back", msg("Nothing")),
                    ],
                )
                if item_id != "back":
                    fig.remove(hero, item_id)
                    self.gold += self.book.items[item_id].price // self.book.town["sell"]["divisor"]
                    hero.health = min(hero.health, fig.max_health(hero, self.book))
                    self.emit(
                        EventKind.SCORE,
                        msg("Sold the {item}.", item=self.item_name(item_id)),
                        gold=self.gold,
                    )
            else:
                yield from self._do_equip(hero, "")
