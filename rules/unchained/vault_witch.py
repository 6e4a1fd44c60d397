"""The Vault Witch: her setup from the original Boss Scenario card, and the Witch Keys.

The players own the original Boss Scenario card; they enter its numbers and the
adjustments of the Vault Witch Scenario card are applied here (Unchained rulebook,
"Vault Witch Boss Battle Scenario Card" and "King's Hand Tokens").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from dicetable.rules.unchained.data import fields


@dataclass(frozen=True)
class VaultWitchRules:
    health_increase: tuple[int, ...]
    upgrade_cp_increase: int
    kings_hand_starting_increase: int
    kings_hand_fixed_start: int
    kings_hand_max_per_turn_increase: int
    kings_hand_success: tuple[int, int]
    boss_scenarios: tuple[int, ...]
    max_witch_keys: int
    defeat_starting_salves: int
    victory_bonus: int
    converted_gold: int
    converted_boss_loot: int
    salve_heal: int


@cache
def vault_witch_rules() -> VaultWitchRules:
    f = fields("vault_witch.toml")
    return VaultWitchRules(
        health_increase=f.ints("health_increase", 4),
        upgrade_cp_increase=f.int("upgrade_cp_increase"),
        kings_hand_starting_increase=f.int("kings_hand_starting_increase"),
        kings_hand_fixed_start=f.int("kings_hand_fixed_start"),
        kings_hand_max_per_turn_increase=f.int("kings_hand_max_per_turn_increase"),
        kings_hand_success=f.range("kings_hand_success"),
        boss_scenarios=f.ints("boss_scenarios", low=1),
        max_witch_keys=f.int("max_witch_keys", 1),
        defeat_starting_salves=f.int("defeat_starting_salves"),
        victory_bonus=f.int("victory_bonus"),
        converted_gold=f.int("converted_gold"),
        converted_boss_loot=f.int("converted_boss_loot"),
        salve_heal=f.int("salve_heal", 1),
    )


@dataclass(frozen=True)
class BossCard:
    """The numbers printed on a Boss Scenario card, for the party's size."""

    health: int
    upgrade_cp: int
    kings_hand_tokens: int
    kings_hand_max_per_turn: int
    starting_cp: int


@dataclass(frozen=True)
class VaultWitchSetup:
    health: int
    upgrade_cp: int
    kings_hand_tokens: int
    kings_hand_max_per_turn: int
    kings_hand_success: tuple[int, int]
    starting_cp: int

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["kings_hand_success"] = list(self.kings_hand_success)
        return data


#: how many King's Hand tokens she starts with (the campaign's ``kings_hand`` option).
#: The rulebook says both: "Per the original Boss Scenario card, plus: Starting tokens:
#: +2 tokens", then "The Vault Witch starts with 5 King's Hand tokens". The two agree
#: on the setup example's card (3 tokens, Scenario 2); for another card they do not.
CARD_PLUS_TWO, FIVE = "card_plus_two", "five"
KINGS_HAND_READINGS = (CARD_PLUS_TWO, FIVE)


def vault_witch_setup(
    original: BossCard, heroes: int, kings_hand: str = CARD_PLUS_TWO
) -> VaultWitchSetup:
    """The original Boss's card with the Vault Witch's adjustments for 1-4 heroes;
    ``kings_hand`` says which reading of her starting King's Hand tokens applies."""
    if not 1 <= heroes <= 4:
        raise ValueError(f"the Vault Witch is set up for 1 to 4 heroes, not {heroes}")
    rules = vault_witch_rules()
    if kings_hand == FIVE:
        tokens = rules.kings_hand_fixed_start
    else:
        tokens = original.kings_hand_tokens + rules.kings_hand_starting_increase
    return VaultWitchSetup(
        health=original.health + rules.health_increase[heroes - 1],
        upgrade_cp=original.upgrade_cp + rules.upgrade_cp_increase,
        kings_hand_tokens=tokens,
        kings_hand_max_per_turn=original.kings_hand_max_per_turn
        + rules.kings_hand_max_per_turn_increase,
        kings_hand_success=rules.kings_hand_success,
        starting_cp=original.starting_cp,
    )
