"""Dicequest companion: Quest Phase arithmetic from real colour symbol dice, wounds,
Adventures, the solo and co-op Threat game and the final scoring.

Where each rule lives (the rulebook's section in brackets):

- ``game.py``: the ``Dicequest`` game on ``rules/flow.py``, and ``STAGES``: every
  question by its stage and the functions (of the modules below) that ask it and
  take its answer.
- ``state.py``: the table's state every module is given (``TableState``) and a turn's
  ``Attempt``.
- ``game_setup.py``: mode, players, difficulty [Solo & Co-op, Difficulty Levels].
- ``tavern_phase.py``: Income and Tavern Phases, recruiting, graduating, board actions.
- the Quest Phase, its four steps in order, each in its own module:
  ``deployment_step.py`` (Quest, Active Heroes, Dice Pool), ``combat_step.py`` (the roll,
  the Combat Step menu), ``dice_actions.py`` (Reroll token, Runes, abilities on dice),
  ``wound_step.py`` (Shields, placing wounds), ``reward_step.py`` (outcome, rewards,
  Threat tokens discarded); ``quest_status.py`` says what is missing and which dice
  could supply it.
- ``adventure_path.py``: rounds, Acts, Adventures, ranking [The Adventure Path, Adventures].
- ``threat_phase.py``: Threat cards and tokens, a failed Adventure [Solo & Co-op].
- ``final_scoring.py``: VP, tie-breaks, the co-op win rule [Goal of the Game].
- ``card_typing.py`` / ``typein.py``: a card typed in at the table.
- ``table_view.py``: what the screen and the LED ring show.
- ``tally.py``, ``scoring.py``: the pure arithmetic (matching symbols, wounds, odds,
  ranks); ``data.py``, ``catalogue.py``: cards and dice as data (the catalogue read; kept
  by ``device/dicequest_cards.py``); ``party.py``: Heroes;
  ``words.py``: the vocabulary as translatable messages.
"""

from dicetable.rules.dicequest.dice_sets import quest_dice
from dicetable.rules.dicequest.game import Dicequest

GAMES = (Dicequest,)
DICE_SETS = quest_dice
