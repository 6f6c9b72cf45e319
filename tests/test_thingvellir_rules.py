"""Scenario tests: the rules of Thingvellir — the Camp, going to the Camp while a tavern resolves, the
2-player rule, the enlistment of mercenaries, the end of each age, class = column, dwarf cards for
discard effects, the `artifacts` part of the score, and `score` of positions with Thingvellir cards
(002 "The Camp", "New rules", "Mercenary cards", "End of Each Age"; DESIGN §8, §9).

Each test quotes the sentence of 002_3fed4e836b428413.txt (the Thingvellir rulebook) it checks, or
DESIGN §8/§9. Boards are built by hand; the engine's own steps are run with strict scripted answers.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness import THINGVELLIR, fill_tavern, give, ids, new_engine, pull, run, run_log, set_coins, shown

from nidavellir.cli import main
from nidavellir.rulesets import load_rules
from nidavellir.runtime.flow import resolve_taverns, run_steps
from nidavellir.runtime.scoring import player_score
from thingvellir_helpers import (
    AGE_1_CAMP, AGE_2_CAMP, NEW_HEROES, age_end, breakdown, camp, camp_ids, column, command, discard,
    engine, enlist, kinds, one_line_but, resolve_tavern, stack, steps, take, watch, zone_ids,
)


# == The Camp: setup and management ================================================================

def test_setup_shuffles_the_age_1_and_age_2_camp_cards_separately_and_adds_6_heroes():
    """002 "Setup": "Separate the Age 1 and Age 2 Camp cards. Shuffle the decks of cards separately and
    place them on either side of the sign." "Add the 6 neutral Hero cards to one of the card holders."
    002 "Matériel": "6 new Hero cards and 2 "Olwyn's Double" cards." """
    orders = set()
    for seed in (0, 1, 2):
        e = engine(3, seed=seed)
        assert e.s.zones["camp"] == [] and e.s.zones["camp-discard"] == []
        assert sorted(zone_ids(e, "camp-deck@1")) == sorted(AGE_1_CAMP)
        assert sorted(zone_ids(e, "camp-deck@2")) == sorted(AGE_2_CAMP)
        orders.add(tuple(zone_ids(e, "camp-deck@1")))
        heroes = [e.s.cards[h] for h in e.s.heroes]
        assert all(heroes.count(h) == 1 for h in NEW_HEROES)
        assert [e.s.cards[c] for c in e.s.supply].count("olwyn-double") == 2
        assert "olwyn-double" not in heroes
    assert len(orders) > 1                                  # shuffled by the seed


def test_the_camp_is_refilled_to_5_at_each_turn_start_before_the_dwarves_enter():
    """002 "Management during the game": "At the start of each turn, before the Dwarves enter the
    Taverns: - Reveal new Camp cards of the current Age in order to have 5 cards face up." Two turns of
    the real flow: the Camp is full of 5 when the bids are asked, and after a Camp card was taken the next
    turn reveals one card to make 5 again. """
    e = engine(3)
    s = e.s
    turn = e.rules.ruleset.turn
    order = [st.id for st in turn]
    assert order.index("camp-refill") < order.index("enter-dwarves")
    stack(s.zones["camp-deck@1"], e, "draupnir", "svalinn", "vegvisir", "megingjord", "fafnir-baleygr",
          "mercenary:hunter-miner1")
    stack(s.decks[1], e, "warrior:3", "hunter", "miner:1", "warrior:4", "blacksmith", "miner:2",
          "explorer:5", "explorer:6", "miner:0")
    seen = {}

    def at_bids(i, d):
        if i == 0:
            seen["camp"] = camp_ids(e)
            seen["taverns"] = [[s.cards[c] for c in t] for t in s.taverns]

    log = run_log(watch(run_steps(e, turn), at_bids),
                  [5, 2, 3], [4, 5, 2], [3, 4, 5],                  # bids (P1, P2, P3)
                  "draupnir@camp", "warrior:3", "hunter",           # Laughing Goblin: P1 to the Camp
                  "blacksmith", "warrior:4",                        # Dancing Dragon: P2, P3, P1 last
                  "explorer:6", "explorer:5")                       # Shining Horse: P3, P1, P2 last
    assert [d.kind for d in log[:3]] == ["bid", "bid", "bid"]
    assert seen["camp"] == ["draupnir", "svalinn", "vegvisir", "megingjord", "fafnir-baleygr"]
    assert seen["taverns"] == [["warrior:3", "hunter", "miner:1"], ["warrior:4", "blacksmith", "miner:2"],
                               ["explorer:5", "explorer:6", "miner:0"]]
    assert command(e, 0) == ["draupnir"]
    assert camp_ids(e) == ["svalinn", "vegvisir", "megingjord", "fafnir-baleygr"]
    deck_before = len(s.zones["camp-deck@1"])
    run(run_steps(e, steps(e, "camp-refill")))              # the next turn's start
    assert camp_ids(e) == ["svalinn", "vegvisir", "megingjord", "fafnir-baleygr", "mercenary:hunter-miner1"]
    assert len(s.zones["camp-deck@1"]) == deck_before - 1


def test_no_camp_card_is_revealed_when_5_are_face_up():
    """002 "Management during the game": "Note: If no Camp card was taken in the previous turn and there
    are 5 cards face up, do not reveal any new ones." """
    e = engine(3)
    camp(e, "draupnir", "svalinn", "vegvisir", "megingjord", "fafnir-baleygr")
    deck = list(e.s.zones["camp-deck@1"])
    run(run_steps(e, steps(e, "camp-refill")))
    assert camp_ids(e) == ["draupnir", "svalinn", "vegvisir", "megingjord", "fafnir-baleygr"]
    assert e.s.zones["camp-deck@1"] == deck


def test_the_camp_shows_fewer_cards_once_its_deck_runs_out():
    """002 "Management during the game": "Reveal new Camp cards of the current Age in order to have 5
    cards face up" — interpretation camp-refill: "(fewer once that deck runs out)". """
    e = engine(3)
    camp(e, "draupnir")
    deck = e.s.zones["camp-deck@1"]
    left = deck[-2:]
    e.s.box.extend(deck[:-2])
    del deck[:-2]
    run(run_steps(e, steps(e, "camp-refill")))
    assert e.s.zones["camp"] == [e.s.zones["camp"][0]] + list(reversed(left))
    assert len(e.s.zones["camp"]) == 3 and deck == []


