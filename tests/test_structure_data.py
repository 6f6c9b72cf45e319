"""The game's structure as data (DESIGN §4), each generic mechanism on its own, with the test layer
tests/layers/structure.yaml: declared zones and their per-age decks, refill and clear steps, pick
sources of a tavern's resolution and who may use them, player orders of a step, card selectors,
class = column in the army and the `joined` event. The mechanisms are those Thingvellir's Camp
needs (002_3fed4e836b428413.txt); the layer's cards are not real cards."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness import fill_tavern, give, new_engine, pull, run, run_log, set_coins, shown, values
from nidavellir.interface.rules import Step
from nidavellir.rulesets import load_rules
from nidavellir.runtime.flow import picks, place_held, resolve_taverns, run_steps, step_order
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.scoring import player_score
from nidavellir.runtime.state import deck_key

LAYER = str(Path(__file__).parent / "layers" / "structure.yaml")
RULES = load_rules((), (LAYER,))


@pytest.fixture
def e():
    return new_engine(3, seed=5, rules=RULES)


def step(part: str, sid: str) -> Step:
    return next(s for s in getattr(RULES.ruleset, part) if s.id == sid)


# -- zones and decks ------------------------------------------------------------------------------

def test_a_zone_deck_per_age_is_dealt_and_shuffled_apart(e):
    """002 "Setup": "Separate the Age 1 and Age 2 Camp cards. Shuffle the decks of cards separately"."""
    ids = e.s.cards
    assert sorted(ids[c] for c in e.s.zones[deck_key("market-deck", 1)]) == ["pass", "relic-a", "relic-b", "tally"]
    assert len(e.s.zones[deck_key("market-deck", 2)]) == 7
    assert e.s.zones["market"] == [] and e.s.zones["market-discard"] == []
    orders = {tuple(ids[c] for c in new_engine(3, seed, rules=RULES).s.zones[deck_key("market-deck", 2)])
              for seed in range(8)}
    assert len(orders) > 1  # the seed shuffles it
    assert not violations(e)


def test_refill_tops_the_zone_up_from_the_current_age_deck(e):
    """002 "Management during the game": "Reveal new Camp cards of the current Age in order to have 5
    cards face up. Note: If no Camp card was taken in the previous turn and there are 5 cards face up,
    do not reveal any new ones" (here: 2)."""
    refill = step("turn", "market-refill")
    run(run_steps(e, [refill]))
    assert len(e.s.zones["market"]) == 2 and len(e.s.zones[deck_key("market-deck", 1)]) == 2
    run(run_steps(e, [refill]))
    assert len(e.s.zones["market"]) == 2  # full: nothing revealed
    for _ in range(2):  # a card taken from it each turn: one revealed each turn
        e.s.zones["market"].pop()
        run(run_steps(e, [refill]))
    assert len(e.s.zones["market"]) == 2 and not e.s.zones[deck_key("market-deck", 1)]
    e.s.zones["market"].clear()
    run(run_steps(e, [refill]))
    assert e.s.zones["market"] == []  # the age's deck is out: nothing to reveal
    e.s.age = 2
    run(run_steps(e, [refill]))
    assert {e.s.cards[c] for c in e.s.zones["market"]} <= {"relic-c", "relic-d", "purge", "levy", "gleaner",
                                                           "feathers", "census"}


def test_deal_puts_cards_of_a_zone_deck_face_up(e):
    """003 "Enter the Dwarves" as a generic step: "place ... cards face up" from the current age's deck."""
    from nidavellir.runtime.flow import deal

    deck = e.s.zones[deck_key("market-deck", 1)]
    top = list(reversed(deck[-3:]))
    deal(e, Step("d", do="deal", zone="market", deck="market-deck", count=3))
    assert e.s.zones["market"] == top and len(deck) == 1
    deal(e, Step("d", do="deal", zone="market", deck="market-deck", count=3))
    assert len(e.s.zones["market"]) == 4 and not deck


