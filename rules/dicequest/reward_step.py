"""Reward Step: the Quest outcome (Gold on a failed card, the Reroll token turned
back, rewards, Level Ups), an Adventure's score, and Threat tokens discarded with
excess symbols or unused Shields."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from dicetable.rules.core import (
    Event,
    EventKind,
    Input,
    Option,
    Prompt,
    msg,
)
from dicetable.rules.dicequest import adventure_path, quest_status, tally, tavern_phase
from dicetable.rules.dicequest.state import TableState, option_index
from dicetable.rules.dicequest.words import (
    card_title,
    rewards_text,
    token_text,
    tokens_text,
)


def _merge(*tables: Mapping[str, int]) -> dict[str, int]:
    merged: Counter[str] = Counter()
    for table in tables:
        merged.update(table)
    return dict(merged)


def to_reward(s: TableState) -> list[Event]:
    """Defeated Heroes leave the party now (they were already out of play)."""
    attempt = quest_status.current_attempt(s)
    player = s.player
    survivors = [i for i, h in enumerate(player.heroes) if not h.defeated]
    mapping = {old: new for new, old in enumerate(survivors)}
    attempt.active = [mapping[i] for i in attempt.active if i in mapping]
    player.heroes = [player.heroes[i] for i in survivors]
    if attempt.card.is_adventure and s.mode == "coop" and s.adventure_tokens and succeeded(s):
        s.stage = "discard"
        return []
    return outcome(s)


def succeeded(s: TableState) -> bool:
    return tally.succeeds(quest_status.current_attempt(s).card.require, quest_status.symbols(s))


def discard_options(s: TableState) -> list[Option]:
    attempt = quest_status.current_attempt(s)
    options = []
    for i, token in enumerate(s.adventure_tokens):
        if i in attempt.discarded:
            continue
        wanted = [s.adventure_tokens[j] for j in (*attempt.discarded, i)]
        if tally.can_discard(
            attempt.card.require, quest_status.symbols(s), wanted, attempt.shields_blocking
        ):
            options.append(
                Option(f"token{i + 1}", msg("Discard the {token} token", token=token_text(token)))
            )
    return options


def prompt_discard(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    options = [*discard_options(s), Option("done", msg("Keep the rest"))]
    return s.choose(
        msg(
            "Reward Step: spend excess symbols (or unused Shields) on Threat tokens. "
            "On the Adventure: {tokens}.",
            tokens=tokens_text(
                [t for i, t in enumerate(s.adventure_tokens) if i not in attempt.discarded]
            ),
        ),
        options,
    )


def apply_discard(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if answer.choice == "done":
        return outcome(s)
    attempt.discarded.append(option_index(answer.choice))
    events = [threat_discarded(s, s.adventure_tokens[option_index(answer.choice)])]
    if not discard_options(s):
        events += outcome(s)
    return events


def outcome(s: TableState) -> list[Event]:
    """The Quest outcome (Reward Step), or the Adventure's (Adventures); the turn
    ends unless Level Ups are still to be given."""
    if quest_status.current_attempt(s).card.is_adventure:
        events = adventure_outcome(s)
    elif succeeded(s):
        events = quest_succeeds(s)
    else:
        events = quest_fails(s)
    if s.stage == "level_up":
        return events
    return events + adventure_path.end_turn(s)


def adventure_outcome(s: TableState) -> list[Event]:
    """ "If you did NOT meet all requirements ... you fail. Simply set your Reroll
    token to its active side"; otherwise "track your score" (Adventures)."""
    attempt = quest_status.current_attempt(s)
    card = attempt.card
    player = s.player
    discarded = set(attempt.discarded)
    spent = [t for i, t in enumerate(s.adventure_tokens) if i in discarded]
    s.adventure_tokens = [t for i, t in enumerate(s.adventure_tokens) if i not in discarded]
    if succeeded(s):
        symbols = quest_status.symbols(s)
        score = tally.tracked_excess(card.require, symbols, card.tracked, spent)
        s.adventure_scores[player.number] = score
        return [
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
        ]
    player.reroll_active = True
    s.adventure_scores[player.number] = None
    return [
        Event(
            EventKind.OBJECTIVE_MISSED,
            msg(
                "{player} fails {name} (missing {missing}); the Reroll token turns active.",
                player=player.title(),
                name=card_title(card),
                missing=quest_status.missing_text(s),
            ),
        )
    ]


def quest_succeeds(s: TableState) -> list[Event]:
    """ "If you succeed": the Gold on the card, all the rewards, the card to the
    Achievements Zone, a new Quest in its slot; Threat on it is discarded."""
    card = quest_status.current_attempt(s).card
    player = s.player
    gold = s.quest_gold.pop(card.id, 0)
    rewards = _merge(card.guaranteed, card.success)
    vp = rewards.pop("vp", 0)
    if card.act:  # Playtime is printed on the board and stays there
        player.quests.append(card.name)
        player.quest_vp += vp
        s.completed.add(card.id)
    events = [
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
    ]
    if card.id in s.quest_threat:
        events.append(threat_discarded(s, s.quest_threat.pop(card.id)))
    if card.act:
        events.append(
            Event(
                EventKind.INSTRUCTION,
                msg("Reveal a new Act {act} Quest to refill the slot.", act=card.act),
            )
        )
    level_ups(s, rewards)
    return events


def quest_fails(s: TableState) -> list[Event]:
    """ "If you fail": the Reroll token turns active, the Guaranteed Rewards, 1 Gold
    on the card."""
    card = quest_status.current_attempt(s).card
    s.player.reroll_active = True
    rewards = dict(card.guaranteed)
    rewards.pop("vp", None)
    if card.act:
        s.quest_gold[card.id] += 1
    level_ups(s, rewards)  # a Guaranteed Level Up
    return [
        Event(
            EventKind.OBJECTIVE_MISSED,
            msg(
                "{name} fails (missing {missing}): {rewards}; the Reroll "
                "token turns active; put 1 Gold on the card.",
                name=card_title(card),
                missing=quest_status.missing_text(s),
                rewards=rewards_text(rewards, 0),
            ),
        )
    ]


def threat_discarded(s: TableState, token: tuple[str, ...]) -> Event:
    return Event(
        "threat_discarded", msg("Threat token {token} discarded.", token=token_text(token))
    )


def apprentices(s: TableState) -> list[int]:
    attempt = quest_status.current_attempt(s)
    return [i for i in attempt.active if not s.player.heroes[i].has_ability]


def level_ups(s: TableState, rewards: Mapping[str, int]) -> None:
    """Start the Level Up rewards, one flip each, while an Active Apprentice is
    left to flip ("only Heroes that were on the Quest", Reward Step)."""
    quest_status.current_attempt(s).level_ups = rewards.get("level_up", 0)
    if quest_status.current_attempt(s).level_ups and apprentices(s):
        s.stage = "level_up"


def prompt_level_up(s: TableState) -> Prompt:
    options = tavern_phase.hero_options(s, [(i, s.player.heroes[i]) for i in apprentices(s)])
    return s.choose(msg("Level Up: which Active Apprentice flips to Expert?"), options)


def apply_level_up(s: TableState, answer: Input) -> list[Event]:
    hero = s.player.heroes[option_index(answer.choice)]
    hero.expert = True
    attempt = quest_status.current_attempt(s)
    attempt.level_ups -= 1
    events = [Event("level_up", msg("{hero} levels up to Expert.", hero=msg(hero.name)))]
    if attempt.level_ups and apprentices(s):
        return events
    return events + adventure_path.end_turn(s)
