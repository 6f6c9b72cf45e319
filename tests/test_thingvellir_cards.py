"""Scenario tests: every Thingvellir card — the 12 artifacts, the 11 mercenary ids, the 6 neutral
heroes and Olwyn's doubles (002 "Artifact cards", "Mercenary cards", "Hero Abilities").

Each test quotes the sentence of 002_3fed4e836b428413.txt (the Thingvellir rulebook) it checks, or
DESIGN §9 where 002 is unclear. Boards are built by hand; the engine's own steps are then run with
strict scripted answers (an unscripted decision fails the test).
"""
from __future__ import annotations


import pytest

from harness import THINGVELLIR, fill_tavern, give, ids, pull, run, run_log, set_coins, shown, values

from nidavellir.runtime.flow import resolve_taverns, run_steps
from thingvellir_helpers import (
    age_end, breakdown, camp, camp_ids, column, command, discard, engine, enlistment_step, kinds,
    one_line_but, resolve_tavern, take,
)


# == Artifacts, Age 1 ==============================================================================

def test_fafnir_baleygr_example_celine_goes_to_the_camp_because_serge_did_not():
    """002 "Fafnir Báleygr": "you can go to the Camp on your turn instead of taking a card from the
    tavern being resolved if the Elvaland that won the bid did not go." Example: "In the Laughing Goblin
    Tavern, Serge won the auction with a 10. He decides to take a Dwarf card rather than go to Camp.
    Valériane, who has bid an 8 must take a card from the tavern. Céline bid a 3, but has the Fafnir
    Báleygr. So she can go get a card from the Camp rather than one from the tavern, because Serge did
    not go." """
    e = engine(3)
    serge, valeriane, celine = 0, 1, 2
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir", "mercenary:hunter-miner1", "vegvisir", "svalinn", "megingjord")
    take(e, celine, "fafnir-baleygr")                       # taken earlier: into her command zone
    assert command(e, celine) == ["fafnir-baleygr"]
    set_coins(e, serge, slots=[10, 2, 3], pouch=[0, 4])
    set_coins(e, valeriane, slots=[8, 2, 3], pouch=[0, 4])
    set_coins(e, celine, slots=[3, 2, 4], pouch=[0, 5])
    log = resolve_tavern(e, 0, "warrior:9", "explorer:11", "draupnir@camp")
    assert kinds(log) == [(serge, "pick"), (valeriane, "pick"), (celine, "pick")]
    camp_options = ["draupnir@camp", "mercenary:hunter-miner1@camp", "vegvisir@camp", "svalinn@camp",
                    "megingjord@camp"]
    assert shown(log[0]) == ["warrior:9@laughing-goblin", "explorer:11@laughing-goblin",
                             "miner:2@laughing-goblin"] + camp_options
    assert shown(log[1]) == ["explorer:11@laughing-goblin", "miner:2@laughing-goblin"]   # no Camp for her
    assert shown(log[2]) == ["miner:2@laughing-goblin"] + camp_options
    assert column(e, serge, "warrior") == ["warrior:9"]
    assert column(e, valeriane, "explorer") == ["explorer:11"]
    assert command(e, celine) == ["fafnir-baleygr", "draupnir"]
    assert discard(e) == ["miner:2"]                        # the card left in the tavern
    assert "draupnir" not in camp_ids(e)