def test_the_camp_is_discarded_after_the_age_1_distinctions_into_the_camp_discard():
    """002 "Management during the game": "At the end of Age 1, after the Distinctions have been awarded,
    discard all remaining Camp cards." "Do not shuffle the Camp cards discard pile and the Dwarf cards
    discard pile." The Camp is still there while the King's Hand is awarded. """
    e = engine(2, age=1)
    camp(e, "draupnir", "mercenary:hunter-miner1", "svalinn")
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    give(e, 0, "warrior:3")
    during = {}

    def at(i, d):
        during[i] = (d.kind, camp_ids(e), zone_ids(e, "camp-discard"))

    log = age_end(e, 1, "5@hand", check=at)
    assert kinds(log) == [(0, "coin")]                      # the warrior distinction's transformation
    assert during[0] == ("coin", ["draupnir", "mercenary:hunter-miner1", "svalinn"], [])
    assert e.s.zones["camp"] == []
    assert zone_ids(e, "camp-discard") == ["draupnir", "mercenary:hunter-miner1", "svalinn"]
    assert not {"draupnir", "svalinn", "mercenary:hunter-miner1"} & set(discard(e))


def test_holda_recruited_at_the_age_1_distinctions_still_finds_the_camp():
    """002: "At the end of Age 1, after the Distinctions have been awarded, discard all remaining Camp
    cards." A hero recruited by the King's Great Armorer (the special Blacksmith completes a line) may
    be Holda, who chooses "a Mercenary or Artifact card available at the Camp". """
    e = engine(2, age=1)
    camp(e, "draupnir", "svalinn")
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:1", "miner:2", "explorer:5", "explorer:6")
    give(e, 1, "warrior:5", "warrior:6", "hunter", "hunter", "miner:0", "miner:1", "explorer:7", "explorer:8")
    give(e, 0, "blacksmith")                                # P1's one line ...
    e.s.players[0].heroes_counted = 1                       # ... already recruited its hero
    log = age_end(e, 1, "holda", "svalinn@camp")
    assert kinds(log) == [(0, "hero"), (0, "card")]
    assert column(e, 0, "blacksmith") == ["blacksmith", "special-blacksmith"]
    assert command(e, 0) == ["distinction:blacksmith", "holda", "svalinn"]
    assert zone_ids(e, "camp-discard") == ["draupnir"]


def test_the_age_2_camp_deck_fills_the_camp_after_age_1():
    """DESIGN §9: "After the Age 1 distinctions the remaining camp cards go to the camp discard ...; the
    Age 2 camp deck then fills the Camp." 002: "Reveal new Camp cards of the current Age in order to have
    5 cards face up." """
    e = engine(3, age=1)
    camp(e, "draupnir", "svalinn")
    assert age_end(e, 1) == []
    assert e.s.zones["camp"] == []
    age1 = list(e.s.zones["camp-deck@1"])
    top = [e.s.cards[c] for c in reversed(e.s.zones["camp-deck@2"][-5:])]
    e.s.age = 2
    run(run_steps(e, steps(e, "camp-refill")))
    assert camp_ids(e) == top
    assert set(top) <= set(AGE_2_CAMP)
    assert e.s.zones["camp-deck@1"] == age1
    assert len(e.s.zones["camp-deck@2"]) == 12 - 5
    assert zone_ids(e, "camp-discard") == ["draupnir", "svalinn"]


def test_camp_cards_are_not_part_of_the_explored_discard_pile():
    """002 "Glossary": "Camp cards are not part of the discard pile that can be explored by this effect."
    The camp discard is not offered to Brísingamens. """
    e = engine(3, age=2)
    e.s.zones["camp-discard"].extend(pull(e, cid) for cid in ("mercenary:hunter-miner1", "draupnir"))
    for cid in ("explorer:9", "warrior:8"):
        e.s.discard.append(pull(e, cid))
    camp(e, "brisingamens")
    log = take(e, 0, "brisingamens", "explorer:9@discard", "explorer:9@taken")
    assert kinds(log) == [(0, "card"), (0, "card")]         # the second pick: the one card left
    assert sorted(shown(log[0])) == ["explorer:9@discard", "warrior:8@discard"]
    assert column(e, 0, "warrior") == ["warrior:8"] and column(e, 0, "explorer") == ["explorer:9"]
    assert zone_ids(e, "camp-discard") == ["mercenary:hunter-miner1", "draupnir"]


def test_a_camp_card_discarded_from_an_army_is_not_explored_by_andumia():
    """002 "Glossary": "Camp cards are not part of the discard pile that can be explored by this effect."
    002 "The Camp is made up of Artifact and Mercenary cards." A mercenary and Vegvisir that Dagda
    discarded are Camp cards: Andumia may keep only the dwarf. """
    e = engine(3, age=2)
    give(e, 0, "mercenary:warrior6-explorer8", column="warrior")
    give(e, 0, "vegvisir", column="explorer")
    run(e.recruit_hero(0), "dagda", "mercenary:warrior6-explorer8@warrior")
    assert column(e, 0, "warrior") == [] and column(e, 0, "explorer") == []
    e.s.discard.append(pull(e, "explorer:9"))
    log = run_log(e.recruit_hero(1), "andumia")             # the one dwarf card: nothing to choose
    assert kinds(log) == [(1, "hero")]
    assert column(e, 1, "explorer") == ["explorer:9"]
    assert command(e, 1) == ["andumia"]


# == Going to the Camp while a tavern resolves ====================================================

def bids3(e, first=(5, 2, 3), second=(4, 5, 2), third=(3, 4, 5)):
    """Bids on the three taverns for three players (the other two coins in the pouch)."""
    for p, bid in enumerate((first, second, third)):
        rest = [v for v in (0, 2, 3, 4, 5) if v not in bid]
        set_coins(e, p, slots=list(bid), pouch=rest)


