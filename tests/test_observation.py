"""The observation (issue 10, DESIGN §7): "what a given player may know at a decision — own coins,
own bids, bids revealed so far, every board and command zone, taverns, the Camp, the public piles
… — and nothing hidden (others' unrevealed bids, deck order, the mythology cards set aside). Bots
receive only this; a test shows that a bot's choices are identical whatever the hidden
information it could not see."

003 "Bids": each player "secretly" places a coin on each tavern; "Taverns Resolution": the bids
on a tavern are revealed when it resolves. 003 "Trading Coins": the two coins of the pouch are
added up in the open.
"""
from __future__ import annotations

import random

import pytest

from nidavellir.rulesets import load_rules
from nidavellir.runtime.bots import GreedyBot, RandomBot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import NoWorld, face_down, observe, view_of

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]


def _games(boxes, seeds):
    """Seeded random games, yielding the game at every decision."""
    rules = load_rules(boxes)
    for seed in seeds:
        n = 2 + seed % 4
        game = Game(rules, n, seed)
        bots = [RandomBot(seed * 100 + i) for i in range(n)]
        while game.pending is not None:
            yield game
            game.answer(bots[game.pending.player].choose(observe(game)))


def test_others_bids_are_hidden_until_their_tavern_is_revealed():
    """While bids are being placed, another player's coins show in their hand, none on a tavern or
    in the pouch; once the first tavern resolves, its bids are seen and the others' still not; the
    observer's own bids are always seen."""
    game = Game(load_rules(), 3, seed=5)
    game.answer(game.pending.options[7])  # P1 bids
    assert game.pending.kind == "bid" and game.pending.player == 1
    view = observe(game).view
    real = game.state.players[0]
    assert view.players[0].slots == [None, None, None] and view.players[0].pouch == []
    assert sorted(view.players[0].hand) == sorted(real.coin_ids())
    while not (game.pending.kind == "pick" and game.engine.s.bids_revealed == 1):
        game.answer(game.pending.options[0])
    obs = observe(game)
    for q, pl in enumerate(obs.view.players):
        real = game.state.players[q]
        if q == obs.player:
            assert pl.slots == real.slots and pl.pouch == real.pouch
        else:
            assert pl.slots[0] == real.slots[0] and pl.slots[1:] == [None, None]


def test_deck_order_is_not_in_the_view():
    """The decks' order is hidden: the view lists each face-down deck in one fixed order, the same
    whatever the shuffle (two seeds, same cards, other orders)."""
    for boxes in (("thingvellir", "idavoll"),):
        rules = load_rules(boxes)
        a, b = Game(rules, 3, seed=1), Game(rules, 3, seed=2)
        assert a.state.decks[2] != b.state.decks[2] and sorted(a.state.decks[2]) == sorted(b.state.decks[2])
        va, vb = observe(a).view, observe(b).view
        assert va.decks[2] == vb.decks[2] == sorted(a.state.decks[2])
        for key in face_down(a.engine):
            assert va.zones[key] == sorted(a.state.zones[key])


@pytest.mark.parametrize("boxes", BOXES, ids=lambda b: "+".join(b) or "base")
def test_a_sampled_world_is_at_the_same_decision_and_leaves_the_game_alone(boxes):
    """`sample` gives a game at the same decision (same player, kind and options) that the observer
    cannot tell from the real one, and the real game is unchanged; the world's copies are itself."""
    worlds = mismatched = 0
    for k, game in enumerate(_games(boxes, range(1, 9))):
        if k % 4:
            continue
        obs = observe(game)
        before = game.state.copy()
        try:
            world = obs.sample(random.Random(k))
        except NoWorld:
            continue
        worlds += 1
        assert game.state == before
        assert world.pending.player == obs.player and world.pending.options == obs.decision.options
        if view_of(world.engine, obs.player) != obs.view:
            mismatched += 1
        assert view_of(world.copy().engine, obs.player) == view_of(world.engine, obs.player)
    assert worlds > 100
    assert mismatched <= worlds // 50, f"{mismatched} of {worlds} worlds differ from what the player sees"


@pytest.mark.parametrize("boxes", BOXES, ids=lambda b: "+".join(b) or "base")
def test_a_bots_choice_does_not_depend_on_what_it_cannot_see(boxes):
    """The same observation with other hidden parts (another truth drawn for the others' bids and
    the decks' order) gives the same observation, the same worlds and the same choices."""
    checked = 0
    for k, game in enumerate(_games(boxes, range(20, 26))):
        if k % 6:
            continue
        obs = observe(game)
        try:
            other = obs.sample(random.Random(1000 + k))  # another truth the player cannot tell apart
        except NoWorld:
            continue
        obs2 = observe(other)
        if obs2.view != obs.view:
            continue  # (a rare world that drifted: counted by the test above)
        checked += 1
        assert obs2.decision == obs.decision
        assert GreedyBot(k).choose(obs) == GreedyBot(k).choose(obs2)
        assert RandomBot(k).choose(obs) == RandomBot(k).choose(obs2)
        r1, r2 = random.Random(k), random.Random(k)
        try:
            w1, w2 = obs.sample(r1), obs2.sample(r2)
        except NoWorld:
            continue
        assert w1.state == w2.state
        assert r1.getstate() == r2.getstate()  # nor does how many draws it took (a search goes on drawing)
    assert checked > 30
