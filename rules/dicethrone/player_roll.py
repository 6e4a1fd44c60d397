"""The player's own rolls, resolved from the tray, when the player's hero is known
(the game's ``player_hero`` option; ``by_hand`` keeps the reported turn).

Fan solo mode v3.2, 4. Step 2: "Play a classic Dice Throne turn": up to 3 Roll
Attempts, then one ability; "For any Defensible attack you inflict on the Boss
following an Offensive Roll Phase, he will use his defensive ability"; "If you
succeed in a ULTIMATE, the Boss may ... use a King's Hand token to counter it".

After each roll the table shows the abilities the dice make and, for every other
one, the exact chance of it after the next re-roll with the dice to keep for it
(``ability_odds``); the player picks one to use, one to re-roll for, or none. The
ability's effects come from the hero file (``player_abilities``): damage through
the Boss's defence unless undefendable, tokens, CP, healing, an extra roll. The
player's defensive roll against the Boss is read the same way.
"""

from __future__ import annotations

from fractions import Fraction

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    EventKind,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicethrone import health, kings_hand, player_turn
from dicetable.rules.dicethrone.ability_odds import ability_chances
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.heroes import Ability, Hero, Tier
from dicetable.rules.dicethrone.player_abilities import (
    Effects,
    Outcome,
    attack,
    defence,
    extra_roll,
    prevented,
)
from dicetable.rules.dicethrone.solo_state import (
    MAX_CP,
    MAX_DAMAGE,
    PLAYER_HEALTH,
    ROLL_ATTEMPTS,
    SoloState,
)

SMALLEST_SHOWN = Fraction(1, 200)  # rounds to 1%
BY_HAND = "by_hand"  # the player_hero option: the turn is reported, as before
DICE = 5  # a hero's Offensive Roll


def hero(s: SoloState) -> Hero:
    assert s.player_hero is not None
    return s.player_hero


def roll_request(s: SoloState, text: Msg, count: int, keep: tuple[int, ...] = ()) -> Prompt:
    """A roll of the player's own dice (their hero's profile, for the camera)."""
    return Prompt(
        PromptKind.ROLL,
        text,
        Actor.PLAYER,
        dice=DiceRequest(count, profile=f"dicethrone-{hero(s).id}"),
        keep=keep,
    )


# the Offensive Roll ----------------------------------------------------------------
def may_roll(s: SoloState) -> bool:
    """One Offensive Roll Phase a turn."""
    return s.player_hero is not None and s.player_rolled != s.turn


def start_offense(s: SoloState) -> None:
    s.player_dice, s.player_attempt, s.player_rolled = [], 0, s.turn
    s.then(("player_offense", {}))


def ask_player_offense(s: SoloState, data: dict) -> Prompt:
    if not s.player_attempt:
        return roll_request(
            s,
            msg(
                "Your Offensive Roll ({hero}): roll 5 dice (attempt 1 of {max}).",
                hero=msg(hero(s).name),
                max=ROLL_ATTEMPTS,
            ),
            DICE,
        )
    aim = hero(s).ability(data["aim"], s.player_levels.get(data["aim"], 1))
    keep = _chance(s, aim.id).keep
    return roll_request(
        s,
        msg(
            "Re-roll for {ability} (attempt {n} of {max}): keep {kept}, re-roll {rerolls}"
            " dice and enter all 5.",
            ability=msg(aim.name),
            n=s.player_attempt + 1,
            max=ROLL_ATTEMPTS,
            kept=" ".join(str(s.player_dice[i]) for i in keep) or "-",
            rerolls=DICE - len(keep),
        ),
        DICE,
        keep,
    )