def test_only_the_top_bidder_may_go_to_the_camp():
    """002 "New rules": "Now, the Elvaland with the highest bid can choose to take a card from the Camp
    (Artifact or Mercenary) instead of taking a card from the tavern being resolved." "Only the Elvaland
    with the highest bid can get to the Camp and take a card there. The other Elvalands must, in the order
    of the bids, take a card from the tavern being resolved." """
    e = engine(3)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir", "mercenary:hunter-miner1")
    bids3(e)
    log = resolve_tavern(e, 0, "warrior:9", "explorer:11")
    assert kinds(log) == [(0, "pick"), (1, "pick")]
    assert shown(log[0]) == ["warrior:9@laughing-goblin", "explorer:11@laughing-goblin", "miner:2@laughing-goblin",
                             "draupnir@camp", "mercenary:hunter-miner1@camp"]
    assert shown(log[1]) == ["explorer:11@laughing-goblin", "miner:2@laughing-goblin"]
    assert column(e, 2, "miner") == ["miner:2"]             # the last bidder takes the last card
    assert camp_ids(e) == ["draupnir", "mercenary:hunter-miner1"]


def test_the_top_bidder_picks_from_the_sources_as_they_are_after_bid_won(tmp_path):
    """002 "New rules": the top bidder "can choose to take a card from the Camp ... instead of taking a
    card from the tavern being resolved"; README "The effect DSL": `bid-won` is "a player's bid is the
    highest of a tavern and they choose first" — its effects run before the choice. An empty tavern
    (a last turn with too few cards) leaves the top bidder the Camp alone; an effect on `bid-won` that
    takes every Camp card leaves nothing: no pick is asked (found by tests/test_effects_property.py:
    the pick offered the sources as they were before the effect, a question with no options)."""
    layer = tmp_path / "raider.yaml"
    layer.write_text("layer: {id: raider, name: Raider}\ngame:\n  events: {bid-won: the top bidder chooses first}\n"
                     "  kinds: {relic: {enters: command zone}}\ncards:\n"
                     "  - {id: test-raider, kind: relic, effects: ['whenever bid-won: take chosen 2 cards from camp']}\n",
                     encoding="utf-8")
    e = new_engine(3, rules=load_rules(("thingvellir",), (str(layer),)))
    for pl, gem in zip(e.s.players, (5, 4, 3)):
        pl.gem = gem
    fill_tavern(e, 0)
    camp(e, "draupnir", "svalinn")
    give(e, 0, "test-raider", column=None)
    bids3(e)
    log = resolve_tavern(e, 0, "draupnir@camp", "draupnir@taken")
    assert kinds(log) == [(0, "card"), (0, "card")] and all(d.options for d in log)
    assert command(e, 0) == ["test-raider", "draupnir", "svalinn"] and camp_ids(e) == []


def test_a_tie_for_the_highest_bid_gives_the_camp_to_the_higher_gem():
    """002 "New rules": "In the event of a tie, and to determine the highest bid on a current Tavern,
    refer to the gem values as in the base game." """
    e = engine(3, gems=(3, 4, 5))
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir")
    bids3(e, first=(5, 2, 3), second=(5, 4, 2), third=(3, 4, 5))
    log = resolve_tavern(e, 0, "draupnir@camp", "warrior:9", "explorer:11")
    assert kinds(log) == [(1, "pick"), (0, "pick"), (2, "pick")]   # gem 4 before gem 3
    assert "draupnir@camp" in shown(log[0]) and "draupnir@camp" not in shown(log[1])
    assert command(e, 1) == ["draupnir"]


def test_fafnir_baleygr_gives_camp_access_when_the_top_bidder_took_a_tavern_card():
    """002 "Fafnir Báleygr": "After taking possession of it and throughout the game, you can go to the
    Camp on your turn instead of taking a card from the tavern being resolved if the Elvaland that won the
    bid did not go." With 2 players the holder, who is not the top bidder, discards nothing; the two
    tavern cards left are discarded (DESIGN §9: "A card left in a tavern after every player has picked is
    discarded"). """
    e = engine(2)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir", "vegvisir")
    give(e, 1, "fafnir-baleygr", column=None)
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    log = resolve_tavern(e, 0, "warrior:9", "vegvisir@camp")
    assert kinds(log) == [(0, "pick"), (1, "pick")]
    assert shown(log[1]) == ["explorer:11@laughing-goblin", "miner:2@laughing-goblin", "draupnir@camp",
                             "vegvisir@camp"]
    assert column(e, 1, "explorer") == ["vegvisir"]
    assert sorted(discard(e)) == ["explorer:11", "miner:2"]
    assert camp_ids(e) == ["draupnir"]


def test_the_card_left_in_the_tavern_is_discarded_before_the_next_tavern_resolves():
    """002 "New rules": "If the Elvaland who played first chooses to take a card from the Camp, the
    remaining Dwarf card from the tavern must be discarded before moving on to the next tavern's
    Resolution." """
    e = engine(3)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    fill_tavern(e, 1, "hunter", "blacksmith", "miner:1")
    fill_tavern(e, 2, "explorer:5", "warrior:3", "miner:0")
    camp(e, "draupnir")
    bids3(e)
    seen = {}

    def at(i, d):
        seen[i] = discard(e)

    log = run_log(watch(resolve_taverns(e), at),
                  "draupnir@camp", "warrior:9", "explorer:11",   # Laughing Goblin
                  "hunter", "blacksmith",                        # Dancing Dragon (P2, P3; P1 last)
                  "explorer:5", "warrior:3")                     # Shining Horse (P3, P1; P2 last)
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick"), (1, "pick"), (2, "pick"), (2, "pick"),
                          (0, "pick")]
    assert seen[2] == []                                    # while the Laughing Goblin resolves
    assert seen[3] == ["miner:2"]                           # the Dancing Dragon's first pick: discarded
    assert sorted(discard(e)) == ["miner:2"]
    assert column(e, 0, "miner") == ["miner:1"]
    assert column(e, 1, "miner") == ["miner:0"]