def test_fafnir_baleygr_gives_no_camp_access_when_the_top_bidder_went_to_the_camp():
    """002 "Fafnir Báleygr": "... if the Elvaland that won the bid did not go"; 002 "New rules": "Only the
    Elvaland with the highest bid can get to the Camp and take a card there." """
    e = engine(3)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir", "vegvisir", "svalinn")
    give(e, 2, "fafnir-baleygr", column=None)
    set_coins(e, 0, slots=[10, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[8, 2, 3], pouch=[0, 4])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    log = resolve_tavern(e, 0, "svalinn@camp", "explorer:11", "warrior:9")
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick")]
    assert shown(log[2]) == ["warrior:9@laughing-goblin", "miner:2@laughing-goblin"]
    assert command(e, 0) == ["svalinn"]
    assert column(e, 2, "warrior") == ["warrior:9"]
    assert discard(e) == ["miner:2"]


def test_fafnir_baleygr_holder_who_wins_the_bid_goes_to_the_camp_as_usual_once():
    """002 "New rules": "the Elvaland with the highest bid can choose to take a card from the Camp
    (Artifact or Mercenary) instead of taking a card from the tavern being resolved" — one card: Fafnir
    Báleygr gives access "instead of taking a card from the tavern", not a second card. """
    e = engine(3)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir", "vegvisir")
    give(e, 0, "fafnir-baleygr", column=None)
    set_coins(e, 0, slots=[10, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[8, 2, 3], pouch=[0, 4])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    log = resolve_tavern(e, 0, "draupnir@camp", "explorer:11", "warrior:9")
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick")]
    assert command(e, 0) == ["fafnir-baleygr", "draupnir"]
    assert e.s.players[0].army == {}


def test_draupnir_example_coins_24_17_15_7_0_add_18():
    """002 "Draupnir": "At the end of Age 2, when counting points, add to your Final Bravery Value: 6
    points per coin of value 15 or more owned." Example: "Valériane has coins of value 24, 17, 15, 7 and
    0. She therefore adds 18 points to her Final Bravery Value. (3 x 6 = 18)" """
    e = engine(3)
    camp(e, "draupnir")
    take(e, 1, "draupnir")
    assert command(e, 1) == ["draupnir"]
    set_coins(e, 1, hand=[24, 17, 15, 7, 0])
    b = breakdown(e, 1)
    assert b["artifacts"] == 18
    assert b["coins"] == 24 + 17 + 15 + 7
    assert b["heroes"] == 0


def test_vegvisir_goes_to_the_explorer_column_as_an_explorer_rank_of_13():
    """002 "Vegvisir": "Immediately place this Artifact in the Explorer column of your army." "This
    artifact counts as an Explorer rank and adds 13 points to your Explorer Bravery Rating." """
    e = engine(3)
    give(e, 0, "explorer:5")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "vegvisir", "draupnir")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    resolve_tavern(e, 0, "vegvisir@camp", "warrior:9", "explorer:11")
    assert column(e, 0, "explorer") == ["explorer:5", "vegvisir"]
    assert command(e, 0) == []
    assert e.ranks(0, "explorer") == 2
    assert breakdown(e, 0)["explorer"] == 5 + 13
    assert breakdown(e, 0)["artifacts"] == 0


def test_vegvisir_completing_a_line_recruits_a_hero():
    """002 "Vegvisir": "Its placement can trigger the recruitment of a Hero card if it completes a rank
    line." """
    e = engine(3)
    one_line_but(e, 0, "explorer")
    camp(e, "vegvisir")
    log = take(e, 0, "vegvisir", "skaa")
    assert kinds(log) == [(0, "hero")]
    assert command(e, 0) == ["skaa"]
    assert e.s.players[0].heroes_counted == 1


def test_svalinn_example_3_heroes_add_15():
    """002 "Svalinn": "add to your Final Bravery Value: 5 points per Hero card in your possession."
    Example: "Camille has 3 Hero cards at the end of the game. He therefore adds 15 points to her Final
    Bravery Value. (3 x 5 = 15)" """
    e = engine(3)
    camp(e, "svalinn")
    take(e, 0, "svalinn")
    give(e, 0, "skaa", "astrid", column=None)
    give(e, 0, "tarah")                                     # a class hero, in his column
    assert command(e, 0) == ["svalinn", "skaa", "astrid"]
    assert breakdown(e, 0)["artifacts"] == 15


def test_megingjord_lines_recruit_no_hero_and_it_adds_28():
    """002 "Megingjord": "During the rest of the game, you can no longer recruit a Hero card by making
    rank lines. So making rank lines has no effect for you. At the end of Age 2, when counting points,
    add 28 points to your Final Bravery Value." """
    e = engine(3)
    camp(e, "megingjord")
    take(e, 0, "megingjord")
    one_line_but(e, 0, "explorer")
    assert take(e, 0, "explorer:9") == []                   # a complete line: no hero
    one_line_but(e, 0, "explorer")
    assert take(e, 0, "explorer:10") == []                  # a second one: still none
    assert e.lines(0) == 2
    assert command(e, 0) == ["megingjord"]
    assert breakdown(e, 0)["artifacts"] == 28
    assert breakdown(e, 0)["heroes"] == 0


def test_vidofnir_example_pouch_3_and_2_become_6_and_5_without_a_4_in_the_treasure():
    """002 "Vidofnir & Vedrfölnir": "Immediately reveal the coins from your pouch and transform one of
    these coins with a +2 and the other with a +3"; "Perform coin transformations in any order you
    want." Example: "There is a 3 coin and a 2 coin. She decides to make a transformation to 3 + 3 and
    takes a coin of value 6 and 2 + 2 to take a coin of value 5 (because there is no coin of value 4 in
    the Royal Treasure)." """
    e = engine(3)
    celine = 0
    for c in e.s.treasure.pop(4, []):                       # no coin of value 4 in the Royal Treasure
        e.s.coin_box.append(c)
    assert not e.s.treasure.get(4)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "vidofnir-vedrfolnir", "draupnir")
    set_coins(e, celine, slots=[5, 4, 0], pouch=[3, 2])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    log = resolve_tavern(e, 0, "vidofnir-vedrfolnir@camp", "3@pouch", 3, "warrior:9", "explorer:11")
    assert kinds(log) == [(0, "pick"), (0, "coin"), (0, "amount"), (1, "pick"), (2, "pick")]
    assert sorted(shown(log[1])) == ["2@pouch", "3@pouch"]
    assert shown(log[2]) == [2, 3]
    assert sorted(values(e, e.s.players[celine].pouch)) == [5, 6]
    assert command(e, celine) == ["vidofnir-vedrfolnir"]


