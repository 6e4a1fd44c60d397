"""The Boss's Offensive Rolling Phase (4.): up to 3 rolls towards the Boss AI card's
Roll Objective with the keep rule, the strongest met ability (furthest right, then
furthest down), King's Hand for a new phase when none is met (6.), the orange card at
the end of the roll, and the attack reaching the player's defence."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dicetable.rules.core import (
    Actor,
    EventKind,
    Input,
    Msg,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicethrone import (
    boss_turn,
    health,
    kings_hand,
    player_abilities,
    player_roll,
)
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.heroes import Ability, DiceEffect, Tier
from dicetable.rules.dicethrone.objectives import Objective
from dicetable.rules.dicethrone.odds import chance, chance_from
from dicetable.rules.dicethrone.player_abilities import Effects
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    MAX_CP,
    MAX_DAMAGE,
    SoloState,
)

# the Boss's own status tokens, the one he removes first first (no rule says: it is
# the order in which they cost him most: a lost roll phase, then CP, then damage)
REMOVE_FIRST = (
    "stun",
    "knockdown",
    "concussion",
    "entangle",
    "blinded",
    "burn",
    "poison",
    "targeted",
    "hex",
)


def ask_offense(s: SoloState, data: dict) -> Prompt:
    objective = s.ai.objective
    hexed = s.boss.count("hex") > 0
    if s.attempt == 0:
        keep: tuple[int, ...] = ()
        odds = chance(objective, s.attempts, "boss", hex=hexed)
        text = msg("Boss's Offensive Roll: roll 5 dice (attempt 1 of {max}).", max=s.attempts)
    else:
        keep = objective.boss_keep(s.dice, hexed)
        odds = chance_from(objective, s.dice, s.attempts - s.attempt, "boss", hexed)
        text = msg(
            "Boss's Offensive Roll, attempt {n} of {max}: keep {kept}, re-roll "
            "{rerolls} dice and enter all 5.",
            n=s.attempt + 1,
            max=s.attempts,
            kept=" ".join(str(s.dice[i]) for i in keep) or "-",
            rerolls=5 - len(keep),
        )
    return s.roll_prompt(text, 5, keep=keep, objective=Msg(objective.label), odds=odds)


def on_offense(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.dice = values
    s.attempt += 1
    objective, hexed = s.ai.objective, s.boss.count("hex") > 0
    met = objective.met_by(values, hexed)
    s.say(EventKind.ROLLED, msg("Boss rolls {values}.", values=values), values=values)
    if met:
        s.say(
            EventKind.OBJECTIVE_MET,
            msg("Roll Objective met: {objective}.", objective=msg(objective.label)),
        )
    if met or s.attempt >= s.attempts:
        s.then(("resolve", {}))
    else:
        s.then(("offense", {}))


def run_resolve(s: SoloState, data: dict) -> None:
    """4.: the strongest met ability (furthest right, then furthest down); none met
    after the roll phase: a King's Hand buys a new phase with the same objective."""
    met = s.boss_hero.met_abilities(s.dice, s.levels, s.boss.count("hex") > 0)
    if not s.ai.objective.met_by(s.dice, s.boss.count("hex") > 0):
        s.say(EventKind.OBJECTIVE_MISSED, msg("Roll Objective missed."))
    if not met:
        if not kings_hand.retry_roll_phase(s):
            s.say(EventKind.INFO, msg("No ability: the Boss does not attack."))
        return
    ability, tier = met[0]
    s.say(
        "ability",
        msg("The Boss activates {ability}.", ability=msg(ability.name)),
        ability=ability.id,
    )
    if s.boss.count("blinded"):
        s.boss.remove("blinded")
        s.then(
            (
                "blinded",
                {
                    "ability": ability.id,
                    "level": ability.level,
                    "tier": ability.tiers.index(tier),
                },
            )
        )
    else:
        activate(s, ability, tier)


def ask_blinded(s: SoloState, data: dict) -> Prompt:
    return s.roll_prompt(msg("The Boss is Blinded: roll 1 die (1-2: his attack fails)."), 1)