def test_two_players_the_top_bidder_at_the_camp_discards_a_tavern_card_the_other_chooses_between_two():
    """002 "New 2 Elvalands rule": "When resolving Taverns: If the Elvaland with the highest bet chooses a
    card in the Camp, he must also discard a card of his choosing from the three cards in the tavern being
    resolved. The second Elvaland will then have the choice between the two remaining cards of the tavern
    being resolved." """
    e = engine(2)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir", "vegvisir")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    log = resolve_tavern(e, 0, "draupnir@camp", "explorer:11", "warrior:9")
    assert kinds(log) == [(0, "pick"), (0, "card"), (1, "pick")]
    assert shown(log[1]) == ["warrior:9@laughing-goblin", "explorer:11@laughing-goblin",
                             "miner:2@laughing-goblin"]                # the three cards, where they lie
    assert shown(log[2]) == ["warrior:9@laughing-goblin", "miner:2@laughing-goblin"]
    assert command(e, 0) == ["draupnir"]
    assert column(e, 1, "warrior") == ["warrior:9"]
    assert discard(e) == ["explorer:11", "miner:2"]         # the chosen one at once, then the last one


def test_two_players_a_top_bidder_taking_a_tavern_card_discards_nothing_more():
    """002 "New 2 Elvalands rule": "If the Elvaland with the highest bet chooses a card in the Camp, he
    must also discard a card" — only then; otherwise the base game's 2-player rule: the second chooses
    between two and the untaken card is discarded. """
    e = engine(2)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir")
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 5, 2], pouch=[0, 3])
    log = resolve_tavern(e, 0, "warrior:9", "explorer:11")
    assert kinds(log) == [(0, "pick"), (1, "pick")]
    assert shown(log[1]) == ["explorer:11@laughing-goblin", "miner:2@laughing-goblin"]
    assert discard(e) == ["miner:2"]


def test_with_three_players_the_top_bidder_at_the_camp_discards_no_tavern_card():
    """002 "New 2 Elvalands rule" is for 2 Elvalands; 002 "New rules": "The other Elvalands must, in the
    order of the bids, take a card from the tavern being resolved." """
    e = engine(3)
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    camp(e, "draupnir")
    bids3(e)
    log = resolve_tavern(e, 0, "draupnir@camp", "warrior:9", "explorer:11")
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick")]
    assert shown(log[1]) == ["warrior:9@laughing-goblin", "explorer:11@laughing-goblin", "miner:2@laughing-goblin"]
    assert discard(e) == ["miner:2"]


# == Enlistment of mercenaries =====================================================================

def test_enlistment_most_mercenaries_first_the_leader_choosing_to_go_first():
    """002 "Mercenary cards": "Each Elvaland announces the number of Mercenary cards owned in the Command
    Zone. - The Mercenary cards are laid out in descending order, starting with the Elvaland that has the
    most to the one that has the least." "He or she can decide: - to place their Mercenary cards first,
    or - to pass and place their Mercenary cards after the other Elvalands have done so." """
    e = engine(3, gems=(5, 4, 3))
    give(e, 0, "mercenary:hunter-miner1", column=None)
    give(e, 1, "mercenary:warrior6-explorer8", "mercenary:warrior6-blacksmith", "mercenary:hunter-explorer8",
         column=None)
    give(e, 2, "mercenary:blacksmith-miner1", "mercenary:warrior9-explorer11", column=None)
    log = enlist(e, "first",
                 "mercenary:warrior6-explorer8@command", "warrior",
                 "mercenary:hunter-explorer8@command", "hunter",
                 "blacksmith",                                          # the last card: its column
                 "mercenary:warrior9-explorer11@command", "explorer", "miner",
                 "hunter")
    assert kinds(log) == [(1, "order"),
                          (1, "card"), (1, "column"), (1, "card"), (1, "column"), (1, "column"),
                          (2, "card"), (2, "column"), (2, "column"),
                          (0, "column")]
    assert shown(log[0]) == ["first", "last"]
    assert column(e, 1, "warrior") == ["mercenary:warrior6-explorer8"]
    assert column(e, 1, "hunter") == ["mercenary:hunter-explorer8"]
    assert column(e, 1, "blacksmith") == ["mercenary:warrior6-blacksmith"]
    assert column(e, 2, "explorer") == ["mercenary:warrior9-explorer11"]
    assert column(e, 2, "miner") == ["mercenary:blacksmith-miner1"]
    assert column(e, 0, "hunter") == ["mercenary:hunter-miner1"]
    assert all(command(e, p) == [] for p in range(3))


def test_enlistment_the_leader_may_pass_and_place_last():
    """002 "Mercenary cards": "to pass and place their Mercenary cards after the other Elvalands have done
    so." The others keep their order: most first, ties by the higher gem. """
    e = engine(3, gems=(5, 4, 3))
    give(e, 0, "mercenary:hunter-miner1", column=None)
    give(e, 1, "mercenary:warrior6-explorer8", "mercenary:warrior6-blacksmith", column=None)
    give(e, 2, "mercenary:blacksmith-miner1", column=None)
    log = enlist(e, "last", "hunter", "miner",
                 "mercenary:warrior6-blacksmith@command", "blacksmith", "warrior")
    assert kinds(log) == [(1, "order"), (0, "column"), (2, "column"), (1, "card"), (1, "column"), (1, "column")]
    assert column(e, 2, "miner") == ["mercenary:blacksmith-miner1"]
    assert column(e, 0, "hunter") == ["mercenary:hunter-miner1"]
    assert column(e, 1, "warrior") == ["mercenary:warrior6-explorer8"]


def test_enlistment_ties_go_to_the_higher_gem_without_a_gem_trade():
    """002 "Mercenary cards": "Ties are resolved by the value of the gems as usual. The highest value wins,
    but this does not result in a gem trade." """
    e = engine(3, gems=(3, 5, 4))
    give(e, 0, "mercenary:hunter-miner1", "mercenary:blacksmith-miner1", column=None)       # gem 3
    give(e, 1, "mercenary:warrior6-explorer8", "mercenary:warrior6-blacksmith", column=None)  # gem 5
    give(e, 2, "mercenary:hunter-explorer8", column=None)                                   # gem 4
    log = enlist(e, "first",
                 "mercenary:warrior6-explorer8@command", "warrior", "blacksmith",
                 "mercenary:hunter-miner1@command", "hunter", "miner",
                 "explorer")
    assert kinds(log) == [(1, "order"), (1, "card"), (1, "column"), (1, "column"),
                          (0, "card"), (0, "column"), (0, "column"), (2, "column")]
    assert [pl.gem for pl in e.s.players] == [3, 5, 4]


