"""4. Game turn, steps 1 and 2: the Salves, then the Active Player's turn, reported
rather than rolled (damage dealt, statuses, healing, CP), with the Boss's defence
phase rolled in the tray for every defendable attack."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    Input,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicethrone import (
    health,
    kings_hand,
    offensive_roll,
    player_roll,
    table_asked,
)
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.solo_state import (
    MAX_CP,
    MAX_DAMAGE,
    PLAYER_HEALTH,
    Named,
    SoloState,
)

SALVE_HEAL = 6  # 4. Step 1
BOSS_STATUSES = (
    "hex",
    "stun",
    "concussion",
    "knockdown",
    "poison",
    "burn",
    "entangle",
    "blinded",
    "targeted",
)


def run_round(s: SoloState, data: dict) -> None:
    s.turn += 1
    s.cards = []
    steps: list[Named] = []
    if s.salve:
        steps.append(("salves", {}))
    steps += [("player_turn", {}), ("boss_turn", {}), ("round", {})]
    s.then(*steps)


def ask_salves(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg("Spend how many Salves (+6 Health each)? You have {n}.", n=s.salve),
        Actor.PLAYER,
        number_range=(0, s.salve),
    )


def on_salves(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.number:
        s.salve -= answer.number
        healed = health.heal(s, s.player, PLAYER_HEALTH, SALVE_HEAL * answer.number)
        s.say(
            EventKind.HEAL,
            msg("You spend {n} Salve(s): +{healed} Health.", n=answer.number, healed=healed),
        )


def run_player_turn(s: SoloState, data: dict) -> None:
    player = s.player
    upkeep = player.count("poison") + 2 * player.count("burn")  # tokens the Boss gave
    if upkeep:
        s.say(EventKind.INFO, msg("Upkeep: your Poison and Burn deal {n}.", n=upkeep))
        health.hurt_player(s, upkeep)
        if s.winner:
            return
    if player.count("concussion"):  # Concussion: skip the Income Phase, then it goes
        player.remove("concussion")
        s.say(EventKind.INFO, msg("Concussion: you skip your Income Phase."))
    else:  # 4.: the Active Player always has an Income Phase, even on the first turn
        player.cp = min(MAX_CP, player.cp + 1)
    s.then(("menu", {}))
    s.instruct(
        msg(
            "Your turn {turn}: Upkeep, then Income (+1 CP, draw 1 card), "
            "Main Phase and your Offensive Roll.",
            turn=s.turn,
        )
    )


def ask_menu(s: SoloState, data: dict) -> Prompt:
    options = []
    if s.player_hero is not None:  # the player's rolls read from the tray (player_roll)
        if player_roll.may_roll(s):
            name = msg(s.player_hero.name)
            options.append(Option("roll", msg("Roll my Offensive Roll ({hero})", hero=name)))
        if player_roll.upgrades_left(s):
            options.append(Option("upgrade", msg("I played an upgrade card")))
    options += [
        Option("attack", msg("My attack hit the Boss (he defends)")),
        Option("undefendable", msg("Undefendable damage to the Boss")),
        Option("ultimate", msg("I rolled my Ultimate")),
        Option("status", msg("I inflict a status effect on the Boss")),
        Option("heal", msg("I heal")),
        Option("cp", msg("My CP changed")),
    ]
    if s.player.tokens:
        options.append(Option("remove", msg("A status effect left me")))
    if s.boss.cp:  # a card of yours may take his CP (Pickpocket, Steal...)
        options.append(Option("boss_cp", msg("The Boss loses CP")))
    if removable_boss_tokens(s):
        options.append(Option("boss_token", msg("A status token leaves the Boss")))
    options.append(Option("end", msg("End my turn")))
    return Prompt(
        PromptKind.CHOOSE,
        msg("Your turn {turn}: what happened?", turn=s.turn),
        Actor.PLAYER,
        tuple(options),
    )


def on_menu(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    choice = answer.choice
    if choice == "end":
        return
    follow: dict[str, Named] = {
        "attack": ("damage", {"kind": "attack"}),
        "undefendable": ("damage", {"kind": "undefendable"}),
        "status": ("status", {}),
        "remove": ("remove", {}),
        "heal": ("heal", {}),
        "cp": ("cp", {}),
        "boss_cp": ("boss_cp", {}),
        "boss_token": ("boss_token", {}),
    }
    s.then(("menu", {}))
    if choice == "ultimate":
        kings_hand.answer_ultimate(s)
    elif choice == "roll":
        player_roll.start_offense(s)
    elif choice == "upgrade":
        s.then(("player_upgrade", {}))
    else:
        s.then(follow[choice])


def ask_damage(s: SoloState, data: dict) -> Prompt:
    texts = {
        "attack": msg("How much damage does your attack deal (before his defence)?"),
        "undefendable": msg("How much undefendable damage?"),
        "ultimate": msg("How much damage does your Ultimate deal?"),
    }
    return Prompt(
        PromptKind.NUMBER, texts[data["kind"]], Actor.PLAYER, number_range=(0, MAX_DAMAGE)
    )


def on_damage(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    deal(s, data["kind"], answer.number)


def deal(s: SoloState, kind: str, damage: int) -> None:
    """The player's damage (reported or rolled), with Bonus Damage to spend first."""
    if s.bonus_damage:  # 6.: an attack modifier, the Ultimate's too
        s.then(("bonus", {"kind": kind, "damage": damage}))
    else:
        player_hits(s, kind, damage)


