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
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.heroes import Ability, DiceEffect, Tier
from dicetable.rules.dicethrone.objectives import Objective
from dicetable.rules.dicethrone.odds import chance, chance_from
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    MAX_CP,
    MAX_DAMAGE,
    Shown,
    SoloState,
)

ROLL_ATTEMPTS = 3  # 4. Offensive Rolling Phase
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


class OffensiveRoll(SoloState):
    """The Boss's Offensive Rolling Phase (a mixin of the solo game)."""

    def _ask_offense(self, data: dict) -> Prompt:
        objective = self._ai.objective
        hexed = self.boss.count("hex") > 0
        if self.attempt == 0:
            keep: tuple[int, ...] = ()
            odds = chance(objective, self.attempts, "boss", hex=hexed)
            text = msg(
                "Boss's Offensive Roll: roll 5 dice (attempt 1 of {max}).", max=self.attempts
            )
        else:
            keep = objective.boss_keep(self.dice, hexed)
            odds = chance_from(objective, self.dice, self.attempts - self.attempt, "boss", hexed)
            text = msg(
                "Boss's Offensive Roll, attempt {n} of {max}: keep {kept}, re-roll "
                "{rerolls} dice and enter all 5.",
                n=self.attempt + 1,
                max=self.attempts,
                kept=" ".join(str(self.dice[i]) for i in keep) or "-",
                rerolls=5 - len(keep),
            )
        return self._roll_prompt(text, 5, keep=keep, objective=Msg(objective.label), odds=odds)

    def _on_offense(self, data: dict, answer: Input, values: list[int]) -> None:
        self.dice = values
        self.attempt += 1
        objective, hexed = self._ai.objective, self.boss.count("hex") > 0
        met = objective.met_by(values, hexed)
        self._say(EventKind.ROLLED, msg("Boss rolls {values}.", values=values), values=values)
        if met:
            self._say(
                EventKind.OBJECTIVE_MET,
                msg("Roll Objective met: {objective}.", objective=msg(objective.label)),
            )
        if met or self.attempt >= self.attempts:
            self._then(("resolve", {}))
        else:
            self._then(("offense", {}))

    def _run_resolve(self, data: dict) -> None:
        """4.: the strongest met ability (furthest right, then furthest down); none met
        after the roll phase: a King's Hand buys a new phase with the same objective."""
        met = self._hero.met_abilities(self.dice, self.levels, self.boss.count("hex") > 0)
        if not self._ai.objective.met_by(self.dice, self.boss.count("hex") > 0):
            self._say(EventKind.OBJECTIVE_MISSED, msg("Roll Objective missed."))
        if not met:
            if not self._retry_roll_phase():
                self._say(EventKind.INFO, msg("No ability: the Boss does not attack."))
            return
        ability, tier = met[0]
        self._say(
            "ability",
            msg("The Boss activates {ability}.", ability=msg(ability.name)),
            ability=ability.id,
        )
        if self.boss.count("blinded"):
            self.boss.remove("blinded")
            self._then(
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
            self._activate(ability, tier)

    def _ask_blinded(self, data: dict) -> Prompt:
        return self._roll_prompt(msg("The Boss is Blinded: roll 1 die (1-2: his attack fails)."), 1)

    def _on_blinded(self, data: dict, answer: Input, values: list[int]) -> None:
        if values[0] <= 2:
            self._say(EventKind.INFO, msg("Blinded: the attack fails."))
            return
        ability = self._hero.ability(data["ability"], data["level"])
        self._activate(ability, ability.tiers[data["tier"]])

    def _activate(self, ability: Ability, tier: Tier) -> None:
        """The ability's effects in board order: CP and tokens, the dice shown, tokens
        spent or counted, CP-based damage; then its extra roll if it has one."""
        boss = self.boss
        if self._also_shows(ability.steal_if):  # "steal the CP from the opponent instead"
            stolen = self._drain_player(tier.cp)
            boss.cp = min(MAX_CP, boss.cp + stolen)
            self._say(EventKind.INFO, msg("The Boss steals {n} CP from you.", n=stolen))
        else:
            boss.cp = min(MAX_CP, boss.cp + tier.cp)
        for token in tier.gain:
            boss.add(token)
        shown = self._dice_effects(tier.per, self.dice)
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
        if self._also_shows(tier.remove_status_if):
            self._remove_worst_status(tier.remove_status_if)
        where = {"id": ability.id, "level": ability.level, "tier": ability.tiers.index(tier)}
        if tier.roll_dice:
            self._then(
                (
                    "ability_roll",
                    {**where, "ability": ability.name, "n": tier.roll_dice, "damage": damage},
                )
            )
        else:
            self._resolve_attack(ability, tier, damage, shown.heal)

    def _ask_ability_roll(self, data: dict) -> Prompt:
        # the extra roll scores damage, tokens or CP (Pyroblast): "for its effect"
        ability, n = msg(data["ability"]), data["n"]
        text = (
            msg("{ability}: roll 1 die for its effect.", ability=ability)
            if n == 1
            else msg("{ability}: roll {n} dice for its effect.", ability=ability, n=n)
        )
        return self._roll_prompt(text, n)

    def _on_ability_roll(self, data: dict, answer: Input, values: list[int]) -> None:
        ability = self._hero.ability(data["id"], data["level"])
        tier = ability.tiers[data["tier"]]
        self._say(
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
            shown = self._dice_effects(tier.roll_per, values)
            damage, heal = damage + shown.damage, shown.heal
        if tier.roll_inflict and sum(values) >= tier.roll_inflict[0]:
            self._inflict(tier.roll_inflict[1])
        self._resolve_attack(ability, tier, damage, heal)

    def _resolve_attack(self, ability: Ability, tier: Tier, damage: int, heal: int = 0) -> None:
        """Then the orange card (4. "Using an Orange card", at the end of the Offensive
        Roll Phase), healing, statuses inflicted, and the damage: defendable damage
        waits for the player's defensive roll."""
        undefendable = tier.undefendable or ability.kind == "ultimate"
        targeted = self.player.count("targeted") > 0  # held before this attack's tokens
        if not undefendable and self._also_shows(tier.undefendable_if):
            undefendable = True
            self._say(
                EventKind.INFO,
                msg(
                    "{objective} shown: the attack is undefendable.",
                    objective=msg(tier.undefendable_if.label),
                ),
            )
        heal += tier.heal
        inflict = list(tier.inflict)
        card = self._current_action
        effect = card.effect_at(self.d)
        if (
            card.colour == "orange"
            and not self.action_used
            and not self.boss.count("concussion")
            and self.boss.cp >= card.cost
            and self._orange_helps(effect, damage, undefendable)
        ):
            self._play_action(card)
            damage += effect.get("damage", 0) if damage else 0
            undefendable = undefendable or bool(effect.get("undefendable"))
            heal += effect.get("heal", 0)
            if "inflict" in effect:
                inflict.append(effect["inflict"])
            if "text" in effect:
                self._instruct(Msg(effect["text"]))
        for token in inflict:
            self._inflict(token)
        if heal:
            self._heal_boss(heal)
        self._conditional_effects(ability, self.dice)
        if damage <= 0:
            return
        if targeted:  # 4. A: the Boss's tokens act on the player as on him (+2, spent)
            self.player.remove("targeted")
            damage += 2
            self._say(EventKind.INFO, msg("You are Targeted: +2 damage."))
        after = {"self_damage": tier.self_damage}
        if undefendable:
            self._then(("deal", {"damage": damage, **after}))
        else:
            self._then(("player_defense", {"damage": damage, **after}))

    def _dice_effects(self, effects: tuple[DiceEffect, ...], values: list[int]) -> Shown:
        """Apply per-die and at-least effects of these dice: tokens and CP at once,
        the damage, healing and prevention returned for the caller to place."""
        counts = Counter(self._hero.faces[v] for v in values)
        shown = Shown()
        for effect in effects:
            times = effect.times(counts[effect.symbol])
            if not times:
                continue
            shown.damage += effect.damage * times
            shown.heal += effect.heal * times
            shown.prevent += effect.prevent * times
            shown.prevent_half = shown.prevent_half or effect.prevent_half
            self.boss.cp = max(0, min(MAX_CP, self.boss.cp + effect.cp * times))
            if effect.gain:
                self.boss.add(effect.gain, times)
            if effect.inflict:
                self._inflict(effect.inflict, times)
            if effect.drain:
                self._drain_player(effect.drain * times)
        return shown

    def _drain_player(self, cp: int) -> int:
        """The player loses CP (as many as they have); how many they lost."""
        lost = min(cp, self.player.cp)
        if lost:
            self.player.cp -= lost
            self._say(EventKind.INFO, msg("You lose {n} CP.", n=lost))
        return lost

    def _conditional_effects(self, ability: Ability, values: list[int]) -> None:
        """What the ability does only when its roll shows something: a token for the
        player (``inflict_if``), or its text as an instruction (always, without
        ``text_if``)."""
        hexed = self.boss.count("hex") > 0
        if ability.inflict_if and ability.inflict_if[0].met_by(values, hexed):
            self._inflict(ability.inflict_if[1])
        if ability.text and (ability.text_if is None or ability.text_if.met_by(values, hexed)):
            self._instruct(
                Msg(ability.text), Actor.BOSS if ability.kind != "defensive" else Actor.PLAYER
            )

    def _ask_player_defense(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg(
                "Defend against {damage} damage: roll your defence. How much "
                "damage does it prevent?",
                damage=data["damage"],
            ),
            Actor.PLAYER,
            number_range=(0, data["damage"]),
        )

    def _also_shows(self, objective: Objective | None) -> bool:
        """Whether the Boss's roll also shows this (an ability's extra condition)."""
        return objective is not None and objective.met_by(self.dice, self.boss.count("hex") > 0)

    def _remove_worst_status(self, objective: Objective) -> None:
        """He "may remove 1 of his status effects": the one that hurts him most."""
        negative = [t for t in self.boss.tokens if tokens()[t].kind == "negative"]
        if not negative:
            return
        token = min(negative, key=lambda t: REMOVE_FIRST.index(t) if t in REMOVE_FIRST else 99)
        self.boss.remove(token)
        self._say(
            EventKind.INFO,
            msg(
                "{objective} shown: the Boss removes {token}.",
                objective=msg(objective.label),
                token=msg(tokens()[token].name),
            ),
        )

    def _orange_helps(self, effect: dict[str, Any], damage: int, undefendable: bool) -> bool:
        """Whether any part of the orange card would change this attack: like a blue
        card (4. Main phase), the Boss does not pay for an effect he cannot apply
        ("resolve (or not) its effect"): no extra damage on an ability dealing none."""
        helps = {
            "damage": damage > 0,
            "undefendable": damage > 0 and not undefendable,
            "heal": self.boss.health < BOSS_HEALTH,
            "inflict": "inflict" in effect
            and self.player.count(effect["inflict"]) < tokens()[effect["inflict"]].stack,
            "text": True,
        }
        return any(helps[part] for part in effect if part in helps)

    def _on_player_defense(self, data: dict, answer: Input, values: list[int]) -> None:
        self._then(("counter", {}), ("deal", {**data, "damage": data["damage"] - answer.number}))

    def _ask_counter(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("How much damage does your defence deal to the Boss?"),
            Actor.PLAYER,
            number_range=(0, MAX_DAMAGE),
        )

    def _on_counter(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.number:
            self._hurt_boss(answer.number, avoidable=True)

    def _run_deal(self, data: dict) -> None:
        damage = data["damage"]
        self._hurt_player(damage)
        if damage > 0 and data.get("self_damage") and not self.winner:
            self._hurt_boss(data["self_damage"], avoidable=False)  # Reckless: "in return"
        if damage > 0 and self.back_strike and not self.winner:
            self._then(("back_strike", {}))