def test_a_player_alone_with_mercenaries_is_not_asked_first_or_last():
    """002 "Mercenary cards": the leader decides "to place their Mercenary cards first, or to pass and
    place their Mercenary cards after the other Elvalands have done so" — with no other Elvaland to place,
    there is nothing to decide. """
    e = engine(3)
    give(e, 2, "mercenary:hunter-miner1", "mercenary:blacksmith-miner1", column=None)
    log = enlist(e, "mercenary:hunter-miner1@command", "hunter", "blacksmith")
    assert kinds(log) == [(2, "card"), (2, "column"), (2, "column")]


def test_each_player_places_all_mercenaries_recruiting_a_hero_before_the_next_placement():
    """002 "Mercenary cards": "On your turn, place all of your Mercenary cards in any order you want before
    passing to the next Elvaland in the order of play. Placing them can trigger a recruitment of Hero
    cards. If so, stop placing your Mercenary cards, recruit a Hero card, then resume placing them." """
    e = engine(3)
    one_line_but(e, 0, "explorer")
    give(e, 0, "mercenary:hunter-explorer8", "mercenary:warrior6-miner1", "mercenary:warrior9-explorer11",
         column=None)
    give(e, 1, "mercenary:hunter-miner1", column=None)
    held = {}

    def at(i, d):
        held[i] = [c for c in command(e, 0) if c.startswith("mercenary:")]

    gen = run_steps(e, steps(e, "enlistment", part="age_end"))
    log = run_log(watch(gen, at), "first",
                  "mercenary:hunter-explorer8@command", "explorer",        # completes a line ...
                  "skaa",                                                   # ... a hero at once
                  "mercenary:warrior9-explorer11@command", "warrior", "miner",
                  "hunter")
    assert kinds(log) == [(0, "order"), (0, "card"), (0, "column"), (0, "hero"),
                          (0, "card"), (0, "column"), (0, "column"), (1, "column")]
    assert held[3] == ["mercenary:warrior6-miner1", "mercenary:warrior9-explorer11"]   # still to place
    assert held[7] == []                                    # P2 places once P1 placed all of his
    assert command(e, 0) == ["skaa"]
    assert column(e, 0, "explorer") == ["mercenary:hunter-explorer8"]
    assert column(e, 0, "warrior") == ["warrior:3", "mercenary:warrior9-explorer11"]
    assert column(e, 0, "miner") == ["miner:1", "mercenary:warrior6-miner1"]
    assert column(e, 1, "hunter") == ["mercenary:hunter-miner1"]


def test_end_of_age_1_example_serge_celine_valeriane_leo():
    """002 "Mercenary cards", Example (end of Age 1): "Serge has 2 Mercenary cards, Céline has 1 Mercenary
    card, Valériane has 1 Mercenary card, and Léo has no Mercenary cards. Serge has the choice of placing
    his Mercenary cards first or pass and place them last. He is the only one with this choice. Céline then
    places her two cards to create a rank line and recruit a Hero card. Valériane places her Mercenary card
    in the Hunter column to try to steal the Distinction from Serge. Léo has no Mercenary cards to place.
    Finally, Serge places his Mercenary cards, gains the Miner Distinction and ties with Valériane on the
    Hunter column so that no one earns this Distinction." Céline places "her two cards": she holds two,
    tied with Serge, whose higher gem makes him the leader ("Ties are resolved by the value of the gems"). """
    e = engine(4, gems=(5, 4, 3, 2))
    serge, celine, valeriane, leo = 0, 1, 2, 3
    give(e, serge, "hunter", "hunter", "miner:1")
    give(e, serge, "mercenary:hunter-miner1", "mercenary:blacksmith-miner1", column=None)
    give(e, celine, "hunter", "miner:1", "blacksmith")
    give(e, celine, "mercenary:warrior6-explorer8", "mercenary:warrior9-explorer11", column=None)
    give(e, valeriane, "hunter", "hunter", "warrior:4", "explorer:5")
    give(e, valeriane, "mercenary:hunter-explorer8", column=None)
    give(e, leo, "warrior:3", "miner:2", "blacksmith")
    camp(e, "draupnir", "svalinn")
    log = age_end(e, 1,
                  "last",                                                       # Serge passes
                  "mercenary:warrior6-explorer8@command", "warrior", "explorer",  # Céline: a line
                  "skaa",                                                       # ... and a hero
                  "hunter",                                                     # Valériane
                  "mercenary:hunter-miner1@command", "hunter", "miner")         # Serge, last
    assert kinds(log) == [(serge, "order"),
                          (celine, "card"), (celine, "column"), (celine, "column"), (celine, "hero"),
                          (valeriane, "column"),
                          (serge, "card"), (serge, "column"), (serge, "column")]
    assert command(e, celine) == ["skaa"]
    assert e.ranks(serge, "hunter") == 3 and e.ranks(valeriane, "hunter") == 3
    assert e.ranks(serge, "miner") == 2
    assert "distinction:miner" in command(e, serge) and e.s.players[serge].gem == 6
    assert not any("distinction:hunter" in command(e, p) for p in range(4))   # tied: no one
    assert "distinction:hunter" in [e.s.cards[c] for c in e.s.distinctions]
    assert command(e, leo) == []
    assert e.s.zones["camp"] == [] and zone_ids(e, "camp-discard") == ["draupnir", "svalinn"]


# == The end of each age ===========================================================================

def test_the_end_of_age_order_of_002():
    """002 "End of Each Age": "End of Age 1 - Enlistment of Mercenaries ... - Ylud place. - Troop
    assessments (Distinctions)." "End of Age 2 - Enlistment of Mercenaries ... - Ylud place. - Departure
    from Thrud. - Discard power of Brísingamens. - Final scoring." (and "At the end of Age 1, after the
    Distinctions have been awarded, discard all remaining Camp cards"). """
    rs = THINGVELLIR.ruleset

    def order(age):
        return [s.id for s in rs.age_end if s.ages is None or age in s.ages]

    assert order(1) == ["enlistment", "age-end", "troop-evaluation", "camp-discarded"]
    assert order(2) == ["enlistment", "age-end", "game-end", "final-discards", "counting", "final-scoring"]


