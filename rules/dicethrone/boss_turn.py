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
from dicetable.rules.dicethrone import health
from dicetable.rules.dicethrone.decks import ActionCard, AICard, tokens
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    MAX_CP,
    ROLL_ATTEMPTS,
    Named,
    SoloState,
)


def run_boss_turn(s: SoloState, data: dict) -> None:
    boss = s.boss
    concussed = boss.count("concussion") > 0
    # Maintenance Phase (7. Concussion: he does not do it)
    if not concussed:
        upkeep = boss.count("poison") + 2 * boss.count("burn")
        if upkeep:
            health.hurt_boss(s, upkeep, avoidable=False)
            if s.winner:
                return
    # Income Phase
    if not concussed:
        boss.cp = min(MAX_CP, boss.cp + 1)
    s.ai_card = draw_ai(s)
    s.action_card = draw_action(s)
    s.action_used = False
    s.dice, s.attempt = [], 0
    steps: list[Named] = []
    ai, action = s.ai_card, s.action_card
    s.cards = [
        {
            "title": ai.name,
            "text": ai.describe(s.d),
        },
        {"title": action.name, "text": action.describe(s.d)},
    ]
    s.say(
        EventKind.CARD,
        msg(
            "Boss AI card: {name}, Roll Objective {objective}.",
            name=msg(ai.name),
            objective=msg(ai.objective.label),
        ),
    )
    s.say(
        EventKind.CARD,
        msg("Action card: {name} ({colour}).", name=msg(action.name), colour=msg(action.colour)),
    )
    if concussed:
        s.say(
            EventKind.INFO,
            msg("Concussion: no Maintenance, no income, no reinforcement, no Action card."),
        )
    elif ai.reinforcement:
        reinforce(s, ai)
    player_bonus(s, action)
    if boss.count("knockdown"):
        knockdown(s)
    if not concussed and action.colour == "blue":
        blue(s, action)
    elif concussed:
        discard_action(s)
    if ai.text:
        s.instruct(Msg(ai.text), Actor.BOSS)
    if boss.count("stun"):
        boss.remove("stun")
        s.say(EventKind.INFO, msg("The Boss is Stunned: no Offensive Roll this turn."))
        steps.append(("end_boss_turn", {}))
    else:
        s.attempts = ROLL_ATTEMPTS - (1 if boss.count("entangle") else 0)
        if boss.count("entangle"):
            boss.remove("entangle")
            s.say(EventKind.INFO, msg("Entangle: the Boss has one Roll Attempt less."))
        steps += [("offense", {}), ("end_boss_turn", {})]
    s.before("round", *steps)


def draw_ai(s: SoloState) -> AICard:
    return s.boss_decks.ai[draw(s, s.ai_pile, s.ai_discard)]


def draw_action(s: SoloState) -> ActionCard:
    return s.boss_decks.action[draw(s, s.action_pile, s.action_discard)]


def draw(s: SoloState, pile: list[int], discard: list[int]) -> int:
    """The top card's index, straight to the discard pile; an empty pile is made
    again from the discards, shuffled from the game's seed."""
    if not pile:
        pile[:] = discard
        discard.clear()
        s.rng.shuffle(pile)
        s.say(EventKind.INFO, msg("A deck is reshuffled."))
    index = pile.pop()
    discard.append(index)
    return index


def reinforce(s: SoloState, card: AICard) -> None:
    """4. Income phase A: the reinforcement; a negative token goes to the player."""
    r = card.reinforcement
    assert r is not None
    amount = r.amount.at(s.d)
    if amount <= 0:
        return
    if r.key == "gain":
        added = s.boss.add(r.token, amount)
        if not added:  # already at its stack limit: nothing to say
            return
        s.say(
            "reinforcement",
            msg(
                "Reinforcement: the Boss gains {n} {token}.",
                n=added,
                token=msg(tokens()[r.token].name),
            ),
        )
    elif r.key == "inflict":
        added = s.player.add(r.token, amount)
        if added:
            s.instruct(
                msg(
                    "Reinforcement: place {n} {token} on your board.",
                    n=added,
                    token=msg(tokens()[r.token].name),
                )
            )
    elif r.key == "cp":
        s.boss.cp = min(MAX_CP, s.boss.cp + amount)
        s.say("reinforcement", msg("Reinforcement: the Boss gains {n} CP.", n=amount))
    else:
        healed = health.heal(s, s.boss, BOSS_HEALTH, amount)
        s.say(EventKind.HEAL, msg("Reinforcement: the Boss heals {n}.", n=healed))


