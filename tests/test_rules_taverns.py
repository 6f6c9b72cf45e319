"""Scenario tests: turn preparation and tavern resolution (003 "Turn Sequence", "Solving Ties",
"Trading Gems", "Trading Coins", "Player Counts").

Each test quotes the rule sentence it checks from 003_87e0c83f3aec659f.txt (or an
`interpretations:` entry of rules/base/*.yaml / DESIGN §9).
"""
from __future__ import annotations

import pytest

from harness import fill_tavern, give, new_engine, run, run_log, set_coins, shown, values

from nidavellir.runtime.flow import bids, enter_dwarves, resolve_taverns, trade_gems
from nidavellir.runtime.state import BASIC, TREASURE


def set_gems(e, *gems):
    for pl, g in zip(e.s.players, gems):
        pl.gem = g


def column(e, p, cls):
    return [e.s.cards[c] for c in e.s.players[p].army.get(cls, [])]


def picks(log):
    """The players asked to choose a card, in order."""
    return [d.player for d in log if d.kind == "pick"]


def owner_of(e, cid):
    for p, pl in enumerate(e.s.players):
        for col in pl.army.values():
            if any(e.s.cards[c] == cid for c in col):
                return p
    return None


# -- turn preparation ------------------------------------------------------------------------

@pytest.mark.parametrize("players,per", [(2, 3), (3, 3), (4, 4), (5, 5)])
def test_enter_the_dwarves_puts_x_cards_in_each_tavern(players, per):
    """003 "Enter the Dwarves": "Place X current-Age cards face up in each tavern, where X equals the
    number of Elvalands (except in a 2-Elvaland game ...)"; 2 Elvalands: "put 3 Dwarf cards in each
    tavern each turn". """
    e = new_engine(players, seed=4)
    top = list(e.s.decks[1])
    run(enter_dwarves(e))
    assert [len(t) for t in e.s.taverns] == [per, per, per]
    assert len(e.s.decks[1]) == len(top) - 3 * per
    assert sorted(c for t in e.s.taverns for c in t) == sorted(top[-3 * per:])


def test_enter_the_dwarves_uses_the_current_age_deck():
    """003 "Enter the Dwarves": "Place X current-Age cards face up in each tavern". """
    e = new_engine(3, seed=4, age=2)
    before1, before2 = len(e.s.decks[1]), len(e.s.decks[2])
    run(enter_dwarves(e))
    assert len(e.s.decks[1]) == before1
    assert len(e.s.decks[2]) == before2 - 9


def test_bids_one_coin_on_each_tavern_the_other_two_in_the_pouch():
    """003 "Bids": "From your 5 coins, place one coin of your choosing face down on each of the three
    Tavern locations on your board. Place the two unused coins face down in your pouch." """
    e = new_engine(3, seed=5)
    log = run_log(bids(e), [5, 0, 3], [2, 3, 4], [4, 5, 0])
    assert [d.player for d in log] == [0, 1, 2]
    assert all(d.kind == "bid" for d in log)
    # every ordered choice of 3 of the 5 coins is offered, and nothing else
    assert len(log[0].options) == 5 * 4 * 3
    assert all(len(set(o)) == 3 for o in log[0].options)
    s = e.s
    assert values(e, s.players[0].slots) == [5, 0, 3]
    assert sorted(values(e, s.players[0].pouch)) == [2, 4]
    assert values(e, s.players[1].slots) == [2, 3, 4]
    assert sorted(values(e, s.players[1].pouch)) == [0, 5]
    assert values(e, s.players[2].slots) == [4, 5, 0]
    assert all(pl.hand == [] for pl in s.players)


# -- resolution order -------------------------------------------------------------------------

def test_highest_bid_becomes_active_first_then_descending():
    """003 "Bid Revelation": "The highest-value coin determines the active Elvaland." and "Then, in
    descending order of bid coin value ... the next Elvaland becomes active and takes their turn." """
    e = new_engine(3, seed=6)
    set_gems(e, 5, 4, 3)  # the lowest bidder holds the best gem: gems must not matter without a tie
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    set_coins(e, 0, slots=[2, 3, 4], pouch=[0, 5])
    set_coins(e, 1, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 2, slots=[3, 4, 5], pouch=[0, 2])
    log = run_log(resolve_taverns(e), "warrior:9", "explorer:11")
    assert picks(log) == [1, 2]                     # P1 (bid 2) is left the last card: no decision
    assert column(e, 1, "warrior") == ["warrior:9"]
    assert column(e, 2, "explorer") == ["explorer:11"]
    assert column(e, 0, "miner") == ["miner:2"]


