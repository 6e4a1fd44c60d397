"""The fan-made Dice Throne solo mode (Moonloop / Phil_Ntl, v3.2), with dicetable as
the boss: the player rolls the boss's dice in the tray, the engine says which to keep,
reads the result, picks the ability and applies it; the player's own turn is reported.

The game is a queue of steps. Steps that need an answer become the prompt; the rest
run at once in ``_advance``. Section numbers in comments are the rulebook's.

Readings where the rulebook is silent (each also in the tests):
* nobody heals above their starting Health (player 50, boss 80);
* Evasive: roll 1 die, 1-2 prevents the damage (Dice Throne's Evasive);
* the boss's Stun skips his next Offensive Roll Phase; Targeted adds 2 to the next
  attack he receives; Poison deals 1 per token and Burn 2 at his Maintenance;
* a Bonus Damage token adds 1 damage; a Salve heals 6 (section 6).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
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
    InvalidInput,
    Msg,
    Option,
    Prompt,
    PromptKind,
    expect,
    msg,
)
from dicetable.rules.dicethrone.decks import ActionCard, AICard, Decks, load_decks, tokens
from dicetable.rules.dicethrone.heroes import Ability, DiceEffect, Hero, Tier, load_hero
from dicetable.rules.dicethrone.odds import chance, chance_from

BOSSES = ("barbarian", "moon_elf", "pyromancer", "shadow_thief")
DIFFICULTIES = {"easy": (10, 0), "normal": (12, 1), "hard": (15, 2)}  # 2.2.2: CP, D
PLAYER_HEALTH, BOSS_HEALTH = 50, 80  # 2.1, 2.2.1
MAX_CP = 15
SALVE_HEAL = 6  # 4. Step 1
ROLL_ATTEMPTS = 3  # 4. Offensive Rolling Phase
EVASIVE_OVER = 8  # 7. Evasive: "greater than 8 damage"
MAX_DAMAGE = 99
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

Step = tuple[str, dict[str, Any]]


@dataclass
class _Shown:
    """What a set of dice effects adds up to."""

    damage: int = 0
    heal: int = 0
    prevent: int = 0
    prevent_half: bool = False


@dataclass
class Side:
    """One side of the fight: Health, CP and status tokens (limits from tokens.toml)."""

    health: int
    cp: int
    tokens: dict[str, int] = field(default_factory=dict)

    def count(self, token: str) -> int:
        return self.tokens.get(token, 0)

    def add(self, token: str, n: int = 1) -> int:
        """Add up to the stack limit; returns how many were actually added."""
        limit = tokens()[token].stack if token in tokens() else 1
        before = self.count(token)
        self.tokens[token] = min(limit, before + n)
        if not self.tokens[token]:
            del self.tokens[token]
        return self.count(token) - before

    def remove(self, token: str, n: int = 1) -> None:
        left = self.count(token) - n
        if left > 0:
            self.tokens[token] = left
        else:
            self.tokens.pop(token, None)


class DiceThroneSolo(Game):
    id = "dicethrone-solo"
    title = "Dice Throne: fan-made solo mode (v3.2)"
    #: "ask" (the default) asks at the table; a value skips that setup question
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "boss": ("ask", *BOSSES),
        "difficulty": ("ask", *DIFFICULTIES),
    }

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rng = random.Random(seed)
        self.boss_id = ""
        self.hero: Hero | None = None
        self.decks: Decks | None = None
        self.difficulty = ""
        self.d = 0
        self.levels: dict[str, int] = {}
        self.boss = Side(BOSS_HEALTH, 0, {"kings-hand": 2})  # 2.2.1
        self.player = Side(PLAYER_HEALTH, 2)  # 2.1: 50 Health, 2 CP, no bonus tokens
        self.salve = 0
        self.bonus_damage = 0
        self.back_strike = False
        self.ai_pile: list[int] = []
        self.ai_discard: list[int] = []
        self.action_pile: list[int] = []
        self.action_discard: list[int] = []
        self.ai_card: AICard | None = None
        self.action_card: ActionCard | None = None
        self.action_used = False
        self.cards: list[dict[str, str]] = []
        self.turn = 0
        self.dice: list[int] = []
        self.attempt = 0
        self.attempts = ROLL_ATTEMPTS
        self.winner = ""
        boss, difficulty = self.options["boss"], self.options["difficulty"]
        self.queue: list[Step] = [
            ("boss", {}) if boss == "ask" else ("set_boss", {"boss": boss}),
            ("difficulty", {})
            if difficulty == "ask"
            else ("set_difficulty", {"level": difficulty}),
        ]
        self._events: list[Event] = []
        # the last prompt, for the step object it was built for (prompt() is asked often)
        self._asked: tuple[Step, tuple, Prompt] | None = None
        self._advance()  # setup chosen by options runs at once
        self._events = []

    # ----------------------------------------------------------------- prompt
    def prompt(self) -> Prompt:
        if self.winner or not self.queue:
            return Prompt(PromptKind.OVER, msg("The game is over."))
        head = self.queue[0]
        key = (
            self.attempt,
            tuple(self.dice),
            len(self.player.tokens),
            self.salve,
            self.bonus_damage,
        )
        if self._asked is not None and self._asked[0] is head and self._asked[1] == key:
            return self._asked[2]
        prompt = getattr(self, f"_ask_{head[0]}")(head[1])
        self._asked = (head, key, prompt)
        return prompt

    def _ask_boss(self, data: dict) -> Prompt:
        options = tuple(Option(b, msg(load_hero(b).name)) for b in BOSSES)
        return Prompt(PromptKind.CHOOSE, msg("Choose the Boss."), Actor.TABLE, options)

    def _ask_difficulty(self, data: dict) -> Prompt:
        options = (
            Option("easy", msg("Easy (10 CP of upgrades, D = 0)")),
            Option("normal", msg("Normal (12 CP of upgrades, D = 1)")),
            Option("hard", msg("Hard (15 CP of upgrades, D = 2)")),
        )
        return Prompt(PromptKind.CHOOSE, msg("Choose the Boss's difficulty."), Actor.TABLE, options)

    def _ask_confirm(self, data: dict) -> Prompt:
        return Prompt(PromptKind.CONFIRM, data["text"], data.get("actor", Actor.TABLE))

    def _ask_salves(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("Spend how many Salves (+6 Health each)? You have {n}.", n=self.salve),
            Actor.PLAYER,
            number_range=(0, self.salve),
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
        options.append(Option("end", msg("End my turn")))
        return Prompt(
            PromptKind.CHOOSE,
            msg("Your turn {turn}: what happened?", turn=self.turn),
            Actor.PLAYER,
            tuple(options),
        )

    def _ask_damage(self, data: dict) -> Prompt:
        texts = {
            "attack": msg("How much damage does your attack deal (before his defence)?"),
            "undefendable": msg("How much undefendable damage?"),
            "ultimate": msg("How much damage does your Ultimate deal?"),
        }
        return Prompt(
            PromptKind.NUMBER, texts[data["kind"]], Actor.PLAYER, number_range=(0, MAX_DAMAGE)
        )

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

    def _ask_evasive(self, data: dict) -> Prompt:
        return self._roll_prompt(
            msg(
                "The Boss spends Evasive against {damage} damage: roll 1 die (1-2 avoids it).",
                damage=data["damage"],
            ),
            1,
        )

    def _ask_kings_hand(self, data: dict) -> Prompt:
        return self._roll_prompt(
            msg(
                "The Boss spends {n} King's Hand against your Ultimate: roll "
                "{n} dice (4-6 forces a re-roll).",
                n=data["n"],
            ),
            data["n"],
        )

    def _ask_ultimate_kept(self, data: dict) -> Prompt:
        options = (
            Option("yes", msg("Yes, my Ultimate stands")),
            Option("no", msg("No, it is broken")),
        )
        return Prompt(
            PromptKind.CHOOSE,
            msg(
                "Re-roll {n} of your dice (a card or token of yours may counter this). "
                "Is your Ultimate still met?",
                n=data["rerolls"],
            ),
            Actor.PLAYER,
            options,
        )

    def _ask_status(self, data: dict) -> Prompt:
        names = [Option(t, msg(tokens()[t].name)) for t in BOSS_STATUSES]
        options = (*names, Option("none", msg("None")))
        return Prompt(
            PromptKind.CHOOSE,
            msg("Which status effect does the Boss receive?"),
            Actor.PLAYER,
            options,
        )

    def _ask_remove(self, data: dict) -> Prompt:
        names = [Option(t, msg(tokens()[t].name)) for t in sorted(self.player.tokens)]
        options = (*names, Option("none", msg("None")))
        return Prompt(
            PromptKind.CHOOSE, msg("Which status effect left you?"), Actor.PLAYER, options
        )

    def _ask_heal(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("How much do you heal?"),
            Actor.PLAYER,
            number_range=(0, MAX_DAMAGE),
        )

    def _ask_cp(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER, msg("Your CP now?"), Actor.PLAYER, number_range=(0, MAX_CP)
        )

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

    def _ask_blinded(self, data: dict) -> Prompt:
        return self._roll_prompt(msg("The Boss is Blinded: roll 1 die (1-2: his attack fails)."), 1)

    def _ask_ability_roll(self, data: dict) -> Prompt:
        return self._roll_prompt(
            msg(
                "{ability}: roll {n} dice for the damage.",
                ability=msg(data["ability"]),
                n=data["n"],
            ),
            data["n"],
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

    def _ask_counter(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("How much damage does your defence deal to the Boss?"),
            Actor.PLAYER,
            number_range=(0, MAX_DAMAGE),
        )

    def _ask_back_strike(self, data: dict) -> Prompt:
        options = (
            Option("card", msg("Reveal the card: deal its CP value")),
            Option("roll", msg("Roll 1 die: deal half (rounded up)")),
            Option("keep", msg("Keep Back Strike for later")),
        )
        return Prompt(PromptKind.CHOOSE, msg("Back Strike: retaliate?"), Actor.PLAYER, options)

    def _ask_back_strike_value(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.NUMBER,
            msg("The revealed card's CP value?"),
            Actor.PLAYER,
            number_range=(0, MAX_CP),
        )

    def _ask_back_strike_roll(self, data: dict) -> Prompt:
        return self._roll_prompt(msg("Back Strike: roll 1 die."), 1, actor=Actor.PLAYER)

    def _roll_prompt(
        self,
        text: Msg,
        count: int,
        *,
        keep: tuple[int, ...] = (),
        objective: Msg | None = None,
        odds: Fraction | None = None,
        actor: Actor = Actor.BOSS,
    ) -> Prompt:
        return Prompt(
            PromptKind.ROLL,
            text,
            actor,
            # read by face number (Dice Throne dice print it beside the symbol), so a
            # taught profile naming faces "sword"... works as long as it gives values
            dice=DiceRequest(count, profile=f"dicethrone-{self.boss_id}"),
            keep=keep,
            objective=objective,
            odds=odds,
        )

    # ----------------------------------------------------------------- apply
    def apply(self, answer: Input) -> list[Event]:
        prompt = self.prompt()
        expect(answer, prompt)
        name, data = self.queue[0]
        values = [d.value for d in answer.dice if d.value is not None]  # expect checked 1-6
        if name == "offense" and self.attempt > 0:
            self._check_kept(values, prompt.keep)
        self._events = []
        self.queue.pop(0)
        getattr(self, f"_on_{name}")(data, answer, values)
        self._advance()
        events, self._events = self._events, []
        return events

    def _check_kept(self, values: list[int], keep: tuple[int, ...]) -> None:
        kept = Counter(self.dice[i] for i in keep)
        if kept - Counter(values):
            shown = " ".join(str(self.dice[i]) for i in keep)
            raise InvalidInput(msg("The kept dice ({kept}) must still be in the roll.", kept=shown))

    def _then(self, *steps: Step) -> None:
        """Run these steps next, in this order, before what was already queued."""
        self.queue[0:0] = list(steps)

    def _say(self, kind: str, text: Msg, **data: Any) -> None:
        self._events.append(Event(kind, text, data))

    def _instruct(self, text: Msg, actor: Actor = Actor.PLAYER) -> None:
        """Something the players do by hand: an event and a confirm, never dropped."""
        self._say(EventKind.INSTRUCTION, text)
        self._then(("confirm", {"text": text, "actor": actor}))

    def _advance(self) -> None:
        while self.queue and not self.winner:
            name, data = self.queue[0]
            step = getattr(self, f"_run_{name}", None)
            if step is None:
                return
            self.queue.pop(0)
            step(data)
        if self.winner:
            self.queue.clear()

    # ----------------------------------------------------------------- setup (2.)
    def _on_boss(self, data: dict, answer: Input, values: list[int]) -> None:
        self._run_set_boss({"boss": answer.choice})

    def _run_set_boss(self, data: dict) -> None:
        self.boss_id = data["boss"]
        self.hero = load_hero(self.boss_id)
        self.decks = load_decks(self.boss_id)

    def _on_difficulty(self, data: dict, answer: Input, values: list[int]) -> None:
        self._run_set_difficulty({"level": answer.choice})

    def _run_set_difficulty(self, data: dict) -> None:
        self.difficulty = data["level"]
        budget, self.d = DIFFICULTIES[self.difficulty]
        placed = self._place_upgrades(budget)
        self.boss.cp = 2  # 2.2.3: "Whatever the number ... the Boss starts the game with 2"
        self.ai_pile = self._shuffled(len(self._decks.ai))
        self.action_pile = self._shuffled(len(self._decks.action))
        setup = msg(
            "Setup: Boss {boss} at 80 Health, 2 CP, 2 King's Hand. You: 50 Health, 2 CP, "
            "draw 4 cards, no bonus tokens.",
            boss=msg(self._hero.name),
        )
        texts = [setup] + [
            msg("Place the upgrade {name} on the Boss's board.", name=msg(name)) for name in placed
        ]
        for text in texts:
            self._say(EventKind.INSTRUCTION, text)
        self.queue[0:0] = [("confirm", {"text": t, "actor": Actor.TABLE}) for t in texts]
        self.queue.append(("round", {}))

    def _place_upgrades(self, budget: int) -> list[str]:
        """2.2.3: draw upgrades until one cannot be paid; a higher level pays only the
        difference; a card at or below the placed level is discarded for free."""
        cards = list(self._hero.upgrades)
        self.rng.shuffle(cards)
        paid: dict[str, int] = {}
        for card in cards:
            placed = self.levels.get(card.ability, 1)
            if card.level <= placed:
                self._say(
                    "upgrade",
                    msg("Upgrade {name} discarded: a higher level is placed.", name=msg(card.name)),
                )
                continue
            price = max(0, card.cost - paid.get(card.ability, 0))
            if price > budget:
                self._say(
                    "upgrade",
                    msg(
                        "Upgrade {name} costs {cost} CP: not paid, setup ends.",
                        name=msg(card.name),
                        cost=price,
                    ),
                )
                break
            budget -= price
            self.levels[card.ability] = card.level
            paid[card.ability] = card.cost
            self._say(
                "upgrade",
                msg("Upgrade {name} placed for {cost} CP.", name=msg(card.name), cost=price),
            )
        return [
            self._hero.ability(ability, level).name
            for ability, level in sorted(self.levels.items())
        ]

    def _shuffled(self, n: int) -> list[int]:
        pile = list(range(n))
        self.rng.shuffle(pile)
        return pile

    # ----------------------------------------------------------------- the round (4.)
    def _run_round(self, data: dict) -> None:
        self.turn += 1
        self.cards = []
        steps: list[Step] = []
        if self.salve:
            steps.append(("salves", {}))
        steps += [("player_turn", {}), ("boss_turn", {}), ("round", {})]
        self.queue[0:0] = steps

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
        }
        self._then(("menu", {}))
        if choice == "ultimate":
            kings_hand = self.boss.count("kings-hand")
            if kings_hand:  # 6. King's Hand: he spends all he has, 1 die each
                self.boss.remove("kings-hand", kings_hand)
                self._then(("kings_hand", {"n": kings_hand}))
            else:
                self._then(("damage", {"kind": "ultimate"}))
            return
        self._then(follow[choice])

    def _on_kings_hand(self, data: dict, answer: Input, values: list[int]) -> None:
        rerolls = sum(1 for v in values if v >= 4)
        self._say(EventKind.ROLLED, msg("King's Hand: {values}.", values=values), values=values)
        if rerolls:
            self._then(("ultimate_kept", {"rerolls": rerolls}))
        else:
            self._then(("damage", {"kind": "ultimate"}))

    def _on_ultimate_kept(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice == "yes":
            self._then(("damage", {"kind": "ultimate"}))
        else:
            self._say(
                EventKind.INFO,
                msg("The King's Hand broke your Ultimate: report the ability you have now."),
            )

    def _on_damage(self, data: dict, answer: Input, values: list[int]) -> None:
        kind, damage = data["kind"], answer.number
        if self.bonus_damage:  # 6.: an attack modifier, the Ultimate's too
            self._then(("bonus", {"kind": kind, "damage": damage}))
        else:
            self._player_hits(kind, damage)

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

    def _on_defense(self, data: dict, answer: Input, values: list[int]) -> None:
        defense = self._hero.defense(self.levels)
        self._say(
            EventKind.ROLLED,
            msg("{name}: {values}.", name=msg(defense.name), values=values),
            values=values,
        )
        shown = self._dice_effects(defense.per, values)
        if defense.text:
            self._instruct(Msg(defense.text))
        if shown.heal:  # the defensive roll resolves before the damage lands
            healed = self._heal(self.boss, BOSS_HEALTH, shown.heal)
            self._say(EventKind.HEAL, msg("The Boss heals {n}.", n=healed))
        damage = max(0, data["damage"] - shown.prevent)
        if shown.prevent_half:
            damage -= (damage + 1) // 2  # "prevent half the damage (rounded up)"
        self._hurt_boss(damage)
        if shown.damage and not self.winner:
            self._hurt_player(shown.damage)

    def _dice_effects(self, effects: tuple[DiceEffect, ...], values: list[int]) -> _Shown:
        """Apply per-die and at-least effects of these dice: tokens and CP at once,
        the damage, healing and prevention returned for the caller to place."""
        counts = Counter(self._hero.faces[v] for v in values)
        shown = _Shown()
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
        return shown

    def _hurt_boss(self, damage: int, avoidable: bool = True) -> None:
        """7. Evasive: spent above 8 damage or against a lethal blow, until one works."""
        lethal = damage >= self.boss.health
        if (
            avoidable
            and damage > 0
            and self.boss.count("evasive")
            and (damage > EVASIVE_OVER or lethal)
        ):
            self.boss.remove("evasive")
            self._then(("evasive", {"damage": damage}))
            return
        self.boss.health = max(0, self.boss.health - damage)
        if damage:
            self._say(
                EventKind.DAMAGE,
                msg("The Boss takes {n} damage.", n=damage),
                target="boss",
                amount=damage,
            )
        if self.boss.health == 0:
            self._end("player")

    def _on_evasive(self, data: dict, answer: Input, values: list[int]) -> None:
        if values[0] <= 2:
            self._say(EventKind.INFO, msg("Evasive: the Boss avoids {n} damage.", n=data["damage"]))
        else:
            self._hurt_boss(data["damage"])

    def _on_status(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice != "none" and self.boss.add(answer.choice):
            self._say(
                "status", msg("The Boss receives {token}.", token=msg(tokens()[answer.choice].name))
            )

    def _on_remove(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice != "none":
            self.player.remove(answer.choice)

    def _on_heal(self, data: dict, answer: Input, values: list[int]) -> None:
        self._heal(self.player, PLAYER_HEALTH, answer.number)

    def _on_cp(self, data: dict, answer: Input, values: list[int]) -> None:
        self.player.cp = answer.number

    def _on_confirm(self, data: dict, answer: Input, values: list[int]) -> None:
        pass

    # ----------------------------------------------------------------- boss turn (4. Step 3)
    def _run_boss_turn(self, data: dict) -> None:
        boss = self.boss
        concussed = boss.count("concussion") > 0
        # Maintenance Phase (7. Concussion: he does not do it)
        if not concussed:
            upkeep = boss.count("poison") + 2 * boss.count("burn")
            if upkeep:
                self._hurt_boss(upkeep, avoidable=False)
                if self.winner:
                    return
        # Income Phase
        if not concussed:
            boss.cp = min(MAX_CP, boss.cp + 1)
        self.ai_card = self._draw_ai()
        self.action_card = self._draw_action()
        self.action_used = False
        self.dice, self.attempt = [], 0
        steps: list[Step] = []
        ai, action = self.ai_card, self.action_card
        self.cards = [
            {
                "title": ai.name,
                "text": ai.describe(self.d),
            },
            {"title": action.name, "text": action.describe()},
        ]
        self._say(
            EventKind.CARD,
            msg(
                "Boss AI card: {name}, Roll Objective {objective}.",
                name=msg(ai.name),
                objective=msg(ai.objective.label),
            ),
        )
        self._say(
            EventKind.CARD,
            msg(
                "Action card: {name} ({colour}).", name=msg(action.name), colour=msg(action.colour)
            ),
        )
        if concussed:
            self._say(
                EventKind.INFO,
                msg("Concussion: no Maintenance, no income, no reinforcement, no Action card."),
            )
        elif ai.reinforcement:
            self._reinforce(ai)
        self._player_bonus(action)
        if boss.count("knockdown"):
            self._knockdown()
        if not concussed and action.colour == "blue":
            self._blue(action)
        elif concussed:
            self._discard_action()
        if ai.text:
            self._instruct(Msg(ai.text), Actor.BOSS)
        if boss.count("stun"):
            boss.remove("stun")
            self._say(EventKind.INFO, msg("The Boss is Stunned: no Offensive Roll this turn."))
            steps.append(("end_boss_turn", {}))
        else:
            self.attempts = ROLL_ATTEMPTS - (1 if boss.count("entangle") else 0)
            if boss.count("entangle"):
                boss.remove("entangle")
                self._say(EventKind.INFO, msg("Entangle: the Boss has one Roll Attempt less."))
            steps += [("offense", {}), ("end_boss_turn", {})]
        insert_at = next(i for i, s in enumerate(self.queue) if s[0] == "round")
        self.queue[insert_at:insert_at] = steps

    def _draw_ai(self) -> AICard:
        if not self.ai_pile:
            self.ai_pile, self.ai_discard = self._reshuffle(self.ai_discard), []
        index = self.ai_pile.pop()
        self.ai_discard.append(index)
        return self._decks.ai[index]

    def _draw_action(self) -> ActionCard:
        if not self.action_pile:
            self.action_pile, self.action_discard = self._reshuffle(self.action_discard), []
        index = self.action_pile.pop()
        self.action_discard.append(index)
        return self._decks.action[index]

    def _reshuffle(self, discard: list[int]) -> list[int]:
        pile = list(discard)
        self.rng.shuffle(pile)
        self._say(EventKind.INFO, msg("A deck is reshuffled."))
        return pile

    def _reinforce(self, card: AICard) -> None:
        """4. Income phase A: the reinforcement; a negative token goes to the player."""
        r = card.reinforcement
        assert r is not None
        amount = r.amount.at(self.d)
        if amount <= 0:
            return
        if r.key == "gain":
            added = self.boss.add(r.token, amount)
            self._say(
                "reinforcement",
                msg(
                    "Reinforcement: the Boss gains {n} {token}.",
                    n=added,
                    token=msg(tokens()[r.token].name),
                ),
            )
        elif r.key == "inflict":
            added = self.player.add(r.token, amount)
            if added:
                self._instruct(
                    msg(
                        "Reinforcement: place {n} {token} on your board.",
                        n=added,
                        token=msg(tokens()[r.token].name),
                    )
                )
        elif r.key == "cp":
            self.boss.cp = min(MAX_CP, self.boss.cp + amount)
            self._say("reinforcement", msg("Reinforcement: the Boss gains {n} CP.", n=amount))
        else:
            healed = self._heal(self.boss, BOSS_HEALTH, amount)
            self._say(EventKind.HEAL, msg("Reinforcement: the Boss heals {n}.", n=healed))

    def _player_bonus(self, card: ActionCard, *, given: bool = True) -> None:
        """4. Income phase B: the Active Player's bonus, top right of the Action card."""
        kind, n = card.bonus, card.bonus_amount
        if kind == "salve":
            self.salve += n
            self._say("bonus", msg("Your bonus: +{n} Salve.", n=n))
        elif kind == "bonus-damage":
            self.bonus_damage += n
            self._say("bonus", msg("Your bonus: +{n} Bonus Damage.", n=n))
        elif kind == "cp":
            self.player.cp = min(MAX_CP, self.player.cp + n)
            self._say("bonus", msg("Your bonus: +{n} CP.", n=n))
        elif kind == "draw":
            self._instruct(msg("Your bonus: draw {n} cards.", n=n))
        elif kind == "back-strike":
            if self.back_strike:
                self._say("bonus", msg("You already hold a Back Strike card."))
            else:
                self.back_strike = True
                self._instruct(
                    msg(
                        "Your bonus: Back Strike. Draw the top card of your deck and "
                        "place it face down on your board."
                    )
                )
        else:
            self._instruct(
                msg(
                    "Your bonus: +1 Positive Token. Take a positive status token "
                    "of your hero or the Boss's (within its stack limit)."
                )
            )

    def _knockdown(self) -> None:
        """4. Special situations: he pays 2 CP to discard Knockdown; without them he
        draws an Action card and discards it for the CP (no bonus for you)."""
        if self.boss.cp >= 2:
            self.boss.cp -= 2
            self._say(EventKind.INFO, msg("The Boss pays 2 CP to remove Knockdown."))
        else:  # the card's 1 CP tops his up to the 2 he then pays (or is all he pays)
            card = self._draw_action()
            self.boss.cp = max(0, self.boss.cp - 1)
            self._say(
                EventKind.INFO,
                msg("The Boss discards {name} to remove Knockdown.", name=msg(card.name)),
            )
        self.boss.remove("knockdown")

    def _blue(self, card: ActionCard) -> None:
        """4. Main phase: a blue card is paid and resolved if he can, else discarded for +1 CP."""
        if self.boss.cp >= card.cost and self._can_resolve(card.effect):
            self.boss.cp -= card.cost
            self.action_used = True
            self._say(
                "action",
                msg("The Boss plays {name} ({cost} CP).", name=msg(card.name), cost=card.cost),
            )
            effect = card.effect
            if "heal" in effect:
                healed = self._heal(self.boss, BOSS_HEALTH, effect["heal"])
                self._say(EventKind.HEAL, msg("The Boss heals {n}.", n=healed))
            if "cp" in effect:
                self.boss.cp = min(MAX_CP, self.boss.cp + effect["cp"])
            if "gain" in effect:
                self.boss.add(effect["gain"])
            if "inflict" in effect:
                self._inflict(effect["inflict"])
            if "text" in effect:
                self._instruct(Msg(effect["text"]))
            if "damage" in effect:
                self._hurt_player(effect["damage"])
        else:
            self._discard_action(gain=True)

    def _can_resolve(self, effect: dict[str, Any]) -> bool:
        if set(effect) == {"heal"} and self.boss.health >= BOSS_HEALTH:
            return False
        if set(effect) == {"gain"}:
            return self.boss.count(effect["gain"]) < tokens()[effect["gain"]].stack
        if set(effect) == {"inflict"}:
            return self.player.count(effect["inflict"]) < tokens()[effect["inflict"]].stack
        return True

    def _discard_action(self, gain: bool = False) -> None:
        card = self._current_action
        if gain:
            self.boss.cp = min(MAX_CP, self.boss.cp + 1)
            self._say("action", msg("The Boss discards {name} for +1 CP.", name=msg(card.name)))
        else:
            self._say("action", msg("The Boss cannot use {name}.", name=msg(card.name)))

    def _inflict(self, token: str, n: int = 1) -> None:
        if self.player.add(token, n):
            self._instruct(msg("Place {token} on your board.", token=msg(tokens()[token].name)))

    # ----------------------------------------------------------------- offensive roll
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
            if self.boss.count("kings-hand"):
                self.boss.remove("kings-hand")
                self.dice, self.attempt = [], 0
                self._say(
                    EventKind.INFO,
                    msg(
                        "No ability: the Boss spends a King's Hand for a new Offensive Roll Phase."
                    ),
                )
                self._then(("offense", {}))
            else:
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
        heal += tier.heal
        inflict = list(tier.inflict)
        card = self._current_action
        if (
            card.colour == "orange"
            and not self.action_used
            and not self.boss.count("concussion")
            and self.boss.cp >= card.cost
        ):
            self.boss.cp -= card.cost
            self.action_used = True
            self._say(
                "action",
                msg("The Boss plays {name} ({cost} CP).", name=msg(card.name), cost=card.cost),
            )
            damage += card.effect.get("damage", 0) if damage else 0
            undefendable = undefendable or bool(card.effect.get("undefendable"))
            heal += card.effect.get("heal", 0)
            if "inflict" in card.effect:
                inflict.append(card.effect["inflict"])
            if "text" in card.effect:
                self._instruct(Msg(card.effect["text"]))
        for token in inflict:
            self._inflict(token)
        if heal:
            healed = self._heal(self.boss, BOSS_HEALTH, heal)
            self._say(EventKind.HEAL, msg("The Boss heals {n}.", n=healed))
        if ability.text:
            self._instruct(Msg(ability.text), Actor.BOSS)
        if damage <= 0:
            return
        after = {"self_damage": tier.self_damage}
        if undefendable:
            self._then(("deal", {"damage": damage, **after}))
        else:
            self._then(("player_defense", {"damage": damage, **after}))

    def _on_player_defense(self, data: dict, answer: Input, values: list[int]) -> None:
        self._then(("counter", {}), ("deal", {**data, "damage": data["damage"] - answer.number}))

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

    def _on_back_strike(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice == "keep":
            return
        self.back_strike = False
        self._then(("back_strike_value" if answer.choice == "card" else "back_strike_roll", {}))

    def _on_back_strike_value(self, data: dict, answer: Input, values: list[int]) -> None:
        self._instruct(msg("Put the card back into your deck and shuffle it."))
        self._hurt_boss(answer.number)

    def _on_back_strike_roll(self, data: dict, answer: Input, values: list[int]) -> None:
        self._instruct(msg("Put the card back into your deck and shuffle it."))
        self._hurt_boss((values[0] + 1) // 2)  # "in standard damage"

    def _run_end_boss_turn(self, data: dict) -> None:
        card = self._current_action
        if card.colour == "orange" and not self.action_used:
            self._say("action", msg("{name} is discarded unused.", name=msg(card.name)))
        self.boss.remove("concussion")
        self.boss.remove("hex")  # Raveness rulebook, Hex: removed at the end of his turn

    # ----------------------------------------------------------------- health and the end (5.)
    def _heal(self, side: Side, most: int, amount: int) -> int:
        if self.winner:  # nothing heals after the last blow
            return 0
        before = side.health
        side.health = min(most, side.health + amount)
        return side.health - before

    def _hurt_player(self, damage: int) -> None:
        if damage <= 0:
            return
        self.player.health = max(0, self.player.health - damage)
        self._say(
            EventKind.DAMAGE, msg("You take {n} damage.", n=damage), target="player", amount=damage
        )
        if self.player.health == 0:
            self._end("boss")

    def _end(self, winner: str) -> None:
        if self.winner:
            return
        self.winner = winner
        text = (
            msg("You defeat the Boss in {turns} rounds!", turns=self.turn)
            if winner == "player"
            else msg("The Boss defeats you in round {turns}.", turns=self.turn)
        )
        self._say(EventKind.GAME_OVER, text, winner=winner, turns=self.turn)

    def result(self) -> dict[str, Any] | None:
        if not self.winner:
            return None
        result: dict[str, Any] = {
            "winner": self.winner,
            "turns": self.turn,
            "boss": self.boss_id,
            "difficulty": self.difficulty,
            "player_health": self.player.health,
            "boss_health": self.boss.health,
            "mode": f"solo-{self.difficulty}",
            "party": "solo",
            "heroes": self._hero.name,
        }
        if self.winner == "player":
            result["score"] = self.player.health
        return result

    # ----------------------------------------------------------------- view
    def view(self) -> dict[str, Any]:
        names = tokens()

        def rows(side: Side) -> list[list[Any]]:
            return [[names[t].name, n] for t, n in sorted(side.tokens.items())]

        boss_name = self.hero.name if self.hero else "Boss"
        boss_rows = [["Health", self.boss.health], ["CP", self.boss.cp], *rows(self.boss)]
        if self.hero:
            boss_rows += [
                ["Upgrade", self.hero.ability(a, lv).name] for a, lv in sorted(self.levels.items())
            ]
        player_rows = [
            ["Health", self.player.health],
            ["CP", self.player.cp],
            ["Salve", self.salve],
            ["Bonus Damage", self.bonus_damage],
            ["Back Strike", int(self.back_strike)],  # the face-down card: 0 or 1
            *rows(self.player),
        ]
        return {
            "gauge": {"label": boss_name, "value": self.boss.health, "max": BOSS_HEALTH},
            "turn": self.turn,
            "panels": [
                {"title": boss_name, "actor": "boss", "rows": boss_rows},
                {"title": "You", "actor": "player", "rows": player_rows},
            ],
            "cards": list(self.cards),
            "boss": self.boss_id,
            "difficulty": self.difficulty,
            "dice": list(self.dice),
            "objective": self.ai_card.objective.label if self.ai_card else None,
            "decks": {
                "ai": {"draw": len(self.ai_pile), "discard": len(self.ai_discard)},
                "action": {"draw": len(self.action_pile), "discard": len(self.action_discard)},
            },
            "winner": self.winner or None,
        }

    # ----------------------------------------------------------------- helpers
    @property
    def _hero(self) -> Hero:
        assert self.hero is not None
        return self.hero

    @property
    def _decks(self) -> Decks:
        assert self.decks is not None
        return self.decks

    @property
    def _ai(self) -> AICard:
        assert self.ai_card is not None
        return self.ai_card

    @property
    def _current_action(self) -> ActionCard:
        assert self.action_card is not None
        return self.action_card
