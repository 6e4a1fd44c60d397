"""A hero's turn: the actions menu, moving, attacking and what a blow does to a monster."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.flow import Step
from dicetable.rules.minidungeon import defence, events, exploring, items, spells, town
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.combat import Attack, save_odds, save_passes
from dicetable.rules.minidungeon.figures import Hero, Monster
from dicetable.rules.minidungeon.table import DungeonState, phase


@phase
def hero_turn(s: DungeonState, hero: Hero) -> None:
    """Hero Actions, one after another, until the hero ends the turn (or can act no more)."""
    if hero.wounded or hero.acted or s.winner or s.room.trap == "ambush_now":
        return

    def chosen(choice: str) -> None:
        if choice == "end":
            return
        action, _, arg = choice.partition(":")
        s.flow.first(hero_actions()[action](s, hero, arg), hero_turn(s, hero))

    s.choose(
        msg(
            "{hero}: {speed} speed left, {health} health. What now?",
            hero=s.hero_name(hero),
            speed=hero.speed_left,
            health=hero.health,
        ),
        hero_options(s, hero),
        chosen,
    )


def hero_options(s: DungeonState, hero: Hero) -> list[tuple[str, Msg]]:
    options: list[tuple[str, Msg]] = []
    speed = hero.speed_left
    monsters = s.room.monsters
    if speed >= 1 and not hero.in_pit:
        options.append(("move", msg("Move (1 speed a square, 2 over stairs or traps)")))
    may_attack = monsters and hero.attacks_made < fig.max_attacks(hero, s.book)
    if may_attack and any(m.cost <= speed for m in attack_modes(s, hero)):
        options.append(("attack", msg("Attack a monster")))
    if "magebane" not in s.room.effects and castable(s, hero):
        options.append(("spell", msg("Cast a spell ({mana} mana)", mana=hero.mana)))
    if not hero.potion_used and items.drinkable(s, hero):
        options.append(("potion", msg("Drink a potion (one a round)")))
    if s.room.chests and speed >= 1:
        options.append(
            (
                "chest",
                msg("Open a treasure chest (1 speed, {n} in the room)", n=s.room.chests),
            )
        )
    if speed >= 1 and any(equippable(s, hero)):
        options.append(("equip", msg("Change equipment (1 speed)")))
    greedy = s.greedy and hero.motivation == "treasure_hunter"
    if speed >= 1 and hero.items() and items.receivers(s, hero) and not greedy:
        options.append(("give", msg("Give an item to a hero on your square (1 speed each)")))
    bribable = [m for m in monsters if s.book.monsters[m.kind].size in ("small", "large")]
    if hero.motivation == "reformed_henchman" and s.gold >= 5 and bribable:
        options.append(("bribe", msg("Bribe a monster on your square to leave (5 gold)")))
    mini_boss = any(s.book.monsters[m.kind].size == "mini_boss" for m in monsters)
    inside_man = "inside_man" in s.party_cards and hero.motivation == "reformed_henchman"
    if inside_man and mini_boss:
        options.append(("negotiate", msg("Inside Man: negotiate with the mini-boss")))
    if not monsters and not s.room.town_fight:
        if speed >= 1 and s.room.number < s.rooms_total and not s.must_rest:
            options.append(
                (
                    "door",
                    msg(
                        "Open the door to room {n} and explore it (1 speed)",
                        n=s.room.number + 1,
                    ),
                )
            )
        if s.room.number > 0 and not s.no_retreat:
            options.append(("town", msg("Retreat to town")))
    options.append(("end", msg("End {hero}'s turn", hero=s.hero_name(hero))))
    return options


def attack_modes(s: DungeonState, hero: Hero) -> list[fig.AttackMode]:
    modes = fig.attack_modes(hero, s.book, weapons_allowed="mind_war" not in s.room.effects)
    if "pitch_black" in s.room.effects:
        modes = [m for m in modes if not m.range] or [fig.UNARMED]
    return modes


def castable(s: DungeonState, hero: Hero) -> list[Any]:
    spells = [s.book.spells[spell_id] for spell_id in hero.spells]
    needs_target = ("monster", "monsters2")
    return [
        spell
        for spell in spells
        if spell.speed <= hero.speed_left
        and spell.mana <= hero.mana
        and (s.room.monsters or spell.target not in needs_target)
    ]


def equippable(s: DungeonState, hero: Hero) -> list[str]:
    return [
        i
        for i in dict.fromkeys(hero.backpack)
        if s.book.items[i].kind != "potion" and fig.may_use(hero, s.book.items[i])
    ]


@phase
def do_move(s: DungeonState, hero: Hero, _: str) -> None:
    def moved(spent: int) -> None:
        hero.speed_left -= spent
        if "vines" in s.room.effects:
            s.yes_no(
                msg(
                    "Carnivorous vines: did {hero} end the move next to a wall?",
                    hero=s.hero_name(hero),
                ),
                by_wall,
            )

    def by_wall(yes: bool) -> None:
        if yes:
            s.roll_one(
                msg(
                    "Roll a D6 for the vines: 1 or 2 and a vine attacks {hero}.",
                    hero=s.hero_name(hero),
                ),
                vine,
                actor=Actor.BOSS,
                objective=msg("1 or 2: the vine attacks"),
                odds=Fraction(1, 3),
            )

    def vine(value: int) -> None:
        if value <= 2:
            s.emit(EventKind.INFO, msg("A vine lashes at {hero}!", hero=s.hero_name(hero)))
            s.flow.first(defence.hit_hero(s, hero, 1, crit=False, ranged=False, source=None))

    s.number(
        msg(
            "{hero}: how many speed points does the move take (1 a square, 2 over stairs or "
            "traps)?",
            hero=s.hero_name(hero),
        ),
        1,
        hero.speed_left,
        moved,
        Actor.PLAYER,
    )


@phase
def do_attack(s: DungeonState, hero: Hero, _: str) -> None:
    modes = [m for m in attack_modes(s, hero) if m.cost <= hero.speed_left]

    def with_mode(mode: fig.AttackMode) -> None:
        def at(target: Monster) -> None:
            hero.speed_left -= mode.cost
            hero.attacks_made += 1
            s.flow.first(hero_attack(s, hero, target, mode))

        pick_monster(
            s,
            msg(
                "{hero}: which monster within range {r} and line of sight?",
                hero=s.hero_name(hero),
                r=mode.range,
            )
            if mode.range
            else msg("{hero}: which monster on your square?", hero=s.hero_name(hero)),
            s.room.monsters,
            at,
        )

    if len(modes) == 1:
        with_mode(modes[0])
        return
    s.choose(
        msg("{hero}: attack with what?", hero=s.hero_name(hero)),
        [(m.id, m.label) for m in modes],
        lambda pick: with_mode(next(m for m in modes if m.id == pick)),
    )


def pick_monster(
    s: DungeonState, text: Msg, monsters: list[Monster], then: Callable[[Monster], None]
) -> None:
    """The monster the players mean (asked only when there is more than one)."""
    if len(monsters) == 1:
        then(monsters[0])
        return
    s.choose(
        text,
        [
            (
                f"m{m.uid}",
                msg("{name} (H {h}, T {t})", name=s.mon_name(m), h=m.health, t=m.toughness),
            )
            for m in monsters
        ],
        lambda pick: then(next(m for m in monsters if f"m{m.uid}" == pick)),
    )


def hero_attack_profile(
    s: DungeonState, hero: Hero, target: Monster, bonus: int, crit_on: int
) -> Attack:
    strength = fig.attack_value(hero, s.book) + bonus
    if hero.avenger_target == target.kind:
        strength += 1
    if "pitch_black" in s.room.effects:
        strength -= 1
    if "mind_war" in s.room.effects:
        crit_on = min(crit_on, 4)
    legend = hero.motivation == "town_hero" and "living_legend" in s.room.effects
    return Attack(
        strength,
        target.toughness,
        crit_on=crit_on,
        miss_on=2 if "loud_noises" in s.room.effects else 1,
        die_bonus=1 if legend else 0,
    )


@phase
def hero_attack(s: DungeonState, hero: Hero, target: Monster, mode: fig.AttackMode) -> None:
    attack = hero_attack_profile(s, hero, target, mode.bonus, mode.crit_on)

    def rolled(hit: bool, crit: bool) -> None:
        if not hit:
            s.emit(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{hero} misses {monster}.",
                    hero=s.hero_name(hero),
                    monster=s.mon_name(target),
                ),
            )
            if target.kind == "minion":
                s.confirm(
                    msg(
                        "Retreat: move {monster} 1 square away from {hero}.",
                        monster=s.mon_name(target),
                        hero=s.hero_name(hero),
                    )
                )
            return
        damage = mode.crit_damage if crit and mode.crit_damage else mode.damage
        if "vicious_battle" in s.room.effects:
            damage *= 2
        s.flow.first(hit_monster(s, target, damage, crit, hero))

    if hero.luck:
        hero.luck -= 1
        s.emit(EventKind.INFO, msg("The Luck Potion makes it an automatic hit."))
        rolled(True, False)
    else:
        hero_roll_attack(s, hero, target, attack, rolled)


def hero_roll_attack(
    s: DungeonState,
    hero: Hero,
    target: Monster,
    attack: Attack,
    then: Callable[[bool, bool], None],
) -> None:
    """Roll for a hero's attack; Clairvoyance may re-roll a miss, and the boss's
    A Few Tricks Up His Sleeve a blow that would fell the mini-boss or the boss."""

    def rolled(value: int) -> None:
        hit, crit = attack.resolve(value)
        size = s.book.monsters[target.kind].size
        if hit and "few_tricks" in s.boss_cards and size in ("mini_boss", "dungeon_boss"):
            s.boss_cards.remove("few_tricks")
            s.emit(
                EventKind.CARD,
                msg(
                    "The dungeon boss plays A Few Tricks Up His Sleeve: {hero} must re-roll.",
                    hero=s.hero_name(hero),
                ),
            )
            hero_roll_attack(s, hero, target, attack, then)
        elif not hit and s.clairvoyance:
            s.yes_no(msg("Use Clairvoyance to re-roll the miss?"), lambda again: reroll(again))
        else:
            then(hit, crit)

    def reroll(again: bool) -> None:
        if again:
            s.clairvoyance -= 1
            hero_roll_attack(s, hero, target, attack, then)
        else:
            then(False, False)

    s.roll_one(
        msg(
            "{hero} attacks {monster}: roll a D6.",
            hero=s.hero_name(hero),
            monster=s.mon_name(target),
        ),
        rolled,
        objective=msg("{n}+ hits (6 always hits, 1 always misses)", n=attack.needs()),
        odds=attack.odds(),
    )


@phase
def hit_monster(
    s: DungeonState,
    target: Monster,
    damage: int,
    crit: bool,
    hero: Hero | None,
    *,
    unblockable: bool = False,
) -> None:
    kind = s.book.monsters[target.kind]

    def not_dodged() -> None:
        blow = damage
        if not unblockable and "shield_block" in kind.specials and not target.shield_used:
            target.shield_used = True
            blow -= 1
            s.emit(
                EventKind.INFO,
                msg(
                    "{monster}'s shield blocks the first damage this round.",
                    monster=s.mon_name(target),
                ),
            )
        if blow <= 0:
            return
        target.health = max(0, target.health - blow)
        s.emit(
            EventKind.DAMAGE,
            msg(
                "{monster} loses {n} health ({h} left).",
                monster=s.mon_name(target),
                n=blow,
                h=target.health,
            ),
            monster=target.uid,
            amount=blow,
        )
        if target.health == 0:
            s.flow.first(defeat_monster(s, target, hero))

    def dodge(value: int) -> None:
        if save_passes(value, 5):
            s.emit(EventKind.INFO, msg("{monster} dodges the hit.", monster=s.mon_name(target)))
        else:
            not_dodged()

    if not unblockable and "dodge" in kind.specials and not crit and target.speed_left >= 1:
        target.speed_left -= 1
        s.roll_one(
            msg(
                "{monster} dodges: roll a D6 for the boss (5+ ignores the hit).",
                monster=s.mon_name(target),
            ),
            dodge,
            actor=Actor.BOSS,
            objective=msg("5+ dodges"),
            odds=save_odds(5),
        )
    else:
        not_dodged()


@phase
def defeat_monster(s: DungeonState, target: Monster, hero: Hero | None) -> None:
    s.room.monsters.remove(target)
    s.room.defeated.append(target)
    kind = s.book.monsters[target.kind]
    s.emit(
        EventKind.SCORE,
        msg("{monster} is defeated.", monster=s.mon_name(target)),
        monster=target.uid,
    )
    if hero is not None:
        bounty = s.book.bounty[kind.size]
        factor = 2 if hero.motivation == "glory_hog" else 1
        if "bounties_raised" in s.room.effects:
            factor = 3 if hero.motivation in ("glory_hog", "treasure_hunter") else 2
        s.gold += bounty * factor
        s.emit(
            EventKind.SCORE,
            msg("Bounty: {n} gold to the party chest.", n=bounty * factor),
            gold=s.gold,
        )
    if kind.size == "dungeon_boss" and s.ritual:
        s.ritual["active"] = False
    if not s.room.monsters:
        s.flow.first(room_cleared(s, hero))


@phase
def room_cleared(s: DungeonState, hero: Hero | None) -> None:
    s.room.cleared_round = s.round
    s.town_visited_since_clear = False
    s.no_retreat = False
    if s.room.town_fight:
        s.room.town_fight = False
        s.emit(EventKind.INFO, msg("The town is safe again; the heroes are placed in town."))
        s.flow.first(town.town(s, penalty=False))
        return
    if not s.room.counted:  # cleared again after Sneak Attack or Not Dead Yet
        s.room.counted = True
        s.rooms_cleared += 1
    s.emit(
        EventKind.OBJECTIVE_MET,
        msg("Room {n} is cleared.", n=s.room.number),
        room=s.room.number,
    )
    if s.room.lair:
        s.winner = "heroes"
        s.emit(
            EventKind.OBJECTIVE_MET,
            msg("The dungeon boss is defeated: the dungeon is cleared!"),
        )
        return
    drawer = hero or (s.active_heroes() or s.heroes)[0]
    s.flow.first(events.draw_event(s, drawer))


@phase
def do_town(s: DungeonState, hero: Hero, _: str) -> None:
    s.flow.first(town.town(s, penalty=True))


def hero_actions() -> dict[str, Callable[[DungeonState, Hero, str], Step]]:
    """What each option of a hero's turn does (Hero Actions), by the option's id."""
    return {
        "move": do_move,
        "attack": do_attack,
        "town": do_town,
        "door": exploring.do_door,
        "spell": spells.do_spell,
        "potion": items.do_potion,
        "chest": items.do_chest,
        "equip": items.do_equip,
        "give": items.do_give,
        "bribe": items.do_bribe,
        "negotiate": items.do_negotiate,
    }
