"""Scenario tests: the Final Bravery Value (003 "Determining the Bravery Value of Each Class",
"End of Age 2 and End of the Game").

Each test quotes the rule sentence it checks from 003_87e0c83f3aec659f.txt (or an
`interpretations:` entry of rules/base/*.yaml / DESIGN §9).
"""
from __future__ import annotations

import pytest

from harness import give, new_engine, set_coins

from nidavellir.runtime.scoring import final_scores, player_score


def breakdown(e, p):
    return player_score(e, p)["breakdown"]


# -- warriors --------------------------------------------------------------------------------

def test_warriors_score_the_sum_of_their_points():
    """003 "Warriors: sum of their Bravery Points." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "warrior:9")
    give(e, 1, "warrior:4", "warrior:5", "warrior:6")       # P2 has the majority
    assert breakdown(e, 0)["warrior"] == 12


def test_the_strict_warrior_majority_adds_the_highest_coin():
    """003 "Warriors": "The Elvaland with the strict majority of ranks in the Warrior column also adds
    their highest-value coin to their Warrior Bravery Value." """
    e = new_engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 14])
    set_coins(e, 1, hand=[0, 2, 3, 4, 20])
    give(e, 0, "warrior:3", "warrior:4")
    give(e, 1, "warrior:8")
    assert breakdown(e, 0)["warrior"] == 3 + 4 + 14
    assert breakdown(e, 1)["warrior"] == 8
    assert breakdown(e, 2)["warrior"] == 0


def test_the_highest_coin_counts_wherever_it_is():
    """003 "Warriors": "also adds their highest-value coin" (every coin the player owns). """
    e = new_engine(2)
    set_coins(e, 0, slots=[0, 2, 3], pouch=[4, 11])
    give(e, 0, "warrior:3")
    assert breakdown(e, 0)["warrior"] == 3 + 11


def test_every_player_tied_for_the_warrior_majority_adds_their_highest_coin():
    """003 "Warriors": "On a tie for the majority, every tied Elvaland adds their highest-value coin.";
    interpretation warrior-majority-ties: "every player tied for the most warrior ranks (at least one)
    adds their highest coin." """
    e = new_engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 14])
    set_coins(e, 1, hand=[0, 2, 3, 4, 9])
    set_coins(e, 2, hand=[0, 2, 3, 4, 25])
    give(e, 0, "warrior:3", "warrior:4")
    give(e, 1, "kraal")                                      # 2 ranks too
    give(e, 2, "warrior:9")
    assert breakdown(e, 0)["warrior"] == 7 + 14
    assert breakdown(e, 1)["warrior"] == 7 + 9
    assert breakdown(e, 2)["warrior"] == 9


