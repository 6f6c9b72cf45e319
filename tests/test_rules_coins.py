"""Scenario tests: transforming and discarding coins (003 "Transforming a Coin", "Discarding Coins",
"Ties and Coin Transformation on a Resolving Tavern").

Each test quotes the rule sentence it checks from 003_87e0c83f3aec659f.txt (or an
`interpretations:` entry of rules/base/*.yaml / DESIGN §9).
"""
from __future__ import annotations

from harness import fill_tavern, new_engine, pull, run, run_log, set_coins, shown, values

from nidavellir.runtime.coins import treasure_value
from nidavellir.runtime.flow import resolve_taverns
from nidavellir.runtime.state import BASIC, TREASURE


def set_gems(e, *gems):
    for pl, g in zip(e.s.players, gems):
        pl.gem = g


def coin_of(e, p, value, where=None):
    pl = e.s.players[p]
    zone = pl.coin_ids() if where is None else {"hand": pl.hand, "pouch": pl.pouch}.get(where, pl.slots)
    return next(c for c in zone if c is not None and e.s.coins[c].value == value)


def take_royal_offering(e, p, cid, *answers):
    card = pull(e, cid)
    return run_log(e.take_card(p, card), *answers)


def empty_treasure_values(e, *vals):
    """Hand every treasure coin of these values to the last player (out of reach of the others)."""
    q = e.n - 1
    for v in vals:
        while e.s.treasure.get(v):
            e.s.players[q].hand.append(e.s.treasure[v].pop())


# -- which coin the treasure gives -----------------------------------------------------------

def test_transform_takes_the_exact_value():
    """003 "Transforming a Coin": "Immediately add the +X value to one of your coins ... Discard that
    coin and take a coin of the new value from the Royal Treasure." """
    e = new_engine(3, seed=1)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    log = take_royal_offering(e, 0, "royal-offering:3", "5@hand")
    assert log[0].kind == "coin" and log[0].player == 0
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 8]


def test_transform_takes_the_next_higher_value_when_the_exact_one_is_gone():
    """003: "If the coin of the desired value is unavailable, take the first higher value available
    in the Royal Treasure". """
    e = new_engine(3, seed=2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    empty_treasure_values(e, 8, 9)
    take_royal_offering(e, 0, "royal-offering:3", "5@hand")
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 10]


def test_transform_takes_the_closest_lower_value_when_no_higher_remains():
    """003: "if no higher values remain, take the first available lower value (closest to the desired
    value)." """
    e = new_engine(3, seed=3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 21])
    empty_treasure_values(e, 25, 24)
    take_royal_offering(e, 0, "royal-offering:3", "21@hand")   # 24 wanted; 25 gone; 23 is closest
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 23]


def test_treasure_value_rule():
    """003: "take the first higher value available ...; if no higher values remain, take the first
    available lower value (closest to the desired value)." """
    assert treasure_value([5, 8, 12], 8) == 8
    assert treasure_value([5, 9, 12], 8) == 9
    assert treasure_value([5, 12, 20], 8) == 12
    assert treasure_value([5, 6, 7], 8) == 7
    assert treasure_value([5, 6], 30) == 6
    assert treasure_value([], 8) is None


def test_you_cannot_take_back_a_coin_you_discarded_in_a_transformation():
    """003: "You cannot take back a coin you discarded during a trade or transformation." The only 25,
    raised by 3 (28 wanted, nothing higher), gives the closest lower coin left, 24, not the 25. """
    e = new_engine(3, seed=4)
    set_coins(e, 0, hand=[0, 2, 3, 4, 25])
    old = coin_of(e, 0, 25)
    assert e.s.treasure[25] == []
    take_royal_offering(e, 0, "royal-offering:3", "25@hand")
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 24]
    assert e.s.treasure[25] == [old]


