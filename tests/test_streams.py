"""Each source of a game's chance has a random stream of its own, derived from (seed, its id)
(issue 17 §5: "Give each deck (and each other source of randomness: gems, coins, bots) its own
stream derived from (seed, its id), so a change to one deck leaves every other deal identical";
runtime/streams.py). DESIGN §7: "A seed fixes every shuffle; a game is its seed plus its decisions."
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from harness import give, new_engine, run_log
from nidavellir.rulesets import load_rules
from nidavellir.runtime.bots import make_bot
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.flow import troop_evaluation
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.rules import Rules
from nidavellir.runtime.streams import bot_seed, derive, stream

BOTH = ("thingvellir", "idavoll")
SEEDS = range(1, 31)
STRUCTURE = str(Path(__file__).parent / "layers" / "structure.yaml")


def dealt(rules: Rules, players: int, seed: int) -> dict[str, list[object]]:
    """A game's deal as set up: each deck's cards (ids, bottom to top) and the gems by seat."""
    e = Engine(rules, [f"P{i + 1}" for i in range(players)], seed)
    e.setup()
    s = e.s
    piles: dict[str, list[object]] = {f"age {a}": [s.cards[c] for c in d] for a, d in s.decks.items()}
    piles.update({key: [s.cards[c] for c in pile] for key, pile in s.zones.items() if pile})
    piles["gems"] = [p.gem for p in s.players]
    return piles


def one_more(tmp_path: Path, rules: Rules, deck: str) -> str:
    """A variant with one more copy of the first entry of `deck` ("age 1", "camp-deck@2",
    "mythology"), as a designer writes it."""
    if deck.startswith("age "):
        age, zone, entries = int(deck[4:]), None, rules.decks[int(deck[4:])]
    else:
        zone, _, at = deck.partition("@")
        age = int(at or 1)
        entries = rules.ruleset.zone_decks[zone][age]
    entry = entries[0]
    where = f"    zone: {zone}\n" if zone else ""
    path = tmp_path / f"more-{deck.replace(' ', '-').replace('@', '-')}.yaml"
    path.write_text("layer: {id: one-more, name: One more card, description: One more card in a deck.}\n"
                    f"decks:\n  - age: {age}\n{where}    cards:\n"
                    f"      - {{card: \"{entry.card}\", count: {entry.count + 1}}}\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("deck", ["age 1", "age 2", "camp-deck@1", "camp-deck@2", "mythology"])
def test_one_more_card_in_a_deck_leaves_every_other_deal_as_it_was(tmp_path, deck):
    """Issue 17 §5: "a change to one deck leaves every other deal identical". For each deck of the
    three boxes, a variant with one more card in it deals, for every seed and player count, every
    other deck and the gems exactly as the rules without it; the changed deck has that card more."""
    base = load_rules(BOTH)
    changed = load_rules(BOTH, (one_more(tmp_path, base, deck),))
    for players in range(base.min_players, base.max_players + 1):
        for seed in SEEDS:
            a, b = dealt(base, players, seed), dealt(changed, players, seed)
            assert a.keys() == b.keys()
            assert len(b[deck]) == len(a[deck]) + 1
            assert {k: v for k, v in a.items() if k != deck} == {k: v for k, v in b.items() if k != deck}, \
                (players, seed)


def test_a_layer_that_adds_zones_leaves_the_other_deals_as_they_were():
    """Issue 17 §5: "each deck (every age deck, every per-age zone deck …, the mythology deck and any
    zone a layer adds)" has its own stream: a layer adding a zone with a deck per age deals the age
    decks and the gems as before."""
    base, market = load_rules(), load_rules((), (STRUCTURE,))
    for seed in SEEDS:
        a, b = dealt(base, 3, seed), dealt(market, 3, seed)
        assert {"market-deck@1", "market-deck@2"} <= b.keys()
        assert {k: b[k] for k in a} == a


def test_a_variant_that_changes_no_deck_deals_every_deck_the_same(tmp_path):
    """A variant that changes a card's points but no deck deals every deck and the gems as the rules
    without it (and so pairs its games with theirs deal for deal)."""
    path = tmp_path / "skaa.yaml"
    path.write_text("layer: {id: skaa-20, name: Skaa 20, description: Skaa is worth 20.}\n"
                    "cards:\n  - {id: skaa, points: 20}\n", encoding="utf-8")
    base, changed = load_rules(BOTH), load_rules(BOTH, (str(path),))
    for seed in SEEDS:
        assert dealt(base, 4, seed) == dealt(changed, 4, seed)


def test_a_deck_with_the_same_cards_at_two_player_counts_is_dealt_the_same():
    """runtime/streams.py: "a deck's stream does not depend on the number of players, but a deck
    whose cards differ with it … is dealt from that stream differently". The base game's age decks
    hold the same cards with 2, 3 and 4 players (the 5-player marks add cards for 5)."""
    rules = load_rules()
    for seed in SEEDS:
        deals = [dealt(rules, n, seed) for n in (2, 3, 4)]
        for age in ("age 1", "age 2"):
            assert deals[0][age] == deals[1][age] == deals[2][age]
        assert len(dealt(rules, 5, seed)["age 1"]) > len(deals[0]["age 1"])


def test_the_streams_are_the_documented_hash_of_seed_purpose_and_id():
    """runtime/streams.py: "A stream is `random.Random(n)` with n the 128-bit BLAKE2b digest of
    `"{seed}/{purpose}/{id}"`" — the documented formula, so that a seed deals the same game on any
    machine and version that keeps it (a decision log replays)."""
    for seed, purpose, key in [(1, "gems", ""), (-7, "age-deck", "2"), (10 ** 18, "zone-deck", "camp-deck@1")]:
        n = int.from_bytes(hashlib.blake2b(f"{seed}/{purpose}/{key}".encode(), digest_size=16).digest(), "big")
        assert derive(seed, purpose, key) == n
        assert stream(seed, purpose, key).random() == random.Random(n).random()
    assert derive(5, "gems") != derive(-5, "gems")  # (random.Random(-5) is random.Random(5))


def test_a_deal_does_not_depend_on_the_process(tmp_path):
    """"never Python's salted hash()": processes with other hash seeds deal the same game."""
    code = ("import json; from nidavellir.rulesets import load_rules; from nidavellir.runtime.engine import Engine\n"
            "e = Engine(load_rules(('thingvellir',)), ['A', 'B', 'C'], 11); e.setup()\n"
            "print(json.dumps([[e.s.cards[c] for c in e.s.decks[2]], e.s.zones['camp-deck@1'],"
            " [p.gem for p in e.s.players]]))")
    outs = []
    for salt in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": salt}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                              check=True)
        outs.append(json.loads(done.stdout))
    here = dealt(load_rules(("thingvellir",)), 3, 11)
    assert outs[0] == outs[1]
    assert outs[0][0] == here["age 2"] and outs[0][2] == here["gems"]


def test_every_bot_has_a_stream_of_its_own():
    """Issue 17 §5: each bot its own stream from (seed, its id): no two seats of any games share a
    bot seed, and none is the seed of a game's deal (seed × 1000 + seat was game 1000's deal for
    seat 1 of game 1)."""
    seeds = {bot_seed(seed, k) for seed in range(-100, 2000) for k in range(5)}
    assert len(seeds) == 2100 * 5
    assert not seeds & set(range(-100, 2000))


def test_a_reshuffle_in_play_has_a_stream_of_its_own():
    """003 "Pioneer of the Kingdom": "Shuffle the two unkept cards back into the Age 2 deck." That
    shuffle draws from a stream of its own (the deck and how many times it was reshuffled): the
    same seed reshuffles the same way even when another deck holds other cards, the count is kept
    in the state, and no other deck moves."""
    orders = []
    for other_age_1 in (False, True):
        e = new_engine(3, seed=9)
        give(e, 0, "explorer:5")
        if other_age_1:
            e.s.decks[1].pop()  # another Age 1 deck: not the stream of the Age 2 deck's reshuffle
        age_1, d2 = list(e.s.decks[1]), e.s.decks[2]
        for cid in ("explorer:7", "warrior:3", "hunter"):  # the draw: three dwarves, the hunter kept
            d2.append(d2.pop(next(i for i, c in enumerate(d2) if e.s.cards[c] == cid)))
        run_log(troop_evaluation(e), "hunter@draw")
        assert e.s.reshuffles == {"age:2": 1}
        assert e.s.decks[1] == age_1
        orders.append([e.s.cards[c] for c in e.s.decks[2]])
    assert orders[0] == orders[1]


RESHUFFLING = """\
layer: {id: reshuffling, name: Reshuffling hunters, description: A hunter taken looks at the Age 2 deck.}
cards:
  - id: hunter
    effects:
      - "when taken: look at 3 from age 2 deck, take 1, rest shuffled"