def test_a_tie_is_broken_by_gems_gem_5_beats_gem_1():
    """003 "Solving Ties": "the play order among the tied Elvalands is set by their gems: the
    highest-value gem plays first, then the next-highest, and so on until every tied Elvaland has
    acted. (Example: gem 5 beats gem 1.)" """
    e = new_engine(5, seed=7)
    set_gems(e, 1, 2, 3, 4, 5)
    fill_tavern(e, 0, "warrior:3", "warrior:4", "warrior:5", "warrior:7", "warrior:8")
    set_coins(e, 0, slots=[4, 2, 3], pouch=[0, 5])   # gem 1, bid 4
    set_coins(e, 1, slots=[5, 3, 2], pouch=[0, 4])   # gem 2, bid 5: alone on top
    set_coins(e, 2, slots=[2, 4, 5], pouch=[0, 3])   # gem 3, bid 2
    set_coins(e, 3, slots=[3, 5, 4], pouch=[0, 2])   # gem 4, bid 3
    set_coins(e, 4, slots=[4, 0, 2], pouch=[3, 5])   # gem 5, bid 4: ties with gem 1 and wins
    log = run_log(resolve_taverns(e), "warrior:8", "warrior:7", "warrior:5", "warrior:4")
    # tavern 1: bid 5 (P2), then the 4s by gem: gem 5 (P5) before gem 1 (P1), then 3 (P4), 2 (P3)
    assert picks(log) == [1, 4, 0, 3]
    assert column(e, 4, "warrior") == ["warrior:7"]
    assert column(e, 0, "warrior") == ["warrior:5"]


def test_a_tavern_without_cards_still_resolves_bids_in_order():
    """003 "Taverns Resolution": "Resolve the taverns one after another, always starting with the
    Laughing Goblin, then the Dancing Dragon, then the Shining Horse." """
    e = new_engine(3, seed=8)
    set_gems(e, 3, 4, 5)
    fill_tavern(e, 0, "warrior:3", "warrior:4", "warrior:5")
    fill_tavern(e, 1, "hunter", "miner:0", "miner:1")
    fill_tavern(e, 2, "explorer:5", "explorer:6", "explorer:7")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[2, 5, 4], pouch=[0, 3])
    set_coins(e, 2, slots=[3, 4, 5], pouch=[0, 2])
    log = run_log(resolve_taverns(e),
                  "warrior:5", "warrior:4",        # Laughing Goblin: P1 (5), P3 (3), P2 auto
                  "hunter", "miner:1",             # Dancing Dragon: P2 (5), P3 (4), P1 auto
                  "explorer:7", "explorer:6")      # Shining Horse: P3 (5), P2 (4), P1 auto
    assert picks(log) == [0, 2, 1, 2, 2, 1]
    assert column(e, 0, "warrior") == ["warrior:5"] and column(e, 1, "warrior") == ["warrior:3"]
    assert column(e, 1, "hunter") == ["hunter"] and column(e, 0, "miner") == ["miner:0"]
    assert column(e, 2, "explorer") == ["explorer:7"] and column(e, 0, "explorer") == ["explorer:5"]


def test_coins_are_picked_up_when_the_three_taverns_are_resolved():
    """003 "Next Turn": "When all three taverns are resolved, pick up your coins and move on to the
    next turn." """
    e = new_engine(3, seed=9)
    set_gems(e, 3, 4, 5)
    set_coins(e, 0, slots=[5, 2, 3], pouch=[4, 0])
    set_coins(e, 1, slots=[2, 5, 4], pouch=[3, 0])
    set_coins(e, 2, slots=[3, 4, 5], pouch=[2, 0])
    run(resolve_taverns(e))
    for pl in e.s.players:
        assert pl.slots == [None, None, None] and pl.pouch == []
        assert sorted(values(e, pl.hand)) == [0, 2, 3, 4, 5]


# -- card choice ------------------------------------------------------------------------------