def test_you_cannot_take_back_a_coin_you_discarded_in_a_trade():
    """003: "You cannot take back a coin you discarded during a trade or transformation." Pouch 2 and
    25: the sum 27 has nothing higher, the 25 being discarded is not taken back: 24. """
    e = new_engine(2, seed=5)
    set_gems(e, 4, 5)
    set_coins(e, 0, slots=[0, 3, 4], pouch=[2, 25])
    set_coins(e, 1, slots=[4, 5, 3], pouch=[0, 2])
    old = coin_of(e, 0, 25)
    run(resolve_taverns(e))
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 24]
    assert e.s.treasure[25] == [old]


# -- where the coins go ---------------------------------------------------------------------

def test_a_transformed_basic_coin_goes_to_the_box():
    """003 "Discarding Coins": "a basic coin (red) is returned to the box and no longer used". """
    e = new_engine(3, seed=6)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    old = coin_of(e, 0, 4)
    assert e.s.coins[old].origin == BASIC
    take_royal_offering(e, 0, "royal-offering:3", "4@hand")
    assert old in e.s.coin_box
    assert all(old not in cs for cs in e.s.treasure.values())
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 5, 7]


def test_a_transformed_treasure_coin_returns_to_the_treasure():
    """003 "Discarding Coins": "a Royal Treasure (yellow) coin is returned to its value's location in
    the Royal Treasure." """
    e = new_engine(3, seed=7)
    set_coins(e, 0, hand=[0, 2, 3, 4, 12])
    old = coin_of(e, 0, 12)
    assert e.s.coins[old].origin == TREASURE
    take_royal_offering(e, 0, "royal-offering:3", "12@hand")
    assert old in e.s.treasure[12]
    assert old not in e.s.coin_box
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 15]


def test_the_new_coin_takes_the_place_of_the_old_one():
    """003: "Place the new coin on the location of the discarded coin: face up on a previously or
    currently resolved Tavern location, or face down in the pouch or on an unresolved Tavern
    location." """
    e = new_engine(3, seed=8)
    set_coins(e, 0, slots=[2, 3, 4], pouch=[0, 5])
    take_royal_offering(e, 0, "royal-offering:3", "3@dancing-dragon")
    assert values(e, e.s.players[0].slots) == [2, 6, 4]
    take_royal_offering(e, 0, "royal-offering:5", "5@pouch")
    assert sorted(values(e, e.s.players[0].pouch)) == [0, 10]
    take_royal_offering(e, 0, "royal-offering:5", "2@laughing-goblin")
    assert values(e, e.s.players[0].slots) == [7, 6, 4]


def test_every_coin_on_the_board_may_be_transformed_except_the_trading_coin():
    """003: "Immediately add the +X value to one of your coins (whether it is on a resolved or
    unresolved Tavern location, or in the pouch)." and "The coin value 0 can never be
    transformed." """
    e = new_engine(3, seed=9)
    set_coins(e, 0, slots=[2, 3, 4], pouch=[0, 5])
    log = take_royal_offering(e, 0, "royal-offering:3", "4@shining-horse")
    assert sorted(shown(log[0])) == sorted(["2@laughing-goblin", "3@dancing-dragon", "4@shining-horse",
                                             "5@pouch"])


# -- coins that never transform -------------------------------------------------------------

def test_the_0_coin_is_never_transformed():
    """003: "The coin value 0 can never be transformed." """
    e = new_engine(3, seed=10)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    zero = coin_of(e, 0, 0)
    log = take_royal_offering(e, 0, "royal-offering:3", "2@hand")
    assert "0@hand" not in shown(log[0])
    run(e.transform(0, zero, 5))                 # asked directly, nothing happens
    assert sorted(values(e, e.s.players[0].hand)) == [0, 3, 4, 5, 5]
    assert zero in e.s.players[0].hand


