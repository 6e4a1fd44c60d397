"""Three rule readings found by playing (issue 16, item 4), each decided from the
rulebook's text (shared/seeds) and, where the text allows two readings, made an option
of the game.

* Unchained campaign: the limit of 3 Witch Keys before converting them, and a lost
  scenario's points (seeds/dice-throne-adventures-unchained.txt, "The Vault Witch").
* The Vault Witch's King's Hand tokens: the card + 2, or 5 (the same pages).
* Dicequest: the Adventure Score and the excess symbols spent on Threat tokens
  (seeds/dicequest.txt, "Tracking Adventure Score", "Threat Phase and Cards").
"""

from __future__ import annotations

from conftest import SHARED

from dicetable.device.answers import parse
from dicetable.rules.core import Game, PromptKind
from dicetable.rules.unchained.campaign import Campaign
from dicetable.rules.unchained.vault_witch import BossCard, vault_witch_setup

SEEDS = SHARED / "seeds"
UNCHAINED = "dice-throne-adventures-unchained.txt"


def quoted(seed: str, *phrases: str) -> None:
    """The rulebook says this, word for word (checked where the seeds are; the
    reading itself is tested either way)."""
    path = SEEDS / seed
    if not path.is_file():
        return
    text = " ".join(path.read_text(encoding="utf-8").split())
    for phrase in phrases:
        assert phrase in text, phrase


def play(game: Game, *lines: str) -> list:
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def campaign(**options: str) -> Campaign:
    game = Campaign(1, options)
    play(game, "2", "barbarian", "monk")
    return game


def confirm_all(game: Game) -> None:
    while game.prompt().kind is PromptKind.CONFIRM:
        play(game, "")


def test_the_limit_of_three_keys_applies_before_converting_them() -> None:
    """ "Your party may have a maximum of 3 Witch Keys at any given time"; after her
    defeat "any held Witch Keys, as well as any Witch Keys gained when completing future
    scenarios, may be converted". Holding 3, the key of the next scenario is not gained:
    3 can be converted, not 4. The other reading (a key gained is converted before it is
    held) is the option witch_keys=convert_all."""
    quoted(
        UNCHAINED,
        "Your party may have a maximum of 3 Witch Keys at any given time.",
        "any held Witch Keys, as well as any Witch Keys gained when completing future "
        "scenarios, may be converted",
    )
    for option, most in (("limit_first", 3), ("convert_all", 4)):
        game = campaign(witch_keys=option)
        play(game, "won", "10")  # Scenario 1: a key
        play(game, "vault-witch", "50", "6", "2", "1", "2", "")
        play(game, "won", "15")  # her defeat, Scenario 2
        confirm_all(game)
        play(game, "0")  # keep the key: 1 held
        play(game, "won", "10", "0")  # Scenario 3: 2 held
        play(game, "won", "10", "0")  # Scenario 4: 3 held
        assert game.witch_keys == 3
        events = play(game, "won", "10")  # Scenario 5, holding 3
        prompt = game.prompt()
        assert prompt.number_range == (0, most), option
        assert f"Convert how many of {most} Witch Keys" in str(prompt.text)
        if option == "limit_first":
            assert any("this scenario's key is not gained" in str(e.text) for e in events)
        play(game, str(most))
        assert game.gold_from_keys == 5 * most and game.witch_keys == 0


def test_a_lost_scenario_adds_nothing_to_the_campaign_total() -> None:
    """Upon Defeat: "Record loss on score sheet"; Upon Victory: "Record win on score
    sheet with a +5 bonus to the scenario score". A lost scenario is played again, and
    the scenario's score is that of its win: the table's 247 after a loss at Scenario 4
    counted both. lost_scenarios=counted keeps the sum of both."""
    quoted(
        UNCHAINED,
        "Record loss on score sheet and increase Starting Salves by 3.",
        "Record win on score sheet with a +5 bonus to the scenario score.",
    )
    totals = {}
    for option in ("not_counted", "counted"):
        game = campaign(lost_scenarios=option)
        play(game, "won", "40")
        play(game, "fallen-boss", "won", "50")
        play(game, "won", "45")
        play(game, "fallen-boss")
        events = play(game, "lost", "35")  # Scenario 4 lost...
        confirm_all(game)
        play(game, "fallen-boss", "won", "77")  # ...and won on the second try
        totals[option] = game.total_score
        said = " ".join(str(e.text) for e in events)
        assert ("Not added to the campaign total" in said) == (option == "not_counted")
    assert totals == {"not_counted": 40 + 50 + 45 + 77, "counted": 40 + 50 + 45 + 35 + 77}


