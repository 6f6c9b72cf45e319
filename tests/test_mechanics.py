"""The runtime's generic mechanisms that the expansions' cards need (DESIGN §5), exercised with the
test cards of tests/layers/mechanics.yaml: each is modelled on an expansion card's wording in
001_b589e44fbbff9743.txt, and none needs card-specific Python."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness import fill_tavern, give, ids, new_engine, pull, run, set_coins, values
from nidavellir.rulesets import load_rules
from nidavellir.runtime.flow import resolve_taverns
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.scoring import player_score

LAYER = str(Path(__file__).parent / "layers" / "mechanics.yaml")
RULES = load_rules((), (LAYER,))


@pytest.fixture
def e():
    return new_engine(3, seed=4, rules=RULES)


def line(e, p):
    """Give p one dwarf of each class: a complete line."""
    return give(e, p, "warrior:3", "hunter", "miner:1", "blacksmith", "explorer:5")


def test_owner_event_advances_a_track(e):
    """Sigrdrífa: "Each time you recruit a Hero card, regardless of how, move down one notch the
    Strength token" (track 0 - 0 - 8 - 16); a valkyrie scores the notch her token stands on."""
    (track,) = give(e, 0, "test-track", column=None)
    line(e, 0)
    run(e.check_heroes(0), "skaa")
    assert e.mark(track, "notch") == 1 and e.track_value(track) == 0
    run(e.recruit_hero(0, counted=False), "astrid")
    assert e.track_value(track) == 8
    assert player_score(e, 0)["breakdown"]["heroes"] == 17 + e.highest_coin(0) + 8


