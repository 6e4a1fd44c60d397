"""2. Setup: the Boss and his difficulty chosen at the table, his upgrade cards
placed by the draw-and-pay procedure (2.2.3), the decks shuffled from the seed."""

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
from dicetable.rules.dicethrone.decks import deck_ids, load_decks
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.solo_state import SoloState

BOSSES = tuple(deck_ids())  # every hero with a solo deck in decks/ can be the Boss
DIFFICULTIES = {"easy": (10, 0), "normal": (12, 1), "hard": (15, 2)}  # 2.2.2: CP, D


class Setup(SoloState):
    """Steps of 2. Setup (a mixin of the solo game)."""

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