def test_vidofnir_example_a_3_with_the_trading_coin_becomes_8():
    """002 "Vidofnir & Vedrfölnir": "If one of the coins on the trade is the Trading coin (the 0 or the
    Special Hunter 3) then apply a +5 transform to the other coin." Example: "In the event that she
    revealed a coin with a value of 3 and a Trading coin, she would have transformed the coin with a
    value of 3 to +5 to obtain a coin with a value of 8." """
    e = engine(3)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "vidofnir-vedrfolnir")
    set_coins(e, 0, slots=[5, 4, 2], pouch=[3, 0])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    log = resolve_tavern(e, 0, "vidofnir-vedrfolnir@camp", "warrior:9", "explorer:11")
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick")]
    assert sorted(values(e, e.s.players[0].pouch)) == [0, 8]


# == Artifacts, Age 2 ==============================================================================

def test_brisingamens_takes_two_discarded_cards_in_the_chosen_order():
    """002 "Brísingamens": "Immediately look at all the cards in the discard pile and choose two (Royal
    Offering cards and / or Dwarf cards). In the order of your choice: - perform coin transformation if
    you have chosen Royal Offering cards. - place the Dwarf cards in your army. This can result in a
    Hero card being recruited." """
    e = engine(3, age=2)
    one_line_but(e, 0, "explorer")
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    for cid in ("royal-offering:5", "explorer:9", "warrior:8"):
        e.s.discard.append(pull(e, cid))
    camp(e, "brisingamens")
    log = take(e, 0, "brisingamens",
               "royal-offering:5@discard", "explorer:9@discard",   # the two cards
               "explorer:9@taken",                                   # the dwarf first: a line
               "5@hand",                                             # then the offering: 5 + 5
               "skaa")                                               # the hero once Brísingamens is done
    assert [d.kind for d in log] == ["card", "card", "card", "coin", "hero"]
    assert sorted(shown(log[0])) == ["explorer:9@discard", "royal-offering:5@discard", "warrior:8@discard"]
    assert column(e, 0, "explorer") == ["explorer:9"]
    assert command(e, 0) == ["brisingamens", "skaa"]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 10]
    assert sorted(discard(e)) == ["royal-offering:5", "warrior:8"]    # the offering goes back


def test_brisingamens_discards_a_dwarf_card_of_the_army_before_the_final_scoring():
    """002 "Brísingamens": "At the end of Age 2, before counting points, discard a Dwarf card of your
    choice from your army. This card can be taken anywhere, in any column, but it cannot be a Hero
    card." """
    e = engine(3, age=2)
    give(e, 0, "brisingamens", column=None)
    give(e, 0, "warrior:3", "warrior:9", "tarah", "hunter", "miner:2", "zoral")
    log = age_end(e, 2, "warrior:3@warrior")
    assert kinds(log) == [(0, "card")]
    assert sorted(shown(log[0])) == ["hunter@hunter", "miner:2@miner", "warrior:3@warrior", "warrior:9@warrior"]
    assert column(e, 0, "warrior") == ["warrior:9", "tarah"]
    assert "warrior:3" in discard(e)
    assert e.scores is not None
    assert e.scores["players"][0]["breakdown"]["warrior"] == 9 + 14 + 5  # majority: highest coin 5


def test_mjollnir_example_10_hunter_ranks_add_20():
    """002 "Mjöllnir": "At the end of Age 2, when counting points, add to your Final Bravery Value: 2
    points per rank in the class of your choice." Example: "Serge has Mjöllnir and 10 Hunter ranks.
    Since this is the column where he has the most ranks, he applies the power of the Artifact to that
    column and therefore gains an additional 20 Bravery points. (10 x 2 = 20)" """
    e = engine(3, age=2)
    serge = 0
    give(e, serge, *["hunter"] * 10)
    give(e, serge, "miner:2", "miner:1")
    camp(e, "mjollnir")
    assert take(e, serge, "mjollnir") == []                 # the class is chosen when points are counted
    log = age_end(e, 2, "hunter")
    assert kinds(log) == [(serge, "class")]
    assert shown(log[0]) == ["warrior", "hunter", "miner", "blacksmith", "explorer"]
    assert e.chosen_class(e.s.players[serge].command[0]) == "hunter"
    assert e.scores["players"][serge]["breakdown"]["artifacts"] == 20
    assert e.scores["players"][serge]["breakdown"]["hunter"] == 100


def test_hofud_each_other_player_discards_a_warrior_card_not_a_hero():
    """002 "Höfud": "Immediately, each other Elvaland chooses and discards a Warrior card from their
    army. The discarded card can be any card in the Warrior column except a Hero card." """
    e = engine(3, age=2)
    give(e, 0, "warrior:5")
    give(e, 1, "warrior:3", "warrior:7", "kraal")
    give(e, 2, "tarah")
    give(e, 2, "mercenary:warrior6-explorer8", column="warrior")
    camp(e, "hofud")
    log = take(e, 0, "hofud", "warrior:7@warrior")
    assert kinds(log) == [(1, "card")]                      # P3's only choice is made without asking
    assert sorted(shown(log[0])) == ["warrior:3@warrior", "warrior:7@warrior"]   # not Kraal
    assert column(e, 0, "warrior") == ["warrior:5"]
    assert column(e, 1, "warrior") == ["warrior:3", "kraal"]
    assert column(e, 2, "warrior") == ["tarah"]
    assert "warrior:7" in discard(e)
    assert command(e, 2) == []                              # the mercenary left the army