def on_player_offense(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.player_dice = values
    s.player_attempt += 1
    s.say(EventKind.ROLLED, msg("You roll {values}.", values=values), values=values)
    s.then(("player_pick", {}))


def _chances(s: SoloState) -> list:
    return ability_chances(
        hero(s), s.player_dice, ROLL_ATTEMPTS - s.player_attempt, s.player_levels
    )


def _chance(s: SoloState, ability_id: str):
    return next(c for c in _chances(s) if c.ability.id == ability_id)


def ask_player_pick(s: SoloState, data: dict) -> Prompt:
    options = []
    for found in _chances(s):
        ability = found.ability
        if found.met is not None:
            options.append(
                Option(
                    f"use:{ability.id}",
                    msg(
                        "Use {ability} ({damage} damage)",
                        ability=msg(ability.name),
                        damage=found.met.damage,
                    ),
                )
            )
        elif found.chance > 0:
            options.append(
                Option(
                    f"aim:{ability.id}",
                    msg(
                        "Re-roll for {ability}: keep {kept}, {percent} ({odds})",
                        ability=msg(ability.name),
                        kept=" ".join(str(s.player_dice[i]) for i in found.keep) or "-",
                        percent=percent(found.chance),
                        odds=str(found.chance),
                    ),
                )
            )
    options.append(Option("none", msg("No ability: end my Offensive Roll")))
    return Prompt(
        PromptKind.CHOOSE,
        msg(
            "Your roll {values} (attempt {n} of {max}): which ability?",
            values=" ".join(map(str, s.player_dice)),
            n=s.player_attempt,
            max=ROLL_ATTEMPTS,
        ),
        Actor.PLAYER,
        tuple(options),
    )


def percent(chance: Fraction) -> str:
    """A chance as a player reads it: "88%", and "<1%" rather than a 0% that can happen."""
    return f"{round(100 * chance)}%" if chance >= SMALLEST_SHOWN else "<1%"


def on_player_pick(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    kind, _, ability_id = answer.choice.partition(":")
    if kind == "aim":
        s.then(("player_offense", {"aim": ability_id}))
    elif kind == "use":
        found = _chance(s, ability_id)
        assert found.met is not None  # offered only when met
        s.say(
            "ability",
            msg("You activate {ability}.", ability=msg(found.ability.name)),
            ability=ability_id,
        )
        tier = found.ability.tiers.index(found.met)
        if found.met.asked:  # its damage is not public: read off the player's board
            where = {"id": ability_id, "level": found.ability.level, "tier": tier}
            s.then(("player_asked_damage", where))
        else:
            use(s, _attack(s, found.ability, found.met))


def _attack(s: SoloState, ability: Ability, tier: Tier) -> Outcome:
    return attack(hero(s), ability, tier, s.player_dice, s.player.tokens, s.player.cp)


def ask_player_asked_damage(s: SoloState, data: dict) -> Prompt:
    ability = hero(s).ability(data["id"], data["level"])
    return Prompt(
        PromptKind.NUMBER,
        msg(
            "You use {ability} ({objective}). How much damage does it deal, as printed on"
            " your hero board?",
            ability=msg(ability.name),
            objective=msg(ability.tiers[data["tier"]].objective.label),
        ),
        Actor.PLAYER,
        number_range=(0, MAX_DAMAGE),
    )


def on_player_asked_damage(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    ability = hero(s).ability(data["id"], data["level"])
    outcome = _attack(s, ability, ability.tiers[data["tier"]])
    outcome.damage += answer.number
    s.instruct(
        msg(
            "Carry out any other effect printed on {ability} (tokens, healing, CP).",
            ability=msg(ability.name),
        )
    )
    use(s, outcome)


def use(s: SoloState, outcome: Outcome) -> None:
    """The ability's effects on both sides, then its extra roll or its damage."""
    token, spent = outcome.spent
    if spent:
        s.player.remove(token, spent)
        s.say(EventKind.INFO, msg("You spend {n} {token}.", n=spent, token=msg(token_name(token))))
    apply_effects(s, outcome.effects)
    for text in outcome.texts:
        s.instruct(Msg(text))
    if outcome.roll_dice:
        s.then(
            (
                "player_ability_roll",
                {
                    "id": outcome.ability.id,
                    "level": outcome.ability.level,
                    "tier": outcome.ability.tiers.index(outcome.tier),
                    "damage": outcome.damage,
                },
            )
        )
    else:
        hit(s, outcome)


def hit(s: SoloState, outcome: Outcome, damage: int | None = None) -> None:
    damage = outcome.damage if damage is None else damage
    if outcome.self_damage and damage > 0:
        health.hurt_player(s, outcome.self_damage)  # Reckless: "in return"
    if outcome.ultimate:
        kings_hand.answer_ultimate(s, damage)
    elif damage > 0:
        player_turn.deal(s, "undefendable" if outcome.undefendable else "attack", damage)


def ask_player_ability_roll(s: SoloState, data: dict) -> Prompt:
    ability = hero(s).ability(data["id"], data["level"])
    n = ability.tiers[data["tier"]].roll_dice
    return roll_request(
        s, msg("{ability}: roll {n} dice for its effect.", ability=msg(ability.name), n=n), n
    )


def on_player_ability_roll(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    ability = hero(s).ability(data["id"], data["level"])
    tier = ability.tiers[data["tier"]]
    s.say(
        EventKind.ROLLED,
        msg("{ability}: {values}.", ability=msg(ability.name), values=values),
        values=values,
    )
    more, effects = extra_roll(hero(s), tier, values)
    apply_effects(s, effects)
    outcome = attack(hero(s), ability, tier, s.player_dice, {}, 0)
    hit(s, outcome, data["damage"] + more)


def apply_effects(s: SoloState, effects: Effects) -> None:
    """What the player's dice give the player (Health, CP, their tokens) and do to the
    Boss (his tokens, his CP)."""
    if effects.heal:
        healed = health.heal(s, s.player, PLAYER_HEALTH, effects.heal)
        if healed:
            s.say(EventKind.HEAL, msg("You heal {n}.", n=healed))
    if effects.cp:
        s.player.cp = max(0, min(MAX_CP, s.player.cp + effects.cp))
        s.say(EventKind.INFO, msg("You gain {n} CP.", n=effects.cp))
    for token in effects.gain:
        if s.player.add(token):
            s.say("status", msg("You gain {token}.", token=msg(token_name(token))))
    for token in effects.inflict:
        if s.boss.add(token):
            s.say("status", msg("The Boss receives {token}.", token=msg(token_name(token))))
    if effects.drain:
        lost = min(effects.drain, s.boss.cp)
        s.boss.cp -= lost
        if lost:
            s.say(EventKind.INFO, msg("The Boss loses {n} CP.", n=lost))


def token_name(token: str) -> str:
    return tokens()[token].name if token in tokens() else token.replace("-", " ").title()


# the Defensive Roll ----------------------------------------------------------------
def reads_defense(s: SoloState) -> bool:
    """The player's defence is read from the tray when their hero's file has it; one
    not public is reported by hand (what it prevents, what it deals back)."""
    return s.player_hero is not None and not s.player_hero.defense(s.player_levels).asked


def ask_player_defense_roll(s: SoloState, data: dict) -> Prompt:
    ability = hero(s).defense(s.player_levels)
    return roll_request(
        s,
        msg(
            "Defend against {damage} damage: roll {n} dice for {ability}.",
            damage=data["damage"],
            n=ability.dice,
            ability=msg(ability.name),
        ),
        ability.dice,
    )


def on_player_defense_roll(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    ability = hero(s).defense(s.player_levels)
    s.say(
        EventKind.ROLLED,
        msg("{ability}: {values}.", ability=msg(ability.name), values=values),
        values=values,
    )
    shown, texts = defence(hero(s), ability, values)
    for text in texts:
        s.instruct(Msg(text))
    left = prevented(data["damage"], shown)
    if left < data["damage"]:
        s.say(EventKind.INFO, msg("Your defence prevents {n}.", n=data["damage"] - left))
    apply_effects(s, shown)
    if shown.damage:
        health.hurt_boss(s, shown.damage, avoidable=True)
    if not s.winner:
        s.then(("deal", {**data, "damage": left}))


# upgrades --------------------------------------------------------------------------
def upgrades_left(s: SoloState) -> list:
    return [u for u in hero(s).upgrades if u.level > s.player_levels.get(u.ability, 1)]


def ask_player_upgrade(s: SoloState, data: dict) -> Prompt:
    options = [
        Option(f"{u.ability}:{u.level}", msg("{name} ({cost} CP)", name=msg(u.name), cost=u.cost))
        for u in upgrades_left(s)
    ]
    return Prompt(
        PromptKind.CHOOSE,
        msg("Which upgrade card did you play?"),
        Actor.PLAYER,
        (*options, Option("none", msg("None"))),
    )


def on_player_upgrade(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.choice == "none":
        return
    ability, _, level = answer.choice.partition(":")
    s.player_levels[ability] = int(level)
    name = hero(s).ability(ability, int(level)).name
    s.say("upgrade", msg("Your board: {name}.", name=msg(name)))