def test_a_chosen_dwarf_goes_to_the_column_of_its_class():
    """003 "Placing a Dwarf Card": "place it in your army immediately, either by creating a new column
    (if you had no Dwarf of that class) or by adding it to the existing column of that class." """
    e = new_engine(2, seed=10)
    set_gems(e, 4, 5)
    give(e, 0, "explorer:5")
    fill_tavern(e, 0, "explorer:9", "hunter", "blacksmith")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 3], pouch=[0, 2])
    run(resolve_taverns(e), "explorer:9", "hunter")
    assert column(e, 0, "explorer") == ["explorer:5", "explorer:9"]
    assert column(e, 1, "hunter") == ["hunter"]


def test_a_royal_offering_is_resolved_immediately_and_discarded():
    """003 "Active Elvaland Turn": "resolve a Royal Offering immediately (see Transforming a Coin)";
    interpretation royal-offerings-discarded: "A royal offering goes to the discard pile once
    resolved." """
    e = new_engine(2, seed=11)
    set_gems(e, 4, 5)
    offering, _, _ = fill_tavern(e, 0, "royal-offering:3", "hunter", "blacksmith")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 3], pouch=[0, 2])
    log = run_log(resolve_taverns(e), "royal-offering:3", "4@pouch", "hunter")
    assert [d.kind for d in log] == ["pick", "coin", "pick"]
    assert log[1].player == 0
    assert offering in e.s.discard
    assert all(offering not in col for pl in e.s.players for col in pl.army.values())
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 5, 7]


# -- 2 players -------------------------------------------------------------------------------

def test_two_players_three_cards_per_tavern_and_the_untaken_card_is_discarded():
    """003 "Player Counts", 2 Elvalands: "put 3 Dwarf cards in each tavern each turn; each Elvaland
    chooses a card in bid order and the untaken card is discarded." """
    e = new_engine(2, seed=12)
    set_gems(e, 4, 5)
    run(enter_dwarves(e))
    assert [len(t) for t in e.s.taverns] == [3, 3, 3]
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:0")
    fill_tavern(e, 1, "hunter", "blacksmith", "warrior:3")
    fill_tavern(e, 2, "explorer:5", "miner:2", "warrior:4")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    discard_before = len(e.s.discard)
    log = run_log(resolve_taverns(e), "warrior:9", "explorer:11", "hunter", "blacksmith",
                  "explorer:5", "miner:2")
    assert picks(log) == [0, 1, 1, 0, 0, 1]      # both players choose in every tavern
    assert e.s.taverns == [[], [], []]
    assert [e.s.cards[c] for c in e.s.discard[discard_before:]] == ["miner:0", "warrior:3", "warrior:4"]
    assert sum(len(col) for col in e.s.players[0].army.values()) == 3
    assert sum(len(col) for col in e.s.players[1].army.values()) == 3


def test_two_players_the_third_card_is_discarded_not_kept_for_the_next_tavern():
    """003 "Player Counts", 2 Elvalands: "the untaken card is discarded"; interpretation
    untaken-cards-discarded: "Cards left in a tavern after every player has chosen are discarded at
    the end of that tavern's resolution". """
    e = new_engine(2, seed=13)
    set_gems(e, 4, 5)
    _, _, left = fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:0")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    run(resolve_taverns(e), "warrior:9", "explorer:11")
    assert e.s.discard[-1] == left
    assert owner_of(e, "miner:0") is None


# -- gem trades ------------------------------------------------------------------------------

def tie_on_first_tavern(players, gems, cards, special=None):
    """A game where every player bids 4 on the Laughing Goblin (and distinct coins elsewhere)."""
    e = new_engine(players, seed=20 + players)
    set_gems(e, *gems)
    if special is not None:
        e.gain_gem(special, 6)
    fill_tavern(e, 0, *cards)
    # other taverns: a different value for each player (treasure coins 8 and 10 for P4, P5)
    second = [2, 3, 5, 8, 10]
    third = [5, 2, 3, 10, 8]
    pouch = [[0, 3], [0, 5], [0, 2], [0, 2], [0, 2]]
    for p in range(players):
        set_coins(e, p, slots=[4, second[p], third[p]], pouch=pouch[p])
    return e


def resolve_first_tavern_only(e, *answers):
    """Resolve the taverns; taverns 2 and 3 hold no card and no tie (each value appears once)."""
    return run_log(resolve_taverns(e), *answers)


