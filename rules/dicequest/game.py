"""Dicequest companion: the Quest Phase arithmetic from real colour symbol dice, the
wounds, the Adventures and the solo / co-op threat game, and the final scoring.

The players keep their cards, Gold and Items on the table; the companion tracks what
decides the game and is easy to get wrong: the Dice Pool, what the roll meets and
what is still missing (and which dice or abilities could supply it), Runes spent,
the Reroll token, wounds blocked and placed, Adventure Scores and their ranking, the
Threat deck and Threat tokens, and the Victory Points.

Every step is a prompt, so a whole game replays from its seed and answers. Cards the
game does not know are typed in as prompts too (logged, kept for the rest of the
game); cards from the player's catalogue come in the ``catalogue`` option, a
snapshot of the catalogue taken when the game starts, so a saved game never changes
when the catalogue does.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
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
from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.data import (
    COLORS,
    MAX_PER_COLOR,
    SYMBOLS,
    Card,
    DataError,
    DiceFaces,
    ThreatCard,
    card_tables,
    default_dice,
    hero_kinds,
    parse_dice,
    shipped_cards,
    threat_deck,
)
from dicetable.rules.dicequest.party import PARTY_SLOTS, Hero, Player
from dicetable.rules.dicequest.scoring import adventure_rewards, standings
from dicetable.rules.dicequest.tally import RolledDie
from dicetable.rules.dicequest.typein import CardForm
from dicetable.rules.dicequest.words import (
    card_text,
    card_title,
    listing,
    needs_text,
    pool_text,
    rewards_text,
    symbols_text,
    token_text,
    tokens_text,
)

ROUNDS = 9
ADVENTURE_ROUNDS = (3, 6, 9)  # "In the 3rd, 6th, and 9th rounds" (The Adventure Path)
DIFFICULTY_VP = {  # Difficulty Levels; "at least 15 Victory Points" (Winning and Losing)
    "practice": 15,
    "normal": 15,
    "hard": 15,
    "heroic": 20,
    "legendary": 25,
    "godly": 30,
}
DIFFICULTY_TEXT = {
    "practice": "Practice: no Threat Phase",
    "normal": "Normal: 15 VP each",
    "hard": "Hard: a failed Adventure adds new Threat to Act III",
    "heroic": "Heroic: like Hard, 20 VP each",
    "legendary": "Legendary: a failed Adventure loses, 25 VP each",
    "godly": "Godly: like Legendary, 30 VP each",
}
# one template per wound kind, so that each translates as a whole sentence
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
BLOCK_WOUND = {
    "deadly": "A Shield blocks a Deadly Wound.",
    "light": "A Shield blocks a Light Wound.",
}
BOARD_ACTIONS = {
    1: ("Pay 3 Gold: draw the top Basic Item", "Return an Item to its deck: gain 1 Gold"),
    2: ("Pay 3 Gold: level up an Apprentice Hero", "Pay 3 Gold: remove 1 Light Wound"),
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
    pending: str = ""  # what the die / face / colour being picked is for
    die: int = -1


class Dicequest(Game):
    id = "dicequest"
    title = "Dicequest"
    #: ``catalogue``: TOML text of the player's cards (and dice), snapshot at start.
    CATALOGUE: ClassVar[str] = "catalogue"

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> dict[str, str]:
        rest = {k: v for k, v in options.items() if k != cls.CATALOGUE}
        checked = super().check_options(rest)
        if cls.CATALOGUE in options:
            text = options[cls.CATALOGUE]
            try:
                _load_catalogue(text)
            except DataError as error:
                raise ValueError(f"{cls.id}: option catalogue: {error}") from None
            checked[cls.CATALOGUE] = text
        return checked

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rng = random.Random(seed)
        extra_cards, dice = _load_catalogue(self.options.get(self.CATALOGUE, ""))
        self.dice: DiceFaces = dice or default_dice()
        self.cards: dict[str, Card] = {c.id: c for c in (*shipped_cards(), *extra_cards)}
        self.typed_cards: list[Card] = []
        threats, tokens = threat_deck()
        self.threat_deck: list[ThreatCard] = list(threats)
        self.rng.shuffle(self.threat_deck)
        self.token_reserve = {act: list(tokens[act]) for act in (1, 2, 3)}
        for act in (1, 2, 3):
            self.rng.shuffle(self.token_reserve[act])
        self.stage = "mode"
        self.mode = ""
        self.difficulty = "normal"
        self.players: list[Player] = []
        self.round = 0
        self.act = 1
        self.turn = 0  # index of the player whose turn it is
        self.adventure: Card | None = None
        self.adventure_tokens: list[tuple[str, ...]] = []
        self.threat_placed = 0  # Threat tokens put on this Adventure (the gauge's max)
        self.act3_tokens: list[tuple[str, ...]] = []  # waiting for the Act III Adventure
        self.threat: ThreatCard | None = None
        self.quest_gold: Counter[str] = Counter()
        self.quest_threat: dict[str, tuple[str, ...]] = {}  # Threat on Quests (co-op)
        self.completed: set[str] = set()
        self.attempt: Attempt | None = None
        self.adventure_scores: dict[int, int | None] = {}  # player -> score, None: failed
        self.form: CardForm | None = None
        self.outcome = ""
        self.final_step = 0
        self.recent: list[dict[str, str]] = []

    # ----------------------------------------------------------------- prompts

    def prompt(self) -> Prompt:
        return getattr(self, f"_prompt_{self.stage}")()

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        return getattr(self, f"_apply_{self.stage}")(answer)

    @property
    def player(self) -> Player:
        return self.players[self.turn]

    def _choose(
        self, text: Msg, options: list[Option], actor: Actor = Actor.PLAYER, **kw
    ) -> Prompt:
        return Prompt(PromptKind.CHOOSE, text, actor=actor, options=tuple(options), **kw)

    # setup ------------------------------------------------------------------

    def _prompt_mode(self) -> Prompt:
        return self._choose(
            msg("Dicequest: which game?"),
            [
                Option("coop", msg("Solo or co-op (the Threat game)")),
                Option("competitive", msg("Competitive")),
            ],
            Actor.TABLE,
        )

    def _apply_mode(self, answer: Input) -> list[Event]:
        self.mode = answer.choice
        self.stage = "players"
        return []

    def _prompt_players(self) -> Prompt:
        low = 1 if self.mode == "coop" else 2
        return Prompt(
            PromptKind.NUMBER,
            msg("How many players?"),
            actor=Actor.TABLE,
            number_range=(low, 4),
        )

    def _apply_players(self, answer: Input) -> list[Event]:
        self.players = [Player(n + 1) for n in range(answer.number)]
        self.stage = "difficulty" if self.mode == "coop" else "reveal"
        return []

    def _prompt_difficulty(self) -> Prompt:
        return self._choose(
            msg("Difficulty level?"),
            [Option(k, msg(v)) for k, v in DIFFICULTY_TEXT.items()],
            Actor.TABLE,
        )

    def _apply_difficulty(self, answer: Input) -> list[Event]:
        self.difficulty = answer.choice
        self.stage = "reveal"
        return []

    # revealing an Adventure -------------------------------------------------------

    def _adventure_choices(self) -> list[Card]:
        return [
            c
            for c in self._all_cards()
            if c.is_adventure and c.act == self.act and c.id not in self.completed
        ]

    def _prompt_reveal(self) -> Prompt:
        options = [
            Option(c.id, msg("{name} (party {party})", name=card_title(c), party=c.party_text()))
            for c in self._adventure_choices()
        ]
        options.append(Option("type", msg("A card not listed: type it in")))
        return self._choose(
            msg("Reveal the Act {act} Adventure card: which is it?", act=self.act),
            options,
            Actor.TABLE,
        )

    def _apply_reveal(self, answer: Input) -> list[Event]:
        if answer.choice == "type":
            self._start_typing("adventure", then="reveal")
            return []
        return self._reveal(self.cards[answer.choice])

    def _reveal(self, card: Card) -> list[Event]:
        self.adventure = card
        events = [self._card_event(msg("Adventure revealed: {name}.", name=card_title(card)), card)]
        if self.mode == "coop":
            if self.act == 3:
                self.adventure_tokens.extend(self.act3_tokens)
                self.act3_tokens = []
            new = [self._draw_token() for _ in self.players]
            self.adventure_tokens.extend(new)
            self.threat_placed = len(self.adventure_tokens)
            events.append(
                Event(
                    "threat_token",
                    msg(
                        "Each player puts a Threat token on the Adventure: {tokens}.",
                        tokens=tokens_text(new),
                    ),
                    {"tokens": [list(t) for t in self.adventure_tokens]},
                )
            )
        return events + self._start_round()

    def _draw_token(self) -> tuple[str, ...]:
        reserve = self.token_reserve[self.act]
        if not reserve:  # "use a temporary substitute" (Components)
            _, tokens = threat_deck()
            reserve.extend(tokens[self.act])
            self.rng.shuffle(reserve)
        return reserve.pop()

    # rounds and the Threat Phase ----------------------------------------------------

    def _start_round(self) -> list[Event]:
        if self.round >= ROUNDS:
            return self._start_final()
        self.round += 1
        self.turn = 0
        self.threat = None
        self.adventure_scores = {}
        self.recent = []
        events = [
            Event(
                "round",
                msg("Round {round} of 9 begins.", round=self.round),
                {"round": self.round, "adventure": self.round in ADVENTURE_ROUNDS},
            )
        ]
        moved = [t for _, t in sorted(self.quest_threat.items())]
        if self.round in ADVENTURE_ROUNDS and moved:  # Threat on Quests joins the Adventure
            self.quest_threat = {}
            self.adventure_tokens.extend(moved)
            self.threat_placed += len(moved)
            events.append(
                Event(
                    "threat_token",
                    msg(
                        "The Threat on the Quests moves to the Adventure: {tokens}.",
                        tokens=tokens_text(moved),
                    ),
                )
            )
        if self.mode == "coop" and self.difficulty != "practice":
            self.stage = "threat"
            self.threat = self.threat_deck.pop(0)
            events.append(self._threat_event(self.threat))
            if self.threat.effect == "threat_token":
                new = [self._draw_token() for _ in self.players]
                self.adventure_tokens.extend(new)
                self.threat_placed += len(new)
            return events
        return events + self._start_turn()

    def _threat_event(self, card: ThreatCard) -> Event:
        """The card's own text is the message, so its translation comes from es.toml."""
        self.recent.append({"title": card.name, "text": card.text, "kind": "threat"})
        return Event(
            EventKind.CARD,
            msg(card.text),
            {"threat": card.id, "name": card.name, "timing": card.timing, "effect": card.effect},
        )

    def _prompt_threat(self) -> Prompt:
        card = self.threat
        assert card is not None
        if card.effect == "instruction":
            text = msg("Threat Phase: {name}. Do it now, then confirm.", name=card_title(card))
        elif card.effect == "threat_token":
            text = msg(
                "Threat Phase: {name}. Threat on the Adventure: {tokens}.",
                name=card_title(card),
                tokens=self._tokens_text(),
            )
        elif card.timing == "ongoing":
            text = msg("Threat Phase: {name}, for this round.", name=card_title(card))
        else:
            text = msg("Threat Phase: {name}.", name=card_title(card))
        return Prompt(PromptKind.CONFIRM, text, actor=Actor.BOSS, objective=msg(card.text))

    def _apply_threat(self, answer: Input) -> list[Event]:
        return self._start_turn()

    def _tokens_text(self) -> Msg:
        return tokens_text(self.adventure_tokens)

    # a turn: Income and Tavern ------------------------------------------------------

    def _start_turn(self) -> list[Event]:
        player = self.player
        gold = 2 if player.heroes else 4  # Income Phase
        self.stage = "tavern"
        self.attempt = None
        return [
            Event(
                EventKind.INSTRUCTION,
                msg("{player}'s turn. Income: gain {gold} Gold.", player=player.title(), gold=gold),
                {"player": player.number, "gold": gold},
            )
        ]

    def _prompt_tavern(self) -> Prompt:
        player = self.player
        options = []
        if len(player.heroes) < PARTY_SLOTS:
            options.append(Option("recruit", msg("Recruit a Hero")))
        if player.heroes:
            options.append(Option("graduate", msg("Graduate a Hero")))
        if self.act >= 3:  # Act II Adventure completed
            if any(not h.expert and h.kind.level != "legendary" for h in player.heroes):
                options.append(Option("level", msg("Pay 3 Gold: level up an Apprentice Hero")))
            if any(h.light for h in player.heroes):
                options.append(Option("heal", msg("Pay 3 Gold: remove 1 Light Wound")))
        if self.mode == "coop" and self._threatenable():
            options.append(
                Option("threaten", msg("Adventure ability: put a Threat token on a Quest"))
            )
        options.append(Option("quest", msg("Go to the Quest Phase")))
        return self._choose(
            msg(
                "{player}, Tavern Phase: recruit, graduate, equip, then quest.",
                player=player.title(),
            ),
            options,
        )

    def _apply_tavern(self, answer: Input) -> list[Event]:
        if answer.choice == "quest":
            self.stage = "quest"
            return []
        self.stage = answer.choice
        return []

    def _threatenable(self) -> list[Card]:
        """Quests on the board without Threat: "a limit of 1 Threat per Quest"."""
        return [
            c
            for c in self._all_cards()
            if not c.is_adventure
            and c.act == self.act
            and c.id not in self.completed
            and c.id not in self.quest_threat
        ]

    def _prompt_threaten(self) -> Prompt:
        options = [Option(c.id, card_title(c)) for c in self._threatenable()]
        return self._choose(
            msg("Which Quest gets a Threat token (an Adventure's ability)?"),
            [*options, Option("back", msg("Back"))],
            Actor.BOSS,
        )

    def _apply_threaten(self, answer: Input) -> list[Event]:
        self.stage = "tavern"
        if answer.choice == "back":
            return []
        token = self._draw_token()
        self.quest_threat[answer.choice] = token
        card = self.cards[answer.choice]
        return [
            Event(
                "threat_token",
                msg(
                    "Threat token {token} on {name}: it joins the next Adventure unless the "
                    "Quest succeeds.",
                    token=token_text(token),
                    name=card_title(card),
                ),
                {"quest": card.id, "token": list(token)},
            )
        ]

    def _prompt_recruit(self) -> Prompt:
        legendary = self.act >= 3  # "Unlocking Legendary Heroes" after Act II
        kinds = [k for k in hero_kinds() if (k.level == "legendary") == legendary]
        options = [
            Option(
                k.id,
                msg(
                    "{name} ({dice})",
                    name=msg(k.name),
                    dice=listing([msg(c) for c in k.dice], empty="add its dice when questing"),
                ),
            )
            for k in kinds
        ]
        options.append(Option("back", msg("Back")))
        return self._choose(msg("Which Hero do you recruit?"), options)

    def _apply_recruit(self, answer: Input) -> list[Event]:
        self.stage = "tavern"
        if answer.choice == "back":
            return []
        kind = next(k for k in hero_kinds() if k.id == answer.choice)
        hero = Hero(kind, expert=False)
        self.player.heroes.append(hero)
        return [
            Event(
                "recruit",
                msg("{player} recruits {hero}.", player=self.player.title(), hero=msg(kind.name)),
                {"hero": kind.id},
            )
        ]

    def _hero_options(self, heroes: list[tuple[int, Hero]]) -> list[Option]:
        return [Option(f"hero{i + 1}", h.label()) for i, h in heroes]

    def _prompt_graduate(self) -> Prompt:
        options = self._hero_options(list(enumerate(self.player.heroes)))
        options.append(Option("back", msg("Back")))
        return self._choose(msg("Which Hero graduates?"), options)

    def _apply_graduate(self, answer: Input) -> list[Event]:
        self.stage = "tavern"
        if answer.choice == "back":
            return []
        hero = self.player.heroes.pop(_index(answer.choice))
        if hero.expert or hero.kind.level == "legendary":
            self.player.graduated += 1
            text = msg("{hero} graduates to the Achievements Zone.", hero=msg(hero.name))
        else:
            text = msg("{hero} returns to the bottom of the Apprentice deck.", hero=msg(hero.name))
        return [Event("graduate", text, {"hero": hero.kind.id})]

    def _prompt_level(self) -> Prompt:
        heroes = [(i, h) for i, h in enumerate(self.player.heroes) if not h.has_ability]
        return self._choose(
            msg("Which Apprentice Hero levels up?"),
            [*self._hero_options(heroes), Option("back", msg("Back"))],
        )

    def _apply_level(self, answer: Input) -> list[Event]:
        self.stage = "tavern"
        if answer.choice == "back":
            return []
        hero = self.player.heroes[_index(answer.choice)]
        hero.expert = True
        return [
            Event(
                EventKind.INSTRUCTION,
                msg("Pay 3 Gold and flip {hero} to the Expert side.", hero=msg(hero.name)),
            )
        ]

    def _prompt_heal(self) -> Prompt:
        heroes = [(i, h) for i, h in enumerate(self.player.heroes) if h.light]
        return self._choose(
            msg("Remove 1 Light Wound from which Hero?"),
            [*self._hero_options(heroes), Option("back", msg("Back"))],
        )

    def _apply_heal(self, answer: Input) -> list[Event]:
        self.stage = "tavern"
        if answer.choice == "back":
            return []
        hero = self.player.heroes[_index(answer.choice)]
        hero.light -= 1
        return [
            Event(
                EventKind.HEAL, msg("Pay 3 Gold: {hero} loses 1 Light Wound.", hero=msg(hero.name))
            )
        ]

    # choosing the Quest ---------------------------------------------------------------

    def _all_cards(self) -> list[Card]:
        return list(self.cards.values())

    def _must_adventure(self) -> bool:
        """Adventure rounds force the Adventure "if they have enough Heroes to meet its
        Party Size. Otherwise, they may choose any Quest" (The Adventure Path)."""
        adventure = self.adventure
        return (
            self.round in ADVENTURE_ROUNDS
            and adventure is not None
            and len(self.player.heroes) >= adventure.party[0]
        )

    def _quest_choices(self) -> list[Card]:
        heroes = len(self.player.heroes)
        return [
            c
            for c in self._all_cards()
            if not c.is_adventure
            and c.act in (0, self.act)
            and c.id not in self.completed
            and c.party[0] <= heroes
        ]

    def _prompt_quest(self) -> Prompt:
        if self._must_adventure():
            card = self.adventure
            assert card is not None
            options = [Option(card.id, msg("Adventure: {name}", name=card_title(card)))]
            text = msg(
                "Round {round}: the Adventure {name} must be your Quest.",
                round=self.round,
                name=card_title(card),
            )
        else:
            options = [
                Option(
                    c.id,
                    msg(
                        "{name} (party {party}, needs {needs})",
                        name=card_title(c),
                        party=c.party_text(),
                        needs=needs_text(c),
                    ),
                )
                for c in self._quest_choices()
            ]
            options.append(Option("type", msg("A Quest card not listed: type it in")))
            text = msg("{player}, Deployment Step: choose a Quest.", player=self.player.title())
        return self._choose(text, options)

    def _apply_quest(self, answer: Input) -> list[Event]:
        if answer.choice == "type":
            self._start_typing("quest", then="quest")
            return []
        card = self.cards[answer.choice]
        self.attempt = Attempt(card)
        events = [
            self._card_event(
                msg("{player} goes on {name}.", player=self.player.title(), name=card_title(card)),
                card,
            )
        ]
        alive = list(range(len(self.player.heroes)))
        low, high = card.party
        if high == 0 or (low == len(alive) and low == high) or len(alive) == low:
            self.attempt.active = alive[: max(low, 0)] if high else []
            return events + self._deploy()
        self.stage = "active"
        return events

    def _card_event(self, text: Msg, card: Card) -> Event:
        self.recent.append({"title": card.name, "text": card_text(card), "kind": card.kind})
        return Event(EventKind.CARD, text, {"card": card.to_json()})

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
        )

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
            i = _index(answer.choice)
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
            die = attempt.dice[_index(answer.choice)]
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
        attempt.die = _index(answer.choice)
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
        return self._choose(
            msg(
                "Wound Step: {light} Light, {deadly} Deadly, {unblockable} Unblockable "
                "wounds; {shields} Shields left to block with.",
                light=light,
                deadly=deadly,
                unblockable=unblockable,
                shields=shields,
            ),
            options,
        )

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
        return self._choose(
            msg(PLACE_WOUND[kind], n=len(attempt.wounds)),
            options,
        )

    def _apply_assign(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        kind = attempt.wounds.pop(0)
        hero = self.player.heroes[_index(answer.choice)]
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
        options = [*self._discard_options(), Option("done", msg("Keep the rest"))]
        return self._choose(
            msg(
                "Reward Step: spend excess symbols (or unused Shields) on Threat tokens. "
                "On the Adventure: {tokens}.",
                tokens=self._tokens_text(),
            ),
            options,
        )

    def _apply_discard(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "done":
            return self._outcome()
        attempt.discarded.append(_index(answer.choice))
        token = self.adventure_tokens[_index(answer.choice)]
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
            if rewards.get("level_up") and self._apprentices():
                self.stage = "level_up"
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
        return events + self._end_turn()

    def _apprentices(self) -> list[int]:
        attempt = self._attempt()
        return [i for i in attempt.active if not self.player.heroes[i].has_ability]

    def _prompt_level_up(self) -> Prompt:
        options = self._hero_options([(i, self.player.heroes[i]) for i in self._apprentices()])
        return self._choose(msg("Level Up: which Active Apprentice flips to Expert?"), options)

    def _apply_level_up(self, answer: Input) -> list[Event]:
        hero = self.player.heroes[_index(answer.choice)]
        hero.expert = True
        return [
            Event("level_up", msg("{hero} levels up to Expert.", hero=msg(hero.name))),
            *self._end_turn(),
        ]

    # end of turn, round and Adventure ------------------------------------------------

    def _end_turn(self) -> list[Event]:
        self.attempt = None
        if self.turn + 1 < len(self.players):
            self.turn += 1
            return self._start_turn()
        if self.round in ADVENTURE_ROUNDS:
            return self._complete_adventure()
        return self._start_round()

    def _complete_adventure(self) -> list[Event]:
        """ "After all players have attempted an Adventure, it is completed, even if all
        players failed it" (Completing Adventures)."""
        card = self.adventure
        assert card is not None
        scores = {p: s for p, s in self.adventure_scores.items() if s is not None}
        events: list[Event] = []
        if self.mode == "coop":
            gained = {p: (card.rewards[0] if card.rewards else 0) for p in scores}
        else:
            gained = adventure_rewards(scores, card.rewards)
        for number, vp in sorted(gained.items()):
            self.players[number - 1].vp_tokens += vp
            events.append(
                Event(
                    EventKind.SCORE,
                    msg("Player {n} gains {vp} VP tokens.", n=number, vp=vp),
                    {"player": number, "vp": vp},
                )
            )
        self.completed.add(card.id)
        if self.mode == "coop":
            events += self._coop_adventure_outcome()
            if self.outcome:
                self.stage = "over"
                return events
        if self.act == 3:
            return events + self._start_final()
        events += self._unlock_next_act()
        return events

    def _coop_adventure_outcome(self) -> list[Event]:
        """Adventure Outcome and Difficulty Levels: success if no Threat token is left."""
        card = self.adventure
        assert card is not None
        if not self.adventure_tokens:
            return [
                Event(
                    EventKind.OBJECTIVE_MET,
                    msg("No Threat left on {name}: the Adventure succeeds.", name=card_title(card)),
                )
            ]
        left = len(self.adventure_tokens)
        events = [
            Event(
                EventKind.OBJECTIVE_MISSED,
                msg(
                    "{n} Threat tokens left on {name}: the Adventure fails.",
                    n=left,
                    name=card_title(card),
                ),
            )
        ]
        if self.act == 3 or self.difficulty in ("legendary", "godly"):
            self.outcome = "lost"
            events.append(Event(EventKind.GAME_OVER, msg("All players lose.")))
            return events
        if self.difficulty in ("hard", "heroic"):
            new = [self._draw_token() for _ in self.players]
            self.act3_tokens.extend(new)
            text = msg(
                "Each player puts 1 new Threat token on the Act III Adventure; the "
                "old ones are discarded."
            )
        else:
            self.act3_tokens.extend(self.adventure_tokens)
            text = msg("The Threat tokens move to the Act III Adventure.")
        self.adventure_tokens = []
        events.append(Event("threat_moved", text, {"act3": [list(t) for t in self.act3_tokens]}))
        return events

    def _unlock_next_act(self) -> list[Event]:
        events = [
            Event(
                EventKind.INSTRUCTION,
                msg(
                    "Board actions unlocked: {actions}.",
                    actions=listing([msg(a) for a in BOARD_ACTIONS[self.act]], "; "),
                ),
            )
        ]
        if self.act == 2:
            events.append(
                Event(
                    EventKind.INSTRUCTION,
                    msg(
                        "Legendary Heroes unlocked: replace the Apprentice deck "
                        "and Market with Legendary Heroes."
                    ),
                )
            )
        self.act += 1
        self.adventure = None
        events.append(
            Event(
                EventKind.INSTRUCTION,
                msg("Replace the Quests on the board with Act {act} Quests.", act=self.act),
            )
        )
        self.stage = "reveal"
        return events

    # final scoring --------------------------------------------------------------------

    FINAL_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("heroes", "{player}: VP on the Heroes in your party?"),
        ("backpack", "{player}: VP on the Items in your Backpack?"),
        ("graduated", "{player}: VP on the graduated Heroes in your Achievements Zone?"),
    )

    def _start_final(self) -> list[Event]:
        self.stage = "final"
        self.final_step = 0
        return [Event("final", msg("The game ends: count the Victory Points."))]

    def _prompt_final(self) -> Prompt:
        player = self.players[self.final_step // len(self.FINAL_FIELDS)]
        _, text = self.FINAL_FIELDS[self.final_step % len(self.FINAL_FIELDS)]
        return Prompt(
            PromptKind.NUMBER,
            msg(text, player=player.title()),
            actor=Actor.PLAYER,
            number_range=(0, 99),
        )

    def _apply_final(self, answer: Input) -> list[Event]:
        player = self.players[self.final_step // len(self.FINAL_FIELDS)]
        key, _ = self.FINAL_FIELDS[self.final_step % len(self.FINAL_FIELDS)]
        player.final[key] = answer.number
        self.final_step += 1
        if self.final_step < len(self.players) * len(self.FINAL_FIELDS):
            return []
        return self._finish()

    def _finish(self) -> list[Event]:
        result = self._result()
        self.stage = "over"
        events = [
            Event(
                EventKind.SCORE,
                msg("{player}: {vp} VP.", player=p.title(), vp=p.total_vp()),
                {"player": p.number},
            )
            for p in self.players
        ]
        if self.mode == "coop":
            self.outcome = "won" if result["won"] else "lost"
            text = (
                msg("All players win!")
                if result["won"]
                else msg("All players lose: everyone needed {vp} VP.", vp=result["min_vp"])
            )
        else:
            self.outcome = "ended"
            text = msg(
                "Winner: {winners}.",
                winners=listing(
                    [msg("Player {n}", n=int(w.split()[-1])) for w in result["winners"]]
                ),
            )
        return [*events, Event("outcome", text, result)]

    def _result(self) -> dict[str, Any]:
        vp = {p.number: p.total_vp() for p in self.players}
        heroes = {p.number: len(p.heroes) for p in self.players}
        ranks = standings(vp, heroes)
        data: dict[str, Any] = {
            "vp": {f"Player {n}": v for n, v in vp.items()},
            "ranking": [[f"Player {n}" for n in group] for group in ranks],
            "winners": [f"Player {n}" for n in ranks[0]],
            "mode": self.mode if self.mode == "competitive" else f"coop-{self.difficulty}",
            "party": str(len(self.players)),
        }
        if self.mode == "coop":
            data["min_vp"] = DIFFICULTY_VP[self.difficulty]
            data["won"] = self.outcome != "lost" and min(vp.values()) >= data["min_vp"]
            data["score"] = min(vp.values())
        else:
            data["score"] = max(vp.values())
        return data

    def _prompt_over(self) -> Prompt:
        text = {
            "won": msg("All players win!"),
            "lost": msg("All players lose."),
        }.get(self.outcome, msg("The game is over."))
        return Prompt(PromptKind.OVER, text)

    def result(self) -> dict[str, Any] | None:
        if self.stage != "over":
            return None
        data = self._result()
        if self.outcome == "lost":
            data["won"] = False
        return data

    # typing in a card -------------------------------------------------------------------

    def _start_typing(self, kind: str, then: str) -> None:
        number = 1
        while f"typed-{kind}-{number}" in self.cards:  # kept ones come in the catalogue
            number += 1
        self.form = CardForm(kind, self.act, f"typed-{kind}-{number}", then)
        self.stage = "typein"

    def _prompt_typein(self) -> Prompt:
        assert self.form is not None
        return self.form.prompt()

    def _apply_typein(self, answer: Input) -> list[Event]:
        form = self.form
        assert form is not None
        card = form.answer(answer)
        if card is None:
            return []
        self.cards[card.id] = card
        self.typed_cards.append(card)
        self.form = None
        event = Event(
            EventKind.CARD,
            msg("Card typed in: {name}. It is kept for this game.", name=card_title(card)),
            {"toml": card.to_toml()},
        )
        if form.then == "reveal":
            return [event, *self._reveal(card)]
        self.stage = "quest"
        return [event]

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

    def _suppliers(self) -> dict[str, list[str]]:
        """Per missing requirement: the colours that can roll an acceptable symbol."""
        card = self._attempt().card
        missing = self._missing()
        return {
            r.symbol: [c for c in COLORS if any(self.dice.can_show(c, a) for a in r.accepts)]
            for r in card.require
            if r.symbol in missing
        }

    def _pool_hint(self) -> Msg:
        card = self._attempt().card
        wanted = {
            r.symbol: [c for c in COLORS if any(self.dice.can_show(c, a) for a in r.accepts)]
            for r in card.require
        }
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
        rerollable = [
            str(i + 1)
            for i in self._unlocked()
            if attempt.dice[i].color in {c for cs in suppliers.values() for c in cs}
        ]
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

    def _board_actions(self) -> list[str]:
        """Unlocked after the Act I and Act II Adventures (Unlocking Board Actions); the
        Refresh and Gift Actions in solo and co-op (New Actions)."""
        unlocked = [a for act in (1, 2) if self.act > act for a in BOARD_ACTIONS[act]]
        if self.mode == "coop":
            unlocked += [
                "Refresh: pay 2 Gold to return up to 3 Market Heroes",
                "Gift: move an Item to another player's Backpack",
            ]
        return unlocked

    # view -----------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        panels = [
            {
                "title": "Table",
                "actor": "table",
                "rows": [
                    ["Mode", self.mode or "-"],
                    ["Difficulty", self.difficulty if self.mode == "coop" else "-"],
                    ["Round", f"{self.round} of {ROUNDS}"],
                    ["Act", self.act],
                    ["Adventure", self.adventure.name if self.adventure else "-"],
                    ["Threat card", self.threat.name if self.threat else "-"],
                    ["Threat on the Adventure", str(self._tokens_text())],
                    [
                        "Threat for Act III",
                        str(tokens_text(self.act3_tokens)),
                    ],
                    [
                        "Gold on Quests",
                        ", ".join(f"{k}: {v}" for k, v in sorted(self.quest_gold.items()))
                        or "none",
                    ],
                    [
                        "Threat on Quests",
                        "; ".join(
                            f"{self.cards[k].name}: {token_text(t)}"
                            for k, t in sorted(self.quest_threat.items())
                        )
                        or "none",
                    ],
                    ["Board actions", "; ".join(self._board_actions()) or "none yet"],
                    ["Heroes to recruit", "Legendary" if self.act >= 3 else "Apprentice"],
                ],
            }
        ]
        if self.mode == "coop":
            panels[0]["rows"].append(["Minimum VP", DIFFICULTY_VP[self.difficulty]])
        for player in self.players:
            rows: list[list[Any]] = [
                ["Reroll token", "active" if player.reroll_active else "used"],
                ["VP", player.total_vp()],
                ["Quests", ", ".join(player.quests) or "none"],
                ["VP tokens", player.vp_tokens],
            ]
            rows += [[f"Hero {i + 1}", str(h.label())] for i, h in enumerate(player.heroes)]
            panels.append({"title": player.name, "actor": "player", "rows": rows})
        attempt_view = None
        if self.attempt is not None:
            attempt = self.attempt
            light, deadly, unblockable = self._open_wounds() if attempt.rolled else (0, 0, 0)
            attempt_view = {
                "card": attempt.card.to_json(),
                "active": [
                    self.player.heroes[i].name
                    for i in attempt.active
                    if i < len(self.player.heroes)
                ],
                "pool": list(attempt.pool),
                "dice": [d.to_json() for d in attempt.dice],
                "symbols": dict(self._symbols()),
                "bonus_runes": attempt.bonus_runes,
                "missing": self._missing() if attempt.rolled else {},
                "could_supply": self._suppliers() if attempt.rolled else {},
                "wounds": {"light": light, "deadly": deadly, "unblockable": unblockable},
                "prevented": attempt.prevented,
            }
            panels.append(
                {
                    "title": attempt.card.name,
                    "actor": "boss",
                    "rows": [
                        ["Needs", str(needs_text(attempt.card))],
                        [
                            "Dice",
                            ", ".join(
                                f"{d.color}:{d.face}" + (" (locked)" if d.locked else "")
                                for d in attempt.dice
                            )
                            or str(pool_text(attempt.pool)),
                        ],
                        ["Symbols", str(symbols_text(self._symbols()))],
                        ["Missing", str(self._missing_text()) if attempt.rolled else "-"],
                        ["Wounds", f"{light} light, {deadly} deadly, {unblockable} unblockable"],
                    ],
                }
            )
        gauge = None
        if self.mode == "coop" and self.adventure is not None:
            left = len(self.adventure_tokens)
            gauge = {
                "label": "Threat on the Adventure",
                "value": left,
                "max": max(left, self.threat_placed, 1),
            }
        view: dict[str, Any] = {
            "turn": self.round,
            "stage": self.stage,
            "player": self.player.number if self.players and self.stage != "over" else None,
            "panels": panels,
            "cards": [{"title": c["title"], "text": c["text"]} for c in self.recent],
            "players": [p.to_json() for p in self.players],
            "attempt": attempt_view,
            "adventure_scores": {str(k): v for k, v in self.adventure_scores.items()},
            "dice_faces": self.dice.to_json(),
            "outcome": self.outcome,
        }
        if gauge is not None:  # the LED ring shows the Threat left like a boss's health
            view["gauge"] = gauge
        return view


def _load_catalogue(text: str) -> tuple[tuple[Card, ...], DiceFaces | None]:
    """The ``catalogue`` option: ``[[quest]]``/``[[adventure]]`` tables and optional
    ``[dice]`` (faces and colours) in one TOML text."""
    if not text:
        return (), None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"catalogue: {error}") from None
    dice = parse_dice(data.pop("dice"), "catalogue [dice]") if "dice" in data else None
    return card_tables(data, "catalogue"), dice


def _suppliers_text(suppliers: Mapping[str, list[str]]) -> Msg:
    """``wand: yellow, green; arrow: blue``: which dice colours can give each symbol."""
    return listing(
        [
            msg("{symbol}: {colors}", symbol=msg(s), colors=listing([msg(c) for c in colors]))
            for s, colors in suppliers.items()
        ],
        "; ",
    )


def _index(option_id: str) -> int:
    """``die3``, ``hero1``, ``token2``: option ids count from 1, like the screen."""
    return int(option_id.lstrip("abcdefghijklmnopqrstuvwxyz")) - 1


def _merge(*tables: Mapping[str, int]) -> dict[str, int]:
    merged: Counter[str] = Counter()
    for table in tables:
        merged.update(table)
    return dict(merged)