"""


def test_a_copy_goes_on_alike_across_reshuffles(tmp_path):
    """DESIGN §7 / the README's `game.copy()`: "an independent game at the same decision". With
    reshuffles in play (every Hunter taken looks at the Age 2 deck, keeps one and shuffles the rest
    back), a copy made at any decision, answered as the game was, ends in the same state as the
    game; a game replayed from its seed and decisions too."""
    path = tmp_path / "reshuffling.yaml"
    path.write_text(RESHUFFLING, encoding="utf-8")
    rules = load_rules((), (str(path),))
    for seed in (1, 2):
        game = Game(rules, 3, seed)
        bots = [make_bot("random", bot_seed(seed, k)) for k in range(3)]
        copies: list[tuple[Game, int]] = []
        answers = []
        while game.pending is not None:
            if len(answers) % 25 == 0:
                copies.append((game.copy(), len(answers)))
            answer = bots[game.pending.player].choose(observe(game))
            answers.append(answer)
            game.answer(answer)
        assert game.state.reshuffles.get("age:2", 0) >= 6  # (six hunters in the Age 1 deck)
        replayed = Game(rules, 3, seed)
        for answer in answers:
            replayed.answer(answer)
        assert replayed.scores() == game.scores() and replayed.state == game.state
        for copy, given in copies:
            for answer in answers[given:]:
                copy.answer(answer)
            assert copy.state == game.state and copy.scores() == game.scores()


def test_a_sampled_world_has_streams_of_its_own():
    """runtime/observation.py: a world is drawn "from what this player may know; the true hidden
    parts play no" role: its reshuffles come from streams of its own, and its copies keep them."""
    game = Game(load_rules(), 3, 4)
    world = observe(game).sample(random.Random(1))
    assert world.engine.s.chance != game.engine.s.chance
    assert world.copy().engine.s.chance == world.engine.s.chance
    assert game.copy().engine.s.chance == game.engine.s.chance == 4