def test_gem_trade_tie_between_two_players():
    """003 "Trading Gems": "Tie between 2 Elvalands: the two gems are traded between them." """
    e = new_engine(3, seed=30)
    set_gems(e, 3, 4, 5)
    fill_tavern(e, 0, "warrior:3", "warrior:4", "warrior:5")
    set_coins(e, 0, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 1, slots=[5, 3, 2], pouch=[0, 4])
    set_coins(e, 2, slots=[4, 5, 0], pouch=[2, 3])
    log = run_log(resolve_taverns(e), "warrior:5", "warrior:4")
    assert picks(log) == [1, 2]                 # bid 5, then the 4s: gem 5 (P3) before gem 3 (P1)
    assert [pl.gem for pl in e.s.players] == [5, 4, 3]


def test_gems_are_traded_only_once_every_player_has_played():
    """003 "Trading Gems" step 3: "Once every Elvaland has played, trade gems between Elvalands who
    were tied for the same coin value on this tavern ... Then move on to the next tavern's Bid
    Revelation." The trade of one tavern decides the order of the next tie. """
    e = new_engine(2, seed=31)
    set_gems(e, 4, 5)
    fill_tavern(e, 0, "warrior:3", "warrior:4", "warrior:5")
    fill_tavern(e, 1, "explorer:5", "explorer:6", "explorer:7")
    set_coins(e, 0, slots=[4, 3, 5], pouch=[0, 2])
    set_coins(e, 1, slots=[4, 3, 2], pouch=[0, 5])
    log = run_log(resolve_taverns(e), "warrior:5", "warrior:4", "explorer:7", "explorer:6")
    # Laughing Goblin: gem 5 (P2) plays first; trade: P1 now holds 5. Dancing Dragon: P1 first.
    assert picks(log) == [1, 0, 0, 1]
    assert column(e, 1, "warrior") == ["warrior:5"]
    assert column(e, 0, "explorer") == ["explorer:7"]
    # two trades: 4<->5 twice
    assert [pl.gem for pl in e.s.players] == [4, 5]


def test_gem_trade_tie_between_three_players_keeps_the_medium_gem():
    """003 "Trading Gems": "Tie between 3 Elvalands: only the lowest and highest gems are traded; the
    medium gem is not traded." """
    e = tie_on_first_tavern(3, [3, 4, 5], ["warrior:3", "warrior:4", "warrior:5"])
    log = resolve_first_tavern_only(e, "warrior:5", "warrior:4")
    assert picks(log) == [2, 1]
    assert [pl.gem for pl in e.s.players] == [5, 4, 3]


def test_gem_trade_tie_between_four_players_swaps_both_pairs():
    """003 "Trading Gems": "Tie between 4 Elvalands: the smallest and highest gems trade, and the
    other two gems trade between themselves." """
    e = tie_on_first_tavern(4, [2, 5, 3, 4], ["warrior:3", "warrior:4", "warrior:5", "warrior:7"])
    log = resolve_first_tavern_only(e, "warrior:7", "warrior:5", "warrior:4")
    assert picks(log) == [1, 3, 2]               # gems 5, 4, 3 (then gem 2 takes the last card)
    assert [pl.gem for pl in e.s.players] == [5, 2, 4, 3]


def test_gem_trade_tie_between_five_players_keeps_the_medium_gem():
    """003 "Trading Gems": "Tie between 5 Elvalands: as for 4 Elvalands; the medium gem is not
    traded." """
    e = tie_on_first_tavern(5, [1, 2, 3, 4, 5],
                            ["warrior:3", "warrior:4", "warrior:5", "warrior:7", "warrior:8"])
    log = resolve_first_tavern_only(e, "warrior:8", "warrior:7", "warrior:5", "warrior:4")
    assert picks(log) == [4, 3, 2, 1]
    assert [pl.gem for pl in e.s.players] == [5, 4, 3, 2, 1]


def test_gem_6_sits_out_of_a_two_player_tie():
    """003 "Crown Jeweler": gem 6 "is never traded (even on a tie), and lets you win all future
    tavern-resolution ties." """
    e = new_engine(2, seed=32)
    set_gems(e, 5, 4)
    e.gain_gem(1, 6)
    fill_tavern(e, 0, "warrior:3", "warrior:4", "warrior:5")
    set_coins(e, 0, slots=[4, 3, 5], pouch=[0, 2])
    set_coins(e, 1, slots=[4, 5, 3], pouch=[0, 2])
    log = run_log(resolve_taverns(e), "warrior:5", "warrior:4")
    assert picks(log) == [1, 0]                  # gem 6 beats gem 5
    assert [pl.gem for pl in e.s.players] == [5, 6]