def test_no_warrior_majority_without_warriors():
    """Interpretation warrior-majority-ties: "every player tied for the most warrior ranks (at least
    one) adds their highest coin." With no warriors at all, nobody adds a coin. """
    e = new_engine(2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    assert breakdown(e, 0)["warrior"] == 0 and breakdown(e, 1)["warrior"] == 0


# -- hunters, blacksmiths -------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6])
def test_hunters_score_their_number_squared(n):
    """003 "Hunters: the number of Hunters squared." """
    e = new_engine(5)
    give(e, 0, *["hunter"] * n)
    assert breakdown(e, 0)["hunter"] == n * n


@pytest.mark.parametrize("n,value", [(0, 0), (1, 3), (2, 7), (3, 12), (4, 18), (5, 25), (6, 33)])
def test_blacksmiths_follow_the_sequence_3_4_5_6(n, value):
    """003 "Blacksmiths: a mathematical sequence (+3, +4, +5, +6, …)." """
    e = new_engine(5)
    give(e, 0, *["blacksmith"] * n)
    assert breakdown(e, 0)["blacksmith"] == value


def test_board_reference_rank_1_is_3_and_1():
    """003: "The board reference values for the Blacksmith and Hunter columns run: rank 1 = 3/1". """
    e = new_engine(2)
    give(e, 0, "blacksmith", "hunter")
    b = breakdown(e, 0)
    assert (b["blacksmith"], b["hunter"]) == (3, 1)


def test_board_reference_blacksmith_rank_25_is_375():
    """003: "up through rank 25 = 375 (Blacksmith)"; interpretation board-reference-values: "the
    Blacksmith box ends at 25 ranks (3 + 4 + … + 27 = 375)". 20 blacksmiths, the special Blacksmith (2)
    and Bonfur (3): 25 ranks. """
    e = new_engine(5)
    give(e, 0, *["blacksmith"] * 20, "special-blacksmith", "bonfur")
    assert e.ranks(0, "blacksmith") == 25
    assert breakdown(e, 0)["blacksmith"] == 375 == sum(range(3, 28))


def test_board_reference_hunter_box_ends_at_441():
    """003: "rank 25 = 375 (Blacksmith) / 441 (Hunter), following the sequence and the squares
    respectively"; interpretation board-reference-values: "the Hunter box at 21 ranks (21² = 441, 16
    hunters with Aral and Dagda)". """
    e = new_engine(5)
    give(e, 0, *["hunter"] * 16, "aral", "dagda")
    assert e.ranks(0, "hunter") == 21
    assert breakdown(e, 0)["hunter"] == 441


def test_hunters_and_blacksmiths_have_no_upper_limit():
    """Interpretation unbounded-formulas: "Hunters score n² and blacksmiths n·(n+5)/2 for n ranks,
    without the board's upper limit." Thrud and Ylud take the columns past the boxes. """
    e = new_engine(5)
    give(e, 0, *["hunter"] * 16, "aral", "dagda")
    give(e, 0, "thrud", "ylud", column="hunter")
    give(e, 1, *["blacksmith"] * 20, "special-blacksmith", "aegur", "bonfur")
    assert breakdown(e, 0)["hunter"] == 23 * 23
    assert e.ranks(1, "blacksmith") == 27
    assert breakdown(e, 1)["blacksmith"] == sum(range(3, 30))


# -- miners, explorers -----------------------------------------------------------------------

def test_miners_score_the_sum_of_points_times_the_ranks():
    """003 "Miners: the sum of their Bravery Points multiplied by the number of ranks in the
    column." """
    e = new_engine(2)
    give(e, 0, "miner:2", "miner:1", "miner:0")
    assert breakdown(e, 0)["miner"] == (2 + 1 + 0) * 3
    give(e, 1, "miner:0", "miner:0")
    assert breakdown(e, 1)["miner"] == 0


def test_explorers_score_the_sum_of_their_points():
    """003 "Explorers: the sum of their Bravery Points." """
    e = new_engine(2)
    give(e, 0, "explorer:5", "explorer:11", "explorer:8")
    assert breakdown(e, 0)["explorer"] == 24


# -- the Final Bravery Value ---------------------------------------------------------------

def test_final_bravery_value_breakdown():
    """003 "End of Age 2": "count your Final Bravery Value: your Bravery Value for each class of your
    army, the Bravery Value of your neutral Hero cards in your Command Zone, the total value of your
    gold coins." and "The Elvaland who owns the special value gem 6 adds 3 Bravery Points to the total
    value of their gold coins." """
    e = new_engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 14])
    give(e, 0, "warrior:9", "warrior:3", "kraal")            # 19 points, 4 ranks: majority, + 14
    give(e, 1, "warrior:8")
    give(e, 0, "hunter", "hunter", "hunter")                  # 9
    give(e, 0, "miner:2", "miner:1", "lokdur")                # (2 + 1 + 3) * 3 = 18
    give(e, 0, "blacksmith", "blacksmith", "special-blacksmith")   # 4 ranks: 3+4+5+6 = 18
    give(e, 0, "explorer:11", "explorer:8", "idunn")          # 11 + 8 + 7 + 2*3 = 32
    give(e, 0, "dwerg", "dwerg", "skaa", "astrid", "distinction:miner", "distinction:blacksmith",
         column=None)                                         # 40 + 17 + 14 = 71; distinctions 0
    e.gain_gem(0, 6)
    b = breakdown(e, 0)
    assert b == {"warrior": 19 + 14, "hunter": 9, "miner": 18, "blacksmith": 18, "explorer": 32,
                 "heroes": 71, "coins": 23 + 3}
    assert player_score(e, 0)["total"] == 33 + 9 + 18 + 18 + 32 + 71 + 26 == 207


def test_distinction_cards_score_nothing_themselves():
    """003 "End of Age 2": the Final Bravery Value counts "the Bravery Value of your neutral Hero cards
    in your Command Zone" — a Distinction card has no Bravery Value of its own. """
    e = new_engine(2)
    give(e, 0, "distinction:warrior", "distinction:hunter", "distinction:explorer", column=None)
    assert breakdown(e, 0)["heroes"] == 0


def test_gem_6_adds_3_to_the_coins():
    """003 "Crown Jeweler": "It adds 3 points to your Final Bravery Value"; "The Elvaland who owns the
    special value gem 6 adds 3 Bravery Points to the total value of their gold coins." """
    e = new_engine(2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    e.gain_gem(0, 6)
    assert breakdown(e, 0)["coins"] == 14 + 3
    assert breakdown(e, 1)["coins"] == 14


def test_the_highest_final_bravery_value_wins():
    """003 "End of Age 2": "The Elvaland with the highest Final Bravery Value wins the game". """
    e = new_engine(3)
    give(e, 1, "skaa", column=None)
    scores = final_scores(e)
    assert scores["winners"] == ["P2"]


def test_tied_players_share_the_victory():
    """003 "End of Age 2": "On a tie, the tied Elvalands share the victory and face Fafnir
    together." """
    e = new_engine(3)
    give(e, 0, "explorer:11")
    give(e, 2, "explorer:5", "explorer:6")
    scores = final_scores(e)
    assert [pl["total"] for pl in scores["players"]] == [11 + 14, 14, 11 + 14]
    assert scores["winners"] == ["P1", "P3"]


def test_dwerg_counts_once_for_all_brothers_in_the_total():
    """003 "Dwerg the 5 Brothers": "X depends on the number of recruited brothers — 1→13, 2→40,
    3→81". """
    e = new_engine(2)
    give(e, 0, "dwerg", "dwerg", "dwerg", column=None)
    set_coins(e, 0, hand=[])
    assert player_score(e, 0)["total"] == 81