def test_track_stops_at_its_last_notch(e):
    """DESIGN §9: "the token stops at the last"; Svafa moves one notch per point of betterment."""
    (track,) = give(e, 0, "test-better", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    coin = e.s.players[0].hand[4]
    run(e.transform(0, coin, 3))  # 5 -> 8: three points of betterment
    assert e.track_value(track) == 16 and e.mark(track, "notch") == 3


def test_optional_once_per_game_replacement_cancels_a_discard(e):
    """Thor: "When a discard effect should trigger, you can cancel it" — once per game (power token)."""
    give(e, 0, "test-shield", column=None)
    warrior, = give(e, 0, "warrior:9")
    miner, = give(e, 0, "miner:2")
    run(e.discard_card(0, warrior), "yes")
    assert warrior in e.s.players[0].army["warrior"]
    run(e.discard_card(0, miner))  # the power is spent: no question, the card goes
    assert miner in e.s.discard


def test_declined_power_stays_available(e):
    give(e, 0, "test-shield", column=None)
    a, b = give(e, 0, "warrior:9", "warrior:8")
    run(e.discard_card(0, a), "no")
    assert a in e.s.discard
    run(e.discard_card(0, b), "yes")
    assert b in e.s.players[0].army["warrior"]


def test_modifier_adds_to_every_transformation(e):
    """Jarika: "Add 2 for all coin tradings or transformations"."""
    give(e, 0, "test-bonus", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    run(e.transform(0, e.s.players[0].hand[1], 3))  # 2 + 3 + 2
    assert sorted(values(e, e.s.players[0].hand)) == [0, 3, 4, 5, 7]


def test_each_other_player_chooses_a_discard(e):
    """Höfud: "All opponents choose a warrior to discard"."""
    give(e, 1, "warrior:3", "warrior:9")
    give(e, 2, "explorer:5")
    card = pull(e, "test-raid")
    run(e.take_card(0, card))
    assert [e.s.cards[c] for c in e.s.players[1].army["warrior"]] == ["warrior:3"]
    assert e.s.cards[e.s.discard[-1]] == "warrior:9"
    assert not violations(e)


def test_take_a_card_from_the_discard_pile(e):
    """Andumia: "You can take a card from the discard pile" — a dwarf taken enters the army."""
    e.s.discard.append(pull(e, "explorer:11"))
    e.s.discard.append(pull(e, "royal-offering:3"))
    run(e.take_card(0, pull(e, "test-scavenger")), "explorer:11")
    assert [e.s.cards[c] for c in e.s.players[0].army["explorer"]] == ["explorer:11"]


def test_capture_replaces_a_dwarf_entering_the_army(e):
    """Thrivaldi: "Capture the next Blacksmith card you recruit to immediately recruit a Hero card.
    This card does not count in the number of Hero cards"."""
    (giant,) = give(e, 0, "test-giant", column=None)
    smith = pull(e, "blacksmith")
    run(e.take_card(0, smith), "yes", "skaa")
    assert e.mark(giant, "captured") == [smith]
    assert "blacksmith" not in e.s.players[0].army or not e.s.players[0].army["blacksmith"]
    assert e.s.players[0].heroes_counted == 0
    assert not violations(e)


def test_declined_capture_turns_the_giant_face_down(e):
    """Giants: "If you place the Dwarf card in your Army, turn the Giant card face down ... no longer
    have any effect"."""
    (giant,) = give(e, 0, "test-giant", column=None)
    run(e.take_card(0, pull(e, "blacksmith")), "no")
    assert e.used(giant)
    run(e.take_card(0, pull(e, "blacksmith")))  # no question any more
    assert e.ranks(0, "blacksmith") == 2


def test_two_doubles_into_two_different_columns(e):
    """Olwyn: "Put his two doubles in your army. They are 0 points but worth 1 rank" — in two different
    columns (DESIGN §5)."""
    log = run(e.take_card(0, pull(e, "test-doubles")), "miner", "hunter")
    assert log is None
    assert e.ranks(0, "miner") == 1 and e.ranks(0, "hunter") == 1


def test_second_double_cannot_use_the_first_column(e):
    gen = e.take_card(0, pull(e, "test-doubles"))
    first = next(gen)
    second = gen.send("miner")
    assert "miner" in first.options and "miner" not in second.options


def test_pouch_coins_and_an_other_coin(e):
    """Vidofnir & Vedrfolnir: "Add 2 and 3 to each of the coins in your pouch"."""
    set_coins(e, 0, slots=[0, 4, 5], pouch=[2, 3])
    run(e.take_card(0, pull(e, "test-pouch")), "2@pouch")
    # 2 + 2 = 4: the treasure has no 4, so the next higher, 5 (003 "Transforming a Coin"); 3 + 3 = 6.
    assert sorted(values(e, e.s.players[0].pouch)) == [5, 6]


def test_pouch_with_the_trading_coin(e):
    """"If one of them is the trading coin, add 5 to the other"."""
    set_coins(e, 0, slots=[2, 4, 5], pouch=[0, 3])
    run(e.take_card(0, pull(e, "test-pouch")))
    assert sorted(values(e, e.s.players[0].pouch)) == [0, 8]


def test_chosen_class_is_remembered_and_scored(e):
    """Mjöllnir: "choose a class. Score 2 points for each rank in that class"."""
    give(e, 0, "hunter", "hunter", "hunter")
    card = pull(e, "test-class")
    run(e.take_card(0, card), "hunter")
    assert e.mark(card, "class") == "hunter"
    assert e.defs[card].score(e, 0, card) == 6


def test_tokens_make_one_trade_keep_the_higher_coin(e):
    """Zolkur: "Trade the lower coin instead of the higher in your next coin trade"."""
    run(e.take_card(0, pull(e, "test-tokens")))
    set_coins(e, 0, slots=[0, 4, 5], pouch=[2, 3])
    run(e.coin_trade(0, e.s.players[0].slots[0]))
    assert sorted(values(e, e.s.players[0].pouch)) == [3, 5]  # the 2 went, the 3 stays
    set_coins(e, 0, slots=[0, 4, 5], pouch=[2, 3])
    run(e.coin_trade(0, e.s.players[0].slots[0]))
    assert sorted(values(e, e.s.players[0].pouch)) == [2, 5]  # back to the rule: the higher goes


def test_swap_cards_between_taverns(e):
    """Freya: "swap one card in a tavern with a card in another tavern"."""
    fill_tavern(e, 0, "warrior:9")
    fill_tavern(e, 1, "explorer:11", "miner:2")
    run(e.take_card(0, pull(e, "test-swap")), "warrior:9@laughing-goblin", "explorer:11@dancing-dragon")
    assert [e.s.cards[c] for c in e.s.taverns[0]] == ["explorer:11"]
    assert [e.s.cards[c] for c in e.s.taverns[1]] == ["warrior:9", "miner:2"]


def test_return_a_neutral_hero_and_recruit_another(e):
    """Odin: "you may put one of your Neutral Heroes back in the reserve and recruit another"."""
    give(e, 0, "test-return", column=None)
    (skaa,) = give(e, 0, "skaa", column=None)
    run(e.window("turn-end"), "yes", "astrid")
    held = [e.s.cards[c] for c in e.s.players[0].command]
    assert "skaa" not in held and "astrid" in held and skaa in e.s.heroes
    run(e.window("turn-end"))  # once per game
    assert not violations(e)


def test_picked_card_replaced_by_a_look_at_the_deck(e):
    """Frigg: "place 1 of the cards below the deck to draw 3 cards from the current Age deck and keep 1.
    Put the 2 remaining cards under the deck in the order of your choice"."""
    give(e, 0, "test-seer", column=None)
    fill_tavern(e, 0, "hunter")
    deck = e.s.decks[1]
    top3 = [e.s.cards[c] for c in deck[-3:]]
    pl = e.s.players[0]
    set_coins(e, 0, slots=[5, 4, 3], pouch=[2, 0])
    for q in (1, 2):
        set_coins(e, q, slots=[None, None, None], hand=[0, 2, 3, 4, 5])
    e.s.taverns[1:] = [[], []]
    gen = resolve_taverns(e)
    d = next(gen)
    assert d.kind == "use"
    d = gen.send(True)
    assert d.kind == "card" and sorted(ids(d)) == sorted(set(top3))
    keep = d.options[0]
    try:
        while True:
            d = gen.send(d.options[0])
    except StopIteration:
        pass
    # The picked hunter went under the deck, then the two cards not kept went under it.
    assert e.s.cards[deck[2]] == "hunter"
    assert sorted([e.s.cards[c] for c in deck[:2]] + [keep.card]) == sorted(top3)
    kept_to = [e.s.cards[c] for c in e.owned(0)] + [e.s.cards[c] for c in e.s.discard]
    assert keep.card in kept_to
    assert pl.slots == [None, None, None]
    assert not violations(e)


HOLDING = """\
layer: {id: holding, name: Holding}
game:
  events: {captured: a card captured another}
cards:
  - {id: test-keeper, kind: hero, class: hunter, ranks: 1, effects: ["capture next blacksmith dwarf", "when captured: add 2 tokens"]}
  - {id: test-warden, kind: hero, class: neutral, effects: ["capture next blacksmith dwarf", "when captured: add 2 tokens"]}
"""


@pytest.mark.parametrize("route", ["returned", "discarded", "put under the deck"])
def test_a_card_that_leaves_its_owner_keeps_no_mark_and_its_captures_are_discarded(tmp_path, route):
    """Every card and coin is in exactly one place (DESIGN §10): a card that captured another (the
    dwarf lies under it, out of play) and then leaves its owner for a shared zone — put back among
    the heroes, discarded, put under a deck — takes there none of what its holder put on it (tokens,
    captures), only what lasts the game (its once-per-game power is spent), and the captured card is
    discarded, not lost (found by
    tests/test_effects_property.py: Odin returned a hero that had captured a dwarf, and the dwarf
    was nowhere)."""
    layer = tmp_path / "holding.yaml"
    layer.write_text(HOLDING, encoding="utf-8")
    e = new_engine(3, seed=4, rules=load_rules((), (str(layer),)))
    (keeper,) = give(e, 0, "test-warden", column=None) if route == "returned" else give(e, 0, "test-keeper")
    smith = pull(e, "blacksmith")
    run(e.take_card(0, smith), "yes")
    assert e.mark(keeper, "captured") == [smith] and e.tokens(keeper) == 2
    if route == "returned":
        assert run(e.return_hero(0, "neutral"))
        assert keeper in e.s.heroes
    elif route == "discarded":
        run(e.discard_card(0, keeper))
        assert keeper in e.s.discard
    else:
        e.put_under_deck(keeper, None)
        assert e.s.decks[1][0] == keeper
    assert smith in e.s.discard and e.s.marks[keeper] == {"used": True}  # (the capture spent the power: for the game)
    assert not violations(e)
