"""Scenario tests: the base game's setup (003 "Setup", "Game Components").

Each test quotes the rule sentence it checks from 003_87e0c83f3aec659f.txt (or an
`interpretations:` entry of rules/base/*.yaml / DESIGN §9).
"""
from __future__ import annotations

from collections import Counter

import pytest

from harness import BASE, new_engine

from nidavellir.runtime.state import BASIC, SPECIAL, TREASURE


def card_counts(e, zone):
    return Counter(e.s.cards[c] for c in zone)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_gets_the_five_basic_coins(players):
    """003 Setup 1: "Give each Elvaland an individual board and their 5 basic coins (values 0, 2, 3,
    4, 5)." """
    e = new_engine(players, seed=1)
    for pl in e.s.players:
        coins = [e.s.coins[c] for c in pl.coin_ids()]
        assert sorted(c.value for c in coins) == [0, 2, 3, 4, 5]
        assert all(c.origin == BASIC for c in coins)
        assert pl.pouch == [] and pl.slots == [None, None, None]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_only_the_zero_coin_is_a_trading_coin(players):
    """003 "Trading Coins": "When you play a coin worth 0: ... Take the coin corresponding to the sum";
    "The coin value 0 can never be transformed." """
    e = new_engine(players, seed=2)
    for pl in e.s.players:
        trading = [e.s.coins[c].value for c in pl.coin_ids() if e.s.coins[c].trading]
        assert trading == [0]


def test_three_taverns_resolved_in_the_rulebook_order():
    """003 "Taverns Resolution": "always starting with the Laughing Goblin, then the Dancing Dragon,
    then the Shining Horse." """
    assert BASE.tavern_ids == ("laughing-goblin", "dancing-dragon", "shining-horse")
    e = new_engine(3)
    assert e.s.taverns == [[], [], []]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_all_21_heroes_are_available(players):
    """003 Setup 4: "Place all Hero cards on three card holders"; components: "21 Hero cards." """
    e = new_engine(players)
    heroes = card_counts(e, e.s.heroes)
    assert sum(heroes.values()) == 21
    assert heroes["dwerg"] == 5
    assert set(heroes) == {"dwerg", "skaa", "astrid", "grid", "uline", "ylud", "thrud", "kraal", "tarah",
                           "aral", "dagda", "aegur", "bonfur", "zoral", "lokdur", "hourya", "idunn"}


def test_the_five_distinctions_wait_in_class_order():
    """003 Setup 5: "Place the Distinction cards on a card holder"; "Award the Distinctions in this
    order: The King's Hand ... Hunting Master ... Crown Jeweler ... King's Great Armorer ... Pioneer of
    the Kingdom". """
    e = new_engine(4)
    assert BASE.classes == ("warrior", "hunter", "miner", "blacksmith", "explorer")
    assert sorted(e.s.cards[c] for c in e.s.distinctions) == sorted(f"distinction:{c}" for c in BASE.classes)
    names = [BASE.cards[f"distinction:{c}"].name for c in BASE.classes]
    assert names == ["The King's Hand", "Hunting Master", "Crown Jeweler", "King's Great Armorer",
                     "Pioneer of the Kingdom"]


def test_special_coin_special_gem_and_special_blacksmith_wait_aside():
    """003 components: "1 special coin (value 3, the Hunter Distinction)", "1 special gem (value 6, the
    Miner Distinction)", "plus 1 Special Blacksmith card (the Blacksmith Distinction card)." """
    e = new_engine(3)
    coin = e.s.coins[e.s.special_coins["hunter-3"]]
    assert (coin.value, coin.origin, coin.trading) == (3, SPECIAL, True)
    assert e.s.special_gems == [6]
    assert all(pl.gem != 6 for pl in e.s.players)
    assert card_counts(e, e.s.supply) == Counter({"special-blacksmith": 1})
    assert BASE.cards["special-blacksmith"].nranks == 2


def test_royal_treasure_values_range_from_5_to_25():
    """003 components: "34 Royal Treasure coins ranging from 5 up to 25." """
    e = new_engine(5)
    values = [e.s.coins[c].value for cs in e.s.treasure.values() for c in cs]
    assert len(values) == 34
    assert min(values) == 5 and max(values) == 25
    assert all(e.s.coins[c].origin == TREASURE for cs in e.s.treasure.values() for c in cs)


def test_component_totals_match_the_box():
    """003 components: "87 Dwarf cards in 5 classes: 18 Warrior, 16 Hunter, 16 Miner, 20 Blacksmith,
    16 Explorer, plus 1 Special Blacksmith card" and "5 Royal Offering cards" (a 5-player game holds
    every card)."""
    e = new_engine(5)
    every = Counter()
    for deck in e.s.decks.values():
        every += card_counts(e, deck)
    every += card_counts(e, e.s.supply)
    by_class = Counter()
    for cid, n in every.items():
        d = BASE.cards[cid]
        by_class[d.kind if d.kind == "royal-offering" else d.cls] += n
    assert by_class == Counter(warrior=18, hunter=16, miner=16, blacksmith=20 + 1, explorer=16,
                               **{"royal-offering": 5})


def test_decks_are_shuffled_by_the_seed():
    """003 Setup 8: "Shuffle the Age 1 cards together"; DESIGN §7: "A seed fixes every shuffle." """
    a, b, c = new_engine(3, seed=7), new_engine(3, seed=7), new_engine(3, seed=8)
    deck = lambda e: [e.s.cards[x] for x in e.s.decks[1]]
    assert deck(a) == deck(b)
    assert deck(a) != deck(c)
    assert sorted(deck(a)) == sorted(deck(c))


def test_players_start_with_empty_armies_and_command_zones():
    """003 Setup: nothing is placed in a player's army or Command Zone before the first turn."""
    e = new_engine(4)
    for pl in e.s.players:
        assert pl.army == {} or all(not col for col in pl.army.values())
        assert pl.command == [] and pl.heroes_counted == 0
