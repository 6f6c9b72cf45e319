"""The final score table and the league table fit 80 columns (issue 18: "The final score table and
the league table fit 80 columns with both expansions and 5 players"): nidavellir/table.columns
stacks a head of several words, then puts the columns one space apart, then cuts the longest heads
to their cells, naming each cut in a key; the numbers are never cut."""
from __future__ import annotations

import random

import pytest

from nidavellir.league import play_league
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.session import Session, result_of
from nidavellir.table import WIDTH, columns, score_table

COMBOS = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]


def _played(boxes: tuple[str, ...], players: int, seed: int) -> dict:
    """A seeded game of random choices, as `play --json` gives its result."""
    game = Game(load_rules(boxes), players, seed)
    rng = random.Random(seed)
    while (d := game.pending) is not None:
        game.answer(d.options[rng.randrange(len(d.options))])
    return result_of(game, seed, ["random"] * players)


@pytest.mark.parametrize("boxes", COMBOS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_score_table_fits_80_columns_and_keeps_every_number(boxes, players):
    result = _played(boxes, players, 3)
    text = score_table(result, "Game seed 3")
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines), text
    rule = next(i for i, line in enumerate(lines) if line.startswith("---"))
    for line, player in zip(lines[rule + 1:], result["players"]):  # each row holds the player's numbers
        cells = line.split()
        assert [int(x) for x in cells[-len(player["breakdown"]) - 1:]] == [*player["breakdown"].values(),
                                                                          player["total"]]
    key = next((line for line in lines if line.startswith("Key: ")), "")
    for head in lines[rule - 1].split()[1:]:  # a cut head is in the key with the part it names
        if head not in (*result["players"][0]["breakdown"], "total"):
            assert f"{head}: " in key, text


def test_the_league_table_fits_80_columns_with_5_players_and_both_boxes():
    rules = load_rules(("thingvellir", "idavoll"))
    league = play_league(Session(rules, ("thingvellir", "idavoll"), ()), ["greedy", "random"], 5, 1, 1)
    text = league.table()
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    rows = [line.split() for line in text.splitlines() if line.startswith(("greedy ", "random "))]
    assert [row[0] for row in rows] == ["greedy", "random"] and all(len(row) == 6 + 5 for row in rows), text


def test_columns_stack_then_close_up_then_cut_the_longest_heads():
    rows = [["P1", "10", "187", "5"]]
    assert columns(["player", "warrior", "blacksmith", "mean score"], rows, width=80) == [
        "player  warrior  blacksmith  mean score",
        "------  -------  ----------  ----------",
        "P1           10         187           5"]
    stacked = columns(["player", "warrior", "blacksmith", "mean score"], rows, width=34)
    assert stacked[:2] == [" " * 30 + "mean", "player  warrior  blacksmith  score"]
    cut = columns(["player", "warrior", "blacksmith", "mean score"], rows, width=26)
    assert all(len(line) <= 26 for line in cut), cut
    assert cut[-1] == "Key: blac: blacksmith." and "P1" in cut[-2] and "187" in cut[-2]