def test_a_window_of_a_tavern_runs_in_bid_order(e):
    """003 "Taverns Resolution": "the Elvaland who bid the most ... then the next highest" — a window of
    the tavern's resolution with `order: bid` asks the bidders in that order."""
    for p in range(3):
        give(e, p, "bell", column=None)
    set_coins(e, 0, slots=[3, 2, 4], pouch=[0, 5])
    set_coins(e, 1, slots=[5, 3, 2], pouch=[0, 4])
    set_coins(e, 2, slots=[4, 5, 3], pouch=[0, 2])
    for t in range(3):
        fill_tavern(e, t, "hunter", "blacksmith", "miner:0")
    e.s.zones["market"] = []
    tavern = ["hunter", "blacksmith", "yes", "yes", "yes"]  # two picks (the last card is taken unasked)
    log = run_log(resolve_taverns(e), *tavern, *tavern, *tavern)
    asked = [d.player for d in log if d.kind == "use"]
    assert asked == [1, 2, 0, 2, 1, 0, 0, 2, 1]  # bids 5-4-3, then 5-3-2, then 4-3-2


def test_clear_moves_a_zone_into_another(e):
    """002: "At the end of Age 1, after the Distinctions have been awarded, discard all remaining Camp
    cards. Do not shuffle the Camp cards discard pile and the Dwarf cards discard pile"."""
    run(run_steps(e, [step("turn", "market-refill")]))
    market = list(e.s.zones["market"])
    run(run_steps(e, [step("age_end", "market-cleared")]))
    assert e.s.zones["market"] == [] and e.s.zones["market-discard"] == market
    assert not set(market) & set(e.s.discard)


def test_a_whole_game_with_the_structure_layer_keeps_its_invariants():
    """DESIGN §10: every card in exactly one place, with the new zones and their decks."""
    from test_games import play

    for seed in range(20):
        game = play(3, seed, rules=RULES, check_every=1)
        assert game.finished and not violations(game.engine)


# -- pick sources -------------------------------------------------------------------------------

def setup_market(e, *cids):
    e.s.zones["market"] = [pull(e, c) for c in cids]


def test_only_the_top_bidder_may_use_a_top_bidder_source(e):
    """002 "New rules": "Only the Elvaland with the highest bid can get to the Camp and take a card
    there. The other Elvalands must, in the order of the bids, take a card from the tavern"."""
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    fill_tavern(e, 0, "warrior:3", "hunter", "miner:1")
    setup_market(e, "relic-a", "tally")
    log = run_log(picks(e, step("tavern", "picks")), "warrior:3@laughing-goblin", "hunter")
    assert sorted(shown(log[0])) == sorted(["relic-a@market", "tally@market", "warrior:3@laughing-goblin",
                                            "hunter@laughing-goblin", "miner:1@laughing-goblin"])
    assert all(o.endswith("@laughing-goblin") for d in log[1:] for o in shown(d))


def pass_board(e):
    """Bids 5 > 4 > 3 on the first tavern; P3, the last bidder, holds the market pass."""
    give(e, 2, "pass", column=None)
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    fill_tavern(e, 0, "warrior:3", "hunter", "miner:1")
    setup_market(e, "relic-a", "tally")


def test_a_param_opens_the_source_to_others_when_the_top_bidder_did_not_use_it(e):
    """002 "Fafnir Báleygr": "you can go to the Camp on your turn instead of taking a card from the
    tavern being resolved if the Elvaland that won the bid did not go"."""
    pass_board(e)
    log = run_log(picks(e, step("tavern", "picks")), "warrior:3", "hunter", "relic-a@market")
    assert "relic-a@market" not in shown(log[1])  # P2 holds no pass
    assert "relic-a@market" in shown(log[2])
    assert e.s.cards[e.s.players[2].command[-1]] == "relic-a"
    assert [e.s.cards[c] for c in e.s.taverns[0]] == ["miner:1"]  # left: discarded at the end
    e2 = new_engine(3, seed=5, rules=RULES)
    pass_board(e2)
    log = run_log(picks(e2, step("tavern", "picks")), "relic-a@market", "warrior:3", "hunter")
    assert all(o.endswith("@laughing-goblin") for o in shown(log[2]))  # the top bidder went: closed


