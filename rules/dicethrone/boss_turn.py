"""4. Game turn, step 3: the Boss's turn up to his Offensive Roll: Maintenance,
Income (+1 CP, one Boss AI and one Action card), the reinforcement with D, the
player's bonus, Knockdown and Concussion (4. Special situations, 7.), the blue card
of the Main phase; and the end of his turn."""

from __future__ import annotations

from typing import Any

from dicetable.rules.core import (
    Actor,
    EventKind,
    Msg,
    msg,
)
from dicetable.rules.dicethrone.decks import ActionCard, AICard, tokens
from dicetable.rules.dicethrone.offensive_roll import ROLL_ATTEMPTS
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    MAX_CP,
    SoloState,
    Step,
)


class BossTurn(SoloState):
    """The Boss's turn around his roll (a mixin of the solo game)."""

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
            {"title": action.name, "text": action.describe(self.d)},
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
        return self._decks.ai[self._draw(self.ai_pile, self.ai_discard)]

    def _draw_action(self) -> ActionCard:
        return self._decks.action[self._draw(self.action_pile, self.action_discard)]

    def _draw(self, pile: list[int], discard: list[int]) -> int:
        """The top card's index, straight to the discard pile; an empty pile is made
        again from the discards, shuffled from the game's seed."""
        if not pile:
            pile[:] = discard
            discard.clear()
            self.rng.shuffle(pile)
            self._say(EventKind.INFO, msg("A deck is reshuffled."))
        index = pile.pop()
        discard.append(index)
        return index

    def _reinforce(self, card: AICard) -> None:
        """4. Income phase A: the reinforcement; a negative token goes to the player."""
        r = card.reinforcement
        assert r is not None
        amount = r.amount.at(self.d)
        if amount <= 0:
            return
        if r.key == "gain":
            added = self.boss.add(r.token, amount)
            if not added:  # already at its stack limit: nothing to say
                return
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

    def _player_bonus(self, card: ActionCard) -> None:
        """4. Income phase B: the Active Player's bonus, top right of the Action card."""
        kind, n = card.bonus, card.bonus_amount.at(self.d)
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
        if self.boss.cp >= card.cost and self._can_resolve(card.effect_at(self.d)):
            self._play_action(card)
            effect = card.effect_at(self.d)
            if "heal" in effect:
                self._heal_boss(effect["heal"])
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

    def _play_action(self, card: ActionCard) -> None:
        """Pay an Action card (blue in the Main phase, orange at the end of the roll)."""
        self.boss.cp -= card.cost
        self.action_used = True
        self._say(
            "action",
            msg("The Boss plays {name} ({cost} CP).", name=msg(card.name), cost=card.cost),
        )

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

    def _run_end_boss_turn(self, data: dict) -> None:
        card = self._current_action
        if card.colour == "orange" and not self.action_used:
            self._say("action", msg("{name} is discarded unused.", name=msg(card.name)))
        self.boss.remove("concussion")
        self.boss.remove("hex")  # Raveness rulebook, Hex: removed at the end of his turn