def test_hofud_asks_nothing_of_a_player_with_only_heroes_among_warriors():
    """002 "Höfud": "The discarded card can be any card in the Warrior column except a Hero card." """
    e = engine(2, age=2)
    give(e, 1, "tarah")
    camp(e, "hofud")
    assert take(e, 0, "hofud") == []
    assert column(e, 1, "warrior") == ["tarah"]


def test_hrafnsmerki_example_2_mercenaries_add_10():
    """002 "Hrafnsmerki": "add to your Final Bravery Value: 5 points per Mercenary card in your
    possession." Example: "Céline has 2 Mercenary cards at the end of the game. She therefore adds 10
    points to her Final Bravery Value. (2 x 5 = 10)" """
    e = engine(3, age=2)
    camp(e, "hrafnsmerki")
    take(e, 2, "hrafnsmerki")
    give(e, 2, "mercenary:warrior6-miner1", column="miner")
    give(e, 2, "mercenary:hunter-blacksmith", column="hunter")
    assert breakdown(e, 2)["artifacts"] == 10


def test_jarnglofi_discards_the_trading_coin_so_its_unresolved_tavern_has_no_bid():
    """002 "Járnglófi": "Immediately discard your Trading coin (0 or Special Hunter 3). Warning! If this
    coin was placed on an unresolved tavern, your bid will not be present when it is resolved, and you
    will not take any cards. At the end of Age 2, when counting points, add 24 points to your Final
    Bravery Value." """
    e = engine(3, age=2)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    fill_tavern(e, 1, "hunter", "blacksmith", "miner:1")
    fill_tavern(e, 2, "explorer:5", "warrior:3", "miner:0")
    camp(e, "jarnglofi", "hofud")
    set_coins(e, 0, slots=[5, 4, 0], pouch=[2, 3])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    zero = e.s.players[0].slots[2]
    log = run_log(resolve_taverns(e),
                  "jarnglofi@camp", "warrior:9", "explorer:11",   # Laughing Goblin: P1 to the Camp
                  "hunter", "blacksmith",                         # Dancing Dragon: P2 (5), P1 (4), P3 last
                  "explorer:5", "warrior:3")                      # Shining Horse: P3 (4), P2 (2); P1 no bid
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick"),
                          (1, "pick"), (0, "pick"),
                          (2, "pick"), (1, "pick")]
    assert command(e, 0) == ["jarnglofi"]
    assert column(e, 0, "blacksmith") == ["blacksmith"]
    assert column(e, 0, "explorer") == [] and column(e, 0, "warrior") == []   # nothing from the Shining Horse
    assert column(e, 2, "explorer") == ["explorer:11", "explorer:5"]
    assert column(e, 1, "warrior") == ["warrior:9", "warrior:3"]
    assert sorted(discard(e)) == ["miner:0", "miner:2"]
    assert sorted(values(e, e.s.players[0].hand)) == [2, 3, 4, 5]
    assert zero in e.s.coin_box
    assert breakdown(e, 0)["artifacts"] == 24


def test_jarnglofi_discards_the_special_hunter_3():
    """002 "Járnglófi": "Immediately discard your Trading coin (0 or Special Hunter 3)." """
    e = engine(3, age=2)
    hunter3 = e.s.special_coins.pop("hunter-3")
    set_coins(e, 0, hand=[2, 4, 5, 6])
    e.s.players[0].hand.append(hunter3)
    camp(e, "jarnglofi")
    take(e, 0, "jarnglofi")
    assert sorted(values(e, e.s.players[0].hand)) == [2, 4, 5, 6]
    assert hunter3 not in e.s.players[0].coin_ids()


def test_gjallarhorn_example_ylud_with_no_line_then_two_lines_for_the_next_hero():
    """002 "Gjallarhorn": "Immediately recruit a Hero card regardless of your rank line number. To
    recruit your next Hero card, you will need to validate the golden rule: to have a number of rank
    lines greater than your number of Hero cards owned." Example: "Camille takes Gjallarhorn and
    recruits Ylud. At this point in the game, he has no rank line in his army. He will therefore need to
    create 2 of them to be able to recruit a second Hero card." """
    e = engine(3, age=2)
    camille = 0
    camp(e, "gjallarhorn")
    log = take(e, camille, "gjallarhorn", "ylud")
    assert kinds(log) == [(camille, "hero")]
    assert command(e, camille) == ["gjallarhorn", "ylud"]
    assert e.lines(camille) == 0
    one_line_but(e, camille, "explorer")
    assert take(e, camille, "explorer:9") == []             # one line: not enough
    one_line_but(e, camille, "explorer")
    log = take(e, camille, "explorer:10", "skaa")           # the second line: a second hero
    assert kinds(log) == [(camille, "hero")]
    assert command(e, camille) == ["gjallarhorn", "ylud", "skaa"]