def test_a_top_bidder_source_may_make_its_user_discard_a_tavern_card(e):
    """002 "New 2 Elvalands rule": "If the Elvaland with the highest bet chooses a card in the Camp, he
    must also discard a card of his choosing from the three cards in the tavern being resolved" (the
    layer applies it with 3 players)."""
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    fill_tavern(e, 0, "warrior:3", "hunter", "miner:1")
    setup_market(e, "relic-a")
    hunter = e.s.taverns[0][1]
    run(picks(e, step("tavern", "picks")), "relic-a@market", "hunter@laughing-goblin", "warrior:3")
    assert hunter in e.s.discard and not e.s.taverns[0]
    assert [e.s.cards[c] for c in e.s.players[2].army["miner"]] == ["miner:1"]  # the last card, no choice


def test_cards_left_in_a_tavern_go_by_its_clear_step(e):
    """001 Thingvellir: "At the end of each tavern resolvation, discard any dwarves left"."""
    for p in range(3):
        set_coins(e, p, slots=[None, None, None], hand=[0, 2, 3, 4, 5])
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    fill_tavern(e, 0, "warrior:3", "hunter", "miner:1")
    fill_tavern(e, 1)
    fill_tavern(e, 2)
    left = list(e.s.taverns[0][1:])
    run(resolve_taverns(e), "warrior:3")
    assert all(c in e.s.discard for c in left) and not e.s.taverns[0]


# -- player order of a step ----------------------------------------------------------------------

def test_most_cards_of_a_kind_first_ties_by_gem_and_the_leader_may_go_last(e):
    """002 "Mercenary cards": "laid out in descending order, starting with the Elvaland that has the most
    ... He or she can decide to place their Mercenary cards first, or to pass and place their
    Mercenary cards after the other Elvalands"; "Ties are resolved by the value of the gems as usual.
    The highest value wins, but this does not result in a gem trade"."""
    gems = [pl.gem for pl in e.s.players]
    give(e, 0, "relic-a", "relic-b", column=None)
    give(e, 1, "relic-c", column=None)
    give(e, 2, "relic-d", column=None)
    first, second = (1, 2) if e.s.players[1].gem > e.s.players[2].gem else (2, 1)
    order = run(step_order(e, step("age_end", "relics-placed")), "last")
    assert order == [first, second, 0]
    order = run(step_order(e, step("age_end", "relics-placed")), "first")
    assert order == [0, first, second]
    assert [pl.gem for pl in e.s.players] == gems


def test_a_player_places_all_held_cards_in_the_order_chosen_each_in_one_of_its_columns(e):
    """002: "When placing them, you choose the class of the card from the two listed on it"; "On your
    turn, place all of your Mercenary cards in any order you want"."""
    a, b = give(e, 0, "relic-a", "relic-b", column=None)
    log = run_log(place_held(e, step("age_end", "relics-placed")), "relic-b@command", "explorer", "miner")
    assert [d.kind for d in log] == ["card", "column", "column"]
    assert shown(log[1]) == ["hunter", "explorer"] and shown(log[2]) == ["warrior", "miner"]
    assert e.column_of(b) == "explorer" and e.column_of(a) == "miner"
    assert e.points(0, "explorer") == 5 and e.points(0, "miner") == 2 and e.ranks(0, "miner") == 1


def test_a_card_of_a_placed_kind_taken_during_the_age_end_is_placed_at_once(e):
    """002 "End of Each Age": "If placing Ylud or a Mercenary card causes Holda to recruit and you choose
    a Mercenary card in Camp, place that Mercenary card immediately into your army"."""
    run(place_held(e, step("age_end", "relics-placed")))
    card = pull(e, "relic-c")
    run(e.take_card(0, card), "explorer")
    assert e.column_of(card) == "explorer"


# -- card selectors -------------------------------------------------------------------------------