def player_bonus(s: SoloState, card: ActionCard) -> None:
    """4. Income phase B: the Active Player's bonus, top right of the Action card."""
    kind, n = card.bonus, card.bonus_amount.at(s.d)
    if kind == "salve":
        s.salve += n
        s.say("bonus", msg("Your bonus: +{n} Salve.", n=n))
    elif kind == "bonus-damage":
        s.bonus_damage += n
        s.say("bonus", msg("Your bonus: +{n} Bonus Damage.", n=n))
    elif kind == "cp":
        s.player.cp = min(MAX_CP, s.player.cp + n)
        s.say("bonus", msg("Your bonus: +{n} CP.", n=n))
    elif kind == "draw":
        s.instruct(msg("Your bonus: draw {n} cards.", n=n))
    elif kind == "back-strike":
        if s.back_strike:
            s.say("bonus", msg("You already hold a Back Strike card."))
        else:
            s.back_strike = True
            s.instruct(
                msg(
                    "Your bonus: Back Strike. Draw the top card of your deck and "
                    "place it face down on your board."
                )
            )
    else:
        s.instruct(
            msg(
                "Your bonus: +1 Positive Token. Take a positive status token "
                "of your hero or the Boss's (within its stack limit)."
            )
        )


def knockdown(s: SoloState) -> None:
    """4. Special situations: he pays 2 CP to discard Knockdown; without them he
    draws an Action card and discards it for the CP (no bonus for you)."""
    if s.boss.cp >= 2:
        s.boss.cp -= 2
        s.say(EventKind.INFO, msg("The Boss pays 2 CP to remove Knockdown."))
    else:  # the card's 1 CP tops his up to the 2 he then pays (or is all he pays)
        card = draw_action(s)
        s.boss.cp = max(0, s.boss.cp - 1)
        s.say(
            EventKind.INFO,
            msg("The Boss discards {name} to remove Knockdown.", name=msg(card.name)),
        )
    s.boss.remove("knockdown")


def blue(s: SoloState, card: ActionCard) -> None:
    """4. Main phase: a blue card is paid and resolved if he can, else discarded for +1 CP."""
    if s.boss.cp >= card.cost and can_resolve(s, card.effect_at(s.d)):
        play_action(s, card)
        effect = card.effect_at(s.d)
        if "heal" in effect:
            health.heal_boss(s, effect["heal"])
        if "cp" in effect:
            s.boss.cp = min(MAX_CP, s.boss.cp + effect["cp"])
        if "gain" in effect:
            s.boss.add(effect["gain"])
        if "inflict" in effect:
            inflict(s, effect["inflict"])
        if "text" in effect:
            s.instruct(Msg(effect["text"]))
        if "damage" in effect:
            health.hurt_player(s, effect["damage"])
    else:
        discard_action(s, gain=True)


def play_action(s: SoloState, card: ActionCard) -> None:
    """Pay an Action card (blue in the Main phase, orange at the end of the roll)."""
    s.boss.cp -= card.cost
    s.action_used = True
    s.say(
        "action",
        msg("The Boss plays {name} ({cost} CP).", name=msg(card.name), cost=card.cost),
    )


def can_resolve(s: SoloState, effect: dict[str, Any]) -> bool:
    if set(effect) == {"heal"} and s.boss.health >= BOSS_HEALTH:
        return False
    if set(effect) == {"gain"}:
        return s.boss.count(effect["gain"]) < tokens()[effect["gain"]].stack
    if set(effect) == {"inflict"}:
        return s.player.count(effect["inflict"]) < tokens()[effect["inflict"]].stack
    return True


def discard_action(s: SoloState, gain: bool = False) -> None:
    card = s.action
    if gain:
        s.boss.cp = min(MAX_CP, s.boss.cp + 1)
        s.say("action", msg("The Boss discards {name} for +1 CP.", name=msg(card.name)))
    else:
        s.say("action", msg("The Boss cannot use {name}.", name=msg(card.name)))


def inflict(s: SoloState, token: str, n: int = 1) -> None:
    if s.player.add(token, n):
        s.instruct(msg("Place {token} on your board.", token=msg(tokens()[token].name)))


def run_end_boss_turn(s: SoloState, data: dict) -> None:
    card = s.action
    if card.colour == "orange" and not s.action_used:
        s.say("action", msg("{name} is discarded unused.", name=msg(card.name)))
    s.boss.remove("concussion")
    s.boss.remove("hex")  # Raveness rulebook, Hex: removed at the end of his turn