def test_gjallarhorn_recruits_with_megingjord():
    """002 "Megingjord" / "Gjallarhorn", Note 1: "Gjallarhorn allows you to recruit a Hero card if you
    have Megingjord." """
    e = engine(3, age=2)
    give(e, 0, "megingjord", column=None)
    camp(e, "gjallarhorn")
    log = take(e, 0, "gjallarhorn", "skaa")
    assert kinds(log) == [(0, "hero")]
    assert command(e, 0) == ["megingjord", "gjallarhorn", "skaa"]


def test_gjallarhorn_cannot_recruit_a_hero_whose_requirement_fails():
    """002 "Gjallarhorn", Note 2: "It is not possible to recruit a Hero card if its requirements cannot
    be respected. For example, it is impossible to recruit Dagda if you cannot discard two Dwarf cards
    from two different columns." """
    e = engine(3, age=2)
    give(e, 0, "warrior:3", "warrior:4")                    # one column only
    camp(e, "gjallarhorn")
    log = take(e, 0, "gjallarhorn", "skaa")
    assert "dagda" not in ids(log[0]) and "hourya" not in ids(log[0])
    assert "bonfur" in ids(log[0])                          # one dwarf of another column suffices


# == Mercenaries ===================================================================================

MERCENARIES = {
    "mercenary:warrior6-explorer8": [("warrior", 6), ("explorer", 8)],
    "mercenary:warrior6-blacksmith": [("warrior", 6), ("blacksmith", 0)],
    "mercenary:hunter-explorer8": [("hunter", 0), ("explorer", 8)],
    "mercenary:hunter-miner1": [("hunter", 0), ("miner", 1)],
    "mercenary:blacksmith-miner1": [("blacksmith", 0), ("miner", 1)],
    "mercenary:warrior9-explorer11": [("warrior", 9), ("explorer", 11)],
    "mercenary:hunter-blacksmith": [("hunter", 0), ("blacksmith", 0)],
    "mercenary:warrior6-miner1": [("warrior", 6), ("miner", 1)],
    "mercenary:blacksmith-explorer8": [("blacksmith", 0), ("explorer", 8)],
    "mercenary:warrior6-hunter": [("warrior", 6), ("hunter", 0)],
    "mercenary:explorer8-miner1": [("explorer", 8), ("miner", 1)],
}
AGE_1 = ["mercenary:warrior6-explorer8", "mercenary:warrior6-blacksmith", "mercenary:hunter-explorer8",
         "mercenary:hunter-miner1", "mercenary:blacksmith-miner1", "mercenary:warrior9-explorer11"]
AGE_2 = ["mercenary:hunter-blacksmith", "mercenary:warrior6-miner1", "mercenary:blacksmith-explorer8",
         "mercenary:warrior6-hunter", "mercenary:explorer8-miner1", "mercenary:warrior9-explorer11"]
# A lone rank of each class as the class scores it: warriors and explorers their points, hunters
# 1² = 1, miners points × 1, blacksmiths 1·(1+5)/2 = 3.
LONE = {"warrior": lambda pts: pts, "explorer": lambda pts: pts, "hunter": lambda pts: 1,
        "miner": lambda pts: pts, "blacksmith": lambda pts: 3}


def test_the_mercenaries_of_each_age_are_those_002_prints():
    """002 "Mercenary cards": "Age 1 - Warrior 6 / Explorer 8 - Warrior 6 / Blacksmith - Hunter /
    Explorer 8 - Hunter / Miner 1 - Blacksmith / Miner 1 - Warrior 9 / Explorer 11 Age 2 - Hunter /
    Blacksmith - Warrior 6 / Miner 1 - Blacksmith / Explorer 8 - Warrior 6 / Hunter - Explorer 8 / Miner 1
    - Warrior 9 / Explorer 11"; "A: 12 Mercenary cards". """
    e = engine(3)
    for age, expected in ((1, AGE_1), (2, AGE_2)):
        deck = [e.s.cards[c] for c in e.s.zones[f"camp-deck@{age}"]]
        assert sorted(c for c in deck if c.startswith("mercenary:")) == sorted(expected)
    for cid, sides in MERCENARIES.items():
        d = THINGVELLIR.cards[cid]
        assert d.kind == "mercenary"
        assert {cls: list(r) for cls, r in d.column_ranks.items()} == {cls: [pts] for cls, pts in sides}