def test_any_dwarf_card_of_the_army_is_offered_not_only_the_topmost(e):
    """002 "Brísingamens": "discard a Dwarf card of your choice from your army. This card can be taken
    anywhere, in any column, but it cannot be a Hero card"."""
    low, high = give(e, 0, "warrior:3", "warrior:9")
    relic, = give(e, 0, "relic-a", column="warrior")
    give(e, 0, "kraal")
    purge = pull(e, "purge")
    log = run_log(e.take_card(0, purge), "warrior:3@warrior")
    assert sorted(shown(log[0])) == ["relic-a@warrior", "warrior:3@warrior", "warrior:9@warrior"]
    assert low in e.s.discard and e.column_of(high) == "warrior" and e.column_of(relic) == "warrior"


def test_each_other_player_discards_a_non_hero_of_a_column(e):
    """002 "Höfud": "each other Elvaland chooses and discards a Warrior card from their army. The
    discarded card can be any card in the Warrior column except a Hero card"."""
    give(e, 1, "warrior:3", "tarah", "warrior:9")
    give(e, 2, "kraal")
    levy = pull(e, "levy")
    log = run_log(e.take_card(0, levy), "warrior:3@warrior")
    assert [d.player for d in log] == [1]  # P3's warrior column holds only a hero: nothing to choose
    assert sorted(shown(log[0])) == ["warrior:3@warrior", "warrior:9@warrior"]


def test_counts_of_card_sets_by_kind(e):
    """DESIGN §9: "every army card that is neither a hero nor an animal counts as a dwarf card"."""
    give(e, 0, "warrior:3", "kraal", "hunter")
    give(e, 0, "relic-a", column="warrior")
    census, = give(e, 0, "census", column=None)
    assert e.defs[census].score is not None
    assert e.defs[census].score(e, 0, census) == 3 + 10 * 2


# -- class = column, joined -------------------------------------------------------------------------

def test_a_card_has_its_columns_class_while_in_the_army_and_its_ranks_there(e):
    """002 "Olwyn": "considered Dwarf cards of the class in which they are placed"; a mercenary is
    "the class of the card from the two listed on it"."""
    card = pull(e, "relic-a")
    assert e.card_class(card) == "neutral"
    run(e.place(0, card, "warrior"))
    assert e.card_class(card) == "warrior" and e.ranks(0, "warrior") == 1 and e.points(0, "warrior") == 4
    assert e.ranks_of(card, "warrior") == 1 and e.ranks_of(card, "miner") == 0
    assert not e.index_problems()


def test_joined_fires_for_every_route_into_the_army_but_not_a_move_within_it(e):
    """DESIGN §9 (Ölrun): "each card that joins her owner's army in the chosen class's column (taken,
    recruited, enlisted, or placed by an effect ...); a card moving within the army (Thrud, Ylud) does
    not"."""
    tally, = give(e, 0, "tally", column=None)
    run(e.take_card(0, pull(e, "warrior:3")))                 # taken
    assert e.track_value(tally) == 1
    run(e.take_card(0, pull(e, "hunter")))                    # another class: not counted
    relic = pull(e, "relic-a")
    e.attach(0, relic, None)
    run(place_held(e, step("age_end", "relics-placed")), "warrior")   # enlisted
    assert e.track_value(tally) == 2
    thrud = pull(e, "thrud")
    e.s.resolving.append(thrud)
    run(e.place(0, thrud, "warrior"))                          # placed by an effect
    assert e.track_value(tally) == 3
    run(e.place(0, thrud, "miner"))                            # a move within the army
    run(e.place(0, thrud, "warrior"))
    assert e.track_value(tally) == 3
    assert player_score(e, 0)["breakdown"]["heroes"] == 3


# -- choices on coins ---------------------------------------------------------------------------------

