"""Mini Dungeon Adventures with the Pi as the dungeon boss.

The game is written as one flow (a generator) that yields a Prompt and receives the
answer, so the rulebook's sequence reads top to bottom: forge the heroes, shop, then
room after room (trap chart, monster generator, placement, rounds of hero turns and
monster turns, event cards), town between rooms, the lair, levels. A generator cannot
be copied, but the table never needs to: undo and resume rebuild the game by replaying
its inputs from the seed, which is exactly how this flow is driven.

Every answer is checked against the current prompt before the flow sees it, and the
flow only offers legal options, so a wrong answer never changes the state.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Game,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    expect,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack, d3, save_odds, save_passes
from dicetable.rules.minidungeon.data import EventCard, Item, Rulebook, rulebook
from dicetable.rules.minidungeon.figures import Hero, Monster

Flow = Generator[Prompt, Input, Any]
MAX_GENERATOR = 7
SIZE_ORDER = {"dungeon_boss": 0, "mini_boss": 1, "large": 2, "small": 3}
# Event effects that wait for the next room explored.
NEXT_ROOM_EFFECTS = frozenset(
    {
        "time_bubble", "charge", "extra_zombie", "living_legend", "vicious_battle", "pitch_black",
        "magebane", "bounties_raised", "mind_war", "loud_noises", "trap_door", "cha_aaargh",
    }
)  # fmt: skip


@dataclass
class Room:
    """The room the heroes are in: its monsters, chests and what it was made of."""

    number: int = 0
    lair: bool = False
    monsters: list[Monster] = field(default_factory=list)
    defeated: list[Monster] = field(default_factory=list)
    chests: int = 0
    effects: set[str] = field(default_factory=set)
    trap: str = "none"
    cleared_round: int | None = None
    town_fight: bool = False
    numbers: dict[str, int] = field(default_factory=dict)
    counted: bool = False


class MiniDungeon(Game):
    id = "minidungeon"
    title = "Mini Dungeon Adventures"
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = dict(rulebook().choices)

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.book: Rulebook = rulebook()
        self.rng = random.Random(seed)
        self.heroes: list[Hero] = []
        self.monster_ranges = {k: m.range for k, m in self.book.monsters.items()}
        self.monster_ranges["minion"] = int(self.options["minion_range"])
        self.gold = 0
        self.level = 1
        self.quest = 1
        self.round = 0
        self.rooms_total = 0
        self.rooms_cleared = 0
        self.quests_won = 0
        self.retreats = 0
        self.town_visited_since_clear = False
        self.banned = False
        self.room = Room()
        self.next_room: set[str] = set()
        self.party_cards: list[str] = []
        self.boss_cards: list[str] = []
        self.drawn: list[str] = []  # event cards drawn this round (for the screen)
        self.clairvoyance = 0
        self.ritual: dict[str, Any] | None = None
        self.must_rest = False
        self.no_retreat = False
        self.free_item = False
        self.glittering = False
        self.sneak_attack_pending = False
        self.large_turn = 0
        self.uid = 0
        self.winner = ""
        self.phase = "setup"
        self.deck = list(self.book.events)
        self.rng.shuffle(self.deck)
        self.discards: list[str] = []
        self.motivation_deck = list(self.book.motivations)
        self.rng.shuffle(self.motivation_deck)
        self._events: list[Event] = []
        self._flow = self._game()
        self._prompt: Prompt = next(self._flow)

    # -- the Game contract ---------------------------------------------------------

    def prompt(self) -> Prompt:
        return self._prompt

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self._prompt)
        self._events = []
        try:
            self._prompt = self._flow.send(answer)
        except StopIteration:
            self._prompt = Prompt(PromptKind.OVER, msg("The game is over."))
        return self._events

    def result(self) -> dict[str, Any] | None:
        if self._prompt.kind is not PromptKind.OVER:
            return None
        return {
            "winner": self.winner,
            "score": self.quests_won * 100 + self.rooms_cleared * 10 + self.gold,
            "quests_won": self.quests_won,
            "rooms_cleared": self.rooms_cleared,
            "gold": self.gold,
            "level": self.level,
            "mode": f"{len(self.heroes)} heroes",
            "party": ", ".join(h.label(self.book) for h in self.heroes),
            "heroes": ", ".join(sorted(h.cls for h in self.heroes)),
        }

    # -- small helpers for the flow ------------------------------------------------

    def emit(self, kind: str, text: Msg, **data: Any) -> None:
        self._events.append(Event(kind, text, data))

    def choose(
        self, text: Msg, options: Iterable[tuple[str, Msg]], actor: Actor = Actor.PLAYER
    ) -> Flow:
        answer = yield Prompt(
            PromptKind.CHOOSE,
            text,
            actor=actor,
            options=tuple(Option(i, label) for i, label in options),
        )
        return answer.choice

    def confirm(self, text: Msg, actor: Actor = Actor.TABLE) -> Flow:
        self.emit(EventKind.INSTRUCTION, text)
        yield Prompt(PromptKind.CONFIRM, text, actor=actor)

    def number(self, text: Msg, low: int, high: int, actor: Actor = Actor.TABLE) -> Flow:
        answer = yield Prompt(PromptKind.NUMBER, text, actor=actor, number_range=(low, high))
        return answer.number

    def roll(
        self,
        text: Msg,
        count: int = 1,
        actor: Actor = Actor.PLAYER,
        objective: Msg | None = None,
        odds: Fraction | None = None,
    ) -> Flow:
        answer = yield Prompt(
            PromptKind.ROLL,
            text,
            actor=actor,
            dice=DiceRequest(count=count, profile="d6"),
            objective=objective,
            odds=odds,
        )
        values = [d.value or 0 for d in answer.dice]
        self.emit(
            EventKind.ROLLED,
            msg("Rolled {values}.", values=" ".join(map(str, values))),
            values=values,
        )
        return values

    def yes_no(self, text: Msg, actor: Actor = Actor.TABLE) -> Flow:
        choice = yield from self.choose(text, [("yes", msg("Yes")), ("no", msg("No"))], actor)
        return choice == "yes"

    def pick_many(self, text: Msg, candidates: list[tuple[str, Msg]]) -> Flow:
        """Several answers from one list, one at a time, ending with "no more"."""
        picked: list[str] = []
        while True:
            left = [(i, label) for i, label in candidates if i not in picked]
            if not left:
                return picked
            choice = yield from self.choose(text, [*left, ("none", msg("No more"))], Actor.TABLE)
            if choice == "none":
                return picked
            picked.append(choice)

    def hero_name(self, hero: Hero) -> Msg:
        """ "Mage 2": the class (translated) and the seat number."""
        return msg("{name} {n}", name=msg(self.book.classes[hero.cls].name), n=hero.index)

    def mon_name(self, monster: Monster) -> Msg:
        kind = self.book.monsters[monster.kind]
        if str(monster.label(self.book)) == kind.name:
            return msg(kind.name)
        return msg("{name} {n}", name=msg(kind.name), n=monster.number)

    def active_heroes(self) -> list[Hero]:
        return [h for h in self.heroes if not h.wounded]

    def has_motivation(self, motivation: str) -> Hero | None:
        return next((h for h in self.heroes if h.motivation == motivation), None)

    def item_name(self, item_id: str) -> Msg:
        return msg(self.book.items[item_id].name)

    # -- the whole game ------------------------------------------------------------

    def _game(self) -> Flow:
        yield from self._forge_heroes()
        while True:
            yield from self._quest()
            if self.winner == "boss":
                self.phase = "over"
                self.emit(
                    EventKind.GAME_OVER, msg("All the heroes are down: the dungeon boss wins.")
                )
                return
            self.quests_won += 1
            go_on = yield from self.choose(
                msg(
                    "The dungeon is cleared! Begin a new quest with the same heroes, one level "
                    "higher?"
                ),
                [
                    ("new_quest", msg("New quest at level {n}", n=self.level + 1)),
                    ("end", msg("End the campaign")),
                ],
            )
            if go_on == "end":
                self.winner = "heroes"
                self.phase = "over"
                self.emit(EventKind.GAME_OVER, msg("The heroes have won."))
                return
            yield from self._gain_level()

    def _forge_heroes(self) -> Flow:
        count = yield from self.number(msg("How many heroes enter the dungeon (2 to 4)?"), 2, 4)
        for index in range(1, count + 1):
            cls = yield from self.choose(
                msg("Hero {n}: choose a class.", n=index),
                [(c.id, msg(c.name)) for c in self.book.classes.values()],
            )
            motivation = self.motivation_deck.pop()
            card = self.book.motivations[motivation]
            hero = Hero(index, cls, motivation, mana=self.book.classes[cls].mana)
            hero.health = fig.max_health(hero, self.book)
            self.heroes.append(hero)
            self.emit(
                EventKind.CARD,
                msg(
                    "{hero} draws the motivation {card}.",
                    hero=self.hero_name(hero),
                    card=msg(card.name),
                ),
                card=motivation,
            )
            self.emit(EventKind.CARD, msg(card.text), card=motivation)
            if cls == "mage":
                yield from self._learn_spell(hero)
            if motivation == "avenger":
                bosses = [self.book.mini_boss, self.book.dungeon_boss]
                hero.avenger_target = yield from self.choose(
                    msg(
                        "{hero}, the Avenger: nominate the target of your wrath (+1 attack "
                        "against it).",
                        hero=self.hero_name(hero),
                    ),
                    [(b, msg(self.book.monsters[b].name)) for b in bosses],
                )
        for hero in self.heroes:
            hero.health = fig.max_health(hero, self.book)
            budget = self.book.base["starting_gold"]
            budget = max(budget, self.book.motivations[hero.motivation].starting_gold)
            yield from self._starting_shop(hero, budget)
            hero.health = fig.max_health(hero, self.book)
        self.emit(
            EventKind.INSTRUCTION, msg("Place the heroes outside the entrance of the dungeon.")
        )

    def _learn_spell(self, hero: Hero) -> Flow:
        spells = [s for s in self.book.spells.values() if s.id not in hero.spells]
        if not spells:
            return
        spell = yield from self.choose(
            msg("{hero}: choose a spell from the spellbook.", hero=self.hero_name(hero)),
            [(s.id, msg(s.name)) for s in spells],
        )
        hero.spells.append(spell)

    def _starting_shop(self, hero: Hero, budget: int) -> Flow:
        while True:
            offers = self._shop_offers(hero, budget, markup=0)
            if not offers:
                return
            choice = yield from self.choose(
                msg(
                    "{hero} has {gold} gold to equip at the town store.",
                    hero=self.hero_name(hero),
                    gold=budget,
                ),
                [*offers, ("done", msg("Done shopping"))],
            )
            if choice == "done":
                return
            item = self.book.items[choice]
            budget -= item.price
            yield from self._give(hero, item)

    def _shop_offers(self, hero: Hero, gold: int, markup: int) -> list[tuple[str, Msg]]:
        offers = []
        for item in self.book.items.values():
            price = item.price + markup
            if price > gold or not fig.may_use(hero, item):
                continue
            if not (fig.can_equip(hero, item, self.book) or self._fits_backpack(hero, item)):
                continue
            offers.append(
                (
                    item.id,
                    msg("{item} ({price} gold)", item=msg(item.name), price=price),
                )
            )
        return offers

    def _fits_backpack(self, hero: Hero, item: Item) -> bool:
        size = 1 if item.kind == "potion" or item.dual else 2
        return fig.backpack_used(hero, self.book) + size <= fig.BACKPACK_SLOTS

    def _give(self, hero: Hero, item: Item) -> Flow:
        if fig.receive(hero, item, self.book):
            self.emit(
                "item",
                msg("{hero} takes the {item}.", hero=self.hero_name(hero), item=msg(item.name)),
                item=item.id,
            )
            if item.extra_spell and item.id in hero.hands:
                yield from self._learn_spell(hero)
        else:
            yield from self.confirm(
                msg(
                    "{hero} has no room for the {item}; it stays behind.",
                    hero=self.hero_name(hero),
                    item=msg(item.name),
                )
            )

    # -- a quest: room after room ------------------------------------------------------

    def _quest(self) -> Flow:
        hero_count = len(self.heroes)
        if self.options["dungeon"] == "short":
            self.rooms_total = self.book.rooms_short
        else:
            self.rooms_total = self.book.rooms_two_heroes if hero_count <= 2 else self.book.rooms
        self.room = Room()
        self.retreats = 0
        self.banned = False
        self.round = 0
        self.winner = ""
        self.phase = "dungeon"
        while not self.winner:
            yield from self._round()

    def _round(self) -> Flow:
        self.round += 1
        self.drawn = []
        for hero in self.heroes:
            speed = fig.full_speed(hero, self.book)
            if hero.stunned:
                speed -= speed // 2
                hero.stunned = False
            if "time_bubble" in self.room.effects:
                speed = (speed + 1) // 2
            hero.speed_left = speed
            hero.acted = hero.wounded
            hero.attacks_made = 0
        self.emit(EventKind.INFO, msg("Round {n}.", n=self.round), round=self.round)
        self.phase = "heroes"
        while not self.winner and self.room.trap != "ambush_now":
            waiting = [h for h in self.active_heroes() if not h.acted]
            if not waiting:
                break
            hero = waiting[0]
            if len(waiting) > 1:
                pick = yield from self.choose(
                    msg("Which hero acts now?"),
                    [(f"h{h.index}", self.hero_name(h)) for h in waiting],
                )
                hero = next(h for h in waiting if f"h{h.index}" == pick)
            yield from self._hero_turn(hero)
            hero.acted = True
        if self.room.trap == "ambush_now":
            self.room.trap = "ambush"
        if self.winner:
            return
        self.phase = "monsters"
        yield from self._monsters_turn()
        if self.winner:
            return
        yield from self._end_of_round()

    def _end_of_round(self) -> Flow:
        for hero in self.heroes:
            hero.in_pit = False
            hero.invulnerable = False
            hero.cloak_used = False
            hero.aura = False
            hero.potion_used = False
            hero.zombie_attackers = set()
        for monster in self.room.monsters:
            monster.shield_used = False
            monster.controlled = False
        if self.ritual and self.ritual["active"]:
            yield from self._ritual_check()

    # -- the heroes' turn --------------------------------------------------------------

    def _hero_turn(self, hero: Hero) -> Flow:
        while (
            not hero.wounded
            and not hero.acted
            and not self.winner
            and self.room.trap != "ambush_now"
        ):
            options = self._hero_options(hero)
            choice = yield from self.choose(
                msg(
                    "{hero}: {speed} speed left, {health} health. What now?",
                    hero=self.hero_name(hero),
                    speed=hero.speed_left,
                    health=hero.health,
                ),
                options,
            )
            if choice == "end":
                return
            action, _, arg = choice.partition(":")
            yield from getattr(self, f"_do_{action}")(hero, arg)

    def _hero_options(self, hero: Hero) -> list[tuple[str, Msg]]:
        options: list[tuple[str, Msg]] = []
        speed = hero.speed_left
        monsters = self.room.monsters
        if speed >= 1 and not hero.in_pit:
            options.append(("move", msg("Move (1 speed a square, 2 over stairs or traps)")))
        may_attack = monsters and hero.attacks_made < fig.max_attacks(hero, self.book)
        if may_attack and any(m.cost <= speed for m in self._modes(hero)):
            options.append(("attack", msg("Attack a monster")))
        if "magebane" not in self.room.effects and self._castable(hero):
            options.append(("spell", msg("Cast a spell ({mana} mana)", mana=hero.mana)))
        if not hero.potion_used and any(self.book.items[i].kind == "potion" for i in hero.backpack):
            options.append(("potion", msg("Drink a potion (one a round)")))
        if self.room.chests and speed >= 1:
            options.append(
                (
                    "chest",
                    msg("Open a treasure chest (1 speed, {n} in the room)", n=self.room.chests),
                )
            )
        if speed >= 1 and any(self._equippable(hero)):
            options.append(("equip", msg("Change equipment (1 speed)")))
        if speed >= 1 and hero.items() and self._receivers(hero):
            options.append(("give", msg("Give an item to a hero on your square (1 speed each)")))
        bribable = [m for m in monsters if self.book.monsters[m.kind].size in ("small", "large")]
        if hero.motivation == "reformed_henchman" and self.gold >= 5 and bribable:
            options.append(("bribe", msg("Bribe a monster on your square to leave (5 gold)")))
        if not monsters and not self.room.town_fight:
            if speed >= 1 and self.room.number < self.rooms_total and not self.must_rest:
                options.append(
                    (
                        "door",
                        msg(
                            "Open the door to room {n} and explore it (1 speed)",
                            n=self.room.number + 1,
                        ),
                    )
                )
            if self.room.number > 0 and not self.no_retreat:
                options.append(("town", msg("Retreat to town")))
        options.append(("end", msg("End {hero}'s turn", hero=self.hero_name(hero))))
        return options

    def _modes(self, hero: Hero) -> list[fig.AttackMode]:
        modes = fig.attack_modes(
            hero, self.book, weapons_allowed="mind_war" not in self.room.effects
        )
        if "pitch_black" in self.room.effects:
            modes = [m for m in modes if not m.range] or [fig.UNARMED]
        return modes

    def _castable(self, hero: Hero) -> list[Any]:
        spells = [self.book.spells[s] for s in hero.spells]
        needs_target = ("monster", "monsters2")
        return [
            s
            for s in spells
            if s.speed <= hero.speed_left
            and s.mana <= hero.mana
            and (self.room.monsters or s.target not in needs_target)
        ]

    def _equippable(self, hero: Hero) -> list[str]:
        return [
            i
            for i in dict.fromkeys(hero.backpack)
            if self.book.items[i].kind != "potion" and fig.may_use(hero, self.book.items[i])
        ]

    def _do_move(self, hero: Hero, _: str) -> Flow:
        spent = yield from self.number(
            msg(
                "{hero}: how many speed points does the move take (1 a square, 2 over stairs or "
                "traps)?",
                hero=self.hero_name(hero),
            ),
            1,
            hero.speed_left,
            Actor.PLAYER,
        )
        hero.speed_left -= spent
        if "vines" in self.room.effects:
            by_wall = yield from self.yes_no(
                msg(
                    "Carnivorous vines: did {hero} end the move next to a wall?",
                    hero=self.hero_name(hero),
                )
            )
            if by_wall:
                (value,) = yield from self.roll(
                    msg(
                        "Roll a D6 for the vines: 1 or 2 and a vine attacks {hero}.",
                        hero=self.hero_name(hero),
                    ),
                    actor=Actor.BOSS,
                    objective=msg("1 or 2: the vine attacks"),
                    odds=Fraction(1, 3),
                )
                if value <= 2:
                    self.emit(
                        EventKind.INFO, msg("A vine lashes at {hero}!", hero=self.hero_name(hero))
                    )
                    yield from self._hit_hero(hero, 1, crit=False, ranged=False, source=None)

    def _do_attack(self, hero: Hero, _: str) -> Flow:
        modes = [m for m in self._modes(hero) if m.cost <= hero.speed_left]
        mode = modes[0]
        if len(modes) > 1:
            pick = yield from self.choose(
                msg("{hero}: attack with what?", hero=self.hero_name(hero)),
                [(m.id, m.label) for m in modes],
            )
            mode = next(m for m in modes if m.id == pick)
        target = yield from self._pick_monster(
            msg(
                "{hero}: which monster within range {r} and line of sight?",
                hero=self.hero_name(hero),
                r=mode.range,
            )
            if mode.range
            else msg("{hero}: which monster on your square?", hero=self.hero_name(hero)),
            self.room.monsters,
        )
        hero.speed_left -= mode.cost
        hero.attacks_made += 1
        yield from self._hero_attack(hero, target, mode)

    def _pick_monster(self, text: Msg, monsters: list[Monster]) -> Flow:
        if len(monsters) == 1:
            return monsters[0]
        pick = yield from self.choose(
            text,
            [
                (
                    f"m{m.uid}",
                    msg("{name} (H {h}, T {t})", name=self.mon_name(m), h=m.health, t=m.toughness),
                )
                for m in monsters
            ],
        )
        return next(m for m in monsters if f"m{m.uid}" == pick)

    def _hero_attack_profile(self, hero: Hero, target: Monster, bonus: int, crit_on: int) -> Attack:
        strength = fig.attack_value(hero, self.book) + bonus
        if hero.avenger_target == target.kind:
            strength += 1
        if "pitch_black" in self.room.effects:
            strength -= 1
        if "mind_war" in self.room.effects:
            crit_on = min(crit_on, 4)
        legend = hero.motivation == "town_hero" and "living_legend" in self.room.effects
        return Attack(
            strength,
            target.toughness,
            crit_on=crit_on,
            miss_on=2 if "loud_noises" in self.room.effects else 1,
            die_bonus=1 if legend else 0,
        )

    def _hero_attack(self, hero: Hero, target: Monster, mode: fig.AttackMode) -> Flow:
        attack = self._hero_attack_profile(hero, target, mode.bonus, mode.crit_on)
        if hero.luck:
            hero.luck -= 1
            hit, crit = True, False
            self.emit(EventKind.INFO, msg("The Luck Potion makes it an automatic hit."))
        else:
            hit, crit = yield from self._hero_roll_attack(hero, target, attack)
        if not hit:
            self.emit(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{hero} misses {monster}.",
                    hero=self.hero_name(hero),
                    monster=self.mon_name(target),
                ),
            )
            if target.kind == "minion":
                yield from self.confirm(
                    msg(
                        "Retreat: move {monster} 1 square away from {hero}.",
                        monster=self.mon_name(target),
                        hero=self.hero_name(hero),
                    )
                )
            return
        damage = mode.crit_damage if crit and mode.crit_damage else mode.damage
        if "vicious_battle" in self.room.effects:
            damage *= 2
        yield from self._hit_monster(target, damage, crit, hero)

    def _hero_roll_attack(self, hero: Hero, target: Monster, attack: Attack) -> Flow:
        """Roll for a hero's attack; Clairvoyance may re-roll a miss, and the boss's
        A Few Tricks Up His Sleeve a blow that would fell the mini-boss or the boss."""
        while True:
            (value,) = yield from self.roll(
                msg(
                    "{hero} attacks {monster}: roll a D6.",
                    hero=self.hero_name(hero),
                    monster=self.mon_name(target),
                ),
                objective=msg("{n}+ hits (6 always hits, 1 always misses)", n=attack.needs()),
                odds=attack.odds(),
            )
            hit, crit = attack.resolve(value)
            size = self.book.monsters[target.kind].size
            if hit and "few_tricks" in self.boss_cards and size in ("mini_boss", "dungeon_boss"):
                self.boss_cards.remove("few_tricks")
                self.emit(
                    EventKind.CARD,
                    msg(
                        "The dungeon boss plays A Few Tricks Up His Sleeve: {hero} must re-roll.",
                        hero=self.hero_name(hero),
                    ),
                )
                continue
            if not hit and self.clairvoyance:
                again = yield from self.yes_no(msg("Use Clairvoyance to re-roll the miss?"))
                if again:
                    self.clairvoyance -= 1
                    continue
            return hit, crit

    def _hit_monster(
        self,
        target: Monster,
        damage: int,
        crit: bool,
        hero: Hero | None,
        *,
        unblockable: bool = False,
    ) -> Flow:
        kind = self.book.monsters[target.kind]
        if not unblockable and "dodge" in kind.specials and not crit and target.speed_left >= 1:
            target.speed_left -= 1
            (value,) = yield from self.roll(
                msg(
                    "{monster} dodges: roll a D6 for the boss (5+ ignores the hit).",
                    monster=self.mon_name(target),
                ),
                actor=Actor.BOSS,
                objective=msg("5+ dodges"),
                odds=save_odds(5),
            )
            if save_passes(value, 5):
                self.emit(
                    EventKind.INFO, msg("{monster} dodges the hit.", monster=self.mon_name(target))
                )
                return
        if not unblockable and "shield_block" in kind.specials and not target.shield_used:
            target.shield_used = True
            damage -= 1
            self.emit(
                EventKind.INFO,
                msg(
                    "{monster}'s shield blocks the first damage this round.",
                    monster=self.mon_name(target),
                ),
            )
        if damage <= 0:
            return
        target.health = max(0, target.health - damage)
        self.emit(
            EventKind.DAMAGE,
            msg(
                "{monster} loses {n} health ({h} left).",
                monster=self.mon_name(target),
                n=damage,
                h=target.health,
            ),
            monster=target.uid,
            amount=damage,
        )
        if target.health == 0:
            yield from self._defeat_monster(target, hero)

    def _defeat_monster(self, target: Monster, hero: Hero | None) -> Flow:
        self.room.monsters.remove(target)
        self.room.defeated.append(target)
        kind = self.book.monsters[target.kind]
        self.emit(
            EventKind.SCORE,
            msg("{monster} is defeated.", monster=self.mon_name(target)),
            monster=target.uid,
        )
        if hero is not None:
            bounty = self.book.bounty[kind.size]
            factor = 2 if hero.motivation == "glory_hog" else 1
            if "bounties_raised" in self.room.effects:
                factor = 3 if hero.motivation in ("glory_hog", "treasure_hunter") else 2
            self.gold += bounty * factor
            self.emit(
                EventKind.SCORE,
                msg("Bounty: {n} gold to the party chest.", n=bounty * factor),
                gold=self.gold,
            )
        if kind.size == "dungeon_boss" and self.ritual:
            self.ritual["active"] = False
        if not self.room.monsters:
            yield from self._room_cleared(hero)

    def _room_cleared(self, hero: Hero | None) -> Flow:
        self.room.cleared_round = self.round
        self.town_visited_since_clear = False
        self.no_retreat = False
        if self.room.town_fight:
            self.room.town_fight = False
            self.emit(EventKind.INFO, msg("The town is safe again; the heroes are placed in town."))
            yield from self._town(penalty=False)
            return
        if not self.room.counted:  # cleared again after Sneak Attack or Not Dead Yet
            self.room.counted = True
            self.rooms_cleared += 1
        self.emit(
            EventKind.OBJECTIVE_MET,
            msg("Room {n} is cleared.", n=self.room.number),
            room=self.room.number,
        )
        if self.room.lair:
            self.winner = "heroes"
            self.emit(
                EventKind.OBJECTIVE_MET,
                msg("The dungeon boss is defeated: the dungeon is cleared!"),
            )
            return
        drawer = hero or (self.active_heroes() or self.heroes)[0]
        yield from self._draw_event(drawer)

    # -- spells, potions, chests, gear ----------------------------------------------

    def _do_spell(self, hero: Hero, _: str) -> Flow:
        usable = self._castable(hero)
        pick = yield from self.choose(
            msg("{hero}: which spell?", hero=self.hero_name(hero)),
            [
                (
                    s.id,
                    msg(
                        "{name} ({speed} speed, {mana} mana)",
                        name=s.name,
                        speed=s.speed,
                        mana=s.mana,
                    ),
                )
                for s in usable
            ],
        )
        spell = self.book.spells[pick]
        hero.speed_left -= spell.speed
        spell_bonus = sum(item.spell_attack for item in fig.gear(hero, self.book))
        pay_on_attempt = self.options["mana_cost"] == "attempt"
        if pay_on_attempt or not spell.roll:
            hero.mana = max(0, hero.mana - spell.mana)
        success = yield from getattr(self, f"_spell_{spell.id}")(hero, spell_bonus)
        if success and spell.roll and not pay_on_attempt:
            hero.mana = max(0, hero.mana - spell.mana)

    def _spell_roll(self, hero: Hero, text: Msg, toughness: int, bonus: int) -> Flow:
        attack = Attack(fig.attack_value(hero, self.book) + bonus, toughness)
        (value,) = yield from self.roll(
            text, objective=msg("{n}+ succeeds", n=attack.needs()), odds=attack.odds()
        )
        return attack.resolve(value)[0]

    def _spell_alchemy(self, hero: Hero, bonus: int) -> Flow:
        strength = fig.attack_value(hero, self.book) + bonus
        (value,) = yield from self.roll(
            msg("Alchemy: roll a D6; attack {a} + the die must reach 10.", a=strength),
            objective=msg("{n}+ succeeds", n=max(1, 10 - strength)),
            odds=save_odds(10 - strength),
        )
        if strength + value < 10:
            self.emit(EventKind.OBJECTIVE_MISSED, msg("The alchemy fails."))
            return False
        (chart,) = yield from self.roll(msg("Alchemy works: roll a D6 on the alchemy chart."))
        yield from self._give(hero, self.book.items[self.book.alchemy[chart]])
        return True

    def _spell_aura_of_defense(self, hero: Hero, bonus: int) -> Flow:
        others = [h for h in self.active_heroes() if h is not hero]
        picked = yield from self.pick_many(
            msg(
                "Aura of Defense: which other heroes are in or next to {hero}'s square?",
                hero=self.hero_name(hero),
            ),
            [(f"h{h.index}", self.hero_name(h)) for h in others],
        )
        for h in [hero, *(h for h in others if f"h{h.index}" in picked)]:
            h.aura = True
        self.emit(EventKind.INFO, msg("Aura of Defense: +1 to their saves this round."))
        return True

    def _spell_clairvoyance(self, hero: Hero, bonus: int) -> Flow:
        self.clairvoyance += 1
        self.emit(
            EventKind.INFO, msg("Clairvoyance: the next missed hero attack may be re-rolled.")
        )
        yield from ()
        return True

    def _spell_curse(self, hero: Hero, bonus: int) -> Flow:
        target = yield from self._pick_monster(
            msg("Curse: which monster within range 3?"), self.room.monsters
        )
        target.toughness -= 1
        self.emit(
            EventKind.INFO,
            msg(
                "{monster} is cursed: T {t} from now on.",
                monster=self.mon_name(target),
                t=target.toughness,
            ),
        )
        return True

    def _spell_force_will(self, hero: Hero, bonus: int) -> Flow:
        small = [m for m in self.room.monsters if self.book.monsters[m.kind].size == "small"]
        if not small:
            self.emit(
                EventKind.INFO, msg("Force Will only works on small monsters; there are none.")
            )
            return False
        target = yield from self._pick_monster(
            msg("Force Will: which small monster within range 2?"), small
        )
        won = yield from self._spell_roll(
            hero,
            msg("Force Will on {monster}: roll a D6.", monster=self.mon_name(target)),
            target.toughness,
            bonus,
        )
        if won:
            target.controlled = True
            yield from self.confirm(
                msg(
                    "{monster} is under {hero}'s control for the rest of the round: move it and "
                    "attack with it as a hero.",
                    monster=self.mon_name(target),
                    hero=self.hero_name(hero),
                )
            )
        return won

    def _spell_healing(self, hero: Hero, bonus: int) -> Flow:
        pick = yield from self.choose(
            msg("Healing: which hero within range 2?"),
            [(f"h{h.index}", self.hero_name(h)) for h in self.active_heroes()],
        )
        patient = next(h for h in self.heroes if f"h{h.index}" == pick)
        won = yield from self._spell_roll(
            hero,
            msg("Healing {hero}: roll a D6 against their toughness.", hero=self.hero_name(patient)),
            fig.toughness(patient, self.book, melee=False),
            bonus,
        )
        if won:
            self._heal(patient, 1)
        return won

    def _spell_mage_blast(self, hero: Hero, bonus: int) -> Flow:
        first = yield from self._pick_monster(
            msg("Mage Blast: the first monster within range 3?"), self.room.monsters
        )
        targets = [first]
        others = [m for m in self.room.monsters if m is not first]
        if others:
            pick = yield from self.choose(
                msg("Mage Blast: a second monster on the same or a next square?"),
                [
                    *((f"m{m.uid}", self.mon_name(m)) for m in others),
                    ("none", msg("No second monster")),
                ],
            )
            targets += [m for m in others if f"m{m.uid}" == pick]
        any_hit = False
        for target in targets:
            if target not in self.room.monsters:
                continue
            attack = Attack(fig.attack_value(hero, self.book) + bonus, target.toughness)
            (value,) = yield from self.roll(
                msg("Mage Blast on {monster}: roll a D6.", monster=self.mon_name(target)),
                objective=msg("{n}+ hits", n=attack.needs()),
                odds=attack.odds(),
            )
            hit, crit = attack.resolve(value)
            if hit:
                any_hit = True
                damage = 2 if "vicious_battle" in self.room.effects else 1
                yield from self._hit_monster(target, damage, crit, hero)
            else:
                self.emit(
                    EventKind.OBJECTIVE_MISSED,
                    msg("The blast misses {monster}.", monster=self.mon_name(target)),
                )
        return any_hit

    def _spell_time_warp(self, hero: Hero, bonus: int) -> Flow:
        heroes = yield from self.pick_many(
            msg("Time Warp: which other heroes share {hero}'s square?", hero=self.hero_name(hero)),
            [(f"h{h.index}", self.hero_name(h)) for h in self.active_heroes() if h is not hero],
        )
        monsters = yield from self.pick_many(
            msg("Time Warp: which monsters share {hero}'s square?", hero=self.hero_name(hero)),
            [(f"m{m.uid}", self.mon_name(m)) for m in self.room.monsters],
        )
        hero.speed_left = 0
        for h in self.heroes:
            if f"h{h.index}" in heroes:
                h.speed_left = 0
        for m in self.room.monsters:
            if f"m{m.uid}" in monsters:
                m.speed_left = 0
                m.warped = True
        self.emit(
            EventKind.INFO,
            msg("Time Warp: the figures on the square lose their speed until next round."),
        )
        return True

    def _do_potion(self, hero: Hero, _: str) -> Flow:
        potions = [i for i in dict.fromkeys(hero.backpack) if self.book.items[i].kind == "potion"]
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

    def _do_town(self, hero: Hero, _: str) -> Flow:
        yield from self._town(penalty=True)

    # -- being hit ----------------------------------------------------------------

    def _hit_hero(
        self, hero: Hero, damage: int, *, crit: bool, ranged: bool, source: Monster | None
    ) -> Flow:
        """A hit on a hero: defence actions (one after another while they succeed,
        none after a failed one), then the health loss."""
        if hero.invulnerable:
            self.emit(
                EventKind.INFO, msg("{hero} is invulnerable this round.", hero=self.hero_name(hero))
            )
            return
        while damage > 0:
            options = self._defences(hero, crit=crit, ranged=ranged)
            if len(options) == 1:
                break
            pick = yield from self.choose(
                msg("{hero} is hit ({n} damage). Defend?", hero=self.hero_name(hero), n=damage),
                options,
            )
            if pick == "take":
                break
            saved = yield from self._defend(hero, pick, ranged=ranged)
            if not saved:
                break
            damage = 0 if pick in ("dodge", "parry", "cloak") else damage - 1
        if damage > 0:
            if source is not None and source.kind == "patchwork":
                hero.stunned = True
                self.emit(
                    EventKind.INFO,
                    msg("Stun: {hero} has half speed next round.", hero=self.hero_name(hero)),
                )
            yield from self._hurt(hero, damage)

    def _defences(self, hero: Hero, *, crit: bool, ranged: bool) -> list[tuple[str, Msg]]:
        options: list[tuple[str, Msg]] = [("take", msg("Take the hit"))]
        dodge = 5 - self._save_bonus(hero, dodge=True, ranged=ranged)
        if not crit:
            if not hero.cloak_used and any(i.free_dodge for i in fig.gear(hero, self.book)):
                options.append(("cloak", msg("Shadow Cloak: free dodge ({n}+)", n=dodge)))
            if hero.speed_left >= 1:
                options.append(("dodge", msg("Dodge (1 speed, {n}+)", n=dodge)))
        save = self._save_bonus(hero, dodge=False, ranged=ranged)
        if hero.speed_left >= 1 and fig.can_parry(hero, self.book):
            options.append(("parry", msg("Parry (1 speed, {n}+)", n=4 - save)))
        for item_id in dict.fromkeys(hero.hands):
            item = self.book.items[item_id]
            if item.save == "shield" and hero.speed_left >= item.save_cost:
                options.append(
                    (
                        f"shield:{item.id}",
                        msg(
                            "{item} ({s} speed, {n}+, prevents 1 health loss)",
                            item=msg(item.name),
                            s=item.save_cost,
                            n=max(1, item.save_target - save),
                        ),
                    )
                )
        for item_id in hero.worn.values():
            if self.book.items[item_id].save == "discard":
                options.append(
                    (
                        f"discard:{item_id}",
                        msg(
                            "Discard the {item} to prevent 1 health loss",
                            item=self.item_name(item_id),
                        ),
                    )
                )
        return options

    def _save_bonus(self, hero: Hero, *, dodge: bool, ranged: bool) -> int:
        bonus = 1 if hero.aura else 0
        if hero.motivation == "town_hero" and "living_legend" in self.room.effects:
            bonus += 1
        if dodge:
            bonus += 1 if hero.motivation == "veteran" else 0
            bonus += 1 if ranged and "ranged_dodge" in self.book.classes[hero.cls].specials else 0
        return bonus

    def _defend(self, hero: Hero, pick: str, *, ranged: bool) -> Flow:
        kind, _, item_id = pick.partition(":")
        if kind == "discard":
            fig.remove(hero, item_id)
            self.emit(
                EventKind.INFO,
                msg(
                    "{hero} discards the {item}.",
                    hero=self.hero_name(hero),
                    item=self.item_name(item_id),
                ),
            )
            return True
        if kind == "shield":
            item = self.book.items[item_id]
            hero.speed_left -= item.save_cost
            target, name = item.save_target, msg(item.name)
        elif kind == "cloak":
            hero.cloak_used = True
            target, name = 5, msg("Shadow Cloak")
        else:
            hero.speed_left -= 1
            target, name = (5, msg("Dodge")) if kind == "dodge" else (4, msg("Parry"))
        bonus = self._save_bonus(hero, dodge=kind in ("dodge", "cloak"), ranged=ranged)
        if target - bonus <= 1:
            self.emit(EventKind.OBJECTIVE_MET, msg("{save}: saved.", save=name))
            return True
        (value,) = yield from self.roll(
            msg("{hero}: {save}, roll a D6.", hero=self.hero_name(hero), save=name),
            objective=msg("{n}+ saves", n=target - bonus),
            odds=save_odds(target, bonus),
        )
        if save_passes(value, target, bonus):
            self.emit(EventKind.OBJECTIVE_MET, msg("{save}: saved.", save=name))
            return True
        self.emit(
            EventKind.OBJECTIVE_MISSED,
            msg("{save} fails: no further save against this attack.", save=name),
        )
        return False

    def _hurt(self, hero: Hero, damage: int) -> Flow:
        """Unavoidable health loss; at 0 the hero is wounded (the Love Interest may rise)."""
        hero.health = max(0, hero.health - damage)
        self.emit(
            EventKind.DAMAGE,
            msg(
                "{hero} loses {n} health ({h} left).",
                hero=self.hero_name(hero),
                n=damage,
                h=hero.health,
            ),
            hero=hero.index,
            amount=damage,
        )
        if hero.health > 0:
            return
        if hero.motivation == "love_interest":
            (value,) = yield from self.roll(
                msg(
                    "{hero} falls: roll a D6, on a 5+ the power of love gives 1 health back.",
                    hero=self.hero_name(hero),
                ),
                objective=msg("5+"),
                odds=Fraction(1, 3),
            )
            if value >= 5:
                hero.health = 1
                self.emit(
                    EventKind.HEAL,
                    msg("The power of love: {hero} gets 1 health back.", hero=self.hero_name(hero)),
                )
                return
        hero.wounded = True
        hero.speed_left = 0
        yield from self.confirm(
            msg("{hero} is wounded: lay the figure on the town card.", hero=self.hero_name(hero))
        )
        if not self.active_heroes():
            self.winner = "boss"

    # -- exploring a room -----------------------------------------------------------

    def _do_door(self, hero: Hero, _: str) -> Flow:
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
        yield from self._spawn(rolls)
        yield from self._room_cards(hero)
        yield from self._spring_trap(trap, hero)

    def _level_modifier(self) -> int:
        return self.level if self.options["generator_level"] == "level" else self.level - 1

    def _trap_roll(self, modifier: int) -> Flow:
        (value,) = yield from self.roll(
            msg("Roll a D6 on the trap chart for the boss ({m:+d}).", m=modifier), actor=Actor.BOSS
        )
        value = min(7, max(1, value + modifier))
        if "cunning_plan" in self.party_cards:
            again = yield from self.yes_no(
                msg("Trap {n}. Discard A Cunning Plan to re-roll it?", n=value)
            )
            if again:
                self.party_cards.remove("cunning_plan")
                (value,) = yield from self.roll(
                    msg("Re-roll the trap chart ({m:+d}).", m=modifier), actor=Actor.BOSS
                )
                value = min(7, max(1, value + modifier))
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
        (value,) = yield from self.roll(text, actor=Actor.BOSS)
        result = min(MAX_GENERATOR, max(1, value + modifier))
        if "cunning_plan" in self.party_cards:
            again = yield from self.yes_no(
                msg("Generator {n}. Discard A Cunning Plan to re-roll it?", n=result)
            )
            if again:
                self.party_cards.remove("cunning_plan")
                (value,) = yield from self.roll(
                    msg("Re-roll the monster generator ({m:+d}).", m=modifier), actor=Actor.BOSS
                )
                result = min(MAX_GENERATOR, max(1, value + modifier))
        return [result]

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
        names = ", ".join(str(self.mon_name(m)) for m in placed) or "-"
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
                    heroes=", ".join(str(self.hero_name(h)) for h in heroes),
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
        back.health = min(back.max_health, d3(value))
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

    # -- the monsters' turn ------------------------------------------------------------

    def _monsters_turn(self) -> Flow:
        for monster in list(self.room.monsters):
            if not monster.warped:
                monster.speed_left = monster.speed
                if "time_bubble" in self.room.effects:
                    monster.speed_left = (monster.speed + 1) // 2
            monster.warped = False
        for monster in list(self.room.monsters):
            if self.winner or not self.active_heroes():
                return
            if monster not in self.room.monsters or monster.controlled or monster.speed_left <= 0:
                continue
            policy = self.book.monsters[monster.kind].policy
            yield from getattr(self, f"_policy_{policy}")(monster)

    def _nearest(self, monster: Monster, heroes: list[Hero]) -> Flow:
        if len(heroes) == 1:
            return heroes[0]
        pick = yield from self.choose(
            msg("Which hero is nearest to {monster}?", monster=self.mon_name(monster)),
            [(f"h{h.index}", self.hero_name(h)) for h in heroes],
            Actor.TABLE,
        )
        return next(h for h in heroes if f"h{h.index}" == pick)

    def _policy_melee(self, monster: Monster) -> Flow:
        """Move towards the nearest hero, stop on their square, attack until the
        speed (or the four attacks) runs out; what is left is kept for dodges."""
        target = yield from self._nearest(monster, self.active_heroes())
        text = (
            "How many squares must {monster} move to reach {hero}'s square or a square next to "
            "it (spear)? (0 if it is there)"
            if "spear" in self.book.monsters[monster.kind].specials
            else "How many squares must {monster} move to reach {hero}'s square? (0 if it is there)"
        )
        distance = yield from self.number(
            msg(text, monster=self.mon_name(monster), hero=self.hero_name(target)), 0, 30
        )
        yield from self._close_and_attack(monster, target, distance, cost=1, ranged=False)

    def _policy_ranged(self, monster: Monster) -> Flow:
        """Keep the distance: shoot from where it stands if a hero is in range, else
        move just enough to have one in range and line of sight; 2 speed a shot."""
        if "pitch_black" in self.room.effects:
            yield from self._policy_melee(monster)
            return
        target = yield from self._nearest(monster, self.active_heroes())
        distance = yield from self.number(
            msg(
                "How many squares must {monster} move to have {hero} within range {r} in a "
                "straight line of sight? (0 if it has; if a hero is on its square it steps 1 "
                "square away first)",
                monster=self.mon_name(monster),
                hero=self.hero_name(target),
                r=monster.range,
            ),
            0,
            30,
        )
        yield from self._close_and_attack(monster, target, distance, cost=2, ranged=True)

    def _close_and_attack(
        self, monster: Monster, target: Hero, distance: int, *, cost: int, ranged: bool
    ) -> Flow:
        moved = min(distance, monster.speed_left)
        monster.speed_left -= moved
        if moved < distance or monster.speed_left < cost:
            if moved:
                yield from self.confirm(
                    msg(
                        "Move {monster} {n} squares towards {hero}.",
                        monster=self.mon_name(monster),
                        n=moved,
                        hero=self.hero_name(target),
                    ),
                    Actor.BOSS,
                )
            return
        attacks = min(self.book.base["max_attacks"], monster.speed_left // cost)
        monster.speed_left -= attacks * cost
        names = {
            "monster": self.mon_name(monster),
            "hero": self.hero_name(target),
            "n": moved,
            "k": attacks,
        }
        text = (
            msg(
                "Move {monster} {n} squares to {hero}, then roll {k} dice for its attacks.", **names
            )
            if moved
            else msg("{monster} attacks {hero}: roll {k} dice for the boss.", **names)
        )
        yield from self._monster_attacks(monster, [target] * attacks, ranged=ranged, text=text)

    def _monster_attack_profile(self, monster: Monster, hero: Hero, ranged: bool) -> Attack:
        strength = monster.attack
        if monster.kind == "zombie":
            strength += len(hero.zombie_attackers - {monster.uid})
        if "pitch_black" in self.room.effects:
            strength -= 1
        return Attack(strength, fig.toughness(hero, self.book, melee=not ranged))

    def _monster_attacks(
        self, monster: Monster, targets: list[Hero], *, ranged: bool, text: Msg
    ) -> Flow:
        """Roll every die of a monster's attacks at once (one per attack, in order)."""
        if not targets:
            return
        profile = self._monster_attack_profile(monster, targets[0], ranged)
        values = yield from self.roll(
            text,
            count=len(targets),
            actor=Actor.BOSS,
            objective=msg("{n}+ hits", n=profile.needs()),
            odds=profile.odds(),
        )
        for hero, value in zip(targets, values, strict=True):
            if hero.wounded or self.winner:
                break
            yield from self._monster_strike(monster, hero, value, ranged=ranged)

    def _monster_strike(self, monster: Monster, hero: Hero, value: int, *, ranged: bool) -> Flow:
        profile = self._monster_attack_profile(monster, hero, ranged)
        if monster.kind == "zombie":
            hero.zombie_attackers.add(monster.uid)
        hit, crit = profile.resolve(value)
        if not hit:
            self.emit(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{monster} misses {hero}.",
                    monster=self.mon_name(monster),
                    hero=self.hero_name(hero),
                ),
            )
            if hero.motivation == "coward":
                yield from self.confirm(
                    msg(
                        "Retreat: {hero} the coward moves 1 square away.", hero=self.hero_name(hero)
                    )
                )
            return
        damage = 2 if "smash" in self.book.monsters[monster.kind].specials else 1
        if "vicious_battle" in self.room.effects:
            damage *= 2
        text = "{monster} hits {hero} (critical)." if crit else "{monster} hits {hero}."
        self.emit(
            EventKind.INFO, msg(text, monster=self.mon_name(monster), hero=self.hero_name(hero))
        )
        yield from self._hit_hero(hero, damage, crit=crit, ranged=ranged, source=monster)

    def _policy_fire_demon(self, monster: Monster) -> Flow:
        """Vortex of Doom first when no hero is on its square (pulling heroes in), then
        fly to the nearest hero and Sweep: each attack hits every figure there."""
        heroes = self.active_heroes()
        on_square = yield from self.yes_no(msg("Is any hero on the Fire Demon's square?"))
        if not on_square and monster.speed_left >= 2:
            monster.speed_left -= 2
            values = yield from self.roll(
                msg(
                    "Vortex of Doom! Roll one die per hero, in order: {heroes}.",
                    heroes=", ".join(str(self.hero_name(h)) for h in heroes),
                ),
                count=len(heroes),
                actor=Actor.BOSS,
            )
            pulled = [
                h
                for h, v in zip(heroes, values, strict=True)
                if self._monster_attack_profile(monster, h, False).resolve(v)[0]
            ]
            if pulled:
                yield from self.confirm(
                    msg(
                        "Move {heroes} 1 square closer to the Fire Demon.",
                        heroes=", ".join(str(self.hero_name(h)) for h in pulled),
                    ),
                    Actor.BOSS,
                )
        target = yield from self._nearest(monster, heroes)
        distance = yield from self.number(
            msg(
                "How many squares must the Fire Demon fly to reach {hero}'s square? (0 if it is "
                "there)",
                hero=self.hero_name(target),
            ),
            0,
            30,
        )
        moved = min(distance, monster.speed_left)
        monster.speed_left -= moved
        if moved < distance or not monster.speed_left:
            if moved:
                yield from self.confirm(
                    msg(
                        "Fly the Fire Demon {n} squares towards {hero}.",
                        n=moved,
                        hero=self.hero_name(target),
                    ),
                    Actor.BOSS,
                )
            return
        others = yield from self.pick_many(
            msg("Sweep: which other heroes are on that square?"),
            [(f"h{h.index}", self.hero_name(h)) for h in heroes if h is not target],
        )
        friends = yield from self.pick_many(
            msg("Sweep: which monsters are on that square?"),
            [(f"m{m.uid}", self.mon_name(m)) for m in self.room.monsters if m is not monster],
        )
        attacks = min(self.book.base["max_attacks"], monster.speed_left)
        monster.speed_left -= attacks
        victims = [target, *(h for h in heroes if f"h{h.index}" in others)]
        values = yield from self.roll(
            msg(
                "Fly the Fire Demon {n} squares to {hero}. Sweep: roll {k} dice, each attack "
                "hits every figure there.",
                n=moved,
                hero=self.hero_name(target),
                k=attacks,
            ),
            count=attacks,
            actor=Actor.BOSS,
        )
        for value in values:
            for hero in victims:
                if not hero.wounded and not self.winner:
                    yield from self._monster_strike(monster, hero, value, ranged=False)
            for other in [m for m in self.room.monsters if f"m{m.uid}" in friends]:
                hit, crit = Attack(monster.attack, other.toughness).resolve(value)
                if hit:
                    yield from self._hit_monster(other, 1, crit, None)

    def _policy_lich(self, monster: Monster) -> Flow:
        """Two speed an action: Soul Drinker when hurt and a hero is on its square,
        Raise Dead while there are fewer zombies than heroes, Mage Blast at heroes in
        range, Soul Drinker otherwise; if no hero is in reach it closes in."""
        attacks = 0
        close = yield from self.pick_many(
            msg("Which heroes are on the Lich's square?"),
            [(f"h{h.index}", self.hero_name(h)) for h in self.active_heroes()],
        )
        in_range = yield from self.pick_many(
            msg("Which other heroes are within 3 squares of the Lich, in line of sight?"),
            [
                (f"h{h.index}", self.hero_name(h))
                for h in self.active_heroes()
                if f"h{h.index}" not in close
            ],
        )
        while monster.speed_left >= 2 and not self.winner and monster in self.room.monsters:
            near = [h for h in self.active_heroes() if f"h{h.index}" in close]
            reach = [h for h in self.active_heroes() if f"h{h.index}" in (*close, *in_range)]
            zombies = sum(1 for m in self.room.monsters if m.kind == "zombie")
            can_attack = attacks < self.book.base["max_attacks"]
            monster.speed_left -= 2
            if near and can_attack and monster.health < monster.max_health:
                attacks += 1
                yield from self._soul_drinker(monster, near)
            elif zombies < len(self.active_heroes()):
                zombie = self._new_monster("zombie")
                zombie.speed_left = 0
                self.room.monsters.append(zombie)
                yield from self.confirm(
                    msg(
                        "Raise Dead: place {monster} on the Lich's square.",
                        monster=self.mon_name(zombie),
                    ),
                    Actor.BOSS,
                )
            elif reach and can_attack:
                attacks += 1
                yield from self._lich_blast(monster, reach)
            elif near and can_attack:
                attacks += 1
                yield from self._soul_drinker(monster, near)
            else:
                monster.speed_left += 2
                if not reach:
                    target = yield from self._nearest(monster, self.active_heroes())
                    yield from self.confirm(
                        msg(
                            "Move the Lich towards {hero} until they are within 3 squares.",
                            hero=self.hero_name(target),
                        ),
                        Actor.BOSS,
                    )
                return

    def _soul_drinker(self, monster: Monster, near: list[Hero]) -> Flow:
        target = min(near, key=lambda h: (h.health, h.index))
        profile = self._monster_attack_profile(monster, target, False)
        (value,) = yield from self.roll(
            msg("Soul Drinker on {hero}: roll a D6 for the Lich.", hero=self.hero_name(target)),
            actor=Actor.BOSS,
            objective=msg("{n}+ hits", n=profile.needs()),
            odds=profile.odds(),
        )
        before = target.health
        yield from self._monster_strike(monster, target, value, ranged=False)
        if target.health < before or (target.wounded and before > 0):
            monster.health = min(monster.max_health, monster.health + 1)
            self.emit(
                EventKind.HEAL, msg("Soul Drinker: the Lich has {h} health.", h=monster.health)
            )

    def _lich_blast(self, monster: Monster, reach: list[Hero]) -> Flow:
        first = min(reach, key=lambda h: (h.health, h.index))
        targets = [first]
        others = [h for h in reach if h is not first]
        if others:
            pick = yield from self.choose(
                msg(
                    "Mage Blast on {hero}: which other hero is on the same or a next square?",
                    hero=self.hero_name(first),
                ),
                [
                    *((f"h{h.index}", self.hero_name(h)) for h in others),
                    ("none", msg("No one")),
                ],
                Actor.TABLE,
            )
            targets += [h for h in others if f"h{h.index}" == pick]
        names = ", ".join(str(self.hero_name(h)) for h in targets)
        text = msg(
            "Mage Blast on {heroes}: roll {k} dice for the Lich, in that order.",
            heroes=names,
            k=len(targets),
        )
        yield from self._monster_attacks(monster, targets, ranged=True, text=text)

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

    # -- levels ---------------------------------------------------------------------

    def _gain_level(self) -> Flow:
        self.level += 1
        self.quest += 1
        self.ritual = None
        self.emit(
            EventKind.INFO,
            msg("The party reaches level {n}: monsters grow stronger too.", n=self.level),
        )
        for hero in self.heroes:
            stat = yield from self.choose(
                msg("{hero} gains a level: +1 to which stat?", hero=self.hero_name(hero)),
                [
                    ("health", msg("Health (H)")),
                    ("speed", msg("Speed (S)")),
                    ("attack", msg("Attack (A)")),
                ],
            )
            hero.gained[stat] += 1
            hero.wounded = False
            hero.health = fig.max_health(hero, self.book)
            if hero.cls == "mage":
                yield from self._learn_spell(hero)
        yield from self._town(penalty=False)

    # -- the picture for screens ----------------------------------------------------

    def view(self) -> dict[str, Any]:
        book = self.book
        heroes = [self._hero_view(h) for h in self.heroes]
        monsters = [m.to_json(book) for m in self.room.monsters]
        boss = next(
            (m for m in self.room.monsters if book.monsters[m.kind].size == "dungeon_boss"), None
        )
        if boss is not None:
            gauge = {
                "label": book.monsters[boss.kind].name,
                "value": boss.health,
                "max": boss.max_health,
            }
        else:
            gauge = {
                "label": f"Room {self.room.number}",
                "value": sum(m.health for m in self.room.monsters),
                "max": sum(m.max_health for m in (*self.room.monsters, *self.room.defeated)),
            }
        panels = [
            {
                "title": h["name"],
                "actor": "player",
                "rows": [
                    ["Health", f"{h['health']}/{h['max_health']}"],
                    ["Attack", h["attack"]],
                    ["Toughness", h["toughness"]],
                    ["Speed", f"{h['speed_left']}/{h['speed']}"],
                    *([["Mana", h["mana"]]] if h["mana"] or h["class"] == "mage" else []),
                    ["Motivation", h["motivation"]],
                    ["Gear", ", ".join(h["gear"]) or "-"],
                    *([["Wounded", "yes"]] if h["wounded"] else []),
                ],
            }
            for h in heroes
        ]
        panels += [
            {
                "title": m["name"],
                "actor": "boss",
                "rows": [
                    ["Health", f"{m['health']}/{m['max_health']}"],
                    ["Attack", m["attack"]],
                    ["Toughness", m["toughness"]],
                    ["Speed", f"{m['speed_left']}/{m['speed']}"],
                ],
            }
            for m in monsters
        ]
        panels.append(
            {
                "title": "Party",
                "actor": "table",
                "rows": [
                    ["Gold", self.gold],
                    ["Level", self.level],
                    ["Room", f"{self.room.number}/{self.rooms_total}"],
                    ["Retreats", self.retreats],
                    ["Chests", self.room.chests],
                ],
            }
        )
        cards = [
            {"title": book.events[c].title, "text": book.events[c].text}
            for c in dict.fromkeys([*self.drawn, *self.party_cards, *self.boss_cards])
        ]
        return {
            "turn": self.round,
            "phase": self.phase,
            "quest": self.quest,
            "level": self.level,
            "room": self.room.number,
            "rooms": self.rooms_total,
            "lair": self.room.lair,
            "gold": self.gold,
            "retreats": self.retreats,
            "generator_modifier": self.retreats + self._level_modifier(),
            "chests": self.room.chests,
            "room_effects": sorted(self.room.effects),
            "next_room": sorted(self.next_room),
            "banned": self.banned,
            "party_cards": list(self.party_cards),
            "boss_cards": list(self.boss_cards),
            "ritual": dict(self.ritual) if self.ritual else None,
            "winner": self.winner,
            "heroes": heroes,
            "monsters": monsters,
            "gauge": gauge,
            "panels": panels,
            "cards": cards,
        }

    def _hero_view(self, hero: Hero) -> dict[str, Any]:
        book = self.book
        return {
            "index": hero.index,
            "name": str(self.hero_name(hero)),
            "class": hero.cls,
            "motivation": book.motivations[hero.motivation].name
            if hero.motivation in book.motivations
            else "-",
            "health": hero.health,
            "max_health": fig.max_health(hero, book),
            "attack": fig.attack_value(hero, book),
            "toughness": fig.toughness(hero, book, melee=False),
            "speed": fig.full_speed(hero, book),
            "speed_left": hero.speed_left,
            "mana": hero.mana,
            "spells": [book.spells[s].name for s in hero.spells],
            "gear": [book.items[i].name for i in (*hero.hands, *hero.worn.values())],
            "backpack": [book.items[i].name for i in hero.backpack],
            "wounded": hero.wounded,
            "attacks_made": hero.attacks_made,
        }