def test_the_hunting_masters_special_3_is_never_transformed():
    """003 "Hunting Master": "This special coin keeps its trading properties and cannot be
    transformed."; interpretation trading-coins-never-transform: "Neither the 0 coin nor the special
    coin 3 of the Hunting Master is ever transformed." """
    e = new_engine(3, seed=11)
    set_coins(e, 0, hand=[0, 2, 4, 5, 6])
    e.exchange_coin(0, coin_of(e, 0, 0), "hunter-3")
    special = coin_of(e, 0, 3)
    log = take_royal_offering(e, 0, "royal-offering:5", "2@hand")
    assert "3@hand" not in shown(log[0])
    run(e.transform(0, special, 5))
    assert special in e.s.players[0].hand
    assert sorted(values(e, e.s.players[0].hand)) == [3, 4, 5, 6, 7]


def test_a_player_with_only_trading_coins_to_offer_is_not_asked():
    """003: "The coin value 0 can never be transformed." A single transformable coin is taken without
    a question (a decision with a single option is answered automatically)."""
    e = new_engine(3, seed=12)
    set_coins(e, 0, hand=[0, 7])
    log = take_royal_offering(e, 0, "royal-offering:3")
    assert log == []
    assert sorted(values(e, e.s.players[0].hand)) == [0, 10]


# -- transforms during a tavern -------------------------------------------------------------

def test_a_transform_on_the_resolving_tavern_keeps_the_tie_and_the_gem_trade():
    """003 "Ties and Coin Transformation on a Resolving Tavern": "Ties are determined during bid
    revelation. Transforming a coin placed on a Tavern location being resolved does not change that
    tavern's tie status, and gems must still be traded between the tied Elvalands at the end of that
    tavern's resolution." """
    e = new_engine(3, seed=13)
    set_gems(e, 5, 4, 3)
    fill_tavern(e, 0, "royal-offering:3", "warrior:9", "explorer:11")
    set_coins(e, 0, slots=[3, 4, 5], pouch=[0, 2])
    set_coins(e, 1, slots=[3, 5, 2], pouch=[0, 4])
    set_coins(e, 2, slots=[2, 3, 4], pouch=[0, 5])
    log = run_log(resolve_taverns(e), "royal-offering:3", "3@laughing-goblin", "warrior:9")
    assert [(d.player, d.kind) for d in log] == [(0, "pick"), (0, "coin"), (1, "pick")]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 4, 5, 6]     # the 3 became a 6
    # P1 and P2 were tied on 3 at the Laughing Goblin: they still trade gems (5 <-> 4)
    assert [pl.gem for pl in e.s.players] == [4, 5, 3]


def test_a_transform_on_an_unresolved_tavern_changes_its_later_bid():
    """003: "Place the new coin on the location of the discarded coin: ... face down in the pouch or
    on an unresolved Tavern location." The new coin is the bid revealed there. """
    e = new_engine(3, seed=14)
    set_gems(e, 3, 4, 5)
    fill_tavern(e, 0, "royal-offering:3", "warrior:9", "explorer:11")
    fill_tavern(e, 1, "hunter", "miner:2", "blacksmith")
    set_coins(e, 0, slots=[5, 2, 4], pouch=[0, 3])
    set_coins(e, 1, slots=[4, 3, 5], pouch=[0, 2])
    set_coins(e, 2, slots=[2, 4, 3], pouch=[0, 5])
    log = run_log(resolve_taverns(e),
                  "royal-offering:3", "2@dancing-dragon",   # P1's 2 on the Dancing Dragon becomes 5
                  "warrior:9",
                  "hunter", "miner:2")
    # Dancing Dragon: P1 (5) now first, then P3 (4), then P2 (3)
    assert [d.player for d in log if d.kind == "pick"] == [0, 1, 0, 2]
    assert e.s.cards[e.s.players[0].army["hunter"][0]] == "hunter"
    # no tie at the Dancing Dragon: gems unchanged
    assert [pl.gem for pl in e.s.players] == [3, 4, 5]