def test_two_amounts_on_the_pouch_coins_in_the_chosen_assignment_and_order(e):
    """002 "Vidofnir & Vedrfölnir": "transform one of these coins with a +2 and the other with a +3 ...
    Perform coin transformations in any order you want"."""
    set_coins(e, 0, slots=[4, 5, 0], pouch=[2, 3])
    feathers = pull(e, "feathers")
    log = run_log(e.take_card(0, feathers), "2@pouch", 3)  # the 2 gets +3; the 3, left, gets the +2
    assert [d.kind for d in log] == ["coin", "amount"] and shown(log[1]) == [2, 3]
    assert sorted(values(e, e.s.players[0].pouch)) == [5, 5]


# -- structure data is checked, located ---------------------------------------------------------

STRUCTURE_ERRORS = [
    # (variant body, the text to point at, the message, the hint)
    ("game:\n  zones: [{id: market, name: M}]\ncards:\n  - id: grid\n    effects:\n"
     "      - \"when recruited: take chosen 1 card from markte\"\n",
     "take chosen", "unknown zone `markte`", "did you mean `market`?"),
    ("game:\n  zones: [{id: vault, name: V, explored: false}]\ncards:\n  - id: grid\n    effects:\n"
     "      - \"when recruited: take chosen 1 card from vault\"\n",
     "take chosen", "no effect may look into `vault`: the rules declare it `explored: false`", None),
    ("game:\n  flow:\n    turn:\n      - {id: r, do: refill, zone: nowhere, deck: nowhere, count: 2}\n",
     "zone: nowhere", "unknown zone `nowhere` (the `refill` step `r`)", "zones: box, discard"),
    ("game:\n  zones: [{id: row, name: R}, {id: pile, name: P}]\n  flow:\n    turn:\n"
     "      - {id: r, do: refill, zone: row, deck: pile, count: 2}\n",
     "deck: pile", "zone `pile` holds no decks", "declare it with `per_age: true`"),
    ("game:\n  zones: [{id: row, name: R}]\n  flow:\n    age_end:\n"
     "      - {id: c, do: clear, zone: row, into: discard, count: 3}\n",
     "count: 3", "`count` means nothing on a `clear` step", "`count` is an operand of: `refill`, `deal`"),
    ("game:\n  zones: [{id: row, name: R}]\n  flow:\n    age_end:\n      - {id: c, do: clear, zone: row}\n",
     "id: c", "the `clear` step `c` needs `into`", "every card of `zone` goes to `into`"),
    ("game:\n  flow:\n    age_end:\n      - {id: c, do: clear, zone: tavern, into: discard}\n",
     "zone: tavern", "unknown zone `tavern` (the `clear` step `c`)",
     "`tavern` names the tavern being resolved only in `flow.tavern` and pick sources"),
    ("game:\n  flow:\n    turn:\n      - {id: p, do: picks}\n",
     "do: picks", "unknown flow step `picks`", "`picks` is a step of `flow.tavern`"),
    ("game:\n  flow:\n    age_end:\n      - {id: h, do: place-held, kind: relic}\n",
     "kind: relic", "unknown kind `relic`", None),
    ("game:\n  flow:\n    age_end:\n      - {id: h, do: place-held, kind: hero, order: {most: heros}}\n",
     "order: {most", "unknown kind `heros`", "did you mean `hero`?"),
    ("game:\n  zones: [{id: row, name: R}]\n  pick_sources:\n    - {id: row, zone: row, who: top-bidder, also: pas}\n",
     "also: pas", "unknown param `pas`", None),
    ("game:\n  zones: [{id: row, name: R}]\n  pick_sources:\n    - {id: row, zone: row, discard: 1}\n",
     "discard: 1", "only a source of the top bidder discards tavern cards", "set `who: top-bidder`"),
    ("game:\n  zones: [{id: pile, name: P, per_age: true}]\n  pick_sources:\n    - {id: pile, zone: pile}\n",
     "zone: pile", "`pile` holds a deck per age, not cards face up (pick source `pile`)",
     "name it as the `deck:` of a `refill` or `deal` step"),
    ("game:\n  zones: [{id: army, name: A}]\n",
     "id: army", "a zone cannot be called `army`: in the effect DSL `army` is a keyword",
     "a name means one thing; choose another id"),
    ("game:\n  zones: [{id: discard, name: D}]\n",
     "id: discard", "a zone cannot be called `discard`: every rule set has that zone (the discard pile)", None),
    ("decks:\n  - {age: 1, zone: nowhere, cards: [{card: skaa, count: 1}]}\n",
     "age: 1", "unknown zone `nowhere` for a deck", "declare it under `game.zones` with `per_age: true`"),
    ("game:\n  flow:\n    turn:\n      - {id: musing, after: bids}\n",
     "id: musing", "flow step `musing` has neither `do` nor `window`", None),
    ("game:\n  flow:\n    turn:\n      - {id: bids, window: bidding}\n",
     "window: bidding", "flow step `bids` has both `do: bids` and a `window`", None),
    ("game:\n  kinds:\n    relic: {enters: command zone, discards_to: vualt}\n",
     "discards_to: vualt", "unknown zone `vualt` (where discarded `relic` cards go)", "zones: box, discard"),
    ("cards:\n  - {id: relic, kind: hero, class: neutral, ranks: {warior: [4]}}\n",
     "[4]", "unknown column `warior`", "did you mean `warrior`?"),
]


