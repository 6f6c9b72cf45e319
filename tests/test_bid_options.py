"""runtime/flow.py `bid_options`: every bid a hand allows, each once, in order."""
from __future__ import annotations

import random
from itertools import permutations

import pytest

from nidavellir.runtime import flow
from nidavellir.runtime.flow import bid_options


@pytest.mark.parametrize("seed", range(40))
def test_the_bids_of_a_hand_are_every_arrangement_once_in_order(seed):
    """003 "Bids": "each player secretly puts one coin on each tavern and the rest in the pouch" — the
    options are every way of putting the hand's coin values on the taverns, each once (coins of one
    value are alike), sorted; with fewer coins than taverns, one coin on each of the first taverns.
    Hands of distinct values, of repeated values, unsorted, and smaller than the taverns alike."""
    rng = random.Random(seed)
    flow._BID_OPTIONS.clear()
    for _ in range(20):
        taverns = rng.randint(1, 4)
        size = rng.randint(0, 6)
        values = [rng.randint(0, 8 if rng.random() < 0.5 else 25) for _ in range(size)]
        if rng.random() < 0.7:
            values.sort()
        hand = tuple(values)
        expected = tuple(sorted(set(permutations(hand, min(taverns, len(hand))))))
        assert bid_options(hand, taverns) == expected, (hand, taverns)
        assert bid_options(hand, taverns) == expected  # (and from the cache)