@pytest.mark.parametrize("cid,side", [(cid, i) for cid in MERCENARIES for i in (0, 1)])
def test_a_mercenary_is_enlisted_in_one_of_its_two_classes_with_its_printed_points(cid, side):
    """002 "Mercenary cards": "When placing them, you choose the class of the card from the two listed
    on it."; DESIGN §9: "each in one of its two classes, with that class's printed points". """
    e = engine(3, age=1)
    give(e, 0, cid, column=None)
    cls, pts = MERCENARIES[cid][side]
    other = MERCENARIES[cid][1 - side][0]
    log = run_log(run_steps(e, [enlistment_step(e)]), cls)
    assert kinds(log) == [(0, "column")]
    assert shown(log[0]) == [c for c, _ in MERCENARIES[cid]]
    assert column(e, 0, cls) == [cid] and command(e, 0) == []
    assert e.ranks(0, cls) == 1 and e.ranks(0, other) == 0
    assert e.points(0, cls) == pts
    b = breakdown(e, 0)
    assert b[cls] == LONE[cls](pts) + (5 if cls == "warrior" else 0)   # + the majority's highest coin
    assert b[other] == 0


def test_a_mercenary_taken_from_the_camp_goes_to_the_command_zone_and_completes_no_line():
    """002 "Mercenary cards": "Place them in your Command Zone." DESIGN §9: "A Camp card is taken, not
    recruited as a dwarf: taking one completes no line". """
    e = engine(3)
    one_line_but(e, 0, "explorer")
    camp(e, "mercenary:warrior9-explorer11")
    assert take(e, 0, "mercenary:warrior9-explorer11") == []
    assert command(e, 0) == ["mercenary:warrior9-explorer11"]
    assert e.ranks(0, "explorer") == 0 and e.ranks(0, "warrior") == 1
    assert breakdown(e, 0)["explorer"] == 0


def test_an_enlisted_mercenary_can_no_longer_be_moved():
    """002 "Mercenary cards": "Once placed, Mercenary cards can no longer be moved." The Age 2
    enlistment places only the mercenaries still in the command zone. """
    e = engine(3, age=1)
    give(e, 0, "mercenary:warrior6-explorer8", column=None)
    run(run_steps(e, [enlistment_step(e)]), "explorer")
    give(e, 0, "mercenary:warrior6-hunter", column=None)
    e.s.age = 2
    log = run_log(run_steps(e, [enlistment_step(e)]), "hunter")
    assert kinds(log) == [(0, "column")]
    assert column(e, 0, "explorer") == ["mercenary:warrior6-explorer8"]
    assert column(e, 0, "hunter") == ["mercenary:warrior6-hunter"]


# == Neutral heroes ================================================================================

def test_andumia_adds_12_and_takes_a_royal_offering_from_the_discard_which_returns_there():
    """002 "Andumia": "Adds 12 points to your Final Bravery Value. When you recruit her, immediately look
    at all the cards in the discard pile and keep one (Royal Offering card or Dwarf card). - If it is a
    Royal Offering card, its effect is immediately applied, then the card is returned to the discard." """
    e = engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    for cid in ("royal-offering:3", "warrior:8"):
        e.s.discard.append(pull(e, cid))
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "andumia", "royal-offering:3@discard", "5@hand")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "coin")]
    assert sorted(shown(log[1])) == ["royal-offering:3@discard", "warrior:8@discard"]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 8]
    assert sorted(discard(e)) == ["royal-offering:3", "warrior:8"]
    assert command(e, 0) == ["andumia"]
    assert breakdown(e, 0)["heroes"] == 12


def test_andumia_places_a_discarded_dwarf_which_may_recruit_a_hero():
    """002 "Andumia": "If it is a Dwarf card, place it in your army. Its placement can trigger the
    recruitment of a Hero card." """
    e = engine(3)
    for cid in ("explorer:9", "warrior:8"):
        e.s.discard.append(pull(e, cid))
    one_line_but(e, 0, "explorer", twice=True)
    log = take(e, 0, "explorer:5", "andumia", "explorer:9@discard", "skaa")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "hero")]
    assert column(e, 0, "explorer") == ["explorer:5", "explorer:9"]
    assert command(e, 0) == ["andumia", "skaa"]
    assert discard(e) == ["warrior:8"]


def test_andumia_does_not_explore_the_camp_discard():
    """002 "Glossary": "Camp cards are not part of the discard pile that can be explored by this
    effect." """
    e = engine(3)
    e.s.discard.append(pull(e, "explorer:9"))
    e.s.zones["camp-discard"].extend(pull(e, cid) for cid in ("mercenary:warrior9-explorer11", "draupnir"))
    one_line_but(e, 0, "explorer", twice=True)
    log = take(e, 0, "explorer:5", "andumia", "skaa")      # the one discarded dwarf: no choice to make
    assert kinds(log) == [(0, "hero"), (0, "hero")]
    assert column(e, 0, "explorer") == ["explorer:5", "explorer:9"]
    assert len(e.s.zones["camp-discard"]) == 2