@pytest.mark.parametrize("body, at, message, hint", STRUCTURE_ERRORS)
def test_structure_data_errors_are_located_and_explained(capsys, tmp_path, body, at, message, hint):
    """DESIGN §4/§6: zones, decks, pick sources and step orders are data, checked against what the
    runtime implements; every problem "is reported as `path:line:col: error: message`" with a hint."""
    from checking import expect, find, run_check, write

    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + body)
    code, out, err = run_check(capsys, str(v))
    assert code == 1 and "Traceback" not in err
    line, col = find(v, at)
    if ": " in at:  # located at the value
        col += at.index(": ") + 2
    if hint is None:
        assert f"{v}:{line}:{col}: error: {message}" in err.splitlines(), err
    else:
        expect(err, v, line, col, message, hint)


def test_a_house_rule_changes_the_camp_as_it_changes_a_card(tmp_path):
    """DESIGN §4: "A layer adds a zone, a deck, a pick source or a step order the way it adds a card":
    a variant on Thingvellir shows 3 Camp cards instead of 5 and lets every bidder go to the Camp."""
    from checking import write
    from nidavellir.runtime.flow import picks as run_picks

    v = write(tmp_path / "small-camp.yaml", """
        layer: {id: small-camp, name: Small Camp}
        game:
          flow:
            turn:
              - {id: camp-refill, count: 3}
          pick_sources:
            - {id: camp, who: any, discard: 0}
        """)
    rules = load_rules(("thingvellir",), (str(v),))
    e = new_engine(3, seed=2, rules=rules)
    refill = next(s for s in rules.ruleset.turn if s.id == "camp-refill")
    run(run_steps(e, [refill]))
    assert len(e.s.zones["camp"]) == 3
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    fill_tavern(e, 0, "warrior:3", "hunter", "miner:1")
    picks_step = next(s for s in rules.ruleset.tavern if s.id == "picks")
    camp = [e.s.cards[c] for c in e.s.zones["camp"]]
    log = run_log(run_picks(e, picks_step), "warrior:3", f"{camp[0]}@camp", f"{camp[1]}@camp")
    assert all(any(o.endswith("@camp") for o in shown(d)) for d in log)
    assert len(e.s.taverns[0]) == 2


def test_rules_without_a_pick_source_are_warned_of(capsys, tmp_path):
    """003 "Taverns Resolution": each bidder "takes one card": rules where no one can is legal data but
    likely a mistake (a warning; `--strict` makes it an error)."""
    from checking import expect_warning, find, run_check, write

    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\ngame:\n  pick_sources: []\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0
    line, col = find(v, "[]")
    expect_warning(err, v, line, col, "no pick source: no bidder can ever take a card")
    assert "  hint: add `{id: tavern, zone: tavern}` to `pick_sources`" in err.splitlines()
    code, _, _ = run_check(capsys, str(v), "--strict")
    assert code == 1
