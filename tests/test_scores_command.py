"""`dicetable scores`: high scores per game and mode, best first (issue 5, item 5)."""

import json

from dicetable.device.cli import main
from dicetable.device.store import Store


def test_scores_are_listed_best_first_per_game_and_mode(isolated_data, capsys):
    store = Store.in_dir(isolated_data)
    store.add_score("unchained-one-shot", 45, mode="one-shot", party="Ana, Bo", heroes="Monk")
    store.add_score("unchained-one-shot", 52, mode="one-shot", party="Cy", heroes="Barbarian")
    store.add_score("unchained-minion-rush", 30, mode="minion-rush", party="Ana")
    assert main(["scores", "unchained-one-shot"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "unchained-one-shot (one-shot)"
    assert out[1].startswith("   1.    52  Cy, Barbarian")
    assert out[2].startswith("   2.    45  Ana, Bo, Monk")
    assert main(["scores", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game"], r["rank"], r["score"]) for r in rows] == [
        ("unchained-minion-rush", 1, 30),
        ("unchained-one-shot", 1, 52),
        ("unchained-one-shot", 2, 45),
    ]


def test_no_scores_says_so(capsys):
    assert main(["scores"]) == 0
    assert capsys.readouterr().out == "No high scores yet.\n"