def test_gem_6_sits_out_and_the_rest_trade_as_a_group_one_smaller_3():
    """003 "Trading Gems": "Special value gem 6 (Miner Distinction) cannot be traded. During a gem
    trade, do not count the Elvaland who owns this gem — the remaining tied Elvalands trade as if the
    group were one smaller." Three tied with gem 6: the other two trade. """
    e = tie_on_first_tavern(3, [3, 4, 5], ["warrior:3", "warrior:4", "warrior:5"], special=0)
    log = resolve_first_tavern_only(e, "warrior:5", "warrior:4")
    assert picks(log) == [0, 2]                  # gem 6 first, then gem 5, then gem 4
    assert [pl.gem for pl in e.s.players] == [6, 5, 4]
    assert e.s.players[0].covered_gems == [3]


def test_gem_6_sits_out_and_the_rest_trade_as_a_group_one_smaller_4():
    """003 "Trading Gems": "do not count the Elvaland who owns this gem — the remaining tied
    Elvalands trade as if the group were one smaller." Four tied with gem 6: the other three trade as
    three (lowest and highest; the medium gem is not traded). """
    e = tie_on_first_tavern(4, [2, 3, 4, 5], ["warrior:3", "warrior:4", "warrior:5", "warrior:7"],
                            special=3)
    log = resolve_first_tavern_only(e, "warrior:7", "warrior:5", "warrior:4")
    assert picks(log) == [3, 2, 1]               # gem 6, then 4, 3, 2
    assert [pl.gem for pl in e.s.players] == [4, 3, 2, 6]


def test_gem_6_sits_out_and_the_rest_trade_as_a_group_one_smaller_5():
    """003 "Trading Gems": "Tie between 5 Elvalands: as for 4 Elvalands" and "the remaining tied
    Elvalands trade as if the group were one smaller": five tied with gem 6, the other four swap
    both pairs. """
    e = tie_on_first_tavern(5, [1, 2, 3, 4, 5],
                            ["warrior:3", "warrior:4", "warrior:5", "warrior:7", "warrior:8"], special=2)
    log = resolve_first_tavern_only(e, "warrior:8", "warrior:7", "warrior:5", "warrior:4")
    assert picks(log) == [2, 4, 3, 1]            # gem 6, then 5, 4, 2
    # remaining gems 1, 2, 4, 5: 1<->5 and 2<->4
    assert [pl.gem for pl in e.s.players] == [5, 4, 6, 2, 1]


def test_trade_gems_unit_cases():
    """003 "Trading Gems": "Tie between 2 Elvalands: the two gems are traded", "Tie between 3 ...: only
    the lowest and highest gems are traded", "Tie between 4 ...: the smallest and highest gems trade, and
    the other two gems trade between themselves", "Tie between 5 ...: as for 4 Elvalands; the medium gem
    is not traded"; "Special value gem 6 ... cannot be traded." """
    cases = [
        ([4, 5], [5, 4]),
        ([3, 5, 4], [5, 3, 4]),
        ([1, 4, 2, 3], [4, 1, 3, 2]),
        ([5, 1, 3, 2, 4], [1, 5, 3, 4, 2]),
        ([6, 2], [6, 2]),
        ([6, 2, 5], [6, 5, 2]),
    ]
    for gems, after in cases:
        e = new_engine(len(gems), seed=33)
        e.s.special_gems = []
        set_gems(e, *gems)
        trade_gems(e, list(range(len(gems))))
        assert [pl.gem for pl in e.s.players] == after, gems


# -- coin trades ------------------------------------------------------------------------------