def test_the_vault_witch_starts_with_the_card_plus_two_or_five() -> None:
    """King's Hand Tokens: "Per the original Boss Scenario card, plus: Starting tokens:
    +2 tokens", then "The Vault Witch starts with 5 King's Hand tokens". Both hold for
    the setup example's card (3 tokens: 5); for a card of 2 tokens they do not. The
    rule's list is the reading by default (what the table asks for is the card's
    number); kings_hand=five always gives 5 and does not ask for the card's tokens."""
    quoted(
        UNCHAINED,
        "Per the original Boss Scenario card, plus: • Starting tokens: +2 tokens.",
        "The Vault Witch starts with 5 King's Hand tokens.",
        "King's Hand tokens: 5",
    )
    example = BossCard(75, 9, 3, 1, 2)
    assert vault_witch_setup(example, 3).kings_hand_tokens == 5
    assert vault_witch_setup(example, 3, "five").kings_hand_tokens == 5
    other = BossCard(60, 8, 2, 1, 2)
    assert vault_witch_setup(other, 2).kings_hand_tokens == 4
    assert vault_witch_setup(other, 2, "five").kings_hand_tokens == 5
    game = campaign(kings_hand="five")
    play(game, "won", "10", "vault-witch")
    asked = []
    while game.prompt().kind is PromptKind.NUMBER:
        asked.append(str(game.prompt().text))
        play(game, "2")
    assert not any("King's Hand starting tokens" in text for text in asked)
    assert len(asked) == 4
    assert game.witch_setup is not None and game.witch_setup.kings_hand_tokens == 5


DICEQUEST = "dicequest.txt"
ADVENTURE = (
    '[[adventure]]\nid = "a1"\nname = "Goblin Camp"\nact = 1\nparty = [0, 3]\n'
    'require = [{ symbol = "sword", count = 1 }]\nlight = 1\nrewards = [3]\n'
)


def test_symbols_spent_on_threat_tokens_are_not_in_the_adventure_score() -> None:
    """Tracking Adventure Score: "only count excess symbols that you did not need to
    succeed at the Adventure"; Threat tokens "are discarded by spending excess symbols
    from your result", and "all players succeed if there are no Threat tokens on the
    Adventure card" (Adventure Outcome). An excess Sword spent on a Sword token was
    needed to succeed: it is not counted again. The text leaves no other reading."""
    quoted(
        DICEQUEST,
        "only count excess symbols that you did not need to succeed at the Adventure",
        "Threat tokens are discarded by spending excess symbols from your result.",
        "all players succeed if there are no Threat tokens on the Adventure card.",
    )
    from dicetable.rules.dicequest.data import hero_kinds
    from dicetable.rules.dicequest.game import Dicequest
    from dicetable.rules.dicequest.party import Hero

    scores = {}
    for last in ("token1", "done"):  # spend the excess Sword on the token, or keep it
        game = Dicequest(2, {"catalogue": ADVENTURE})
        play(game, "coop", "1", "practice", "a1")
        game.adventure_tokens = [("sword",)]
        game.round = 3
        akimo = next(k for k in hero_kinds() if k.id == "akimo")
        game.players[0].heroes = [Hero(akimo, True)]
        events = play(
            game, "quest", "a1", "in1", "done", "roll", "red:2-swords blue:arrow", "done", "hero1"
        )
        events += play(game, last)
        scores[last] = next(e.data["score"] for e in events if "score" in e.data)
    assert scores == {"token1": 0, "done": 1}  # 2 Swords, 1 needed: 1 excess, spent or not


def test_the_score_counts_what_discarding_left() -> None:
    """The rulebook's example: the Adventure requires 2 Swords and 2 Arrows; 1 excess
    Wand and 1 excess Arrow discard the Wand + Arrow token. Tracking Arrows, that
    Arrow was spent: the score is what is left over beyond it."""
    from dicetable.rules.dicequest.data import Requirement
    from dicetable.rules.dicequest.tally import can_discard, tracked_excess

    require = [Requirement("sword", 2, ("sword",)), Requirement("arrow", 2, ("arrow",))]
    result = {"sword": 2, "arrow": 4, "wand": 1}
    token = ("wand", "arrow")
    assert can_discard(require, result, [token])
    assert tracked_excess(require, result, ["arrow"]) == 2
    assert tracked_excess(require, result, ["arrow"], [token]) == 1
    # a Shield can pay for the token's Arrow instead, leaving the Arrows in the score
    with_shield = {**result, "shield": 1}
    assert tracked_excess(require, with_shield, ["arrow"], [token]) == 2