def run_ultimate_hit(s: SoloState, data: dict) -> None:
    """A rolled Ultimate that stands: its damage lands (with Bonus Damage)."""
    deal(s, "ultimate", data["damage"])


def ask_bonus(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg(
            "Spend how many Bonus Damage tokens (+1 damage each)? You have {n}.",
            n=s.bonus_damage,
        ),
        Actor.PLAYER,
        number_range=(0, s.bonus_damage),
    )


def on_bonus(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.bonus_damage -= answer.number
    player_hits(s, data["kind"], data["damage"] + answer.number)


def player_hits(s: SoloState, kind: str, damage: int) -> None:
    if kind == "ultimate":  # cannot be defended, avoided or reduced (reference 1.8)
        health.hurt_boss(s, damage, avoidable=False)
        return
    if s.boss.count("targeted"):
        s.boss.remove("targeted")
        damage += 2
        s.say(EventKind.INFO, msg("Targeted: +2 damage."))
    if kind == "attack" and damage > 0:  # 4. Boss defense phase
        s.then(("defense", {"damage": damage}))
    else:
        health.hurt_boss(s, damage)


def ask_defense(s: SoloState, data: dict) -> Prompt:
    defense = s.boss_hero.defense(s.levels)
    if defense.asked:  # its dice and effect are not public
        return table_asked.ask_defense(s, data)
    return s.roll_prompt(
        msg(
            "Roll {n} dice for the Boss's defence, {name}.",
            n=defense.dice,
            name=msg(defense.name),
        ),
        defense.dice,
    )


def on_defense(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    defense = s.boss_hero.defense(s.levels)
    if defense.asked:
        table_asked.on_defense(s, data, answer, values)
        return
    s.say(
        EventKind.ROLLED,
        msg("{name}: {values}.", name=msg(defense.name), values=values),
        values=values,
    )
    shown = offensive_roll.dice_effects(s, defense.per, values)
    offensive_roll.conditional_effects(s, defense, values)
    if shown.heal:  # the defensive roll resolves before the damage lands
        health.heal_boss(s, shown.heal)
    damage = max(0, data["damage"] - shown.prevent)
    if shown.prevent_half:
        damage -= (damage + 1) // 2  # "prevent half the damage (rounded up)"
    health.hurt_boss(s, damage)
    if shown.damage and not s.winner:
        health.hurt_player(s, shown.damage)


def ask_status(s: SoloState, data: dict) -> Prompt:
    names = [Option(t, msg(tokens()[t].name)) for t in BOSS_STATUSES]
    options = (*names, Option("none", msg("None")))
    return Prompt(
        PromptKind.CHOOSE,
        msg("Which status effect does the Boss receive?"),
        Actor.PLAYER,
        options,
    )


def on_status(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.choice != "none" and s.boss.add(answer.choice):
        s.say("status", msg("The Boss receives {token}.", token=msg(tokens()[answer.choice].name)))


def ask_remove(s: SoloState, data: dict) -> Prompt:
    names = [Option(t, msg(tokens()[t].name)) for t in sorted(s.player.tokens)]
    options = (*names, Option("none", msg("None")))
    return Prompt(PromptKind.CHOOSE, msg("Which status effect left you?"), Actor.PLAYER, options)


def on_remove(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.choice != "none":
        s.player.remove(answer.choice)


def removable_boss_tokens(s: SoloState) -> list[str]:
    """6. King's Hand "cannot be Removed or Transferred by card effects"."""
    return sorted(t for t in s.boss.tokens if t != "kings-hand")


def ask_boss_cp(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg("How many CP does the Boss lose? He has {n}.", n=s.boss.cp),
        Actor.PLAYER,
        number_range=(0, s.boss.cp),
    )


def on_boss_cp(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.number:
        s.boss.cp -= answer.number
        s.say(EventKind.INFO, msg("The Boss loses {n} CP.", n=answer.number))


def ask_boss_token(s: SoloState, data: dict) -> Prompt:
    names = [Option(t, msg(tokens()[t].name)) for t in removable_boss_tokens(s)]
    return Prompt(
        PromptKind.CHOOSE,
        msg("Which status token leaves the Boss? (King's Hand cannot be removed.)"),
        Actor.PLAYER,
        (*names, Option("none", msg("None"))),
    )


def on_boss_token(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.choice != "none":
        s.boss.remove(answer.choice)
        name = msg(tokens()[answer.choice].name)
        s.say(EventKind.INFO, msg("{token} leaves the Boss.", token=name))


def ask_heal(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg("How much do you heal?"),
        Actor.PLAYER,
        number_range=(0, MAX_DAMAGE),
    )


def on_heal(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    health.heal(s, s.player, PLAYER_HEALTH, answer.number)


def ask_cp(s: SoloState, data: dict) -> Prompt:
    return Prompt(PromptKind.NUMBER, msg("Your CP now?"), Actor.PLAYER, number_range=(0, MAX_CP))


def on_cp(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.player.cp = answer.number