def test_end_of_age_1_mercenaries_then_ylud_then_the_distinctions():
    """002 "End of Each Age", End of Age 1: "Enlistment of Mercenaries: the Elvaland who has the most
    chooses to place them first or last. - Ylud place. - Troop assessments (Distinctions)." The
    mercenary's and Ylud's ranks count in the Troop Evaluation. """
    e = engine(2, age=1)
    give(e, 0, "hunter")
    give(e, 1, "hunter", "hunter")
    give(e, 0, "mercenary:hunter-miner1", "ylud", column=None)
    order = []

    def at(i, d):
        order.append((d.kind, e.ranks(0, "hunter"), list(command(e, 0))))

    log = age_end(e, 1, "hunter", "hunter", check=at)
    assert kinds(log) == [(0, "column"), (0, "column")]
    assert order[0] == ("column", 1, ["mercenary:hunter-miner1", "ylud"])   # the mercenary first
    assert order[1] == ("column", 2, ["ylud"])                             # then Ylud
    assert column(e, 0, "hunter") == ["hunter", "mercenary:hunter-miner1", "ylud"]
    assert "distinction:hunter" in command(e, 0)                           # 3 ranks against 2


def test_end_of_age_2_mercenaries_ylud_thrud_brisingamens_then_scoring():
    """002 "End of Each Age", End of Age 2: "Enlistment of Mercenaries ... - Ylud place. - Departure from
    Thrud. - Discard power of Brísingamens. - Final scoring." Interpretation mjollnir-class: Mjöllnir's
    class "is chosen when the points are counted, after Brísingamens' discard". """
    e = engine(2, age=2)
    give(e, 0, "warrior:3", "hunter", "hunter")
    give(e, 0, "thrud", column="miner")
    give(e, 0, "mercenary:warrior6-hunter", "ylud", "brisingamens", "mjollnir", column=None)
    seen = []

    def at(i, d):
        seen.append((d.kind, "thrud" in command(e, 0), "ylud" in command(e, 0),
                     "mercenary:warrior6-hunter" in command(e, 0), e.scores is None))

    log = age_end(e, 2, "hunter", "explorer", "warrior:3@warrior", "hunter", check=at)
    assert kinds(log) == [(0, "column"), (0, "column"), (0, "card"), (0, "class")]
    assert seen[0] == ("column", False, True, True, True)     # the mercenary; Thrud still in the army
    assert seen[1] == ("column", False, True, False, True)    # Ylud
    assert seen[2] == ("card", True, False, False, True)      # Brísingamens' discard: Thrud has left
    assert seen[3] == ("class", True, False, False, True)     # Mjöllnir, after the discard
    assert sorted(shown(log[2])) == ["hunter@hunter", "mercenary:warrior6-hunter@hunter", "warrior:3@warrior"]
    assert column(e, 0, "warrior") == []
    assert e.scores is not None
    b = e.scores["players"][0]["breakdown"]
    assert b["hunter"] == 3 * 3
    assert b["artifacts"] == 2 * 3
    assert b["heroes"] == 13                                 # Thrud from the command zone
    assert b["explorer"] == 11                               # Ylud


def test_holda_recruited_by_a_mercenary_placement_enlists_a_camp_mercenary_at_once():
    """002 "End of Each Age": "If the placement of a Mercenary card results in a recruitment of Hero cards,
    proceed with the recruitment before continuing to place the Mercenary cards. If placing Ylud or a
    Mercenary card causes Holda to recruit and you choose a Mercenary card in Camp, place that Mercenary
    card immediately into your army." """
    e = engine(3, age=1)
    one_line_but(e, 0, "explorer")
    give(e, 0, "mercenary:hunter-explorer8", column=None)
    camp(e, "mercenary:warrior9-explorer11", "draupnir")
    log = enlist(e, "explorer", "holda", "mercenary:warrior9-explorer11@camp", "warrior")
    assert kinds(log) == [(0, "column"), (0, "hero"), (0, "card"), (0, "column")]
    assert shown(log[3]) == ["warrior", "explorer"]
    assert column(e, 0, "warrior") == ["warrior:3", "mercenary:warrior9-explorer11"]
    assert command(e, 0) == ["holda"]
    assert camp_ids(e) == ["draupnir"]


def test_holda_recruited_by_ylud_enlists_a_camp_mercenary_at_once():
    """002 "End of Each Age": "If placing Ylud or a Mercenary card causes Holda to recruit and you choose a
    Mercenary card in Camp, place that Mercenary card immediately into your army." """
    e = engine(3, age=1)
    one_line_but(e, 0, "miner")
    give(e, 0, "ylud", column=None)
    camp(e, "mercenary:hunter-miner1", "svalinn")
    log = run_log(run_steps(e, steps(e, "enlistment", "age-end", part="age_end")),
                  "miner", "holda", "mercenary:hunter-miner1@camp", "hunter")
    assert kinds(log) == [(0, "column"), (0, "hero"), (0, "card"), (0, "column")]
    assert column(e, 0, "miner") == ["ylud"]
    assert column(e, 0, "hunter") == ["hunter", "mercenary:hunter-miner1"]
    assert command(e, 0) == ["holda"]
    assert camp_ids(e) == ["svalinn"]


def test_a_mercenary_holda_takes_during_play_waits_in_the_command_zone():
    """002 "Mercenary cards": "Place them in your Command Zone. At the end of Age 1, before the Distinctions
    are awarded, and at the end of Age 2, before the final scoring, you must put them in your army". """
    e = engine(3, age=1)
    one_line_but(e, 0, "explorer")
    camp(e, "mercenary:hunter-miner1", "svalinn")
    take(e, 0, "explorer:9", "holda", "mercenary:hunter-miner1@camp")
    assert command(e, 0) == ["holda", "mercenary:hunter-miner1"]
    assert e.ranks(0, "hunter") == 1


# == Class = column ================================================================================

