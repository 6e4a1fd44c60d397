"""The Quest Phase of one turn, step by step (Quest Phase): Deployment (the Quest,
Active Heroes and the Dice Pool), Combat (the roll, the Reroll token, Runes,
abilities), Wound (blocking and placing wounds) and Reward (outcome, Threat tokens,
rewards), with what is still missing and which dice could supply it at every step.
Each step is a mixin in its own module; the turn's state lives in an ``Attempt``
(state.py)."""

from __future__ import annotations

from dicetable.rules.dicequest.combat_step import CombatStep
from dicetable.rules.dicequest.deployment_step import DeploymentStep
from dicetable.rules.dicequest.dice_actions import DiceActions
from dicetable.rules.dicequest.quest_status import QuestStatus
from dicetable.rules.dicequest.reward_step import RewardStep
from dicetable.rules.dicequest.state import Attempt, option_index
from dicetable.rules.dicequest.wound_step import (
    BLOCK_WOUND,
    PLACE_FIRST,
    PLACE_WOUND,
    TAKE_WOUND,
    WoundStep,
)

__all__ = [
    "BLOCK_WOUND",
    "PLACE_FIRST",
    "PLACE_WOUND",
    "TAKE_WOUND",
    "Attempt",
    "QuestPhase",
    "option_index",
]


class QuestPhase(DeploymentStep, CombatStep, DiceActions, WoundStep, RewardStep, QuestStatus):
    """Deployment, Combat, Wound and Reward Steps, in the rulebook's order."""