def test_coin_trade_with_the_0_coin():
    """003 "Trading Coins": "When you play a coin worth 0: Reveal the two coins in your pouch. Add up
    those two coins. Discard the highest-value coin. Take the coin corresponding to the sum from the
    Royal Treasure and place it in your pouch." """
    e = new_engine(2, seed=40)
    set_gems(e, 4, 5)
    fill_tavern(e, 0, "warrior:3", "warrior:4", "warrior:5")
    set_coins(e, 0, slots=[0, 2, 4], pouch=[3, 5])
    set_coins(e, 1, slots=[4, 5, 3], pouch=[0, 2])
    five = [c for c in e.s.players[0].pouch if e.s.coins[c].value == 5][0]
    eights = len(e.s.treasure[8])
    run(resolve_taverns(e), "warrior:5", "warrior:4")
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 8]
    assert len(e.s.treasure[8]) == eights - 1
    assert five in e.s.coin_box                  # a basic coin goes back to the box
    assert e.s.coins[five].origin == BASIC


def test_coin_trade_returns_a_treasure_coin_to_the_treasure():
    """003 "Discarding Coins": "a Royal Treasure (yellow) coin is returned to its value's location in
    the Royal Treasure." (discarded by a coin trade) """
    e = new_engine(2, seed=41)
    set_gems(e, 4, 5)
    set_coins(e, 0, slots=[0, 2, 4], pouch=[3, 9])
    set_coins(e, 1, slots=[4, 5, 3], pouch=[0, 2])
    nine = [c for c in e.s.players[0].pouch if e.s.coins[c].value == 9][0]
    assert e.s.coins[nine].origin == TREASURE
    run(resolve_taverns(e))
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 12]
    assert nine in e.s.treasure[9]


def test_coin_trade_happens_after_the_card_and_the_hero():
    """003 "Active Elvaland Turn": "In the following order the active Elvaland: Chooses a card ...
    Recruits a Hero card if the conditions are met. Performs a coin trade if they played their coin
    of value 0". Grid's +7 on a pouch coin comes before the trade adds the pouch up. """
    e = new_engine(2, seed=42)
    set_gems(e, 5, 4)
    give(e, 0, "warrior:3", "hunter", "miner:1", "blacksmith")
    fill_tavern(e, 0, "explorer:5", "warrior:4", "warrior:5")
    set_coins(e, 0, slots=[0, 2, 4], pouch=[3, 5])
    set_coins(e, 1, slots=[0, 5, 3], pouch=[4, 2])
    log = run_log(resolve_taverns(e), "explorer:5", "grid", "5@pouch", "warrior:5")
    assert [(d.player, d.kind) for d in log] == [(0, "pick"), (0, "hero"), (0, "coin"), (1, "pick")]
    # the pouch held 3 and 12 (5 + 7) at the trade: 12 is discarded, 15 taken
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 15]
    # P2 also played 0: pouch 4 + 2 = 6
    assert sorted(values(e, e.s.players[1].hand)) == [0, 2, 3, 5, 6]


def test_coin_trade_with_the_hunting_masters_special_3():
    """003 "Hunting Master": "immediately trade your coin of value 0 for the special coin of value 3.
    This special coin keeps its trading properties and cannot be transformed." Played on a tavern, it
    trades like the 0: "Add up those two coins. Discard the highest-value coin." """
    e = new_engine(2, seed=43)
    set_gems(e, 4, 5)
    set_coins(e, 0, slots=[0, 2, 3], pouch=[4, 5])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    pl = e.s.players[0]
    zero = pl.slots[0]
    e.exchange_coin(0, zero, "hunter-3")
    special = pl.slots[0]
    assert e.s.coins[special].value == 3 and e.s.coins[special].trading
    assert zero in e.s.coin_box
    run(resolve_taverns(e))
    assert sorted(values(e, pl.hand)) == [2, 3, 3, 4, 9]
    assert special in pl.hand


def test_no_coin_trade_without_the_trading_coin():
    """003 "Active Elvaland Turn": "Performs a coin trade if they played their coin of value 0". """
    e = new_engine(2, seed=44)
    set_gems(e, 4, 5)
    set_coins(e, 0, slots=[2, 3, 4], pouch=[0, 5])
    set_coins(e, 1, slots=[5, 4, 3], pouch=[0, 2])
    run(resolve_taverns(e))
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 5]
    assert sorted(values(e, e.s.players[1].hand)) == [0, 2, 3, 4, 5]


# -- which coin is bid ------------------------------------------------------------------------

def hunting_master_hand(e, p):
    """p holds the Hunting Master's special 3 (trading) and a basic 3."""
    set_coins(e, p, hand=[0, 2, 3, 4, 5])
    e.exchange_coin(p, e.trading_coin(p), "hunter-3")
    return e.trading_coin(p)


