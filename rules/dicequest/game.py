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
from typing import Any, ClassVar

from dicetable.rules.core import (
    Actor,
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
from dicetable.rules.dicequest.data import (
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
from dicetable.rules.dicequest.quest_phase import Attempt, QuestPhase, option_index
from dicetable.rules.dicequest.scoring import adventure_rewards, standings
from dicetable.rules.dicequest.typein import CardForm
from dicetable.rules.dicequest.words import (
    card_text,
    card_title,
    listing,
    needs_text,
    pool_text,
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
BOARD_ACTIONS = {
    1: ("Pay 3 Gold: draw the top Basic Item", "Return an Item to its deck: gain 1 Gold"),
    2: ("Pay 3 Gold: level up an Apprentice Hero", "Pay 3 Gold: remove 1 Light Wound"),
}


class Dicequest(QuestPhase, Game):
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
        hero = self.player.heroes.pop(option_index(answer.choice))
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
        hero = self.player.heroes[option_index(answer.choice)]
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
        hero = self.player.heroes[option_index(answer.choice)]
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
            "heroes": "; ".join(
                f"{p.name}: {', '.join(h.name for h in p.heroes) or '-'}" for p in self.players
            ),
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
                        ["Runes to spend", len(self._runes_ready()) + attempt.bonus_runes],
                        ["Light Wounds prevented", attempt.prevented],
                        [
                            "Active Heroes",
                            ", ".join(
                                self.player.heroes[i].name
                                for i in attempt.active
                                if i < len(self.player.heroes)
                            )
                            or "none",
                        ],
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