def test_holda_adds_12_and_takes_a_card_of_the_camp():
    """002 "Holda": "Adds 12 points to your Final Bravery Value. When you recruit her, immediately choose a
    Mercenary or Artifact card available at the Camp." """
    e = engine(3)
    camp(e, "draupnir", "mercenary:hunter-miner1", "svalinn")
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "holda", "mercenary:hunter-miner1@camp")
    assert kinds(log) == [(0, "hero"), (0, "card")]
    assert sorted(shown(log[1])) == ["draupnir@camp", "mercenary:hunter-miner1@camp", "svalinn@camp"]
    assert command(e, 0) == ["holda", "mercenary:hunter-miner1"]   # during play: the command zone
    assert camp_ids(e) == ["draupnir", "svalinn"]
    assert breakdown(e, 0)["heroes"] == 12


def test_holda_taking_an_artifact_applies_it():
    """002 "Holda": "choose a Mercenary or Artifact card available at the Camp"; 002 "Vegvisir":
    "Immediately place this Artifact in the Explorer column of your army. Its placement can trigger the
    recruitment of a Hero card if it completes a rank line." """
    e = engine(3)
    camp(e, "vegvisir", "draupnir")
    one_line_but(e, 0, "explorer", twice=True)
    log = take(e, 0, "explorer:5", "holda", "vegvisir@camp", "skaa")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "hero")]
    assert column(e, 0, "explorer") == ["explorer:5", "vegvisir"]
    assert command(e, 0) == ["holda", "skaa"]


def test_khrad_adds_4_and_10_to_the_lowest_coin_but_not_the_trading_coin():
    """002 "Khrad": "Adds 4 points to your Final Bravery Value. When you recruit him, immediately add +10
    to your lowest value coin (except the Trading coin, see Converting a coin, basic rules p. 11)." """
    e = engine(3)
    set_coins(e, 0, hand=[0, 3, 2, 4, 5])
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "khrad")
    assert kinds(log) == [(0, "hero")]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 3, 4, 5, 12]
    assert breakdown(e, 0)["heroes"] == 4


def test_jarika_example_trade_of_3_and_4_takes_a_9():
    """002 "Jarika": "During a coin transformation or a coin trade (Royal Offering, Warrior Distinction,
    Grid), increase the value of the desired sum by +2." Example: "She then plays her coin of value 0.
    At the end of her turn, she reveals the two coins of her pouch: 3 and 4. She discards her coin of
    value 4 and should take a coin of value 7 from the Royal Treasure. But since she owns Jarika, she
    takes a coin of value 9"; "Adds 8 points". """
    e = engine(3)
    cecile = 2
    one_line_but(e, cecile, "explorer")
    take(e, cecile, "explorer:9", "jarika")                 # "Cécile quickly recruited Jarika"
    assert command(e, cecile) == ["jarika"]
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    set_coins(e, 0, slots=[5, 4, 2], pouch=[0, 3])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, cecile, slots=[0, 2, 5], pouch=[3, 4])
    resolve_tavern(e, 0, "warrior:9", "explorer:11")
    assert sorted(values(e, e.s.players[cecile].pouch)) == [3, 9]
    assert breakdown(e, cecile)["heroes"] == 8


def test_jarika_example_royal_offering_3_on_a_2_takes_a_7():
    """002 "Jarika": "Later in the game, Cécile chooses a Royal Offering +3 card which she applies to her
    coin of value 2. She should therefore take a 5 in the Royal Treasury, but she takes a 7 (5 + 2)." """
    e = engine(3)
    cecile = 0
    give(e, cecile, "jarika", column=None)
    fill_tavern(e, 0, "royal-offering:3", "explorer:11", "miner:2")
    set_coins(e, cecile, slots=[5, 2, 4], pouch=[0, 3])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    log = resolve_tavern(e, 0, "royal-offering:3@laughing-goblin", "2@dancing-dragon", "explorer:11")
    assert kinds(log) == [(0, "pick"), (0, "coin"), (1, "pick")]
    assert values(e, e.s.players[cecile].slots) == [5, 7, 4]


def test_jarika_adds_2_to_grid_and_to_the_warrior_distinction():
    """002 "Jarika": "During a coin transformation or a coin trade (Royal Offering, Warrior Distinction,
    Grid), increase the value of the desired sum by +2." """
    e = engine(3)
    give(e, 0, "jarika", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    one_line_but(e, 0, "explorer")
    take(e, 0, "explorer:9", "grid", "5@hand")              # 5 + 7 + 2
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 14]
    card = pull(e, "distinction:warrior")
    run(e.place(0, card, None, check=False))
    run(e.emit(0, "won", card), "4@hand")                   # 4 + 5 + 2
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 11, 14]


