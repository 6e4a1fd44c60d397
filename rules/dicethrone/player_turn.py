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
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.solo_state import (
    MAX_CP,
    MAX_DAMAGE,
    PLAYER_HEALTH,
    SoloState,
    Step,
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


class PlayerTurn(SoloState):
    """Steps 1-2 of the round (a mixin of the solo game)."""

    def _run_round(self, data: dict) -> None:
        self.turn += 1
        self.cards = []
        steps: list[Step] = []
        if self.salve:
            steps.append(("salves", {}))
        steps += [("player_turn", {}), ("boss_turn", {}), ("round", {})]
        self.queue[0:0] = steps

    def _ask_salves(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("Spend how many Salves (+6 Health each)? You have {n}.", n=self.salve),
            Actor.PLAYER,
            number_range=(0, self.salve),
        )

    def _on_salves(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.number:
            self.salve -= answer.number
            healed = self._heal(self.player, PLAYER_HEALTH, SALVE_HEAL * answer.number)
            self._say(
                EventKind.HEAL,
                msg("You spend {n} Salve(s): +{healed} Health.", n=answer.number, healed=healed),
            )

    def _run_player_turn(self, data: dict) -> None:
        player = self.player
        upkeep = player.count("poison") + 2 * player.count("burn")  # tokens the Boss gave
        if upkeep:
            self._say(EventKind.INFO, msg("Upkeep: your Poison and Burn deal {n}.", n=upkeep))
            self._hurt_player(upkeep)
            if self.winner:
                return
        if player.count("concussion"):  # Concussion: skip the Income Phase, then it goes
            player.remove("concussion")
            self._say(EventKind.INFO, msg("Concussion: you skip your Income Phase."))
        else:  # 4.: the Active Player always has an Income Phase, even on the first turn
            player.cp = min(MAX_CP, player.cp + 1)
        self._then(("menu", {}))
        self._instruct(
            msg(
                "Your turn {turn}: Upkeep, then Income (+1 CP, draw 1 card), "
                "Main Phase and your Offensive Roll.",
                turn=self.turn,
            )
        )

    def _ask_menu(self, data: dict) -> Prompt:
        options = [
            Option("attack", msg("My attack hit the Boss (he defends)")),
            Option("undefendable", msg("Undefendable damage to the Boss")),
            Option("ultimate", msg("I rolled my Ultimate")),
            Option("status", msg("I inflict a status effect on the Boss")),
            Option("heal", msg("I heal")),
            Option("cp", msg("My CP changed")),
        ]
        if self.player.tokens:
            options.append(Option("remove", msg("A status effect left me")))
        if self.boss.cp:  # a card of yours may take his CP (Pickpocket, Steal...)
            options.append(Option("boss_cp", msg("The Boss loses CP")))
        if self._removable_boss_tokens():
            options.append(Option("boss_token", msg("A status token leaves the Boss")))
        options.append(Option("end", msg("End my turn")))
        return Prompt(
            PromptKind.CHOOSE,
            msg("Your turn {turn}: what happened?", turn=self.turn),
            Actor.PLAYER,
            tuple(options),
        )

    def _on_menu(self, data: dict, answer: Input, values: list[int]) -> None:
        choice = answer.choice
        if choice == "end":
            return
        follow: dict[str, Step] = {
            "attack": ("damage", {"kind": "attack"}),
            "undefendable": ("damage", {"kind": "undefendable"}),
            "status": ("status", {}),
            "remove": ("remove", {}),
            "heal": ("heal", {}),
            "cp": ("cp", {}),
            "boss_cp": ("boss_cp", {}),
            "boss_token": ("boss_token", {}),
        }
        self._then(("menu", {}))
        if choice == "ultimate":
            self._answer_ultimate()
        else:
            self._then(follow[choice])

    def _ask_damage(self, data: dict) -> Prompt:
        texts = {
            "attack": msg("How much damage does your attack deal (before his defence)?"),
            "undefendable": msg("How much undefendable damage?"),
            "ultimate": msg("How much damage does your Ultimate deal?"),
        }
        return Prompt(
            PromptKind.NUMBER, texts[data["kind"]], Actor.PLAYER, number_range=(0, MAX_DAMAGE)
        )

    def _on_damage(self, data: dict, answer: Input, values: list[int]) -> None:
        kind, damage = data["kind"], answer.number
        if self.bonus_damage:  # 6.: an attack modifier, the Ultimate's too
            self._then(("bonus", {"kind": kind, "damage": damage}))
        else:
            self._player_hits(kind, damage)

    def _ask_bonus(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg(
                "Spend how many Bonus Damage tokens (+1 damage each)? You have {n}.",
                n=self.bonus_damage,
            ),
            Actor.PLAYER,
            number_range=(0, self.bonus_damage),
        )

    def _on_bonus(self, data: dict, answer: Input, values: list[int]) -> None:
        self.bonus_damage -= answer.number
        self._player_hits(data["kind"], data["damage"] + answer.number)

    def _player_hits(self, kind: str, damage: int) -> None:
        if kind == "ultimate":  # cannot be defended, avoided or reduced (reference 1.8)
            self._hurt_boss(damage, avoidable=False)
            return
        if self.boss.count("targeted"):
            self.boss.remove("targeted")
            damage += 2
            self._say(EventKind.INFO, msg("Targeted: +2 damage."))
        if kind == "attack" and damage > 0:  # 4. Boss defense phase
            self._then(("defense", {"damage": damage}))
        else:
            self._hurt_boss(damage)

    def _ask_defense(self, data: dict) -> Prompt:
        defense = self._hero.defense(self.levels)
        return self._roll_prompt(
            msg(
                "Roll {n} dice for the Boss's defence, {name}.",
                n=defense.dice,
                name=msg(defense.name),
            ),
            defense.dice,
        )

    def _on_defense(self, data: dict, answer: Input, values: list[int]) -> None:
        defense = self._hero.defense(self.levels)
        self._say(
            EventKind.ROLLED,
            msg("{name}: {values}.", name=msg(defense.name), values=values),
            values=values,
        )
        shown = self._dice_effects(defense.per, values)
        self._conditional_effects(defense, values)
        if shown.heal:  # the defensive roll resolves before the damage lands
            self._heal_boss(shown.heal)
        damage = max(0, data["damage"] - shown.prevent)
        if shown.prevent_half:
            damage -= (damage + 1) // 2  # "prevent half the damage (rounded up)"
        self._hurt_boss(damage)
        if shown.damage and not self.winner:
            self._hurt_player(shown.damage)

    def _ask_status(self, data: dict) -> Prompt:
        names = [Option(t, msg(tokens()[t].name)) for t in BOSS_STATUSES]
        options = (*names, Option("none", msg("None")))
        return Prompt(
            PromptKind.CHOOSE,
            msg("Which status effect does the Boss receive?"),
            Actor.PLAYER,
            options,
        )

    def _on_status(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice != "none" and self.boss.add(answer.choice):
            self._say(
                "status", msg("The Boss receives {token}.", token=msg(tokens()[answer.choice].name))
            )

    def _ask_remove(self, data: dict) -> Prompt:
        names = [Option(t, msg(tokens()[t].name)) for t in sorted(self.player.tokens)]
        options = (*names, Option("none", msg("None")))
        return Prompt(
            PromptKind.CHOOSE, msg("Which status effect left you?"), Actor.PLAYER, options
        )

    def _on_remove(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice != "none":
            self.player.remove(answer.choice)

    def _removable_boss_tokens(self) -> list[str]:
        """6. King's Hand "cannot be Removed or Transferred by card effects"."""
        return sorted(t for t in self.boss.tokens if t != "kings-hand")

    def _ask_boss_cp(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("How many CP does the Boss lose? He has {n}.", n=self.boss.cp),
            Actor.PLAYER,
            number_range=(0, self.boss.cp),
        )

    def _on_boss_cp(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.number:
            self.boss.cp -= answer.number
            self._say(EventKind.INFO, msg("The Boss loses {n} CP.", n=answer.number))

    def _ask_boss_token(self, data: dict) -> Prompt:
        names = [Option(t, msg(tokens()[t].name)) for t in self._removable_boss_tokens()]
        return Prompt(
            PromptKind.CHOOSE,
            msg("Which status token leaves the Boss? (King's Hand cannot be removed.)"),
            Actor.PLAYER,
            (*names, Option("none", msg("None"))),
        )

    def _on_boss_token(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice != "none":
            self.boss.remove(answer.choice)
            name = msg(tokens()[answer.choice].name)
            self._say(EventKind.INFO, msg("{token} leaves the Boss.", token=name))

    def _ask_heal(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("How much do you heal?"),
            Actor.PLAYER,
            number_range=(0, MAX_DAMAGE),
        )

    def _on_heal(self, data: dict, answer: Input, values: list[int]) -> None:
        self._heal(self.player, PLAYER_HEALTH, answer.number)

    def _ask_cp(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER, msg("Your CP now?"), Actor.PLAYER, number_range=(0, MAX_CP)
        )

    def _on_cp(self, data: dict, answer: Input, values: list[int]) -> None:
        self.player.cp = answer.number
