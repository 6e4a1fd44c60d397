"""Potions, treasure chests, equipment, giving items and bribes."""

from __future__ import annotations

from fractions import Fraction

from dicetable.rules.core import (
    EventKind,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import d3
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import (
    Flow,
    TableFlow,
)


class Items(TableFlow):
    """What heroes do with things: drink, open, equip, give, pay."""

    def _drinkable(self, hero: Hero) -> list[str]:
        """The potions a hero can drink: a Mana Potion ("+3 mana") only by a hero with a
        mana die (the mage's), for anyone else it would be a wasted potion."""
        has_mana = self.book.classes[hero.cls].mana > 0
        return [
            i
            for i in dict.fromkeys(hero.backpack)
            if self.book.items[i].kind == "potion"
            and (has_mana or self.book.items[i].effect != "mana_3")
        ]

    def _do_potion(self, hero: Hero, _: str) -> Flow:
        potions = self._drinkable(hero)
        pick = yield from self.choose(
            msg("{hero}: which potion?", hero=self.hero_name(hero)),
            [(i, self.item_name(i)) for i in potions],
        )
        hero.backpack.remove(pick)
        hero.potion_used = True
        effect = self.book.items[pick].effect
        if effect == "heal_d3":
            (value,) = yield from self.roll(
                msg("Health Potion: roll a D6 for a D3 (1-2: 1, 3-4: 2, 5-6: 3).")
            )
            self._heal(hero, d3(value))
        elif effect == "speed_3":
            hero.speed_left += 3
            self.emit(EventKind.INFO, msg("{hero} gains 3 speed.", hero=self.hero_name(hero)))
        elif effect == "auto_hit":
            hero.luck += 1
            self.emit(
                EventKind.INFO,
                msg("{hero}'s next attack hits automatically.", hero=self.hero_name(hero)),
            )
        elif effect == "mana_3":
            hero.mana = min(6, hero.mana + 3)
            self.emit(
                EventKind.INFO, msg("{hero} has {n} mana.", hero=self.hero_name(hero), n=hero.mana)
            )
        elif effect == "invulnerable":
            hero.invulnerable = True
            self.emit(
                EventKind.INFO, msg("{hero} loses no health this round.", hero=self.hero_name(hero))
            )

    def _heal(self, hero: Hero, amount: int) -> None:
        before = hero.health
        hero.health = min(fig.max_health(hero, self.book), hero.health + amount)
        self.emit(
            EventKind.HEAL,
            msg(
                "{hero} heals {n} ({h} health).",
                hero=self.hero_name(hero),
                n=hero.health - before,
                h=hero.health,
            ),
            hero=hero.index,
        )

    def _do_chest(self, hero: Hero, _: str) -> Flow:
        hero.speed_left -= 1
        self.room.chests -= 1
        yield from self._treasure(hero, gambling=False)

    def _treasure(self, hero: Hero, *, gambling: bool) -> Flow:
        bonus = 0
        if hero.cls == "thief":
            bonus += 1
        if hero.motivation == "treasure_hunter" and not gambling:
            bonus += 1
        (value,) = yield from self.roll(
            msg(
                "{hero} rolls a D6 on the treasure chart (+{b}).",
                hero=self.hero_name(hero),
                b=bonus,
            )
        )
        result = value + bonus
        result = min(result, 7 if gambling else 6)
        entry = self.book.treasure[result]
        self.emit(EventKind.INFO, msg("Treasure chart: {n}.", n=result), result=result)
        self.emit(EventKind.CARD, msg(entry.text), result=result)
        if entry.banned:
            self.banned = True
            return
        gold = entry.gold
        if hero.cls == "thief" and not gambling:
            gold += self.book.bounty["thief_chest"]
        if self.glittering and not gambling:
            self.glittering = False
            self.party_cards.remove("glittering_prizes")
            gold += 10
            self.emit(EventKind.CARD, msg("Glittering Prizes: +10 gold."))
        if gold:
            self.gold += gold
            self.emit(EventKind.SCORE, msg("{n} gold to the party chest.", n=gold), gold=self.gold)
        if entry.potion_choice:
            pick = yield from self.choose(
                msg("{hero}: which potion?", hero=self.hero_name(hero)),
                [(p, self.item_name(p)) for p in entry.potion_choice],
            )
            yield from self._give(hero, self.book.items[pick])
        for _ in range(entry.weapons):
            weapons = [i for i in self.book.items.values() if i.is_weapon]
            pick = yield from self.choose(
                msg("{hero}: choose a weapon from the store.", hero=self.hero_name(hero)),
                [(w.id, msg(w.name)) for w in weapons],
            )
            yield from self._give(hero, self.book.items[pick])

    def _do_equip(self, hero: Hero, _: str) -> Flow:
        pick = yield from self.choose(
            msg(
                "{hero}: equip which item (what it replaces goes to the backpack)?",
                hero=self.hero_name(hero),
            ),
            [(i, self.item_name(i)) for i in self._equippable(hero)],
        )
        if self.phase != "town":
            hero.speed_left -= 1
        if fig.equip_from_backpack(hero, self.book.items[pick], self.book):
            self.emit(
                "item",
                msg(
                    "{hero} equips the {item}.",
                    hero=self.hero_name(hero),
                    item=self.item_name(pick),
                ),
            )
        else:
            self.emit(EventKind.INFO, msg("No room in the backpack for what it would replace."))
        hero.health = min(hero.health, fig.max_health(hero, self.book))

    def _receivers(self, hero: Hero) -> list[Hero]:
        return [h for h in self.active_heroes() if h is not hero and h.speed_left >= 1]

    def _do_give(self, hero: Hero, _: str) -> Flow:
        """ "Trading/giving items to a hero in the same square (both heroes spend 1 point
        each)"; the one who receives takes it where it fits."""
        item_id = yield from self.choose(
            msg("{hero}: give which item?", hero=self.hero_name(hero)),
            [(i, self.item_name(i)) for i in dict.fromkeys(hero.items())],
        )
        pick = yield from self.choose(
            msg("To which hero on {hero}'s square?", hero=self.hero_name(hero)),
            [(f"h{h.index}", self.hero_name(h)) for h in self._receivers(hero)],
        )
        other = self.heroes[int(pick[1:]) - 1]
        item = self.book.items[item_id]
        if not (fig.can_equip(other, item, self.book) or self._fits_backpack(other, item)):
            yield from self.confirm(
                msg(
                    "{hero} has no room for the {item}.",
                    hero=self.hero_name(other),
                    item=msg(item.name),
                )
            )
            return
        hero.speed_left -= 1
        other.speed_left -= 1
        fig.remove(hero, item_id)
        hero.health = min(hero.health, fig.max_health(hero, self.book))
        yield from self._give(other, item)

    def _do_bribe(self, hero: Hero, _: str) -> Flow:
        monsters = [
            m for m in self.room.monsters if self.book.monsters[m.kind].size in ("small", "large")
        ]
        target = yield from self._pick_monster(
            msg("Bribe which monster on {hero}'s square?", hero=self.hero_name(hero)), monsters
        )
        self.gold -= 5
        self.room.monsters.remove(target)
        self.emit(
            EventKind.INFO,
            msg("{monster} takes 5 gold and disappears.", monster=self.mon_name(target)),
        )
        yield from self.confirm(
            msg("Remove {monster} from the dungeon.", monster=self.mon_name(target))
        )
        if not self.room.monsters:
            yield from self._room_cleared(hero)

    def _do_negotiate(self, hero: Hero, _: str) -> Flow:
        """Inside Man: "roll a dice. 1-3 = The player is dealt 1 unavoidable damage. 4-6 =
        The mini-boss offers you his aid... for a price" of 5 gold."""
        self.party_cards.remove("inside_man")
        target = next(
            m for m in self.room.monsters if self.book.monsters[m.kind].size == "mini_boss"
        )
        (value,) = yield from self.roll(
            msg(
                "{hero} negotiates with {monster}: roll a D6 (4+).",
                hero=self.hero_name(hero),
                monster=self.mon_name(target),
            ),
            objective=msg("4+"),
            odds=Fraction(1, 2),
        )
        if value <= 3:
            yield from self._hurt(hero, 1)
            return
        pay = self.gold >= 5 and (
            yield from self.yes_no(
                msg("{monster} offers its aid for 5 gold. Pay?", monster=self.mon_name(target))
            )
        )
        if not pay:
            return
        self.gold -= 5
        self.room.monsters.remove(target)
        yield from self.confirm(
            msg(
                "{monster} fights for the heroes until the room is cleared (play it as a hero), "
                "then disappears.",
                monster=self.mon_name(target),
            )
        )
        if not self.room.monsters:
            yield from self._room_cleared(hero)