def on_blinded(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if values[0] <= 2:
        s.say(EventKind.INFO, msg("Blinded: the attack fails."))
        return
    ability = s.boss_hero.ability(data["ability"], data["level"])
    activate(s, ability, ability.tiers[data["tier"]])


def activate(s: SoloState, ability: Ability, tier: Tier) -> None:
    """The ability's effects in board order: CP and tokens, the dice shown, tokens
    spent or counted, CP-based damage; then its extra roll if it has one."""
    boss = s.boss
    if also_shows(s, ability.steal_if):  # "steal the CP from the opponent instead"
        stolen = drain_player(s, tier.cp)
        boss.cp = min(MAX_CP, boss.cp + stolen)
        s.say(EventKind.INFO, msg("The Boss steals {n} CP from you.", n=stolen))
    else:
        boss.cp = min(MAX_CP, boss.cp + tier.cp)
    for token in tier.gain:
        boss.add(token)
    shown = dice_effects(s, tier.per, s.dice)
    damage = tier.damage + shown.damage
    if tier.spend_token:
        token, most, each = tier.spend_token
        spent = min(most, boss.count(token))
        boss.remove(token, spent)
        damage += spent * each
    if tier.per_token:
        token, each = tier.per_token
        damage += boss.count(token) * each
    if tier.cp_damage:
        damage += {
            "all": boss.cp,
            "half-up": (boss.cp + 1) // 2,
            "half-down": boss.cp // 2,
        }[tier.cp_damage]
    if tier.cleanse:
        for token in [t for t in boss.tokens if tokens()[t].kind == "negative"]:
            boss.remove(token, boss.count(token))
    remove_if = tier.remove_status_if
    if remove_if is not None and also_shows(s, remove_if):
        remove_worst_status(s, remove_if)
    where = {"id": ability.id, "level": ability.level, "tier": ability.tiers.index(tier)}
    if tier.asked:  # its damage is not public: the table reads it (table_asked.py)
        s.then(("asked_damage", {**where, "damage": damage, "heal": shown.heal}))
    elif tier.roll_dice:
        s.then(
            (
                "ability_roll",
                {**where, "ability": ability.name, "n": tier.roll_dice, "damage": damage},
            )
        )
    else:
        resolve_attack(s, ability, tier, damage, shown.heal)


def ask_ability_roll(s: SoloState, data: dict) -> Prompt:
    # the extra roll scores damage, tokens or CP (Pyroblast): "for its effect"
    ability, n = msg(data["ability"]), data["n"]
    text = (
        msg("{ability}: roll 1 die for its effect.", ability=ability)
        if n == 1
        else msg("{ability}: roll {n} dice for its effect.", ability=ability, n=n)
    )
    return s.roll_prompt(text, n)


def on_ability_roll(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    ability = s.boss_hero.ability(data["id"], data["level"])
    tier = ability.tiers[data["tier"]]
    s.say(
        EventKind.ROLLED,
        msg("{ability}: {values}.", ability=msg(ability.name), values=values),
        values=values,
    )
    damage, heal = data["damage"], 0
    if tier.roll_score == "sum":
        damage += sum(values)
    elif tier.roll_score == "half-up":
        damage += (values[0] + 1) // 2
    else:
        shown = dice_effects(s, tier.roll_per, values)
        damage, heal = damage + shown.damage, shown.heal
    if tier.roll_inflict and sum(values) >= tier.roll_inflict[0]:
        boss_turn.inflict(s, tier.roll_inflict[1])
    resolve_attack(s, ability, tier, damage, heal)


def resolve_attack(s: SoloState, ability: Ability, tier: Tier, damage: int, heal: int = 0) -> None:
    """Then the orange card (4. "Using an Orange card", at the end of the Offensive
    Roll Phase), healing, statuses inflicted, and the damage: defendable damage
    waits for the player's defensive roll."""
    undefendable = tier.undefendable or ability.kind == "ultimate"
    targeted = s.player.count("targeted") > 0  # held before this attack's tokens
    undefendable_if = tier.undefendable_if
    if not undefendable and undefendable_if is not None and also_shows(s, undefendable_if):
        undefendable = True
        s.say(
            EventKind.INFO,
            msg(
                "{objective} shown: the attack is undefendable.",
                objective=msg(undefendable_if.label),
            ),
        )
    heal += tier.heal
    inflict = list(tier.inflict)
    card = s.action
    effect = card.effect_at(s.d)
    if (
        card.colour == "orange"
        and not s.action_used
        and not s.boss.count("concussion")
        and s.boss.cp >= card.cost
        and orange_helps(s, effect, damage, undefendable)
    ):
        boss_turn.play_action(s, card)
        damage += effect.get("damage", 0) if damage else 0
        undefendable = undefendable or bool(effect.get("undefendable"))
        heal += effect.get("heal", 0)
        if "inflict" in effect:
            inflict.append(effect["inflict"])
        if "text" in effect:
            s.instruct(Msg(effect["text"]))
    for token in inflict:
        boss_turn.inflict(s, token)
    if heal:
        health.heal_boss(s, heal)
    conditional_effects(s, ability, s.dice)
    if damage <= 0:
        return
    if targeted:  # 4. A: the Boss's tokens act on the player as on him (+2, spent)
        s.player.remove("targeted")
        damage += 2
        s.say(EventKind.INFO, msg("You are Targeted: +2 damage."))
    after = {"self_damage": tier.self_damage}
    if undefendable:
        s.then(("deal", {"damage": damage, **after}))
    else:
        # the player's defensive roll: read from the tray when their hero is known
        defend = "player_defense_roll" if player_roll.reads_defense(s) else "player_defense"
        s.then((defend, {"damage": damage, **after}))


def dice_effects(s: SoloState, effects: tuple[DiceEffect, ...], values: list[int]) -> Effects:
    """Apply per-die and at-least effects of the Boss's dice: tokens and CP at once,
    the damage, healing and prevention returned for the caller to place."""
    shown = player_abilities.dice_effects(s.boss_hero, effects, values)
    s.boss.cp = max(0, min(MAX_CP, s.boss.cp + shown.cp))
    for token, n in Counter(shown.gain).items():
        s.boss.add(token, n)
    for token, n in Counter(shown.inflict).items():
        boss_turn.inflict(s, token, n)
    if shown.drain:
        drain_player(s, shown.drain)
    return shown


def drain_player(s: SoloState, cp: int) -> int:
    """The player loses CP (as many as they have); how many they lost."""
    lost = min(cp, s.player.cp)
    if lost:
        s.player.cp -= lost
        s.say(EventKind.INFO, msg("You lose {n} CP.", n=lost))
    return lost


def conditional_effects(s: SoloState, ability: Ability, values: list[int]) -> None:
    """What the ability does only when its roll shows something: a token for the
    player (``inflict_if``), or its text as an instruction (always, without
    ``text_if``)."""
    hexed = s.boss.count("hex") > 0
    if ability.inflict_if and ability.inflict_if[0].met_by(values, hexed):
        boss_turn.inflict(s, ability.inflict_if[1])
    if ability.text and (ability.text_if is None or ability.text_if.met_by(values, hexed)):
        s.instruct(Msg(ability.text), Actor.BOSS if ability.kind != "defensive" else Actor.PLAYER)


def ask_player_defense(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg(
            "Defend against {damage} damage: roll your defence. How much damage does it prevent?",
            damage=data["damage"],
        ),
        Actor.PLAYER,
        number_range=(0, data["damage"]),
    )


def also_shows(s: SoloState, objective: Objective | None) -> bool:
    """Whether the Boss's roll also shows this (an ability's extra condition)."""
    return objective is not None and objective.met_by(s.dice, s.boss.count("hex") > 0)


def remove_worst_status(s: SoloState, objective: Objective) -> None:
    """He "may remove 1 of his status effects": the one that hurts him most."""
    negative = [t for t in s.boss.tokens if tokens()[t].kind == "negative"]
    if not negative:
        return
    token = min(negative, key=lambda t: REMOVE_FIRST.index(t) if t in REMOVE_FIRST else 99)
    s.boss.remove(token)
    s.say(
        EventKind.INFO,
        msg(
            "{objective} shown: the Boss removes {token}.",
            objective=msg(objective.label),
            token=msg(tokens()[token].name),
        ),
    )


def orange_helps(s: SoloState, effect: dict[str, Any], damage: int, undefendable: bool) -> bool:
    """Whether any part of the orange card would change this attack: like a blue
    card (4. Main phase), the Boss does not pay for an effect he cannot apply
    ("resolve (or not) its effect"): no extra damage on an ability dealing none."""
    helps = {
        "damage": damage > 0,
        "undefendable": damage > 0 and not undefendable,
        "heal": s.boss.health < BOSS_HEALTH,
        "inflict": "inflict" in effect
        and s.player.count(effect["inflict"]) < tokens()[effect["inflict"]].stack,
        "text": True,
    }
    return any(helps[part] for part in effect if part in helps)


def on_player_defense(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.then(("counter", {}), ("deal", {**data, "damage": data["damage"] - answer.number}))


def ask_counter(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg("How much damage does your defence deal to the Boss?"),
        Actor.PLAYER,
        number_range=(0, MAX_DAMAGE),
    )


def on_counter(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.number:
        health.hurt_boss(s, answer.number, avoidable=True)


def run_deal(s: SoloState, data: dict) -> None:
    damage = data["damage"]
    health.hurt_player(s, damage)
    if damage > 0 and data.get("self_damage") and not s.winner:
        health.hurt_boss(s, data["self_damage"], avoidable=False)  # Reckless: "in return"
    if damage > 0 and s.back_strike and not s.winner:
        s.then(("back_strike", {}))