def test_a_player_chooses_which_of_two_coins_of_the_same_value_to_bid():
    """003 "Bids": "From your 5 coins, place one coin of your choosing face down on each of the three
    Tavern locations on your board." With the special 3 (a trading coin) and a basic 3, the player
    chooses which 3 is bid and which stays in the pouch. """
    e = new_engine(2, seed=50)
    special = hunting_master_hand(e, 0)
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    log = run_log(bids(e), [3, 4, 5], "3@pouch", [5, 4, 0])
    assert [(d.player, d.kind) for d in log] == [(0, "bid"), (0, "trade-coin"), (1, "bid")]
    assert sorted(shown(log[1])) == ["3@laughing-goblin", "3@pouch"]
    pl = e.s.players[0]
    assert special in pl.pouch
    assert values(e, pl.slots) == [3, 4, 5] and not e.s.coins[pl.slots[0]].trading
    # the other choice puts the special 3 on the Laughing Goblin
    e = new_engine(2, seed=50)
    special = hunting_master_hand(e, 0)
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    run(bids(e), [3, 4, 5], "3@laughing-goblin", [5, 4, 0])
    assert e.s.players[0].slots[0] == special


def test_both_threes_bid_the_player_says_where_the_trading_one_goes():
    """003 "Bids": "place one coin of your choosing face down on each of the three Tavern
    locations". """
    e = new_engine(2, seed=51)
    special = hunting_master_hand(e, 0)
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    log = run_log(bids(e), [3, 5, 3], "3@shining-horse", [5, 4, 0])
    assert sorted(shown(log[1])) == ["3@laughing-goblin", "3@shining-horse"]
    pl = e.s.players[0]
    assert pl.slots[2] == special and not e.s.coins[pl.slots[0]].trading


def test_no_question_when_the_coins_of_a_value_all_go_to_one_place():
    """003 "Bids": with both 3s in the pouch, there is nothing more to choose. """
    e = new_engine(2, seed=52)
    hunting_master_hand(e, 0)
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    log = run_log(bids(e), [2, 4, 5], [5, 4, 0])
    assert [d.kind for d in log] == ["bid", "bid"]
    assert sorted(values(e, e.s.players[0].pouch)) == [3, 3]


def test_uline_chooses_which_of_two_coins_of_the_same_value_to_place():
    """003 "Uline the Seer": "wait for the other Elvalands to reveal, then place yours on the
    corresponding Tavern location face up" — a coin of her choosing: the basic 3 or the special 3. """
    e = new_engine(2, seed=53)
    set_gems(e, 4, 5)
    give(e, 0, "uline", column=None)
    special = hunting_master_hand(e, 0)
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    log = run_log(resolve_taverns(e),
                  3, "3@hand",                 # Laughing Goblin: the basic 3, the special 3 stays in hand
                  3,                           # Dancing Dragon: the special 3 (the only 3 left) ...
                  "2@hand", "5@hand",          # ... trades: 2 + 5 = 7 into the pouch, the 5 discarded
                  4)                           # Shining Horse
    assert [d.kind for d in log] == ["place-bid", "trade-coin", "place-bid", "coin", "coin", "place-bid"]
    assert sorted(shown(log[1])) == ["3@hand", "3@laughing-goblin"]
    assert shown(log[5]) == [2, 4]
    assert special in e.s.players[0].hand
    assert sorted(values(e, e.s.players[0].hand)) == [2, 3, 3, 4, 7]


def test_uline_may_place_the_trading_coin_of_two_equal_coins():
    """003 "Uline the Seer": she places a coin of her choosing; "Performs a coin trade if they played
    their coin of value 0" (the special 3 keeps "its trading properties"). """
    e = new_engine(2, seed=54)
    set_gems(e, 4, 5)
    give(e, 0, "uline", column=None)
    hunting_master_hand(e, 0)
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 5])
    log = run_log(resolve_taverns(e), 3, "3@laughing-goblin", "2@hand", "4@hand", 3, 5)
    assert [d.kind for d in log] == ["place-bid", "trade-coin", "coin", "coin", "place-bid", "place-bid"]
    assert sorted(values(e, e.s.players[0].hand)) == [2, 3, 3, 5, 6]