def test_a_mercenary_in_the_explorer_column_is_an_explorer_rank_with_its_explorer_points():
    """002 "Class tokens": "If a column contains just one Mercenary card, place a token of the chosen class
    on it to remember it."; DESIGN §9: "While a card stands in an army column it has that column's class";
    "each in one of its two classes, with that class's printed points". Its rank counts for the Pioneer. """
    e = engine(3, age=1)
    give(e, 0, "explorer:5")
    give(e, 0, "mercenary:warrior9-explorer11", column=None)
    give(e, 1, "explorer:6")
    stack(e.s.decks[2], e, "explorer:7", "explorer:8", "explorer:9")
    enlist(e, "explorer")
    merc = e.s.players[0].army["explorer"][-1]
    assert e.card_class(merc) == "explorer"
    assert e.ranks(0, "explorer") == 2 and e.ranks(0, "warrior") == 0
    b = breakdown(e, 0)
    assert b["explorer"] == 5 + 11 and b["warrior"] == 0
    run(run_steps(e, steps(e, "troop-evaluation", part="age_end")), "explorer:7@draw")
    assert "distinction:explorer" in command(e, 0)          # 2 explorer ranks against 1


def test_a_lone_mercenary_column_keeps_its_class():
    """002 "Class tokens": "If a column contains just one Mercenary card, place a token of the chosen class
    on it to remember it. You can remove this token when you have added Dwarf cards of the corresponding
    class in this column." """
    e = engine(3, age=1)
    give(e, 0, "mercenary:blacksmith-miner1", column=None)
    enlist(e, "miner")
    assert column(e, 0, "miner") == ["mercenary:blacksmith-miner1"]
    take(e, 0, "miner:2")
    assert column(e, 0, "miner") == ["mercenary:blacksmith-miner1", "miner:2"]
    assert e.ranks(0, "miner") == 2 and e.ranks(0, "blacksmith") == 0
    assert breakdown(e, 0)["miner"] == (1 + 2) * 2


def test_hunter_and_blacksmith_sides_count_ranks_only():
    """002 "Mercenary cards": "Hunter / Blacksmith", "Warrior 6 / Blacksmith", "Warrior 6 / Hunter" (no
    points printed on those sides); DESIGN §9: no points "in the hunter and blacksmith columns, which
    count ranks". """
    e = engine(3, age=2)
    give(e, 0, "hunter", "blacksmith")
    give(e, 0, "mercenary:warrior6-hunter", "mercenary:warrior6-blacksmith", column=None)
    enlist(e, "mercenary:warrior6-hunter@command", "hunter", "blacksmith")
    b = breakdown(e, 0)
    assert b["hunter"] == 2 * 2
    assert b["blacksmith"] == 2 * (2 + 5) // 2
    assert b["warrior"] == 0
    assert e.points(0, "hunter") == 0 and e.points(0, "blacksmith") == 0


def test_a_mercenary_in_the_warrior_column_counts_for_the_warrior_majority():
    """DESIGN §9: "While a card stands in an army column it has that column's class"; 003: the warrior
    majority adds the highest coin. """
    e = engine(2, age=2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    give(e, 1, "warrior:8")
    give(e, 0, "warrior:3")
    give(e, 0, "mercenary:warrior6-miner1", column=None)
    enlist(e, "warrior")
    assert breakdown(e, 0)["warrior"] == 3 + 6 + 5
    assert breakdown(e, 1)["warrior"] == 8


# == Dwarf cards for Dagda, Bonfur and Brísingamens ================================================

def test_dagda_may_discard_mercenaries_doubles_vegvisir_and_the_special_blacksmith():
    """002 "Olwyn": ""Olwyn's Double" cards ... can be destroyed by the powers of Dagda, Bonfur,
    Brísingamens, and Höfud"; DESIGN §9: "For Dagda's, Bonfur's and Brísingamens' discards every army card
    that is neither a hero nor an animal counts as a dwarf card: dwarves, mercenaries, the doubles,
    Gullinbursti, Vegvisir, the special blacksmith." """
    e = engine(3, age=2)
    give(e, 0, "warrior:3")
    give(e, 0, "mercenary:warrior6-explorer8", column="warrior")
    give(e, 0, "vegvisir", column="explorer")
    give(e, 0, "miner:1")
    give(e, 0, "olwyn-double", column="miner")
    give(e, 0, "special-blacksmith")
    give(e, 0, "hunter")
    log = run_log(e.recruit_hero(0), "dagda", "mercenary:warrior6-explorer8@warrior", "vegvisir@explorer")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "card")]
    assert sorted(shown(log[1])) == ["mercenary:warrior6-explorer8@warrior", "olwyn-double@miner",
                                     "special-blacksmith@blacksmith", "vegvisir@explorer"]
    assert column(e, 0, "warrior") == ["warrior:3"]
    assert column(e, 0, "explorer") == []
    assert column(e, 0, "hunter") == ["hunter", "dagda"]


def test_dagda_can_be_recruited_when_only_a_mercenary_and_a_double_can_be_discarded():
    """002 "Gjallarhorn", Note 2: "it is impossible to recruit Dagda if you cannot discard two Dwarf cards
    from two different columns" — a mercenary and a double are dwarf cards (DESIGN §9). """
    e = engine(3, age=2)
    give(e, 0, "mercenary:warrior6-explorer8", column="warrior")
    give(e, 0, "olwyn-double", column="explorer")
    log = run_log(e.recruit_hero(0), "dagda", "olwyn-double@explorer")
    assert "dagda" in ids(log[0])
    assert column(e, 0, "warrior") == [] and column(e, 0, "explorer") == []


def test_bonfur_may_discard_a_mercenary():
    """DESIGN §9: "For Dagda's, Bonfur's and Brísingamens' discards every army card that is neither a hero
    nor an animal counts as a dwarf card"; 003 "Bonfur": discard a dwarf card of another column. """
    e = engine(3, age=2)
    give(e, 0, "kraal")
    give(e, 0, "mercenary:warrior6-hunter", column="hunter")
    log = run_log(e.recruit_hero(0), "bonfur")
    assert kinds(log) == [(0, "hero")]                       # the one dwarf card: no choice
    assert column(e, 0, "hunter") == []
    assert column(e, 0, "warrior") == ["kraal"]
    assert column(e, 0, "blacksmith") == ["bonfur"]


