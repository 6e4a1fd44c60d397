"""The Quest Phase of one turn, step by step: Deployment (Active Heroes and the Dice
Pool), Combat (the roll, the Reroll token, Runes, abilities), Wound (blocking and
placing wounds) and Reward (outcome, Threat tokens, rewards), with what is still
missing and which dice could supply it at every step. A mixin of ``Dicequest``: the
turn's state lives in an ``Attempt``; the table's state in the game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Input,
    InvalidInput,
    Msg,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.data import (
    COLORS,
    MAX_PER_COLOR,
    SYMBOLS,
    Card,
    DiceFaces,
    Requirement,
    ThreatCard,
)
from dicetable.rules.dicequest.tally import RolledDie
from dicetable.rules.dicequest.words import (
    card_title,
    listing,
    needs_text,
    pool_text,
    rewards_text,
    symbols_text,
    token_text,
    tokens_text,
)

PLACE_WOUND = {
    "deadly": "Place a Deadly Wound ({n} left) on which Active Hero?",
    "unblockable": "Place an Unblockable Light Wound ({n} left) on which Active Hero?",
    "light": "Place a Light Wound ({n} left) on which Active Hero?",
}
TAKE_WOUND = {
    "deadly": "{hero} takes a Deadly Wound.",
    "unblockable": "{hero} takes an Unblockable Light Wound.",
    "light": "{hero} takes a Light Wound.",
}
PLACE_FIRST = {
    "deadly": "Place a Deadly Wound first",
    "unblockable": "Place an Unblockable Light Wound first",
    "light": "Place a Light Wound first",
}
BLOCK_WOUND = {
    "deadly": "A Shield blocks a Deadly Wound.",
    "light": "A Shield blocks a Light Wound.",
}


@dataclass
class Attempt:
    """One Quest Phase: the card, Active Heroes, the Dice Pool and the result."""

    card: Card
    active: list[int] = field(default_factory=list)  # indices into the player's heroes
    pool: list[str] = field(default_factory=list)  # colours, before the roll
    dice: list[RolledDie] = field(default_factory=list)
    bonus: Counter[str] = field(default_factory=Counter)  # symbols from abilities
    bonus_runes: int = 0  # Runes gained from Items and abilities, not yet spent
    prevented: int = 0  # Light Wounds prevented by abilities (Charm of Liothan...)
    self_wounds: int = 0  # Unblockable Light Wounds taken for abilities (Scarifier...)
    rolled: bool = False
    wounds: list[str] = field(default_factory=list)  # still to place: deadly/unblockable/light
    shields_blocking: int = 0
    blocked: Counter[str] = field(default_factory=Counter)
    discarded: list[int] = field(default_factory=list)  # Threat tokens discarded
    chosen: list[int] = field(default_factory=list)  # dice picked for the Reroll token
    level_ups: int = 0  # Level Up rewards still to give
    pending: str = ""  # what the die / face / colour being picked is for
    die: int = -1


class QuestPhase:
    """Deployment, Combat, Wound and Reward Steps (Quest Phase). The table's state
    below is the game's (``Dicequest.__init__``); so are ``player``, ``_choose``,
    ``_hero_options``, ``_tokens_text`` and ``_end_turn``, which it calls."""

    stage: str
    mode: str
    dice: DiceFaces
    attempt: Attempt | None
    threat: ThreatCard | None
    adventure_tokens: list[tuple[str, ...]]
    adventure_scores: dict[int, int | None]
    quest_gold: Counter[str]
    quest_threat: dict[str, tuple[str, ...]]
    completed: set[str]

    # Deployment Step ----------------------------------------------------------------

    def _prompt_active(self) -> Prompt:
        attempt = self._attempt()
        low, high = attempt.card.party
        options = []
        for i, hero in enumerate(self.player.heroes):
            if i in attempt.active:
                options.append(Option(f"out{i + 1}", msg("Keep {hero} home", hero=hero.label())))
            elif len(attempt.active) < high:
                options.append(Option(f"in{i + 1}", msg("Send {hero}", hero=hero.label())))
        if low <= len(attempt.active) <= high:
            options.append(Option("done", msg("Deploy these {n} Heroes", n=len(attempt.active))))
        options.append(Option("back", msg("Back: choose another Quest")))
        return self._choose(
            msg(
                "Party Size {party}: choose your Active Heroes ({n} chosen).",
                party=attempt.card.party_text(),
                n=len(attempt.active),
            ),
            options,
        )

    def _apply_active(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        choice = answer.choice
        if choice == "back":
            self.attempt = None
            self.stage = "quest"
        elif choice == "done":
            return self._deploy()
        elif choice.startswith("in"):
            attempt.active.append(int(choice[2:]) - 1)
        else:
            attempt.active.remove(int(choice[3:]) - 1)
        return []

    def _deploy(self) -> list[Event]:
        """Add all dice from the Active Heroes (up to 4 per colour) and go on to the
        Deployment Step abilities (dice from Items are added by the player)."""
        attempt = self._attempt()
        attempt.active.sort()
        events = []
        for i in attempt.active:
            for color in self.player.heroes[i].dice():
                events += self._add_to_pool(color)
        self.stage = "pool"
        return events

    def _banned(self) -> str:
        threat = self.threat
        return threat.color if threat and threat.effect == "ban_color" else ""

    def _add_to_pool(self, color: str) -> list[Event]:
        attempt = self._attempt()
        if color == self._banned():
            return [Event("banned", msg("No {color} dice this round (Threat).", color=msg(color)))]
        if attempt.pool.count(color) >= MAX_PER_COLOR:
            return [
                Event("pool_full", msg("The pool already has 4 {color} dice.", color=msg(color)))
            ]
        attempt.pool.append(color)
        return []

    def _prompt_pool(self) -> Prompt:
        attempt = self._attempt()
        options = [
            Option(f"add-{c}", msg("Add a {color} die (Item or ability)", color=msg(c)))
            for c in COLORS
            if attempt.pool.count(c) < MAX_PER_COLOR and c != self._banned()
        ]
        options += [
            Option(f"remove-{c}", msg("Remove a {color} die", color=msg(c)))
            for c in COLORS
            if c in attempt.pool
        ]
        if attempt.pool:
            options.append(Option("roll", msg("Roll the {n} dice", n=len(attempt.pool))))
        else:
            options.append(Option("roll", msg("Go on without dice")))
        return self._choose(
            msg("Dice Pool: {pool}. {hint}", pool=pool_text(attempt.pool), hint=self._pool_hint()),
            options,
            objective=self._objective(),
        )

    def _apply_pool(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        action, _, color = answer.choice.partition("-")
        if action == "add":
            return self._add_to_pool(color)
        if action == "remove":
            attempt.pool.remove(color)
            return []
        if not attempt.pool:
            attempt.rolled = True
            return self._to_wound_step()
        self.stage = "roll"
        return []

    # Combat Step ----------------------------------------------------------------------

    def _faces_request(self, colors: list[str]) -> DiceRequest:
        return DiceRequest(
            len(colors),
            profile="dicequest",
            faces=self.dice.face_names(),
            colors=tuple(sorted(colors)),  # one entry per die: the screen shows which
        )

    def _prompt_roll(self) -> Prompt:
        attempt = self._attempt()
        card = attempt.card
        return Prompt(
            PromptKind.ROLL,
            msg("Combat Step: roll {pool}.", pool=pool_text(attempt.pool)),
            actor=Actor.PLAYER,
            dice=self._faces_request(attempt.pool),
            objective=self._objective(),
            odds=tally.roll_odds(card.require, attempt.bonus, attempt.pool, self.dice),
        )

    def _check_colors(self, answer: Input, wanted: list[str]) -> list[RolledDie]:
        got = [d.color for d in answer.dice]
        if Counter(got) != Counter(wanted):
            raise InvalidInput(
                msg(
                    "Expected dice {wanted}, got {got}.",
                    wanted=pool_text(wanted),
                    got=pool_text(got),
                )
            )
        for die in answer.dice:
            if die.name not in self.dice.colors[die.color]:
                raise InvalidInput(
                    msg(
                        "A {color} die has no {face} face.",
                        color=msg(die.color),
                        face=msg(die.name),
                    )
                )
        return [RolledDie(d.color, d.name) for d in answer.dice]

    def _apply_roll(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        attempt.dice = self._check_colors(answer, attempt.pool)
        attempt.rolled = True
        self.stage = "combat"
        return [self._rolled_event()]

    def _rolled_event(self) -> Event:
        attempt = self._attempt()
        symbols = self._symbols()
        short = self._missing_text() if self._missing() else None
        kind = EventKind.OBJECTIVE_MET if not short else EventKind.ROLLED
        text = (
            msg("Result: {symbols}. The Quest is met.", symbols=symbols_text(symbols))
            if not short
            else msg(
                "Result: {symbols}. Missing: {missing}.",
                symbols=symbols_text(symbols),
                missing=short,
            )
        )
        return Event(
            kind, text, {"dice": [d.to_json() for d in attempt.dice], "symbols": dict(symbols)}
        )

    def _runes_ready(self) -> list[int]:
        return [
            i
            for i, d in enumerate(self._attempt().dice)
            if not d.locked and "rune" in self.dice.symbols(d.face)
        ]

    def _unlocked(self) -> list[int]:
        return [i for i, d in enumerate(self._attempt().dice) if not d.locked]

    def _reroll_allowed(self) -> bool:
        threat = self.threat
        blocked = threat is not None and threat.effect == "no_reroll"
        return self.player.reroll_active and not blocked and bool(self._unlocked())

    def _prompt_combat(self) -> Prompt:
        attempt = self._attempt()
        options = []
        if self._reroll_allowed():
            options.append(Option("reroll-token", msg("Use the Reroll token: reroll any dice")))
        if self._runes_ready() or attempt.bonus_runes:
            options.append(Option("spend-rune", msg("Spend a Rune")))
        if self._unlocked():
            options.append(Option("ability-reroll", msg("Ability: reroll one die")))
            options.append(Option("ability-set", msg("Ability: set a die to a face")))
        options += [
            Option("ability-add", msg("Item or ability: add a die and roll it")),
            Option("ability-symbol", msg("Item or ability: add a symbol")),
            Option("gain-rune", msg("Item or ability: gain a Rune")),
            Option("prevent", msg("Ability: prevent 1 Light Wound")),
            Option(
                "self-wound",
                msg("Ability: take 1 Unblockable Light Wound (Scarifier, Yami, Doomies)"),
            ),
            Option("done", msg("Go to the Wound Step")),
        ]
        return self._choose(
            msg(
                "Combat Step: {status} {hint}", status=self._status_text(), hint=self._combat_hint()
            ),
            options,
            objective=self._objective(),
            odds=self._reroll_odds(),
        )

    def _free_dice(self) -> list[int]:
        """Unlocked dice that add nothing to the result now: the ones worth rerolling."""
        attempt = self._attempt()
        require = attempt.card.require
        met = sum(tally.match(require, self._symbols()))
        return [
            i
            for i in self._unlocked()
            if sum(tally.match(require, self._symbols(without=[i]))) == met
        ]

    def _reroll_odds(self) -> Fraction | None:
        """The chance of meeting the card by rerolling every die worth rerolling."""
        if not self._missing():
            return None
        free = self._free_dice()
        colors = [self._attempt().dice[i].color for i in free]
        if not colors:
            return None
        kept = self._symbols(without=free)
        return tally.roll_odds(self._attempt().card.require, kept, colors, self.dice)

    def _apply_combat(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        choice = answer.choice
        if choice == "done":
            return self._to_wound_step()
        if choice == "reroll-token":
            attempt.chosen = []
            self.stage = "pick_many"
        elif choice == "spend-rune":
            if attempt.bonus_runes and not self._runes_ready():
                attempt.bonus_runes -= 1
                self.stage = "rune_use"
                return [Event("rune", msg("A Rune from an Item or ability is spent."))]
            attempt.pending = "rune"
            self.stage = "pick_die"
        elif choice in ("ability-reroll", "ability-set"):
            attempt.pending = choice
            self.stage = "pick_die"
        elif choice == "ability-add":
            attempt.pending = "add"
            self.stage = "pick_color"
        elif choice == "ability-symbol":
            attempt.pending = "symbol"
            self.stage = "pick_symbol"
        elif choice == "gain-rune":
            attempt.bonus_runes += 1
            return [Event("rune", msg("Gained 1 Rune (Item or ability)."))]
        elif choice == "prevent":
            attempt.prevented += 1
            return [Event("prevent", msg("1 Light Wound will be prevented."))]
        elif choice == "self-wound":
            attempt.self_wounds += 1
            return [
                Event(
                    "self_wound",
                    msg("1 Unblockable Light Wound is added to the Wound Step; use the ability."),
                )
            ]
        return []

    # picking dice, faces, colours and symbols for Combat Step actions ------------------

    def _die_label(self, i: int) -> Msg:
        die = self._attempt().dice[i]
        return msg("Die {n}: {color} {face}", n=i + 1, color=msg(die.color), face=msg(die.face))

    def _prompt_pick_many(self) -> Prompt:
        attempt = self._attempt()
        options = []
        for i in self._unlocked():
            mark = "x" if i in attempt.chosen else " "
            options.append(
                Option(f"die{i + 1}", msg("[{mark}] {die}", mark=mark, die=self._die_label(i)))
            )
        if attempt.chosen:
            options.append(Option("go", msg("Reroll the {n} chosen dice", n=len(attempt.chosen))))
        options.append(Option("back", msg("Back")))
        return self._choose(
            msg(
                "Reroll token: choose all the dice to reroll at once. {hint}",
                hint=self._combat_hint(),
            ),
            options,
            objective=self._objective(),
        )

    def _apply_pick_many(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "back":
            self.stage = "combat"
        elif answer.choice == "go":
            self.player.reroll_active = False  # flip it to the inactive side
            attempt.pending = "reroll-token"
            self.stage = "reroll"
            return [Event("reroll_token", msg("The Reroll token is flipped to its used side."))]
        else:
            i = option_index(answer.choice)
            if i in attempt.chosen:
                attempt.chosen.remove(i)
            else:
                attempt.chosen.append(i)
        return []

    def _prompt_pick_die(self) -> Prompt:
        attempt = self._attempt()
        if attempt.pending == "rune":
            dice = self._runes_ready()
            text = msg("Spend a Rune: which die moves to the Locked Dice Zone?")
            options = [Option(f"die{i + 1}", self._die_label(i)) for i in dice]
            if attempt.bonus_runes:
                options.append(Option("bonus", msg("The Rune from an Item or ability")))
        else:
            dice = self._unlocked()
            text = (
                msg("Which die do you reroll?")
                if attempt.pending in ("ability-reroll", "rune-reroll")
                else msg("Which die do you set to a face?")
            )
            options = [Option(f"die{i + 1}", self._die_label(i)) for i in dice]
        if attempt.pending != "rune-reroll":
            options.append(Option("back", msg("Back")))
        return self._choose(text, options, objective=self._objective())

    def _apply_pick_die(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "back":
            self.stage = "combat" if not attempt.pending.startswith("rune-") else "rune_use"
            return []
        if attempt.pending == "rune":
            self.stage = "rune_use"
            if answer.choice == "bonus":
                attempt.bonus_runes -= 1
                return [Event("rune", msg("A Rune from an Item or ability is spent."))]
            die = attempt.dice[option_index(answer.choice)]
            die.locked = True
            die.rune_spent = True
            return [
                Event(
                    "rune",
                    msg(
                        "The Rune on the {color} die is spent; the die is locked.",
                        color=msg(die.color),
                    ),
                )
            ]
        attempt.die = option_index(answer.choice)
        attempt.chosen = [attempt.die]
        if attempt.pending in ("ability-reroll", "rune-reroll"):
            self.stage = "reroll"
        else:
            self.stage = "pick_face"
        return []

    def _prompt_reroll(self) -> Prompt:
        attempt = self._attempt()
        colors = [attempt.dice[i].color for i in attempt.chosen]
        keep = tuple(i for i in range(len(attempt.dice)) if i not in attempt.chosen)
        kept = self._symbols(without=attempt.chosen)
        return Prompt(
            PromptKind.ROLL,
            msg("Reroll {dice}.", dice=listing([self._die_label(i) for i in attempt.chosen])),
            actor=Actor.PLAYER,
            dice=self._faces_request(colors),
            keep=keep,
            objective=self._objective(),
            odds=tally.roll_odds(attempt.card.require, kept, colors, self.dice),
        )

    def _apply_reroll(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        colors = [attempt.dice[i].color for i in attempt.chosen]
        new = self._check_colors(answer, colors)
        for i in attempt.chosen:  # each new die goes to a chosen die of its colour
            match = next(d for d in new if d.color == attempt.dice[i].color)
            new.remove(match)
            attempt.dice[i] = match
        attempt.chosen = []
        self.stage = "combat"
        return [self._rolled_event()]

    def _prompt_pick_face(self) -> Prompt:
        attempt = self._attempt()
        die = attempt.dice[attempt.die]
        faces = list(dict.fromkeys(self.dice.colors[die.color]))
        return self._choose(
            msg("Set the {color} die to which face?", color=msg(die.color)),
            [Option(f, msg(f)) for f in faces],
            objective=self._objective(),
        )

    def _apply_pick_face(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        die = attempt.dice[attempt.die]
        die.face = answer.choice
        attempt.chosen = []
        self.stage = "combat"
        return [self._rolled_event()]

    def _prompt_pick_color(self) -> Prompt:
        attempt = self._attempt()
        options = [
            Option(c, msg(c))
            for c in COLORS
            if c != self._banned() and [d.color for d in attempt.dice].count(c) < MAX_PER_COLOR
        ]
        options.append(Option("back", msg("Back")))
        return self._choose(msg("Add a die of which colour?"), options)

    def _apply_pick_color(self, answer: Input) -> list[Event]:
        if answer.choice == "back":
            self.stage = "combat" if self._attempt().pending == "add" else "rune_use"
            return []
        self._attempt().pool.append(answer.choice)
        self._attempt().die = -1
        self.stage = "roll_added"
        return []

    def _prompt_roll_added(self) -> Prompt:
        color = self._attempt().pool[-1]
        return Prompt(
            PromptKind.ROLL,
            msg("Roll the added {color} die.", color=msg(color)),
            actor=Actor.PLAYER,
            dice=self._faces_request([color]),
            keep=tuple(range(len(self._attempt().dice))),
            objective=self._objective(),
            odds=tally.roll_odds(self._attempt().card.require, self._symbols(), [color], self.dice),
        )

    def _apply_roll_added(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        attempt.dice += self._check_colors(answer, [attempt.pool[-1]])
        self.stage = "combat"
        return [self._rolled_event()]

    def _prompt_pick_symbol(self) -> Prompt:
        options = [Option(s, msg(s)) for s in SYMBOLS]
        options.append(Option("back", msg("Back")))
        return self._choose(
            msg("Which symbol does the ability add?"), options, objective=self._objective()
        )

    def _apply_pick_symbol(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        self.stage = "combat"
        if answer.choice == "back":
            self.stage = "combat" if attempt.pending == "symbol" else "rune_use"
            return []
        if answer.choice == "rune":
            attempt.bonus_runes += 1
            return [Event("rune", msg("Gained 1 Rune (Item or ability)."))]
        attempt.bonus[answer.choice] += 1
        return [self._rolled_event()]

    def _prompt_rune_use(self) -> Prompt:
        """ "After spending a Rune you must either reroll one die ... or activate an
        ability with a Rune" (Combat Step, Runes)."""
        options = []
        if self._unlocked():
            options.append(Option("reroll", msg("Reroll one die from the Unlocked Dice Zone")))
            options.append(Option("set", msg("Ability: set a die to a face")))
        options += [
            Option("symbol", msg("Ability: add a symbol")),
            Option("prevent", msg("Ability: prevent 1 Light Wound")),
            Option("add", msg("Ability: add a die and roll it")),
            Option("other", msg("Another Rune ability (do it on the table)")),
        ]
        return self._choose(
            msg("The Rune is spent: what does it do?"), options, objective=self._objective()
        )

    def _apply_rune_use(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        choice = answer.choice
        if choice == "reroll":
            attempt.pending = "rune-reroll"
            self.stage = "pick_die"
        elif choice == "set":
            attempt.pending = "rune-set"
            self.stage = "pick_die"
        elif choice == "symbol":
            attempt.pending = "rune-symbol"
            self.stage = "pick_symbol"
        elif choice == "add":
            attempt.pending = "rune-add"
            self.stage = "pick_color"
        elif choice == "prevent":
            attempt.prevented += 1
            self.stage = "combat"
            return [Event("prevent", msg("1 Light Wound will be prevented."))]
        else:
            self.stage = "combat"
            return [
                Event(
                    EventKind.INSTRUCTION,
                    msg("Use the Rune ability on the table (draw an Item...)."),
                )
            ]
        return []

    # Wound Step -------------------------------------------------------------------------

    def _wounds(self) -> tally.Wounds:
        threat = self.threat
        extra = threat.amount if threat and threat.effect == "extra_light" else 0
        attempt = self._attempt()
        wounds = tally.wounds_of(attempt.card, self._symbols(), extra)
        return tally.Wounds(wounds.light, wounds.deadly, wounds.unblockable + attempt.self_wounds)

    def _to_wound_step(self) -> list[Event]:
        attempt = self._attempt()
        wounds = self._wounds()
        prevented = min(attempt.prevented, wounds.light)
        attempt.blocked = Counter({"light": prevented})
        events = []
        if prevented:
            events.append(
                Event("prevent", msg("{n} Light Wounds prevented by abilities.", n=prevented))
            )
        self.stage = "block"
        if not self._block_options():
            return events + self._place_wounds()
        return events

    def _open_wounds(self) -> tuple[int, int, int]:
        attempt = self._attempt()
        wounds = self._wounds()
        return (
            wounds.light - attempt.blocked["light"],
            wounds.deadly - attempt.blocked["deadly"],
            wounds.unblockable,
        )

    def _block_options(self) -> list[Option]:
        attempt = self._attempt()
        light, deadly, _ = self._open_wounds()
        shields = self._symbols()["shield"] - attempt.shields_blocking
        options = []
        if shields > 0 and deadly > 0:
            options.append(Option("deadly", msg("Block a Deadly Wound with a Shield")))
        if shields > 0 and light > 0:
            options.append(Option("light", msg("Block a Light Wound with a Shield")))
        return options

    def _prompt_block(self) -> Prompt:
        attempt = self._attempt()
        light, deadly, unblockable = self._open_wounds()
        shields = self._symbols()["shield"] - attempt.shields_blocking
        options = [*self._block_options(), Option("done", msg("Take the wounds"))]
        text = msg(
            "Wound Step: {light} Light, {deadly} Deadly, {unblockable} Unblockable "
            "wounds; {shields} Shields left to block with.",
            light=light,
            deadly=deadly,
            unblockable=unblockable,
            shields=shields,
        )
        if attempt.card.is_adventure and self.mode == "coop" and self.adventure_tokens:
            # "Shields in your result may be used to discard Threat tokens instead of
            # preventing wounds" (Threat Phase and Cards): the choice is made here.
            text = msg(
                "{wounds} A Shield kept can discard a Threat token instead: {tokens}.",
                wounds=text,
                tokens=self._tokens_text(),
            )
        return self._choose(text, options)

    def _apply_block(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "done":
            return self._place_wounds()
        attempt.blocked[answer.choice] += 1
        attempt.shields_blocking += 1
        events = [Event("block", msg(BLOCK_WOUND[answer.choice]))]
        if not self._block_options():
            events += self._place_wounds()
        return events

    def _place_wounds(self) -> list[Event]:
        attempt = self._attempt()
        light, deadly, unblockable = self._open_wounds()
        attempt.wounds = ["deadly"] * deadly + ["unblockable"] * unblockable + ["light"] * light
        return self._next_wound()

    def _alive_active(self) -> list[int]:
        attempt = self._attempt()
        return [i for i in attempt.active if not self.player.heroes[i].defeated]

    def _next_wound(self) -> list[Event]:
        attempt = self._attempt()
        if attempt.wounds and not self._alive_active():
            lost = len(attempt.wounds)
            attempt.wounds = []
            if attempt.active:
                return [
                    Event(
                        "wounds_lost",
                        msg("No Active Hero is left: {n} wounds are not placed.", n=lost),
                    ),
                    *self._to_reward(),
                ]
        if attempt.wounds:
            self.stage = "assign"
            return []
        return self._to_reward()

    def _prompt_assign(self) -> Prompt:
        attempt = self._attempt()
        kind = attempt.wounds[0]
        options = self._hero_options([(i, self.player.heroes[i]) for i in self._alive_active()])
        options += [  # "Place wounds: in any order" (Wound Step)
            Option(f"first-{other}", msg(PLACE_FIRST[other]))
            for other in dict.fromkeys(attempt.wounds)
            if other != kind
        ]
        return self._choose(
            msg(PLACE_WOUND[kind], n=len(attempt.wounds)),
            options,
        )

    def _apply_assign(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice.startswith("first-"):
            kind = answer.choice.removeprefix("first-")
            attempt.wounds.remove(kind)
            attempt.wounds.insert(0, kind)
            return []
        kind = attempt.wounds.pop(0)
        hero = self.player.heroes[option_index(answer.choice)]
        if kind == "deadly":
            hero.deadly += 1
        else:
            hero.light += 1
        events = [
            Event(
                EventKind.DAMAGE,
                msg(TAKE_WOUND[kind], hero=msg(hero.name)),
                {"hero": hero.kind.id, "kind": kind},
            )
        ]
        if hero.defeated:
            events.append(
                Event(
                    "defeated",
                    msg("{hero} is defeated: back to the bottom of the deck.", hero=msg(hero.name)),
                    {"hero": hero.kind.id},
                )
            )
        return events + self._next_wound()

    # Reward Step ----------------------------------------------------------------------

    def _to_reward(self) -> list[Event]:
        """Defeated Heroes leave the party now (they were already out of play)."""
        attempt = self._attempt()
        player = self.player
        survivors = [i for i, h in enumerate(player.heroes) if not h.defeated]
        mapping = {old: new for new, old in enumerate(survivors)}
        attempt.active = [mapping[i] for i in attempt.active if i in mapping]
        player.heroes = [player.heroes[i] for i in survivors]
        if (
            attempt.card.is_adventure
            and self.mode == "coop"
            and self.adventure_tokens
            and self._succeeded()
        ):
            self.stage = "discard"
            return []
        return self._outcome()

    def _succeeded(self) -> bool:
        return tally.succeeds(self._attempt().card.require, self._symbols())

    def _discard_options(self) -> list[Option]:
        attempt = self._attempt()
        options = []
        for i, token in enumerate(self.adventure_tokens):
            if i in attempt.discarded:
                continue
            wanted = [self.adventure_tokens[j] for j in (*attempt.discarded, i)]
            if tally.can_discard(
                attempt.card.require, self._symbols(), wanted, attempt.shields_blocking
            ):
                options.append(
                    Option(
                        f"token{i + 1}", msg("Discard the {token} token", token=token_text(token))
                    )
                )
        return options

    def _prompt_discard(self) -> Prompt:
        attempt = self._attempt()
        options = [*self._discard_options(), Option("done", msg("Keep the rest"))]
        return self._choose(
            msg(
                "Reward Step: spend excess symbols (or unused Shields) on Threat tokens. "
                "On the Adventure: {tokens}.",
                tokens=tokens_text(
                    [t for i, t in enumerate(self.adventure_tokens) if i not in attempt.discarded]
                ),
            ),
            options,
        )

    def _apply_discard(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "done":
            return self._outcome()
        attempt.discarded.append(option_index(answer.choice))
        token = self.adventure_tokens[option_index(answer.choice)]
        events = [
            Event(
                "threat_discarded", msg("Threat token {token} discarded.", token=token_text(token))
            )
        ]
        if not self._discard_options():
            events += self._outcome()
        return events

    def _outcome(self) -> list[Event]:
        attempt = self._attempt()
        card = attempt.card
        player = self.player
        symbols = self._symbols()
        success = self._succeeded()
        events: list[Event] = []
        if card.is_adventure:
            discarded = set(attempt.discarded)
            self.adventure_tokens = [
                t for i, t in enumerate(self.adventure_tokens) if i not in discarded
            ]
            if success:
                score = tally.tracked_excess(card.require, symbols, card.tracked)
                self.adventure_scores[player.number] = score
                events.append(
                    Event(
                        EventKind.OBJECTIVE_MET,
                        msg(
                            "{player} defeats {name}: Adventure Score {score}.",
                            player=player.title(),
                            name=card_title(card),
                            score=score,
                        ),
                        {"score": score},
                    )
                )
            else:
                player.reroll_active = True
                self.adventure_scores[player.number] = None
                events.append(
                    Event(
                        EventKind.OBJECTIVE_MISSED,
                        msg(
                            "{player} fails {name} (missing {missing}); the Reroll "
                            "token turns active.",
                            player=player.title(),
                            name=card_title(card),
                            missing=self._missing_text(),
                        ),
                    )
                )
        elif success:
            gold = self.quest_gold.pop(card.id, 0)
            rewards = _merge(card.guaranteed, card.success)
            vp = rewards.pop("vp", 0)
            if card.act:  # Playtime is printed on the board and stays there
                player.quests.append(card.name)
                player.quest_vp += vp
                self.completed.add(card.id)
            events.append(
                Event(
                    EventKind.OBJECTIVE_MET,
                    msg(
                        "{name} succeeds: {rewards}; {vp} VP in the Achievements Zone.",
                        name=card_title(card),
                        rewards=rewards_text(rewards, gold),
                        vp=vp,
                    )
                    if card.act
                    else msg(
                        "{name} succeeds: {rewards}.",
                        name=card_title(card),
                        rewards=rewards_text(rewards, gold),
                    ),
                    {"vp": vp, "gold": gold + rewards.get("gold", 0)},
                )
            )
            if card.id in self.quest_threat:
                token = self.quest_threat.pop(card.id)
                events.append(
                    Event(
                        "threat_discarded",
                        msg("Threat token {token} discarded.", token=token_text(token)),
                    )
                )
            if card.act:
                events.append(
                    Event(
                        EventKind.INSTRUCTION,
                        msg("Reveal a new Act {act} Quest to refill the slot.", act=card.act),
                    )
                )
            if self._level_ups(rewards):
                return events
        else:
            player.reroll_active = True
            rewards = dict(card.guaranteed)
            rewards.pop("vp", None)
            if card.act:
                self.quest_gold[card.id] += 1
            events.append(
                Event(
                    EventKind.OBJECTIVE_MISSED,
                    msg(
                        "{name} fails (missing {missing}): {rewards}; the Reroll "
                        "token turns active; put 1 Gold on the card.",
                        name=card_title(card),
                        missing=self._missing_text(),
                        rewards=rewards_text(rewards, 0),
                    ),
                )
            )
            if self._level_ups(rewards):  # a Guaranteed Level Up
                return events
        return events + self._end_turn()

    def _apprentices(self) -> list[int]:
        attempt = self._attempt()
        return [i for i in attempt.active if not self.player.heroes[i].has_ability]

    def _prompt_level_up(self) -> Prompt:
        options = self._hero_options([(i, self.player.heroes[i]) for i in self._apprentices()])
        return self._choose(msg("Level Up: which Active Apprentice flips to Expert?"), options)

    def _level_ups(self, rewards: Mapping[str, int]) -> bool:
        """Start the Level Up rewards, one flip each, while an Active Apprentice is
        left to flip ("only Heroes that were on the Quest", Reward Step)."""
        self._attempt().level_ups = rewards.get("level_up", 0)
        if self._attempt().level_ups and self._apprentices():
            self.stage = "level_up"
            return True
        return False

    def _apply_level_up(self, answer: Input) -> list[Event]:
        hero = self.player.heroes[option_index(answer.choice)]
        hero.expert = True
        attempt = self._attempt()
        attempt.level_ups -= 1
        events = [Event("level_up", msg("{hero} levels up to Expert.", hero=msg(hero.name)))]
        if attempt.level_ups and self._apprentices():
            return events
        return events + self._end_turn()

    # what is missing, and what could supply it ------------------------------------------

    def _attempt(self) -> Attempt:
        assert self.attempt is not None, f"no Quest in play at stage {self.stage}"
        return self.attempt

    def _symbols(self, without: list[int] | None = None) -> Counter[str]:
        attempt = self._attempt()
        skip = set(without or ())
        dice = [d for i, d in enumerate(attempt.dice) if i not in skip]
        symbols = tally.result_symbols(dice, self.dice, attempt.bonus)
        if attempt.bonus_runes:
            symbols["rune"] += attempt.bonus_runes
        return symbols

    def _missing(self) -> dict[str, int]:
        attempt = self._attempt()
        short = tally.missing(attempt.card.require, self._symbols())
        return {r.symbol: n for r, n in zip(attempt.card.require, short, strict=True) if n}

    def _missing_text(self) -> Msg:
        return needs_text(self._attempt().card, self._missing())

    def _objective(self) -> Msg | None:
        if self.attempt is None:
            return None
        card = self.attempt.card
        if not card.require:
            return msg("{name}: nothing is required.", name=card_title(card))
        if not self.attempt.rolled:
            return msg("{name} needs {needs}.", name=card_title(card), needs=needs_text(card))
        if not self._missing():
            return msg("{name}: met.", name=card_title(card))
        return msg(
            "{name}: missing {missing}.", name=card_title(card), missing=self._missing_text()
        )

    def _status_text(self) -> Msg:
        if not self._missing():
            return msg("the Quest is met ({symbols}).", symbols=symbols_text(self._symbols()))
        return msg("missing {missing}.", missing=self._missing_text())

    def _colors_for(self, requirement: Requirement) -> list[str]:
        """The colours that can roll a symbol the requirement accepts, leaving out the
        one a Threat card bans ("You cannot roll any die of a marked color")."""
        return [
            c
            for c in COLORS
            if c != self._banned() and any(self.dice.can_show(c, a) for a in requirement.accepts)
        ]

    def _suppliers(self) -> dict[str, list[str]]:
        """Per missing requirement: the colours that can roll an acceptable symbol."""
        card = self._attempt().card
        missing = self._missing()
        return {r.symbol: self._colors_for(r) for r in card.require if r.symbol in missing}

    def _pool_hint(self) -> Msg:
        card = self._attempt().card
        wanted = {r.symbol: self._colors_for(r) for r in card.require}
        if not wanted:
            return msg("Nothing is required.")
        return msg(
            "Needs {needs}; dice that can give them: {colors}.",
            needs=needs_text(card),
            colors=_suppliers_text(wanted),
        )

    def _combat_hint(self) -> Msg:
        attempt = self._attempt()
        suppliers = self._suppliers()
        if not suppliers:
            return msg("Go to the Wound Step when you are ready.")
        colors = {c for cs in suppliers.values() for c in cs}
        rerollable = [str(i + 1) for i in self._free_dice() if attempt.dice[i].color in colors]
        helps = _suppliers_text(suppliers)
        if not rerollable:
            return msg(
                "Could supply it: {helps}; no die in the pool can roll it: add a die with an "
                "Item or ability, or use an ability.",
                helps=helps,
            )
        tools = []
        if self._reroll_allowed():
            tools.append(msg("the Reroll token"))
        runes = len(self._runes_ready()) + attempt.bonus_runes
        if runes:
            tools.append(msg("{n} Runes to spend", n=runes))
        return msg(
            "Could supply it: {helps}; dice to reroll: {dice}; {tools}.",
            helps=helps,
            dice=", ".join(rerollable),
            tools=listing(tools, empty="abilities and Items only"),
        )


def _suppliers_text(suppliers: Mapping[str, list[str]]) -> Msg:
    """``wand: yellow, green; arrow: blue``: which dice colours can give each symbol."""
    return listing(
        [
            msg(
                "{symbol}: {colors}",
                symbol=msg(s),
                colors=listing([msg(c) for c in colors], empty="abilities and Items only"),
            )
            for s, colors in suppliers.items()
        ],
        "; ",
    )


def option_index(option_id: str) -> int:
    """``die3``, ``hero1``, ``token2``: option ids count from 1, like the screen."""
    return int(option_id.lstrip("abcdefghijklmnopqrstuvwxyz")) - 1


def _merge(*tables: Mapping[str, int]) -> dict[str, int]:
    merged: Counter[str] = Counter()
    for table in tables:
        merged.update(table)
    return dict(merged)