def test_olwyn_adds_9_and_places_his_two_doubles_in_two_different_columns():
    """002 "Olwyn": "Adds 9 points to your Final Bravery Value. When you recruit him, also take his two
    doubles whose Bravery value is 0 and then place each of these cards in two different columns of
    your choice. Their placement may result in the recruitment of a Hero card." """
    e = engine(3)
    give(e, 0, "warrior:3", "warrior:4", "blacksmith", "blacksmith", "explorer:5", "explorer:6")
    give(e, 0, "hunter", "miner:1")
    log = take(e, 0, "miner:2", "olwyn", "hunter", "miner", "skaa")   # 1 line; the doubles make the 2nd
    assert kinds(log) == [(0, "hero"), (0, "column"), (0, "column"), (0, "hero")]
    assert shown(log[1]) == ["warrior", "hunter", "miner", "blacksmith", "explorer"]
    assert shown(log[2]) == ["warrior", "miner", "blacksmith", "explorer"]    # not the first's column
    assert column(e, 0, "hunter") == ["hunter", "olwyn-double"]
    assert column(e, 0, "miner") == ["miner:1", "miner:2", "olwyn-double"]
    assert command(e, 0) == ["olwyn", "skaa"]
    b = breakdown(e, 0)
    assert b["heroes"] == 9 + 17
    assert b["hunter"] == 2 * 2                             # a rank of 0 points: hunters count ranks
    assert b["miner"] == (1 + 2 + 0) * 3                    # a miner rank of 0 points
    assert not any(e.s.cards[c] == "olwyn-double" for c in e.s.supply)


def test_olwyns_doubles_are_dwarf_cards_of_their_column_not_heroes():
    """002 "Olwyn": ""Olwyn's Double" cards are considered Dwarf cards of the class in which they are
    placed and can be destroyed by the powers of Dagda, Bonfur, Brísingamens, and Höfud. They are not
    considered Hero cards." "If there's no card other than "Olwyn's Double" cards in a column, place a
    Class token on it to identify this column." """
    e = engine(3)
    one_line_but(e, 0, "explorer")
    give(e, 0, "svalinn", column=None)
    take(e, 0, "explorer:9", "olwyn", "warrior", "explorer")
    assert column(e, 0, "warrior") == ["warrior:3", "olwyn-double"]
    assert e.ranks(0, "warrior") == 2 and e.ranks(0, "explorer") == 2
    assert breakdown(e, 0)["artifacts"] == 5                # Svalinn: Olwyn alone is a hero
    double = e.s.players[0].army["warrior"][-1]
    assert e.card_class(double) == "warrior"
    assert e.is_kind(double, "dwarf") and e.is_kind(double, "non-hero")
    # Höfud, taken by another player, may take it
    camp(e, "hofud")
    log = take(e, 1, "hofud", "olwyn-double@warrior")
    assert sorted(shown(log[0])) == ["olwyn-double@warrior", "warrior:3@warrior"]
    assert column(e, 0, "warrior") == ["warrior:3"]


def test_olwyns_double_alone_in_a_column_is_a_rank_of_that_class():
    """002 "Olwyn": "If there's no card other than "Olwyn's Double" cards in a column, place a Class token
    on it to identify this column." — the double is a rank of that class (DESIGN §9). """
    e = engine(3, age=2)                                    # Olwyn by Gjallarhorn: an empty army
    camp(e, "gjallarhorn")
    take(e, 0, "gjallarhorn", "olwyn", "hunter", "miner")
    assert column(e, 0, "hunter") == ["olwyn-double"] and column(e, 0, "miner") == ["olwyn-double"]
    assert e.ranks(0, "hunter") == 1 and e.ranks(0, "miner") == 1
    assert breakdown(e, 0)["hunter"] == 1 and breakdown(e, 0)["miner"] == 0


def test_zolkur_example_next_trade_discards_the_lower_coin_then_his_power_is_spent():
    """002 "Zolkur": "Adds 10 points to your Final Bravery Value. When you recruit him, immediately place
    him on the coins of your pouch. During your next trade, you trade the lower value coin instead of the
    higher as in a standard exchange. Then return Zolkur's card to the Command Zone." Example: "Leo
    recruited Zolkur. He reveals his Trading Coin, he recruits a card in the tavern being resolved, and
    then he reveals a 10 and 2 coins. So he discards the coin 2 and takes a coin of value 12 in the Royal
    Treasure." """
    e = engine(3)
    leo = 2
    log = run_log(e.recruit_hero(leo), "zolkur")
    assert kinds(log) == [(leo, "hero")]
    assert command(e, leo) == ["zolkur"]
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    set_coins(e, 0, slots=[5, 4, 2], pouch=[0, 3])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, leo, slots=[0, 4, 5], pouch=[10, 2])
    resolve_tavern(e, 0, "warrior:9", "explorer:11")
    assert column(e, leo, "miner") == ["miner:2"]           # he recruits a card, then trades
    assert sorted(values(e, e.s.players[leo].pouch)) == [10, 12]
    assert breakdown(e, leo)["heroes"] == 10
    # the next trade is a standard one again: the higher coin is discarded
    fill_tavern(e, 1, "warrior:3", "explorer:5", "miner:1")
    e.s.players[leo].slots[1] = e.s.players[leo].slots[0]
    e.s.players[leo].slots[0] = None
    resolve_tavern(e, 1, "warrior:3", "explorer:5")
    assert sorted(values(e, e.s.players[leo].pouch)) == [10, 22]