def test_brisingamens_discard_may_take_mercenaries_doubles_vegvisir_not_heroes():
    """002 "Brísingamens": "discard a Dwarf card of your choice from your army. This card can be taken
    anywhere, in any column, but it cannot be a Hero card."; DESIGN §9 (dwarf cards). """
    e = engine(3, age=2)
    give(e, 0, "brisingamens", column=None)
    give(e, 0, "mercenary:warrior9-explorer11", column="explorer")
    give(e, 0, "vegvisir", column="explorer")
    give(e, 0, "idunn")
    give(e, 0, "olwyn-double", column="hunter")
    give(e, 0, "aral")
    give(e, 0, "special-blacksmith", "aegur")
    log = run_log(run_steps(e, steps(e, "final-discards", part="age_end")), "vegvisir@explorer")
    assert kinds(log) == [(0, "card")]
    assert sorted(shown(log[0])) == ["mercenary:warrior9-explorer11@explorer", "olwyn-double@hunter",
                                     "special-blacksmith@blacksmith", "vegvisir@explorer"]
    assert column(e, 0, "explorer") == ["mercenary:warrior9-explorer11", "idunn"]


# == The `artifacts` part of the score =============================================================

def test_artifacts_score_in_their_own_part_of_the_breakdown():
    """DESIGN §8: "With Thingvellir in play the breakdown also has `artifacts` (Draupnir, Svalinn,
    Megingjord, Hrafnsmerki, Járnglófi, Mjöllnir)"; "`heroes` is what heroes score from the command
    zone". """
    e = engine(3, age=2)
    set_coins(e, 0, hand=[0, 2, 15, 16, 5])
    give(e, 0, "draupnir", "svalinn", "megingjord", "hrafnsmerki", "jarnglofi", "mjollnir", "skaa",
         column=None)
    e.set_mark(e.s.players[0].command[5], "class", "miner")
    give(e, 0, "miner:1", "miner:2")
    give(e, 0, "mercenary:hunter-miner1", column="miner")
    b = breakdown(e, 0)
    assert b["artifacts"] == 6 * 2 + 5 * 1 + 28 + 5 * 1 + 24 + 2 * 3
    assert b["heroes"] == 17
    assert b["miner"] == (1 + 2 + 1) * 3
    assert b["coins"] == 38
    assert player_score(e, 0)["total"] == sum(b.values())
    assert set(b) == {"warrior", "hunter", "miner", "blacksmith", "explorer", "heroes", "artifacts", "coins"}


# == `score` of positions with Thingvellir cards (DESIGN §8) =======================================

def score_json(capsys, tmp_path: Path, text: str) -> dict[str, Any]:
    path = tmp_path / "pos.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["score", str(path), "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


POSITION = """\
expansions: [thingvellir]
players:
  - name: Ana
    gem: 5
    coins: [0, 2, 3, 4, 5]
    army:
      hunter: [hunter, hunter, hunter, olwyn-double]
      miner: [miner:1]
      explorer: [explorer:5, vegvisir, mercenary:warrior9-explorer11]
    command_zone: [olwyn, MJOLLNIR, brisingamens, mercenary:hunter-miner1, hrafnsmerki]
  - name: Bo
    gem: 4
    coins: [0, 2, 3, 4, 5]
"""


def test_score_a_position_with_thingvellir_cards(capsys, tmp_path):
    """DESIGN §8: "`score` gives the Final Bravery Value as if the game ended now: ... steps that need a
    choice are not (... an unenlisted mercenary has no rank; Brísingamens' discard is not made), except
    that Mjöllnir without a class takes the class that scores most." Class values include "mercenaries,
    ... Vegvisir, doubles"; the breakdown "also has `artifacts`". """
    result = score_json(capsys, tmp_path, POSITION.replace("MJOLLNIR", "mjollnir"))
    ana = result["players"][0]
    b = ana["breakdown"]
    assert b["hunter"] == 4 * 4                             # the double is a hunter rank
    assert b["miner"] == 1 * 1                              # the unenlisted mercenary has no rank
    assert b["explorer"] == 5 + 13 + 11                     # Vegvisir and the mercenary's explorer side
    assert b["heroes"] == 9
    assert b["artifacts"] == 2 * 4 + 5 * 2                  # Mjöllnir takes hunters; 2 mercenaries owned
    assert b["coins"] == 14
    assert ana["total"] == 16 + 1 + 29 + 9 + 18 + 14        # no card discarded by Brísingamens
    assert result["winners"] == ["Ana"]


def test_score_mjollnir_with_a_chosen_class(capsys, tmp_path):
    """DESIGN §8 position format: "{card: mjollnir, class: hunter}  # class chosen for the end of the
    game"; 002 "Mjöllnir": "2 points per rank in the class of your choice". """
    result = score_json(capsys, tmp_path, POSITION.replace("MJOLLNIR", "{card: mjollnir, class: explorer}"))
    assert result["players"][0]["breakdown"]["artifacts"] == 2 * 3 + 5 * 2


def test_score_mjollnir_without_a_class_takes_the_class_scoring_most(capsys, tmp_path):
    """DESIGN §8: "Mjöllnir without a class takes the class that scores most." """
    text = """\
expansions: [thingvellir]
players:
  - name: Ana
    gem: 5
    coins: [0, 2, 3, 4, 5]
    army:
      warrior: [warrior:3, warrior:4]
      blacksmith: [blacksmith, blacksmith, blacksmith, mercenary:hunter-blacksmith]
      explorer: [explorer:5, explorer:6, explorer:7]
    command_zone: [mjollnir]
  - name: Bo
    gem: 4
    coins: [0, 2, 3, 4, 5]
"""
    b = score_json(capsys, tmp_path, text)["players"][0]["breakdown"]
    assert b["artifacts"] == 2 * 4                          # blacksmiths: 4 ranks, the mercenary's included
    assert b["blacksmith"] == 4 * 9 // 2


def test_score_refuses_a_mercenary_in_a_column_it_cannot_stand_in(capsys, tmp_path):
    """002 "Mercenary cards": "you choose the class of the card from the two listed on it"; DESIGN §8: "A
    position that breaks the rules data ... is refused with a located error". """
    path = tmp_path / "pos.yaml"
    path.write_text("expansions: [thingvellir]\nplayers:\n  - name: Ana\n    coins: [0]\n    army:\n"
                    "      explorer: [mercenary:hunter-miner1]\n  - name: Bo\n    coins: [0]\n", encoding="utf-8")
    code = main(["score", str(path)])
    err = capsys.readouterr().err
    assert code == 1
    assert "pos.yaml:6:" in err and "mercenary:hunter-miner1" in err
