"""Dice Throne Adventures "Unchained": the campaign with Witch Keys and the Vault
Witch, the One-Shot Adventure and Minion Rush, kept by the table."""

from dicetable.rules.unchained.campaign import Campaign
from dicetable.rules.unchained.minion_rush import MinionRush
from dicetable.rules.unchained.one_shot import OneShot

GAMES = (Campaign, OneShot, MinionRush)
